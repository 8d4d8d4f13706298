"""The duel's effect primitives: what a card's or a monster action's effects do, one small class each.

Each primitive owns its fields (checked by the content loader, ``engine.effects.Registry.validate``), its
behaviour and its words.  ``apply(use, eff)`` works through ``use``, the fight's side of an effect (built by
``rulesets.duel.rules.fight``): who the effect reaches, and the few changes a fight allows (an ongoing
effect, an Ailment, Grit back, Fame, ...); each change is said there in words.  Nothing here imports the rules.

Ongoing effects (block, bonus, accuracy, damage, priority) last ``rounds = 1`` (this round) or, without
``rounds``, the whole fight.  ``who``: self (the one acting), ally (the one acting or an ally named when the
card was placed), target (the attack's target, for ``hit`` effects), enemies (every standing enemy).
"""
from __future__ import annotations

from typing import Any

from engine.effects import Field, Primitive, Registry, list_of, one_of
from rulesets.duel.state import AILMENTS

REGISTRY = Registry()
ATTACK_TYPES = ("base", "spell", "gear")
ONGOING = ("block", "bonus", "accuracy", "damage", "priority")
WHO = ("self", "ally", "target", "enemies")


def whole(lo: int, hi: int):
    def check(v: Any) -> str | None:
        if isinstance(v, int) and not isinstance(v, bool) and lo <= v <= hi:
            return None
        return f"must be a whole number from {lo} to {hi}"

    return check


def one_round(v: Any) -> str | None:
    return None if v == 1 and not isinstance(v, bool) else "must be 1 (this round); leave it out for the whole fight"


def lasting(eff: dict) -> str:
    return "this round" if eff.get("rounds") == 1 else "for the rest of the fight"


WHO_FIELD = Field(one_of(*WHO), default="self")
ROUNDS = Field(one_round, default=None, doc="1: this round; left out: the whole fight")


class _Ongoing(Primitive):
    kind = ""

    def apply(self, use: Any, eff: dict) -> int:
        versus = list(eff.get("versus") or eff.get("kinds") or [])
        for f in use.who(eff):
            use.add_effect(f, self.kind, int(eff["amount"]), eff.get("rounds"), versus)
        return int(eff["amount"])


@REGISTRY.register
class Block(_Ongoing):
    type = "block"
    kind = "block"
    summary = "Block: reduce each attack's damage by the amount (every Block applies)."
    fields = {"amount": Field(whole(1, 6), required=True), "rounds": ROUNDS, "who": WHO_FIELD,
              "versus": Field(list_of("attack types", ATTACK_TYPES), default=None)}

    def describe(self, eff):
        return f"Block {eff['amount']} {lasting(eff)}"


@REGISTRY.register
class Bonus(_Ongoing):
    type = "bonus"
    kind = "bonus"
    summary = "A bonus (or, below 0, a penalty) on every die of every roll."
    fields = {"amount": Field(whole(-3, 3), required=True), "rounds": ROUNDS, "who": WHO_FIELD}

    def describe(self, eff):
        return f"{eff['amount']:+d} on rolls {lasting(eff)}"


@REGISTRY.register
class Accuracy(_Ongoing):
    type = "accuracy"
    kind = "accuracy"
    summary = "Accuracy's difficulty lowered: a die grants Accuracy on 8 minus the amount or more."
    fields = {"amount": Field(whole(-4, 4), required=True), "rounds": ROUNDS, "who": WHO_FIELD}

    def describe(self, eff):
        return f"Accuracy on {8 - int(eff['amount'])} or more {lasting(eff)}"


@REGISTRY.register
class Damage(_Ongoing):
    type = "damage"
    kind = "damage"
    summary = "More (or less) damage on your attacks, of some attack types or all."
    fields = {"amount": Field(whole(-3, 3), required=True), "rounds": ROUNDS, "who": WHO_FIELD,
              "kinds": Field(list_of("attack types", ATTACK_TYPES), default=None)}

    def describe(self, eff):
        kinds = "/".join(eff.get("kinds") or []) or "all"
        return f"{eff['amount']:+d} damage on {kinds} attacks {lasting(eff)}"


@REGISTRY.register
class PriorityShift(_Ongoing):
    type = "priority"
    kind = "priority"
    summary = "Your actions go on the Priority track that much higher (lower, below 0)."
    fields = {"amount": Field(whole(-6, 6), required=True), "rounds": ROUNDS, "who": WHO_FIELD}

    def describe(self, eff):
        return f"{eff['amount']:+d} Priority {lasting(eff)}"


@REGISTRY.register
class Ailment(Primitive):
    type = "ailment"
    summary = "An Ailment, added to any amount the victim already has (Burn, Dazzle, Slow, Weak)."
    fields = {"ailment": Field(one_of(*AILMENTS), required=True), "amount": Field(whole(1, 6), required=True),
              "who": Field(one_of("target", "enemies", "self"), default="target")}

    def apply(self, use, eff):
        for f in use.who(eff):
            use.afflict(f, eff["ailment"], int(eff["amount"]))
        return int(eff["amount"])

    def describe(self, eff):
        return f"{eff['ailment'].capitalize()} {eff['amount']}"


@REGISTRY.register
class Heal(Primitive):
    type = "heal"
    summary = "Grit back, never above full."
    fields = {"amount": Field(whole(1, 20), required=True), "who": WHO_FIELD}

    def apply(self, use, eff):
        return sum(use.heal(f, int(eff["amount"])) for f in use.who(eff))

    def describe(self, eff):
        return f"{eff['amount']} Grit back"


@REGISTRY.register
class Cleanse(Primitive):
    type = "cleanse"
    summary = "Remove every Ailment (together one ongoing effect); it works even when an attack around it fails."
    fields = {"who": WHO_FIELD}

    def apply(self, use, eff):
        return sum(use.cleanse(f) for f in use.who(eff))

    def describe(self, eff):
        return "every Ailment removed"


@REGISTRY.register
class Fame(Primitive):
    type = "fame"
    summary = "Fame gained (a character's); the Priority token then goes to the highest Fame."
    fields = {"amount": Field(whole(1, 5), required=True)}

    def apply(self, use, eff):
        return use.gain_fame(use.actor, int(eff["amount"]))

    def describe(self, eff):
        return f"{eff['amount']} Fame"


@REGISTRY.register
class Focus(Primitive):
    type = "focus"
    summary = "When the round ends, the discard pile goes back into the hand."
    fields: dict[str, Field] = {}

    def apply(self, use, eff):
        use.set_focus(use.actor)
        return 1

    def describe(self, eff):
        return "discard pile back into the hand at the round's end"


@REGISTRY.register
class Lure(Primitive):
    type = "lure"
    summary = "As the card is revealed: the monster's attack this round, and enemy attacks at allies, come at you."
    fields: dict[str, Field] = {}

    def apply(self, use, eff):
        use.set_lure(use.actor)
        return 1

    def describe(self, eff):
        return "lures the enemy's attacks"


#: the effects a fight can give an effect's ``use`` step at each moment
REVEAL_ONLY = ("lure",)
