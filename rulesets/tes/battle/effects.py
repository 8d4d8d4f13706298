"""Running effects: who uses one, on whom, with what number, and the registry of primitives (docs/content-format.md).

Every skill icon, item, race, class, enemy skill and encounter effect goes
through ``run_effects``, which finds each effect's primitive by type in
:data:`REGISTRY`.  The primitives themselves live above this module and register
themselves (rulesets.tes.battle.primitives, items, lockpick_cards, enemy_skills,
hexdice), so every battle step can run effects without importing them: this
module imports nothing of the battle but its model.  An effect marked manual is
shown and logged for the party to apply themselves.

Some primitives are read where their moment comes rather than run (``Passive``):
``prevent`` by the prevention step and when dice are placed, ``defense`` and
``immune`` while an enduring ability holds, an enemy's ``dodge`` and ``survive``.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from engine.effects import Primitive
from engine.hexes import distance
from rulesets.tes.battle.model import Ctx, on_map, pos
from rulesets.tes.content.schema import EFFECTS

#: Fields every effect may carry: ``forms`` = only in these battle forms.
REGISTRY = EFFECTS  # the content schema's registry: the loader checks packs against what is registered here
register = REGISTRY.register

WHO_WORDS = {
    "target": "the target", "near-target": "the target and each enemy next to it", "self": "you",
    "ally": "an ally (or you)", "allies-in-range": "you and each ally within 2 hexes",
    "adjacent-enemies": "each adjacent enemy", "all-in-range": "every unit within 2 hexes",
    "attacker": "the attacker", "other-allies-in-range": "each other ally within 2 hexes",
    "adventurers": "each adventurer", "tile-units": "each unit on this tile",
    "tile-adventurers": "each adventurer on this tile", "tile-enemies": "each enemy on this tile",
}


@dataclass
class Use:
    """Who uses an effect, on whom, and with what number."""

    c: Ctx
    source: dict  # the acting unit
    label: str  # what is resolving ("Shield Discipline: damage", "Enfeeble 1", ...)
    value: int = 0  # the ability's total value (the "value" amount)
    target: str | None = None  # the engage's target unit id
    engage: dict | None = None  # the engage record (damage dealt, pierce, dodge)
    form: str | None = None
    ally: str | None = None  # unit id chosen for "ally" effects (default: yourself)
    engaged: list[str] = field(default_factory=list)  # units an enemy engaged
    damaged: list[str] = field(default_factory=list)  # units an enemy dealt damage to
    previous: int = 0
    status_die: tuple[str, str] | None = None  # (owner, die id) of an S-code die being resolved
    status_die_placed: bool = False
    to: list[int] | None = None  # where an ability's move goes now ([q, r]; None: free movement for later)
    new_form: str | None = None  # the battle form a form change takes
    hexes: list[list[int]] = field(default_factory=list)  # hexes named for S dice placed in a hex, used in order
    tile: str | None = None  # a delve card's tile: the tile its "this tile" effects reach


def amount_of(use: Use, eff: dict) -> int:
    a = eff.get("amount", "value")
    if a == "value":
        n = int(use.value or 0)
    elif a == "previous":
        n = int(use.previous or 0)
    else:
        n = int(a)
    if eff.get("per"):  # "1 for each adjacent enemy (at most 2)"
        n *= count_of(use, eff["per"])
        if eff.get("most"):
            n = min(n, int(eff["most"]))
    return n


def _adjacent_enemies(use: Use) -> list:
    here = pos(use.source) if use.source else None
    if here is None:
        return []
    return [u for u in use.c.units() if use.c.opposing(use.source, u) and distance(pos(u), here) == 1]


def count_of(use: Use, what: str) -> int:
    """How many there are of what an effect's amount is counted by (``per``)."""
    if what == "adjacent-enemy":
        return len(_adjacent_enemies(use))
    return 0


def applies(use: Use, eff: dict) -> bool:
    """Whether an effect works now: its battle forms (``forms``) and its condition (``if``)."""
    forms = eff.get("forms")
    if forms and use.form not in forms:
        return False
    return not eff.get("if") or holds(use, eff["if"])


def holds(use: Use, condition: str) -> bool:
    """Whether an effect's condition (``if``) holds now."""
    if condition == "adjacent-enemy":
        return bool(_adjacent_enemies(use))
    if condition == "ally-next-to-target":
        c = use.c
        t = c.unit(use.target) if use.target and use.target in c.b.units else None
        if t is None or pos(t) is None or not use.source:
            return False
        mine = use.source.get("side") == "enemy"
        return any(o.id != use.source["id"] and (o.side == "enemy") == mine and distance(pos(o), pos(t)) == 1
                   for o in c.units())
    if condition == "rolled-magicka":
        b = use.c.state.battle
        owner = use.source.get("owner") if use.source else None
        return bool(b is not None and owner and owner in (b.turn.more.get("rolled_magicka") or []))
    return False


