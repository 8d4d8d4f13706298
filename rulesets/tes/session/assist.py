"""The guild assist (p.51): once a campaign, in sessions 1 or 2 (never in the endgame), at the end of a battle
round or in the End of Day's Adventurers Rest step.

Each adventurer, defeated ones too, heals to full HP, removes every light fatigue, overfatigue and status die
from the cooldown track and recovers exhausted and drained skill dice (the bot recovers all of them: nothing
in the rules makes keeping one worth it), then draws 1 common and 1 legendary item (inventory limits apply).
In battle the party may set the Round Counter (``round``: the number of the next round) and revived adventurers
are deployed to any unoccupied hexes the leader names (``deploy``, in turn order; otherwise, or when a named hex
is taken by then, the free entrance hexes first); at the End of Day the party token may move up
to 6 hexes at once (``path``), with no fatigue and nothing triggered.  The session's major keyword becomes
"Guild Assist": its guild quest's keyword is not gained.

In battle the leader calls it at any moment and it is resolved at the end of the current round; when the whole
party falls, the battle asks the leader before it ends (``ROUND_END``, a prompt with a deadline; the default is
to let the battle end).
"""
from __future__ import annotations

from engine.text import count
from engine.core import RuleError, strong
from engine.hexes import Hex, path_is_legal
from rulesets.tes.battle import flow as battle_flow
from rulesets.tes.battle import objectives
from rulesets.tes.battle.items import gain
from rulesets.tes.battle.model import adv_uid
from rulesets.tes.outcomes.asks import day_hours
from rulesets.tes.outcomes.context import DayCtx
from rulesets.tes.outcomes.effects import top_item
from rulesets.tes.overland.geo import enterable, here
from rulesets.tes.quest.common import journal_of, quests_on
from rulesets.tes.quest_state import GUILD_ASSIST

MOVE = 6


def why_not(c: DayCtx) -> str | None:
    """Why the party cannot call its guild assist now (None: it can)."""
    state = c.state
    if not quests_on(state, c.pack) or state.journal is None or state.quests is None or state.days is None:
        return ("The guild assist belongs to a campaign's guild quest: none is under way. The party leader starts a "
                "session with its quest with `/day start`.")
    j = state.journal
    if j.assist:
        return f"The party already used its guild assist, in session {j.assist}: once a campaign."
    if state.quests.endgame:
        return "The guild assist cannot be called in the endgame (session 3)."
    if state.session not in (1, 2):
        return "The guild assist can be called only in sessions 1 and 2."
    return None


def moment(c: DayCtx) -> str:
    """"battle", "rest" or "" (not a moment for it)."""
    if c.state.battle is not None:
        return "battle"
    s = c.state.days
    if s is not None and s.phase == "end-of-day" and s.step == "rest" and s.ask is not None and s.ask.kind == "rest":
        return "rest"
    return ""


def call(c: DayCtx, rnd: int | None = None, path: list | None = None, deploy: list | None = None) -> None:
    """The leader calls the guild assist: now in the rest, or at the end of this round in battle."""
    why = why_not(c)
    if why:
        raise RuleError(why)
    when = moment(c)
    if not when:
        raise RuleError("The guild assist is called during a battle (it comes at the end of the round) or in the "
                        "End of Day's Adventurers Rest step.")
    run = c.state.quests
    if when == "battle":
        if path:
            raise RuleError("The 6-hex move is the End of Day's assist; in battle, `round:` sets the Round Counter.")
        if rnd is not None and not 1 <= int(rnd) <= 20:
            raise RuleError("`round:` is the number of the next round, from 1 to 20.")
        hexes = _check_deploy(c, deploy or [], now=run.assist == "asked")
        if run.assist == "asked":
            run.assist, run.assist_deadline = "", None
            _resolve_battle(c, rnd, hexes)
            c.b.step = "round-end"
            battle_flow.proceed(c)
            return
        if run.assist == "armed":
            raise RuleError("The guild assist is already called: it comes at the end of this round.")
        run.assist = "armed"
        run.assist_round = int(rnd) if rnd else 0
        run.assist_deploy = [[h.q, h.r] for h in hexes]
        c.say("assist", f"📯 {{@leader}} calls the party's guild assist: it comes at the end of round {c.b.round}.",
              leader=c.state.leader)
        return
    if rnd is not None or deploy:
        raise RuleError(f"`{'round' if rnd is not None else 'deploy'}:` belongs to a battle; at the End of Day the "
                        "assist may move the party (`path:`).")
    moves = _check_path(c, path or [])
    _heal_all(c, "End of Day")
    if moves:
        start = here(c.s)
        c.s.party = [moves[-1].q, moves[-1].r]
        c.say("assist", f"🧭 The guild's guides lead the party {len(moves)} {'hex' if len(moves) == 1 else 'hexes'}: "
                        + " → ".join(str(h) for h in [start] + moves) + " (no fatigue, nothing triggered).",
              path=[[h.q, h.r] for h in [start] + moves])
    _record(c)


def _check_deploy(c: DayCtx, raw: list, *, now: bool) -> list[Hex]:
    """The hexes named for the adventurers the assist revives, in turn order: on the battle map, passable, apart,
    and (``now``: the party is down and the assist resolves at once) unoccupied."""
    hexes = [Hex(int(p[0]), int(p[1])) for p in raw]
    if len(set(hexes)) != len(hexes):
        raise RuleError("Name a different hex for each adventurer the assist revives.")
    taken = c.occupied()
    for h in hexes:
        if h not in c.map.passable:
            raise RuleError(f"Hex {h} is not a hex of the battle map an adventurer can stand on.")
        if now and h in taken:
            raise RuleError(f"Hex {h} is taken: the assist deploys revived adventurers to unoccupied hexes.")
    return hexes


