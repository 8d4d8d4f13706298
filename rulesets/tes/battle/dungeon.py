"""Dungeon battles (rulebook pp.80-85): a fixed multi-tile map from the pack, set up by its diagram.

The dungeon's diagram (content ``dungeons/<id>.toml``) marks the map instead of the icons printed on its tiles:
numbered hexes, lettered hexes, star hexes, cache hexes and red (impassable) hexes (``model.map_info`` builds
the map from it when ``Battle.dungeon`` is set).  Setup, step 3 (p.82):

1. the encounter's named units go to the lettered hexes (A, B, ...), free of the enemy pool; those the encounter
   lists as ``caged`` are deployed without HP chips (below);
2. an enemy pool fills the numbered hexes from 1, highest level first; with ``fill`` the party then draws level 1
   enemies without pool cost until that many numbered hexes are occupied;
3. with ``star_pool`` a second pool of the same size fills the star hexes, one enemy in each area (the tile a star
   hex is on: a cell) before a second in any; in a dungeon with cages these are deployed without HP chips;
4. after the adventurers, the encounter's ``allies`` (enemy chips fighting for the party) deploy as companions.

Chips come out of their bags once: a dungeon never draws a chip twice (``pool.draw`` with the chips already out).

A caged unit (side "captive", rulesets.tes.battle.model.CAPTIVE) has no HP chips: it takes no turn, nobody may
target it, and it fills its hex.  An adventurer next to it may, once per turn, pick its cage's lock (the
dungeon's code): on success it gets its HP chips and fights for the party as that adventurer's companion.
"""
from __future__ import annotations

from engine.core import RuleError, strong
from engine.hexes import distance
from engine.text import count
from rulesets.tes.battle import checks, lockpick, pool
from rulesets.tes.battle.companion import controller_name, deploy
from rulesets.tes.battle.model import CAPTIVE, Ctx, adv_uid, find_unit, pos, short_label
from rulesets.tes.battle_state import LockpickCheck, Unit


def _add(c: Ctx, eid: str, h, where: str, *, caged: bool = False) -> Unit:
    b = c.b
    e = c.pack.enemies[eid]
    no = 1 + sum(1 for x in b.units.values() if x.id.startswith("e"))
    uid = f"e{no}"
    u = Unit(id=uid, side=CAPTIVE if caged else "enemy", name=e.name, short=f"{short_label(e.name)}{no}",
             enemy=eid, level=e.level, q=h.q, r=h.r, hp=0 if caged else e.health, max_hp=e.health,
             quest=e.quest_unit, slot=int(where) if where.isdigit() else 100 + no)
    b.units[uid] = u
    return u


def _words(c: Ctx, u: Unit, where: str) -> str:
    lvl = "a quest unit" if u.quest else f"level {u.level}"
    cage = ", caged: no HP chips" if u.side == CAPTIVE else ""
    if where == "star":
        return f"{u.name} ({lvl}) in star hex {u.q},{u.r}{cage}"
    return f"{u.name} ({lvl}) in hex {where} ({u.q},{u.r}){cage}"


def setup(c: Ctx, enc, ep: int | None, session_table: int | None) -> None:
    """Place the dungeon's units (step 3 of battle setup, p.82)."""
    pack, b = c.pack, c.b
    dungeon = pack.dungeons[enc.dungeon]
    m = c.map
    n_adv = len(b.order)
    xp = enc.xp_dial if enc.xp_dial is not None else c.state.xp_dial
    if ep is None:
        ep = pool.session_pool(session_table, c.state.difficulty, n_adv) if session_table else \
            pool.enemy_pool(xp, n_adv)
    # 1. the named units in the lettered hexes
    lines: list[str] = []
    letters = sorted(m.labels.items())
    for eid in enc.named_enemies:
        if not letters:
            raise RuleError(f"{dungeon.name}'s diagram has no lettered hex left for {pack.enemies[eid].name}.")
        label, h = letters.pop(0)
        u = _add(c, eid, h, label, caged=eid in enc.caged)
        lines.append(_words(c, u, label))
    if lines:
        c.say("setup", "Named units, free of the enemy pool: " + "; ".join(lines) + ".")
    # 2. the numbered hexes: the pool, then free level 1 draws up to ``fill``; the chips of the enemies that
    # fight for the party are out of the bags already
    allied = {pack.enemies[x].chip for x in enc.allies}

    def taken() -> set[str]:
        return pool.chips_out(pack, b) | allied

    numbered = sorted(m.slots.items())
    levels = pool.plan_levels(ep, len(numbered))
    prov = dungeon.province
    drawn = pool.draw(pack, levels, c.dice, required=enc.required_enemies, taken=taken(), province=prov)
    placed = []
    for eid, (n, h) in zip(drawn, numbered):
        placed.append(_words(c, _add(c, eid, h, str(n)), str(n)))
    spent = sum(pack.enemies[e].level for e in drawn)
    free = []
    if enc.fill:
        for n, h in numbered[len(drawn):enc.fill]:
            got = pool.draw(pack, [1], c.dice, taken=taken(), province=prov)
            if not got:
                break
            free.append(_words(c, _add(c, got[0], h, str(n)), str(n)))
    text = f"Enemy pool {ep} for the numbered hexes ({spent} spent): " + ("; ".join(placed) or "nobody")
    if free:
        text += f". Free level 1 draws until {enc.fill} numbered hexes are filled: " + "; ".join(free)
    c.say("setup", text + ".")
    # 3. the star hexes: a second pool, one per area before a second
    if enc.star_pool and m.stars:
        order = [p.tile for p in dungeon.tiles]
        areas: dict[str, list] = {}
        for h in sorted(m.stars, key=lambda h: (h.r, h.q)):
            areas.setdefault(m.tile_of[h], []).append(h)
        rounds = []
        area_ids = sorted(areas, key=lambda t: order.index(t) if t in order else 99)
        while any(areas[a] for a in area_ids):
            for a in area_ids:
                if areas[a]:
                    rounds.append(areas[a].pop(0))
        levels = pool.plan_levels(ep, len(rounds))
        drawn = pool.draw(pack, levels, c.dice, taken=taken(), province=prov)
        stars = []
        for eid, h in zip(drawn, rounds):
            u = _add(c, eid, h, "*", caged=dungeon.caged)
            stars.append(f"{_words(c, u, 'star')} ({pack.tiles[m.tile_of[h]].name})")
        c.say("setup", f"A second enemy pool of {ep} for the star hexes, one per area before a second: "
                       + ("; ".join(stars) or "nobody") + ".")