def amount_words(eff: dict) -> str:
    a = eff.get("amount", "value")
    return {"value": "the rolled value of", "previous": "as much as the last effect did of"}.get(a, str(a))


def _n(eff: dict, one: str, many: str) -> str:
    return one if eff.get("amount") == 1 else many


def units_for(use: Use, who: str) -> list[dict]:
    c, me = use.c, use.source
    here = pos(me)
    if who == "self":
        return [me]
    if who == "target":
        if use.engaged:
            return [c.unit(u) for u in use.engaged if on_map(c.unit(u))]
        return [c.unit(use.target)] if use.target and on_map(c.unit(use.target)) else []
    if who == "attacker":
        return [c.unit(use.target)] if use.target and on_map(c.unit(use.target)) else []
    if who == "ally":
        return [c.unit(use.ally)] if use.ally and on_map(c.unit(use.ally)) else [me]
    if who == "near-target":
        if not use.target or not on_map(c.unit(use.target)):
            return []
        t = c.unit(use.target)
        return [t] + [u for u in c.units() if u["id"] != t["id"] and c.opposing(me, u)
                      and distance(pos(u), pos(t)) == 1]
    if who == "adjacent-enemies":
        return [u for u in c.units() if here and c.opposing(me, u) and distance(pos(u), here) == 1
                and u["id"] not in use.engaged]
    if who == "other-allies-in-range":
        return [u for u in c.units() if here and u["id"] != me.get("id") and not c.opposing(me, u)
                and distance(pos(u), here) <= 2]
    if who in ("allies-in-range", "all-in-range"):
        return [u for u in c.units() if here and (who == "all-in-range" or not c.opposing(me, u))
                and distance(pos(u), here) <= 2]
    if who == "adventurers":
        return [c.unit(f"a:{o}") for o in c.b.order if on_map(c.unit(f"a:{o}"))]
    if who.startswith("tile-"):
        if not use.tile:
            return []
        tile_of = c.map.tile_of
        found = [u for u in c.units() if tile_of.get(pos(u)) == use.tile]
        if who == "tile-adventurers":
            found = [u for u in found if u.side == "adventurer"]
        elif who == "tile-enemies":
            found = [u for u in found if u.side == "enemy"]
        order = {f"a:{o}": i for i, o in enumerate(c.b.order)}
        return sorted(found, key=lambda u: (order.get(u.id, 99), u.side, int(u.slot or 0), u.id))
    return []


def _to(eff: dict, default: str) -> str:
    return WHO_WORDS.get(eff.get("target", default), eff.get("target", default))


def _who(eff: dict, default: str, verb: str) -> str:
    """The target as the subject of ``verb``: "you gain", "the target gains"."""
    who = eff.get("target", default)
    plural = who in ("self", "allies-in-range")  # "you gain", "you and each ally gain"; "each adventurer gains"
    return f"{_to(eff, default)} {verb if plural else verb + 's'}"


# -------------------------------------------------------------- primitives --
class Passive(Primitive):
    """A primitive that is read where its moment comes (``read_by`` says where), not run: ``apply`` does
    nothing (prevention, defense, immunity, an enemy's dodge...)."""

    read_by = ""

    def apply(self, use: Use, eff: dict) -> int:
        return 0


def _manual(use: Use, note: str) -> None:
    use.c.say("manual", f"📝 {use.label}: {note} (apply this yourselves)", manual=True)


def run_effects(use: Use, effects: tuple[dict, ...] | list[dict], *, manual: bool = False, text: str = "") -> None:
    """Apply effects in order; a manual card (or one with no effects) is shown for the party to apply."""
    if manual or not effects:
        if text:
            _manual(use, text)
        return
    for eff in effects:
        if not applies(use, eff):
            continue
        prim = REGISTRY.get(eff.get("type", ""))
        if prim is None:  # a pack loaded by the loader never has one
            _manual(use, eff.get("text") or text or eff.get("type"))
            continue
        use.previous = prim.apply(use, eff)


def describe(eff: dict) -> str:
    """The words for one effect, as players read them."""
    return REGISTRY.describe(eff)


__all__ = ["REGISTRY", "Passive", "Use", "amount_of", "applies", "units_for", "run_effects", "describe"]

