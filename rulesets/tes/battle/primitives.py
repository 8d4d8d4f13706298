"""The Elder Scrolls effect primitives that change the battle: damage, healing, statuses, moves, dice...

One class each, registered on the effect registry (rulesets.tes.battle.effects, where ``run_effects`` finds
them by type).  Each primitive owns its fields (checked by the content loader), what it does and the words
players read.  Primitives that live with their own rules register from their modules: items (draw-item),
lockpick_cards, enemy_skills, hexdice.
"""
from __future__ import annotations

from engine.effects import Field, Primitive, amount, as_list, boolean, list_of, one_of, text
from engine.hexes import Hex, distance
from engine.text import count
from rulesets.tes.battle import companion, harm, promotion, track
from rulesets.tes.battle import status as status_rules
from rulesets.tes.battle.effects import (Passive, Use, _manual, _n, _to, _who, amount_of, amount_words, register,
                                         units_for)
from rulesets.tes.battle.model import Ctx, on_map, pos
from rulesets.tes.state import first_words
from rulesets.tes.content.schema import STATUS_EFFECTS, TARGETS
from rulesets.tes.content import BATTLE_FORM_NAMES
from rulesets.tes.battle.enemy_skills import closest_free_hex
from rulesets.tes.battle.moves import cut, entered, route, stepped

SELF_OR_ALLIES = ("self", "ally", "allies-in-range", "adventurers", "tile-adventurers")


def _hexes(v) -> str | None:
    return None if isinstance(v, int) and not isinstance(v, bool) and v >= 1 else "must be a whole number of hexes"


@register
class Damage(Primitive):
    type = "damage"
    summary = "deal damage (true damage ignores Defense)"
    fields = {"amount": Field(amount, default=1), "true": Field(boolean, default=False),
              "target": Field(one_of(*TARGETS), default="target")}

    def apply(self, use: Use, eff: dict) -> int:
        n = amount_of(use, eff)
        total = 0
        by = use.source.get("owner")
        for u in units_for(use, eff.get("target", "target")):
            if not u.get("owner"):  # an enemy or a companion
                total += harm.damage_enemy(use.c, u["id"], n, true=bool(eff.get("true")), engage=use.engage,
                                           by=by, label=use.label)
            elif not eff.get("true") and use.source.get("side") == "enemy" and \
                    harm.queue_harm(use.c, u["owner"], n, use.source, use.label):
                continue  # a player is asked about it first; the battle deals it then
            else:
                total += harm.damage_adventurer(use.c, u["owner"], n, true=bool(eff.get("true")),
                                                source=use.source, label=use.label)
        return total

    def describe(self, eff: dict) -> str:
        kind = "true damage" if eff.get("true") else "damage"
        return f"deal {amount_words(eff)} {kind} to {_to(eff, 'target')}"


@register
class Prevent(Passive):
    type = "prevent"
    summary = "prevent damage: now (an interrupt), or while the die sits in an active slot or the cooldown track"
    fields = {"amount": Field(amount, default=1), "while": Field(one_of("now", "active", "cooldown"), required=True),
              "spend": Field(one_of("remove", "reduce", "stay"), default="remove"),
              "target": Field(one_of("self", "ally"), default="self"),
              "within": Field(_hexes), "all": Field(boolean, default=False)}

    def problems(self, eff: dict) -> list[str]:
        if eff.get("while") == "cooldown" and eff.get("target", "self") != "self":
            return [f'target "{eff["target"]}" works with while = "active" (a die guarding an ally) or "now" '
                    '(an interrupt "when an ally is dealt damage"); write the card as manual instead']
        if eff.get("within") is not None and eff.get("target") != "ally":
            return ['within (how far the ally may be) needs target = "ally"']
        return []

    read_by = "the prevention step (rulesets.tes.battle.harm) and when the die is placed"

    def describe(self, eff: dict) -> str:
        where = {"now": "now", "active": "while this die is in an active slot",
                 "cooldown": "while this die is in the cooldown track"}[eff["while"]]
        how = "all of the" if eff.get("all") else f"{amount_words(eff)}"
        who = _to(eff, "self")
        if eff.get("target") == "ally" and eff.get("within"):
            who = f"an ally within {eff['within']} {'hex' if eff['within'] == 1 else 'hexes'}"
        return f"prevent {how} damage to {who} {where}"


