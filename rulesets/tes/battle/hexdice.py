"""Status-code (S) skill dice placed in a hex (rulebook page 60: an S die "is placed in a unique manner (for
example, on an enemy or in a hex)"; when it is removed from there it is exhausted).

* ``Battle.hex_dice`` lists them (:class:`~rulesets.tes.battle_state.HexDie`): the hex, whose die, the number
  it was placed with and the damage it deals.  The owner's ``Adventurer.placed`` lists the die meanwhile, so it
  is not available (as an S die on a unit's chip, rulesets.tes.battle.status).
* Placing: the ``hex-die`` effect of an S icon places the die being resolved in an unoccupied, passable hex
  without another die, in range (of the engage's battle form) and in sight.  ``/resolve at:`` names the hex
  (one per such die, in resolve order); without one the die goes to the default hex: the legal hex closest to
  the engage's target (to you, with no target), ties by lowest q then r.  With no legal hex the die is not
  placed and is exhausted as usual.  A named hex that is not legal refuses the whole resolve.
* Going off: when a unit opposed to the die's owner moves into the hex (every step of a move: enemies and
  companions in ``enemy.walk``, adventurers with ``/move``) or starts its turn there, that unit is dealt the
  damage, then the die is exhausted to its owner's cooldown track.  "Opposed" counts blindness either way
  (a blind owner's die goes off for anyone; a blind unit sets off anyone's).  A unit placed in the hex
  (deployed) does not set it off (rulebook page 89: a placed unit has not moved).
* The die is also exhausted to its owner's track, without going off, when its owner is defeated and when the
  battle ends (``status.clear_hex_dice``).
"""
from __future__ import annotations

from engine.core import RuleError
from engine.effects import Field, Primitive, amount, boolean
from engine.hexes import Hex
from engine.text import count
from rulesets.tes.battle import harm, track
from rulesets.tes.battle import status as status_rules
from rulesets.tes.battle.effects import Use, amount_of, amount_words, register
from rulesets.tes.battle.model import Ctx, adv_uid, on_map, pos
from rulesets.tes.battle_state import HexDie, Unit
from rulesets.tes.content import BATTLE_FORM_NAMES

FAR = 10_000


# ------------------------------------------------------------------ where --
def at(c: Ctx, h: Hex) -> HexDie | None:
    """The die in hex ``h``, if any."""
    for d in c.b.hex_dice:
        if d.hex == [h.q, h.r]:
            return d
    return None


def _whose(c: Ctx, owner: str) -> str:
    adv = c.state.adventurers.get(owner)
    return f"{adv.name}'s " if adv else ""


def reach(c: Ctx, owner: str, form: str | None) -> tuple[int, int] | None:
    """How far (nearest, farthest) a die may be placed in this battle form: its engage range."""
    adv = c.adv(owner)
    if form == "magic":
        return 1, adv.stat("magicka")
    if form == "ranged":
        return 2, adv.stat("stamina")
    if form in ("light", "heavy"):
        return 1, 1
    return None  # defensive form has no range


def problem(c: Ctx, me: Unit, form: str | None, h: Hex) -> str | None:
    """Why the acting adventurer cannot place a die in ``h`` now (None: it can)."""
    m = c.map
    if h not in m.tile_of:
        return f"Hex {h} is off the map."
    if h in m.impassable:
        return f"Hex {h} is impassable."
    occ = c.occupant(h)
    if occ is not None:
        return f"Hex {h} is occupied by {occ.name}; a die goes in an unoccupied hex."
    there = at(c, h)
    if there is not None:
        return f"Hex {h} already holds {_whose(c, there.owner)}{there.label}."
    here = pos(me)
    if not c.sight(here, h):
        return f"Hex {h} is out of sight (sight reaches your tile and the tiles next to it)."
    rng = reach(c, me.owner, form)
    if rng is None:
        return "Defensive form has no range, so the die cannot be placed in a hex."
    d = c.range_to(here, h)
    if d is None or not rng[0] <= d <= rng[1]:
        far = f"is {count(d, 'hex')} away" if d is not None else "cannot be reached from you"
        span = "only adjacent hexes" if rng == (1, 1) else f"hexes {rng[0]} to {rng[1]} away"
        return f"Hex {h} {far}; in {BATTLE_FORM_NAMES.get(form or '', form)} form you reach {span}."
    return None


def _aimed(c: Ctx, target: str | None) -> Unit | None:
    """The engage's target, if it is still on the map."""
    t = c.b.units.get(target) if target else None
    return t if t is not None and on_map(t) else None


def choices(c: Ctx, me: Unit, form: str | None, target: str | None) -> list[Hex]:
    """Every hex the die may go to, best first: closest to the target (to you without one), then by q, r."""
    t = _aimed(c, target)
    to = pos(t if t is not None else me)

    def key(h: Hex) -> tuple[int, int, int]:
        d = c.range_to(h, to)
        return (FAR if d is None else d, h.q, h.r)

    return sorted((h for h in c.map.passable if problem(c, me, form, h) is None), key=key)


def _listed(hexes: list[Hex], n: int = 8) -> str:
    more = f" and {len(hexes) - n} more" if len(hexes) > n else ""
    return " ".join(str(h) for h in hexes[:n]) + more