def _check_path(c: DayCtx, raw: list) -> list[Hex]:
    path = [Hex(int(p[0]), int(p[1])) for p in raw]
    if not path:
        return []
    ok, why = path_is_legal(here(c.s), path, enterable(c.province, c.s), max_steps=MOVE)
    if not ok:
        if "allowed" in why:
            why = f"The guild assist moves the party at most {count(MOVE, 'hex')}; that route is {len(path)}."
        raise RuleError(why)
    return path


def _heal_all(c: DayCtx, when: str) -> None:
    c.say("assist", f"📯 The guild answers ({when}): every adventurer heals to full, sheds fatigue and status, "
                    "recovers every skill die, and draws 1 common and 1 legendary item.")
    for o in c.party():
        adv = c.adv(o)
        was = adv.hp
        adv.hp = adv.max_hp
        cleared = sum(1 for e in adv.cooldown if "fatigue" in e or "status" in e)
        recovered = sum(1 for e in adv.cooldown if "die" in e) + len(adv.drained)
        adv.cooldown, adv.drained = [], []
        revived = " and is revived" if was <= 0 else ""
        c.say("assist", f"{adv.name} heals to {adv.hp}/{adv.max_hp} HP{revived}, discards "
                        f"{count(cleared, 'fatigue or status die', 'fatigue and status dice')} and recovers "
                        f"{count(recovered, 'skill die', 'skill dice')}.", player=o)
        for rarity in ("common", "legendary"):
            card = top_item(c, rarity)
            if card is None:
                c.say("assist", f"The item deck ({rarity}) is empty.")
                continue
            c.say("item", f"{adv.name} draws {c.pack.items[card].name} ({rarity}).", player=o, item=card)
            gain(c, o, card)


def _resolve_battle(c: DayCtx, rnd: int | None, named: list[Hex] | None = None) -> None:
    b = c.b
    down = [o for o in b.order if c.unit(adv_uid(o)).defeated and not c.unit(adv_uid(o)).escaped]
    _heal_all(c, f"end of round {b.round}")
    taken = set(c.occupied())
    named = list(named or [])
    free = [h for h in sorted(c.map.entrance, key=lambda h: (h.q, h.r)) if h not in taken]
    free += [h for h in sorted(c.map.passable, key=lambda h: (h.q, h.r)) if h not in taken and h not in free]
    for o in down:
        u = c.unit(adv_uid(o))
        want = named.pop(0) if named else None
        if want is not None and want in taken:
            c.say("assist", f"Hex {want}, named for {c.adv(o).name}, is taken by now: the first free hex instead.",
                  unit=u.id)
            want = None
        free = [h for h in free if h not in taken]
        if want is None and not free:
            c.say("assist", f"No hex is free to deploy {c.adv(o).name}.", unit=u.id)
            continue
        h = want if want is not None else free.pop(0)
        taken.add(h)
        u.defeated, u.fell_at = False, None
        u.q, u.r = h.q, h.r
        c.say("assist", f"{c.adv(o).name} is revived and deployed at {h}.", unit=u.id)
    if rnd:
        b.round = int(rnd) - 1
        b.fatigue_round = False
        c.say("assist", f"The party sets the Round Counter: the next round is round {int(rnd)}.")
    _record(c)


def _record(c: DayCtx) -> None:
    j = journal_of(c)
    j.assist = c.state.session
    if j.current is not None:
        j.current.major = GUILD_ASSIST
    c.say("assist", f"The journal records {strong(GUILD_ASSIST)} as session {c.state.session}'s major keyword: the "
                    "guild quest's keyword is not gained this session.")


def round_end(c) -> bool:
    """The battle's end-of-round hook: an assist called this round resolves; a fallen party is asked first.

    False while the battle waits for the leader's answer."""
    state = c.state
    run = state.quests
    if run is None or state.days is None:
        return True
    dc = DayCtx(state, c.pack, c.dice, c.events, now=c.now)
    if run.assist == "armed":
        run.assist = ""
        rnd = run.assist_round or None
        named = [Hex(q, r) for q, r in run.assist_deploy]
        run.assist_round, run.assist_deploy = 0, []
        _resolve_battle(dc, rnd, named)
        return True
    if run.assist == "declined" or run.assist == "asked":
        return run.assist == "declined"
    if objectives.party_defeated(dc) and why_not(dc) is None:
        run.assist = "asked"
        run.serial += 1
        hours = day_hours(state)
        run.assist_deadline = dc.now + hours * 3600 if hours > 0 and dc.now else None
        dc.say("assist-ask", "💀 The whole party is down: the battle ends after this round unless {@leader} calls "
                             "the guild assist now (`/quest assist`, once a campaign).", leader=state.leader)
        return False
    return True


def decline(c) -> None:
    """The leader lets the battle end (or the question timed out)."""
    run = c.state.quests
    run.assist, run.assist_deadline = "declined", None
    c.say("assist", "The guild assist is not called: the battle ends.")
    c.b.step = "round-end"
    battle_flow.proceed(c)
    if c.state.quests is not None and c.state.quests.assist == "declined":
        c.state.quests.assist = ""


battle_flow.ROUND_END.append(round_end)