@register
class Defense(Passive):
    type = "defense"
    summary = "you have this much defense: each time you are dealt damage (not true damage), that much is prevented"
    fields = {"amount": Field(amount, default=1)}

    read_by = "damage dealt to you (rulesets.tes.battle.abilities.enduring_reduction)"

    def describe(self, eff: dict) -> str:
        return f"you have {amount_words(eff)} defense"


@register
class Immune(Passive):
    type = "immune"
    summary = "you cannot gain these statuses"
    fields = {"statuses": Field(list_of("statuses", STATUS_EFFECTS), required=True, read=as_list)}

    read_by = "a status given (rulesets.tes.battle.status.give)"

    def describe(self, eff: dict) -> str:
        return "you cannot gain " + " or ".join(eff["statuses"])


@register
class Challenge(Primitive):
    type = "challenge"
    summary = "each enemy within that many hexes must target you if able, until your next turn"
    fields = {"within": Field(_hexes, default=3)}

    def apply(self, use: Use, eff: dict) -> int:
        c, me = use.c, use.source
        b = c.state.battle
        here = pos(me)
        if b is None or here is None:
            return 0
        taunted = [u for u in c.units() if c.opposing(me, u) and u.side == "enemy"
                   and (c.range_to(here, pos(u)) or 99) <= int(eff.get("within", 3))]
        challenges = b.more.setdefault("challenges", {})
        for u in taunted:
            challenges[u.id] = me.id
        within = int(eff.get("within", 3))
        if not taunted and not first_words(c.state):
            c.say("challenge", f"{use.label}: no enemy is within {c.count(within, 'hex')} of {me['name']}, so none is "
                               "challenged.", unit=me.id, enemies=[])
            return 0
        names = ", ".join(u.name for u in taunted) or "no enemy"
        c.say("challenge", f"{use.label}: {names} must target {me['name']} if able until "
                           f"{me['name']}'s next turn.", unit=me.id, enemies=[u.id for u in taunted])
        return len(taunted)

    def describe(self, eff: dict) -> str:
        return f"each enemy within {count(int(eff.get('within', 3)), 'hex')} must target you if able until your next turn"


@register
class Revive(Primitive):
    type = "revive"
    summary = "a defeated ally (the ability's target) returns to the battle with this much HP next to you"
    fields = {"amount": Field(amount, default=1)}

    def apply(self, use: Use, eff: dict) -> int:
        from engine.hexes import neighbours

        c, me = use.c, use.source
        b = c.state.battle
        ally = c.unit(use.ally) if use.ally and b is not None and use.ally in b.units else None
        if ally is None or not ally.defeated or not ally.owner:
            c.say("note", f"{use.label}: no defeated ally was named, so nobody returns.")
            return 0
        here = pos(me)
        taken = c.occupied()
        spots = [h for h in neighbours(here) if h in c.map.passable and h not in taken] if here else []
        if not spots:
            c.say("note", f"{use.label}: no unoccupied hex is next to {me['name']}, so {ally.name} cannot return.")
            return 0
        fell = Hex(*ally.fell_at) if ally.fell_at else here
        spot = min(spots, key=lambda h: (distance(h, fell), h.q, h.r))
        adv = c.adv(ally.owner)
        adv.hp = min(adv.max_hp, max(1, amount_of(use, eff)))
        ally.defeated = False
        ally.fell_at = None
        ally.q, ally.r = spot.q, spot.r
        c.say("revive", f"{use.label}: {adv.name} is revived with {adv.hp} HP in hex {spot}.", unit=ally.id,
              amount=adv.hp)
        promotion.on_revive(c, promotion.owner_of(me), ally.owner)
        return adv.hp

    def describe(self, eff: dict) -> str:
        return f"a defeated ally returns with {amount_words(eff)} HP in a hex next to you"