# ---------------------------------------------------------------- placing --
@register
class PlaceInHex(Primitive):
    type = "hex-die"
    summary = ("place the status-code (S) die being resolved in a hex in range and sight; a unit opposed to you "
               "that moves into it or starts its turn there is dealt damage, then the die is exhausted")
    fields = {"amount": Field(amount, default=1), "true": Field(boolean, default=False)}

    def apply(self, use: Use, eff: dict) -> int:
        c = use.c
        die = use.status_die
        if c.state.battle is None or die is None or use.status_die_placed:
            c.say("note", f"{use.label}: there is no skill die to place in a hex here, so nothing happens.")
            return 0
        owner, die_id = die
        me = use.source
        adv = c.adv(owner)
        name = track.die_label(c.pack, adv, die_id)
        if use.hexes:
            h = Hex(*use.hexes.pop(0))
            why = problem(c, me, use.form, h)
            if why:
                legal = choices(c, me, use.form, use.target)
                fix = (f"Hexes {name} can go to: {_listed(legal)}." if legal else
                       f"No hex is free for it now: leave `at:` out and {name} is exhausted.")
                raise RuleError(f"{name} cannot be placed there. {why} {fix}")
            how = ""
        else:
            legal = choices(c, me, use.form, use.target)
            if not legal:
                c.say("hex-die", f"{use.label}: no unoccupied hex in range and sight is free for {name}, so it is "
                                 "not placed (it is exhausted).", unit=me.id)
                return 0
            h = legal[0]
            near = "the target" if _aimed(c, use.target) is not None else "you"
            how = f", the free hex closest to {near} (`/resolve at:` names another)"
        n = amount_of(use, eff)
        c.b.hex_dice.append(HexDie(hex=[h.q, h.r], owner=owner, die=die_id, value=int(use.value or 0), label=name,
                                   damage=n, true=bool(eff.get("true"))))
        if die_id not in adv.placed:
            adv.placed.append(die_id)
        use.status_die_placed = True
        kind = "true damage" if eff.get("true") else "damage"
        c.say("hex-die", f"{use.label}: {adv.name} places {name} ({use.value}) in hex {h}{how}; an enemy that moves "
                         f"into it or starts its turn there is dealt {n} {kind}.",
              unit=me.id, hex=[h.q, h.r], die=die_id, player=owner)
        return 1

    def describe(self, eff: dict) -> str:
        kind = "true damage" if eff.get("true") else "damage"
        return (f"place this die in a hex in range and sight; an enemy that moves into it or starts its turn "
                f"there is dealt {amount_words(eff)} {kind}, then the die is exhausted")


# ------------------------------------------------------------- going off --
def _opposed(c: Ctx, d: HexDie, u: Unit) -> bool:
    me = c.b.units.get(adv_uid(d.owner))
    return me is not None and (c.opposing(me, u) or c.opposing(u, me))


def _go_off(c: Ctx, d: HexDie, u: Unit, how: str) -> None:
    who = c.state.adventurers.get(d.owner)
    c.b.hex_dice.remove(d)
    c.say("hex-die", f"💥 {u.name} {how} hex {d.hex[0]},{d.hex[1]}: {_whose(c, d.owner)}{d.label} goes off.",
          unit=u.id, hex=list(d.hex), die=d.die)
    if u.owner:
        harm.damage_adventurer(c, u.owner, d.damage, true=d.true, label=d.label)
    else:
        harm.damage_enemy(c, u.id, d.damage, true=d.true, by=d.owner if who else None, label=d.label)
    back = status_rules.hex_die_back(c, d)
    if back:
        c.say("hex-die", f"{d.label} returns to {back}'s cooldown track.", die=d.die)


def moved(c: Ctx, u: Unit, path: list) -> None:
    """After ``u`` moved along ``path`` (it stands at the end): a die in each hex it moved into goes off, in
    order.  If that defeats it, it fell there and the rest of the move did not happen (the drawn move ends
    there)."""
    if not c.b.hex_dice or not path:
        return
    end = pos(u)
    steps = [Hex(*h) if not isinstance(h, Hex) else h for h in path]
    for i, h in enumerate(steps):
        d = at(c, h)
        if d is None or not _opposed(c, d, u):
            continue
        u.q, u.r = h.q, h.r  # where it stands when the die goes off (and falls, if it does)
        _go_off(c, d, u, "moves into")
        if not on_map(u):
            _cut_move(c, u, len(steps) - i - 1)
            if c.b.turn.cache is not None and c.b.turn.unit == u.id:
                c.b.turn.cache = None  # it never reached the end of the move
            return
    if on_map(u):
        u.q, u.r = end.q, end.r


def _cut_move(c: Ctx, u: Unit, lost: int) -> None:
    """Drop the last ``lost`` hexes of the move the map draws for ``u``."""
    if lost <= 0:
        return
    if c.b.turn.path and c.b.turn.unit == u.id:
        c.b.turn.path = c.b.turn.path[:-lost]
    moves = c.b.enemy_acts.get("moves") or []
    if moves and moves[-1].get("unit") == u.id:
        moves[-1]["path"] = moves[-1]["path"][:-lost]


def start_of_turn(c: Ctx, u: Unit) -> None:
    """A unit starts its turn in a hex holding a die set against it: the die goes off."""
    if not c.b.hex_dice or not on_map(u):
        return
    d = at(c, pos(u))
    if d is not None and _opposed(c, d, u):
        _go_off(c, d, u, "starts its turn in")


# ---------------------------------------------------------------- removal --
