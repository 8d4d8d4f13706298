"""The day's question as the one open prompt (engine.prompts): ``open_prompt(state)`` builds it from
``Session.ask``.  Several players may answer one prompt (``Prompt.owners``: a town visit, the rest, a social
check's dice); each answers for their own adventurer.  Its id names the session's ask (``d<serial>-<kind>``),
so an answer to an older question is refused; its deadline runs ``day.timeout``, which applies the default.
"""
from __future__ import annotations

from engine.hexes import Hex, reachable
from engine.prompts import Option, Prompt
from rulesets.tes.day_state import Session

#: ask kind -> (the action an answer runs, what the default does, in words)
ACTIONS = {
    "route": ("day.route", "the party stays where it is"),
    "vote": ("day.vote", "the route stands and the party sets out"),
    "card": ("day.choose", "the first open choice is taken"),
    "chosen": ("day.pick", "the party leader's adventurer is chosen"),
    "either": ("day.pick", "each adventurer takes the first option"),
    "check-dice": ("day.check", "nobody else rolls"),
    "check-tenacity": ("day.check", "nobody else spends tenacity"),
    "town-effect": ("day.pick", "the first choice is taken"),
    "town": ("town.visit", "the town actions left are not used"),
    "reward": ("reward.done", "the XP left is kept (above 3 it becomes tenacity)"),
    "rest": ("day.rest", "each adventurer left rests removing their leftmost dice (on Expert without an item, "
                         "they do not rest)"),
    # the campaign's questions (rulesets.tes.quest, rulesets.tes.session)
    "guild": ("quest.guild", "the first guild card drawn is chosen"),
    "next-quest": ("quest.next", "the first guild quest offered is chosen"),
    "side-quest": ("quest.accept", "neither side quest is accepted (both are discarded)"),
    "side-discard": ("quest.discard", "the new side quest is discarded"),
}
MAX_OPTIONS = 25


def prompt_id(s: Session) -> str | None:
    return f"d{s.serial}-{s.ask.kind}" if s.ask is not None else None


def open_prompt(state, pack=None) -> Prompt | None:
    s = state.days if state is not None else None
    if s is None or s.ask is None or state.battle is not None:
        return None
    ask = s.ask
    owners = tuple(o for o in ask.owners if o in state.adventurers or o == state.leader)
    if not owners:
        owners = (state.leader,)
    action, default_words = ACTIONS.get(ask.kind, ("day.timeout", ""))
    options: tuple[Option, ...] = ()
    pick = 0
    default = "default"
    if pack is None:
        from rulesets.tes.content import load_pack

        pack = load_pack(state.pack, version=state.pack_version)
    if ask.kind == "route":
        options = route_options(state, pack)
        pick = 1 if options else 0
        default = "stay"
    elif ask.kind == "card":
        card = pack.overland_cards.get(str(ask.data.get("card")))
        if card is None and getattr(pack, "campaign", None) is not None:
            card = pack.campaign.cards.get(str(ask.data.get("card")))
        if card is not None:
            options = tuple(Option(str(ch.number), f"{ch.number}. {ch.title}"[:100], f"{ch.outcome}, {ch.xp} XP")
                            for ch in card.choices)
            pick = 1
            default = "1"
    elif ask.kind in ("either", "town-effect"):
        options = tuple(Option(str(i), f"{i}. {t}"[:100]) for i, t in enumerate(ask.data.get("options") or [], 1))
        pick, default = 1, "1"
    elif ask.kind in ("guild", "next-quest", "side-quest", "side-discard"):
        options = tuple(Option(str(i), f"{i}. {t}"[:100]) for i, t in enumerate(ask.data.get("options") or [], 1))
        pick, default = 1, str(ask.data.get("default") or "1")
    elif ask.kind == "chosen":
        options = tuple(Option(o, a.name) for o, a in state.adventurers.items() if o in state.members)
        pick, default = 1, state.leader
    elif ask.kind == "check-tenacity":
        most = max((state.adventurers[o].tenacity for o in owners if o in state.adventurers), default=0)
        options = tuple(Option(str(n), f"Spend {n} tenacity") for n in range(0, most + 1))
        pick, default = 1, "0"
    return Prompt(id=prompt_id(s), kind=f"day-{ask.kind}", owner=owners[0], action=action,
                  options=options[:MAX_OPTIONS], default=default, pick=pick, deadline=ask.deadline,
                  timeout_action="day.timeout", owners=owners if len(owners) > 1 or ask.kind in MULTI else (),
                  data={"ask": ask.kind, "default_words": default_words, **_plain(ask.data)})


#: the questions several players answer, each for themselves
MULTI = ("either", "check-dice", "check-tenacity", "town", "reward", "rest", "vote")


def route_options(state, pack) -> tuple[Option, ...]:
    """Towns and landmarks the party can reach today (nearest first), for the route menu."""
    s = state.days
    prov = pack.provinces.get(s.province)
    if prov is None:
        return ()
    step = prov.effect.step(s.gauge) if s.gauge else None
    base = step.movement if step is not None else prov.movement
    free, extra = base + s.move_today, base
    shut = {prov.hex_of_town(t) for t in s.closed}
    ground = frozenset(Hex(*h) for h in prov.hexes if h not in shut)
    start = Hex(*s.party)
    reach = reachable(start, free + extra, ground)
    out = []
    for h, d in sorted(reach.items(), key=lambda kv: (kv[1], kv[0].q, kv[0].r)):
        f = prov.features.get((h.q, h.r))
        if f is None or h == start:
            continue
        name = prov.towns[f[1]].name if f[0] == "town" else (f[1] or f"{f[0]} landmark")
        tired = max(0, d - free)
        detail = f"{d} {'hex' if d == 1 else 'hexes'}" + (f", {tired} with fatigue" if tired else "")
        out.append(Option(f"{h.q},{h.r}", f"{name} ({h.q},{h.r})"[:100], detail))
    return tuple(out[:MAX_OPTIONS])


def _plain(d: dict) -> dict:
    return {str(k): v for k, v in d.items()}