@register
class FormChange(Primitive):
    type = "form"
    summary = "change to another battle form without gaining fatigue (the form the player names)"
    fields: dict = {}

    def apply(self, use: Use, eff: dict) -> int:
        adv = use.c.adv_of(use.source)
        if adv is None or not use.new_form or use.new_form == adv.battle_form:
            return 0
        adv.battle_form = use.new_form
        use.form = use.new_form
        use.c.say("form", f"{use.label}: {adv.name} switches to {BATTLE_FORM_NAMES[use.new_form]} form "
                          "without gaining fatigue.", unit=use.source["id"])
        return 1

    def describe(self, eff: dict) -> str:
        return "change battle form without gaining fatigue"


@register
class Heal(Primitive):
    type = "heal"
    summary = "heal HP, up to the unit's maximum"
    fields = {"amount": Field(amount, default=1), "target": Field(one_of(*TARGETS), default="self")}

    def apply(self, use: Use, eff: dict) -> int:
        n = amount_of(use, eff)
        got = 0
        for u in units_for(use, eff.get("target", "self")):
            h = harm.heal(use.c, u, n)
            got += h
            if h == 0 and n > 0 and not first_words(use.c.state):  # (before: "heals 0 HP")
                use.c.say("heal", f"{use.label}: {u['name']} is already at full HP.", unit=u["id"], amount=0)
                continue
            use.c.say("heal", f"{use.label}: {u['name']} heals {h} HP.", unit=u["id"], amount=h)
            promotion.on_heal(use.c, promotion.owner_of(use.source), u, h)
        return got

    def describe(self, eff: dict) -> str:
        return f"heal {amount_words(eff)} HP on {_to(eff, 'self')}"


@register
class BonusHP(Primitive):
    type = "bonus-hp"
    summary = "gain bonus HP (lost before HP)"
    fields = {"amount": Field(amount, default=1), "target": Field(one_of(*TARGETS), default="self")}

    def apply(self, use: Use, eff: dict) -> int:
        n = amount_of(use, eff)
        for u in units_for(use, eff.get("target", "self")):
            adv = use.c.adv_of(u)
            if adv is not None:
                adv.bonus_hp += n
                use.c.say("bonus-hp", f"{use.label}: {adv.name} gains {n} bonus HP.", unit=u["id"], amount=n)
        return n

    def describe(self, eff: dict) -> str:
        return f"{_who(eff, 'self', 'gain')} {amount_words(eff)} bonus HP"


@register
class Tenacity(Primitive):
    type = "tenacity"
    summary = "gain tenacity, up to the mat's maximum"
    fields = {"amount": Field(amount, default=1), "target": Field(one_of(*SELF_OR_ALLIES), default="self")}

    def apply(self, use: Use, eff: dict) -> int:
        n = amount_of(use, eff)
        cap = use.c.pack.mat.tenacity_max
        giver = promotion.owner_of(use.source)
        given = False
        for u in units_for(use, eff.get("target", "self")):
            adv = use.c.adv_of(u)
            if adv is not None:
                before = adv.tenacity
                adv.tenacity = min(cap, adv.tenacity + n)
                use.c.say("tenacity", f"{use.label}: {adv.name} gains {adv.tenacity - before} tenacity "
                                      f"({adv.tenacity}/{cap}).", unit=u["id"])
                given = given or (adv.tenacity > before and promotion.owner_of(u) != giver)
        if given:
            promotion.on_give_tenacity(use.c, giver)
        return n

    def describe(self, eff: dict) -> str:
        return f"{_who(eff, 'self', 'gain')} {amount_words(eff)} tenacity"


def give_status(c: Ctx, u: dict, status: str, label: str) -> bool:
    return status_rules.give(c, u, status, label)