def allies(c: Ctx, enc) -> None:
    """Step 5: enemy chips that fight for the party deploy after the adventurers, as companions the party controls."""
    b = c.b
    for eid in enc.allies:
        e = c.pack.enemies[eid]
        n = 1 + sum(1 for u in b.units.values() if u.side == "companion" or u.id.startswith("c"))
        uid = f"c{n}"
        u = Unit(id=uid, side="companion", name=e.name, short=f"{short_label(e.name)}{n}", enemy=eid, level=e.level,
                 controller=c.state.leader, party=True, hp=e.health, max_hp=e.health)
        b.units[uid] = u
        where = deploy(c, u)
        c.say("companion", f"🐾 {e.name} (level {e.level}) fights for the party, controlled by the party "
                           f"({controller_name(c, c.state.leader)}, the leader, decides for it)"
                           + (f", in hex {where}." if where else "; the entrance is full, so it waits beside it."),
              unit=uid, enemy=eid)


# ------------------------------------------------------------------ cages --
def free(c: Ctx, owner: str, target) -> None:
    """Pick the lock of a caged unit's cage (``/battle free``): once per turn, next to it, on your own turn."""
    b = c.b
    turn = checks.my_turn(c, owner)
    checks.no_pending(c)
    dungeon = c.pack.dungeons.get(b.dungeon or "")
    if dungeon is None or not dungeon.caged:
        raise RuleError("There are no cages in this battle: `/battle free` opens a cage in a dungeon that has "
                        "them, from a hex next to it.")
    if turn.more.get("freed"):
        raise RuleError("You already tried a cage's lock this turn (once per turn).")
    cages = [u for u in c.units(CAPTIVE)]
    if not cages:
        raise RuleError("Nobody is caged any more: every cage is open. Carry on with `/move` or `/engage`.")
    me = c.unit(adv_uid(owner))
    if target in (None, ""):
        near = [u for u in cages if distance(pos(u), pos(me)) == 1]
        if len(near) != 1:
            where = ", ".join(f"{u.name} ({u.q},{u.r})" for u in cages)
            raise RuleError(f"Name the caged unit next to you with `unit:`. Caged: {where}.")
        u = near[0]
    else:
        u = find_unit(c, target, side=CAPTIVE)
    if distance(pos(u), pos(me)) != 1:
        raise RuleError(f"{u.name}'s cage is in hex {u.q},{u.r}; move next to it first.")
    turn.more["freed"] = True
    turn.acted = True
    code, keys, attempts = dungeon.lock
    lp = LockpickCheck(owner=owner, hex=[u.q, u.r], kind="cage", ref=u.id, deck="", item="", code=list(code),
                       keys=list(keys), attempts=attempts)
    lockpick.begin(c, lp, f"{c.adv(owner).name} picks the lock of {u.name}'s cage.")


def cage_ended(c: Ctx, lp: LockpickCheck, success: bool) -> None:
    u = c.b.units.get(lp.ref)
    adv = c.adv(lp.owner)
    if u is None or u.side != CAPTIVE:
        return
    if not success:
        c.say("lockpick-end", f"🔒 The cage holds: {u.name} stays caged.", unit=u.id, success=False)
        return
    u.side = "companion"
    u.hp = u.max_hp
    u.controller = lp.owner
    u.party = False
    c.say("lockpick-end", f"🔓 {adv.name} opens the cage: {strong(u.name)} takes its {count(u.hp, 'HP chip')} and fights "
                          f"for the party as {adv.name}'s companion.", unit=u.id, success=True)


lockpick.ENDINGS["cage"] = cage_ended

__all__ = ["setup", "allies", "free", "cage_ended"]