@register
class Status(Primitive):
    type = "status"
    summary = "give (or, with remove = true, take away) a status effect"
    fields = {"status": Field(one_of(*STATUS_EFFECTS), required=True),
              "target": Field(one_of(*TARGETS), default="target"), "remove": Field(boolean, default=False)}

    def apply(self, use: Use, eff: dict) -> int:
        n = 0
        for u in units_for(use, eff.get("target", "target")):
            if eff.get("remove"):
                if status_rules.remove(use.c, u, eff["status"], use.label):
                    n += 1
                continue
            die = None
            if use.status_die and not use.status_die_placed:
                die = use.status_die  # a status-code (S) skill die becomes the status die itself
            if status_rules.give(use.c, u, eff["status"], use.label, die=die):
                n += 1
                if die is not None:
                    use.status_die_placed = True
        return n

    def describe(self, eff: dict) -> str:
        if eff.get("remove"):
            return f"remove {eff['status']} from {_to(eff, 'target')}"
        return f"{_who(eff, 'target', 'gain')} {eff['status']}"


@register
class Move(Primitive):
    type = "move"
    summary = "the acting adventurer may move hexes for free this turn (through = through hexes that hold units)"
    fields = {"amount": Field(amount, default=1), "through": Field(boolean, default=False)}

    def apply(self, use: Use, eff: dict) -> int:
        n = amount_of(use, eff)
        turn = use.c.b.get("turn") or {}
        if use.to is not None and use.source.get("side") == "adventurer" and turn.get("unit") == use.source["id"]:
            return _move_now(use, n, bool(eff.get("through")))
        if use.source.get("side") == "adventurer" and turn.get("unit") == use.source["id"]:
            turn["free_move"] = turn.get("free_move", 0) + n
            if eff.get("through"):
                turn["free_through"] = True
            use.c.say("move", f"{use.label}: {use.source['name']} may move "
                              f"{use.c.count(n, 'more hex', 'more hexes', old='more hex(es)')} for free "
                              f"(/move ... free:yes).", unit=use.source["id"], amount=n)
        elif use.source.get("side") == "adventurer" and use.c.b.step == "setup":  # start of battle
            first = use.c.b.more.setdefault("first_free_move", {})
            first[use.source["owner"]] = first.get(use.source["owner"], 0) + n
            use.c.say("move", f"{use.label}: {use.source['name']} may move {use.c.count(n, 'hex', old='hex(es)')} for free "
                              "on their first turn (/move ... free:yes).", unit=use.source["id"], amount=n)
        return n

    def describe(self, eff: dict) -> str:
        through = ", through hexes that hold units" if eff.get("through") else ""
        return f"move up to {amount_words(eff)} {_n(eff, 'hex', 'hexes')} for free{through}"


def _move_now(use: Use, n: int, through: bool) -> int:
    """An ability's free move made at once, to the hex the player named (``/ability ... to:``)."""
    c, me = use.c, use.source
    start = pos(me)
    if start is not None and [start.q, start.r] == list(use.to):
        c.say("move", f"{use.label}: {me['name']} stays in hex {start}.", unit=me["id"])
        return 0
    path = route(c, me, {"to": list(use.to)}, n, through=through)
    path, stopped = cut(c, me, path)  # a delve's trap stops the move in the hex that triggers it
    me.q, me.r = path[-1].q, path[-1].r
    line = [[start.q, start.r]] + [[h.q, h.r] for h in path]
    c.b.turn.path = line
    c.say("move", f"🚶 {use.label}: {me['name']} moves {start} → " + " → ".join(str(h) for h in path)
          + (" (through units)" if through else "") + ".", unit=me["id"], path=line)
    stepped(c, me, path)
    if on_map(me):
        entered(c, me, start, path, stopped, 0)  # a delve: a trap's check, skyshards, an explorable hex
    return len(path)


RECOVER_WHAT = ("skill", "fatigue", "light-fatigue", "overfatigue", "status", "any", "drained")


@register
class Recover(Primitive):
    type = "recover"
    summary = "take dice off the cooldown track (or drained dice back), leftmost first"
    fields = {"amount": Field(amount, default=1), "what": Field(one_of(*RECOVER_WHAT), required=True),
              "target": Field(one_of(*SELF_OR_ALLIES), default="self")}

    def apply(self, use: Use, eff: dict) -> int:
        n = amount_of(use, eff)
        got = 0
        for u in units_for(use, eff.get("target", "self")):
            adv = use.c.adv_of(u)
            if adv is None:
                continue
            if eff["what"] == "drained":
                back, adv.drained = adv.drained[:n], adv.drained[n:]
                taken = [{"die": d} for d in back]
            else:
                taken = track.recover(adv, eff["what"], n)
            got += len(taken)
            if taken:
                what = eff['what'].replace('-', ' ')
                use.c.say("recover", f"{use.label}: {adv.name} recovers "
                                     f"{use.c.count(len(taken), what + ' die', what + ' dice')}.", unit=u["id"],
                          amount=len(taken))
        return got

    def describe(self, eff: dict) -> str:
        what = {"skill": "skill", "fatigue": "fatigue", "light-fatigue": "light fatigue",
                "overfatigue": "overfatigue", "status": "status", "any": "", "drained": "drained skill"}[eff["what"]]
        return f"{_who(eff, 'self', 'recover')} {amount_words(eff)} {what} {_n(eff, 'die', 'dice')}".replace("  ", " ")


@register
class Fatigue(Primitive):
    type = "fatigue"
    summary = "gain light fatigue or overfatigue dice (from the supply)"
    fields = {"amount": Field(amount, default=1), "kind": Field(one_of("light", "over"), required=True),
              "target": Field(one_of(*TARGETS), default="self")}

    def apply(self, use: Use, eff: dict) -> int:
        n = amount_of(use, eff)
        for u in units_for(use, eff.get("target", "self")):
            adv = use.c.adv_of(u)
            if adv is None or u.get("defeated") or n <= 0:
                continue
            track.gain_fatigue(adv, eff.get("kind", "light"), n, use.c.track_size,
                               party=use.c.state.adventurers.values(), supply=use.c.pack.supply)
            kind = "overfatigue" if eff.get("kind") == "over" else "light fatigue"
            use.c.say("fatigue", f"{use.label}: {adv.name} gains {n} {kind}.", unit=u["id"], amount=n)
        return n

    def describe(self, eff: dict) -> str:
        kind = "overfatigue" if eff["kind"] == "over" else "light fatigue"
        return f"{_who(eff, 'self', 'gain')} {amount_words(eff)} {kind}"


@register
class Pierce(Primitive):
    type = "pierce"
    summary = "this engage ignores that much of the target's Defense (this_turn = every engage against it this turn)"
    fields = {"amount": Field(amount, default=1), "this_turn": Field(boolean, default=False)}

    def apply(self, use: Use, eff: dict) -> int:
        n = amount_of(use, eff)
        if eff.get("this_turn"):
            if use.target and use.c.state.battle is not None:
                marked = use.c.b.turn.more.setdefault("marked", {})
                marked[use.target] = marked.get(use.target, 0) + n
                use.c.say("pierce", f"{use.label}: every engage against {use.c.unit(use.target)['name']} this turn "
                                    f"ignores {n} of its Defense.", unit=use.target)
            return n
        if use.engage is not None:
            use.engage["pierce"] = use.engage.get("pierce", 0) + n
        return n

    def describe(self, eff: dict) -> str:
        if eff.get("this_turn"):
            return f"every engage against the target this turn pierces {amount_words(eff)} Defense"
        return f"pierce {amount_words(eff)} Defense"


@register
class AddDice(Primitive):
    type = "add-dice"
    summary = "roll extra dice in this engage (read before the roll)"
    fields = {"amount": Field(amount, default=1)}

    def apply(self, use: Use, eff: dict) -> int:
        """An item's are counted by its engage before the roll; an ability's wait for the next engage."""
        b = use.c.state.battle
        owner = use.source.get("owner")
        if b is None or b.pending is not None or not owner:
            return 0
        n = amount_of(use, eff)
        extra = b.turn.more.setdefault("extra_dice", {})
        extra[owner] = extra.get(owner, 0) + n
        use.c.say("add-dice", f"{use.label}: {use.source['name']} rolls {n} free Combat {_n(eff, 'die', 'dice')} "
                              "with the next engage this turn.", unit=use.source.get("id"), amount=n)
        return n

    def describe(self, eff: dict) -> str:
        return f"roll {amount_words(eff)} more {_n(eff, 'die', 'dice')} in this engage"


@register
class Engage(Primitive):
    type = "engage"
    summary = "engage once now without gaining fatigue for it (target = ally: an ally engages, on your turn)"
    fields = {"target": Field(one_of("self", "ally"), default="self"), "dice": Field(amount, default=0)}

    def apply(self, use: Use, eff: dict) -> int:
        b = use.c.state.battle
        if b is None:
            return 0
        n = 0
        for u in units_for(use, eff.get("target", "self")):
            if not u.get("owner"):
                continue
            grants = b.turn.more.setdefault("granted", {})
            grants[u["owner"]] = {"source": use.label, "dice": int(eff.get("dice") or 0)}
            most = f", rolling up to {eff['dice']} skill dice" if eff.get("dice") else ""
            use.c.say("engage", f"{use.label}: {u['name']} may engage once now without gaining fatigue for it"
                                f"{most} (/engage).", unit=u["id"])
            n += 1
        return n

    def describe(self, eff: dict) -> str:
        most = f", rolling up to {eff['dice']} skill dice" if eff.get("dice") else ""
        who = "an ally (or you)" if eff.get("target") == "ally" else "you"
        return f"{who} may engage once without gaining fatigue for it{most}"


@register
class Reroll(Primitive):
    type = "reroll"
    summary = "reroll dice of the roll waiting to be resolved"
    fields = {"amount": Field(amount, default=1), "blank_only": Field(boolean)}

    def apply(self, use: Use, eff: dict) -> int:
        """Rerolls for the roll waiting to be resolved (step 5a: before any result is resolved)."""
        p = use.c.b.get("pending") if use.c.state.battle else None
        if not p or p.get("owner") != use.source.get("owner"):
            use.c.say("reroll", f"{use.label}: there is no roll of yours waiting to be resolved, so no reroll.",
                      unit=use.source.get("id"))
            return 0
        n = amount_of(use, eff)
        p.setdefault("rerolls", []).append({"source": use.label, "left": n,
                                            "blank_only": bool(eff.get("blank_only"))})
        use.c.say("reroll", f"🎲 {use.label}: you may reroll up to {n} of these dice with /reroll dice: "
                            "before resolving.", unit=use.source.get("id"))
        return n

    def describe(self, eff: dict) -> str:
        which = ("blank " if eff.get("blank_only") else "") + _n(eff, "die", "dice")
        return f"reroll up to {amount_words(eff)} {which}"


@register
class Companion(Primitive):
    type = "companion"
    summary = "a companion joins the battle (with keep = true, the party)"
    fields = {"companion": Field(text, required=True), "keep": Field(boolean), "near": Field(boolean)}

    def apply(self, use: Use, eff: dict) -> int:
        """A companion joins: controlled by the adventurer whose effect it is (else the party leader).  With
        ``near``, in the unoccupied hex closest to that adventurer (a summoning), else on a free entrance hex."""
        at = None
        src = use.source
        if eff.get("near") and src.get("q") is not None and not src.get("defeated"):
            at = closest_free_hex(use.c, Hex(src["q"], src["r"]), None)
        companion.join(use.c, eff["companion"], src.get("owner"), keep=bool(eff.get("keep")), source=use.label,
                       at=at)
        return 1

    def describe(self, eff: dict) -> str:
        where = " next to you" if eff.get("near") else ""
        return f"{eff['companion']} joins{where} " + ("the party" if eff.get("keep") else "this battle")


@register
class Manual(Primitive):
    type = "manual"
    summary = "a part of the card the bot cannot apply: its text is shown for the party to apply"
    fields = {"text": Field(text, required=True)}

    def apply(self, use: Use, eff: dict) -> int:
        _manual(use, eff["text"])
        return 0

    def describe(self, eff: dict) -> str:
        return eff["text"]


