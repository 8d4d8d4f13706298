"""The effect primitives of the day: what a card choice, a town effect, a town square or the province effect
does to the party outside battle (docs/content-format.md, "Effects of the day").

Each primitive is one small class registered on ``DAY_EFFECTS`` (the content loader checks packs against it):
its fields, ``apply`` and the words players read.  ``party = True`` primitives act once for the party; the
others act on each adventurer the effect's ``who`` names: each adventurer (the default), or the one the
party chose (``chosen``: asked before the effects run).  A ``choose`` effect lets each adventurer pick one of
its options (asked before the effects run too); at an unstable landmark its ``unstable`` option is forced,
unless ``safe`` and that option would defeat the adventurer.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.effects import Field, Primitive, amount as _amount, boolean, one_of, text as _text
from engine.text import count
from rulesets.tes.battle import track
from rulesets.tes.state import promotions_detected
from rulesets.tes.battle.items import gain as gain_item
from rulesets.tes.battle.inventory import deck as item_deck
from rulesets.tes.content.overland import DAY_EFFECTS
from rulesets.tes.outcomes.context import DayCtx

register = DAY_EFFECTS.register
RECOVER_WHAT = ("skill", "fatigue", "light-fatigue", "overfatigue", "status", "any", "drained")
STATUSES = ("bane", "blind", "daze", "fear", "maim", "stealth")


@dataclass
class DayUse:
    """Who an effect reaches and what was decided before it ran."""

    c: DayCtx
    label: str
    owner: str | None = None  # the adventurer being affected now (None for a party effect)
    chosen: dict[str, str] = field(default_factory=dict)  # effect key -> owner the party chose
    picks: dict[str, int] = field(default_factory=dict)  # owner -> option picked (a "choose" effect)
    unstable: bool = False
    key: str = ""  # this effect's place in its list ("2", "1.3" inside a choose option)


def _whole(v: Any) -> str | None:
    return None if isinstance(v, int) and not isinstance(v, bool) and v >= 1 else "must be a whole number from 1"


def _n(eff: dict) -> int:
    a = eff.get("amount", 1)
    return int(a) if isinstance(a, int) else 1


def _options(v: Any) -> str | None:
    if not isinstance(v, list) or len(v) < 2:
        return "must be a list of at least 2 options: { title = \"...\", effects = [...] }"
    for i, o in enumerate(v, 1):
        if not isinstance(o, dict) or set(o) - {"title", "effects"} or not isinstance(o.get("title"), str):
            return f"option {i} must be a table with a title and effects"
        effects = o.get("effects", [])
        if not isinstance(effects, list):
            return f"option {i}'s effects must be a list of effect tables"
        for j, e in enumerate(effects, 1):
            full, problems = DAY_EFFECTS.validate(e)
            if problems:
                return f"option {i} effect #{j} {problems[0]}"
            if full and full["type"] == "choose":
                return f"option {i} effect #{j}: a choose cannot hold another choose"
            if full and full.get("who") == "chosen":
                return f"option {i} effect #{j}: inside a choose, effects reach the adventurer choosing"
    return None


def _read_options(v: list) -> list:
    return [{"title": o["title"], "effects": [DAY_EFFECTS.validate(e)[0] for e in o.get("effects", [])]}
            for o in v]


# ------------------------------------------------------------ adventurers --
class Each(Primitive):
    party = False


@register
class Damage(Each):
    type = "damage"
    summary = "deal damage to the adventurer (true damage skips bonus HP)"
    fields = {"amount": Field(_amount, default=1), "true": Field(boolean, default=False)}

    def apply(self, use: DayUse, eff: dict) -> int:
        adv = use.c.adv(use.owner)
        n = _n(eff)
        if adv.hp <= 0:
            use.c.say("damage", f"{use.label}: {adv.name} is already defeated.", player=use.owner)
            return 0
        soak = 0 if eff.get("true") else min(adv.bonus_hp, n)
        adv.bonus_hp -= soak
        lost = min(adv.hp, n - soak)
        adv.hp -= lost
        kind = "true damage" if eff.get("true") else "damage"
        tail = " and is defeated." if adv.hp <= 0 else "."
        if adv.hp <= 0 and promotions_detected(use.c.state):  # the session is no longer one without a defeat (promotion)
            use.c.s.promotion["defeated"] = True
        use.c.say("damage", f"{use.label}: {adv.name} is dealt {n} {kind} ({adv.hp}/{adv.max_hp} HP){tail}",
                  player=use.owner, amount=n)
        return lost

    def describe(self, eff: dict) -> str:
        return f"be dealt {_n(eff)} {'true ' if eff.get('true') else ''}damage"

    @staticmethod
    def would_defeat(adv, eff: dict) -> bool:
        n = _n(eff)
        soak = 0 if eff.get("true") else adv.bonus_hp
        return adv.hp > 0 and adv.hp - max(0, n - soak) <= 0


@register
class Heal(Each):
    type = "heal"
    summary = "heal HP (a defeated adventurer healed above 0 is revived)"
    fields = {"amount": Field(_amount, default=1)}

    def apply(self, use: DayUse, eff: dict) -> int:
        adv = use.c.adv(use.owner)
        got = max(0, min(_n(eff), adv.max_hp - adv.hp))
        adv.hp += got
        use.c.say("heal", f"{use.label}: {adv.name} heals {got} HP ({adv.hp}/{adv.max_hp})."
                  if got else f"{use.label}: {adv.name} is already at full HP.", player=use.owner, amount=got)
        return got

    def describe(self, eff: dict) -> str:
        return f"heal {_n(eff)} HP"


@register
class Fatigue(Each):
    type = "fatigue"
    summary = "gain light fatigue or overfatigue dice (not while defeated)"
    fields = {"amount": Field(_amount, default=1), "kind": Field(one_of("light", "over"), required=True)}

    def apply(self, use: DayUse, eff: dict) -> int:
        c, adv = use.c, use.c.adv(use.owner)
        n = _n(eff)
        word = "overfatigue" if eff["kind"] == "over" else "light fatigue"
        if adv.hp <= 0:
            c.say("fatigue", f"{use.label}: {adv.name} is defeated and gains no fatigue.", player=use.owner)
            return 0
        notes: list[str] = []
        before = len(adv.cooldown)
        track.gain_fatigue(adv, eff["kind"], n, c.track_size, notes, party=c.state.adventurers.values(),
                           supply=c.pack.supply)
        extra = f" ({'; '.join(dict.fromkeys(notes))})" if notes else ""
        c.say("fatigue", f"{use.label}: {adv.name} gains {n} {word}{extra}.", player=use.owner, amount=n)
        return max(0, len(adv.cooldown) - before) or n

    def describe(self, eff: dict) -> str:
        return f"gain {_n(eff)} {'overfatigue' if eff.get('kind') == 'over' else 'light fatigue'}"


@register
class Tenacity(Each):
    type = "tenacity"
    summary = "gain tenacity (up to the maximum)"
    fields = {"amount": Field(_amount, default=1)}

    def apply(self, use: DayUse, eff: dict) -> int:
        adv, cap = use.c.adv(use.owner), use.c.pack.mat.tenacity_max
        got = max(0, min(_n(eff), cap - adv.tenacity))
        adv.tenacity += got
        use.c.say("tenacity", f"{use.label}: {adv.name} gains {got} tenacity ({adv.tenacity}/{cap})."
                  if got else f"{use.label}: {adv.name}'s tenacity is already at its maximum ({cap}).",
                  player=use.owner, amount=got)
        return got

    def describe(self, eff: dict) -> str:
        return f"gain {_n(eff)} tenacity"


@register
class LoseTenacity(Each):
    type = "lose-tenacity"
    summary = "lose tenacity (down to 0)"
    fields = {"amount": Field(_amount, default=1)}

    def apply(self, use: DayUse, eff: dict) -> int:
        adv = use.c.adv(use.owner)
        lost = min(adv.tenacity, _n(eff))
        adv.tenacity -= lost
        use.c.say("tenacity", f"{use.label}: {adv.name} loses {lost} tenacity ({adv.tenacity} left)."
                  if lost else f"{use.label}: {adv.name} has no tenacity to lose.", player=use.owner, amount=lost)
        return lost

    def describe(self, eff: dict) -> str:
        return f"lose {_n(eff)} tenacity"


@register
class Recover(Each):
    type = "recover"
    summary = "take dice off the cooldown track (leftmost first), or bring drained dice back"
    fields = {"amount": Field(_amount, default=1), "what": Field(one_of(*RECOVER_WHAT), required=True)}

    def apply(self, use: DayUse, eff: dict) -> int:
        adv, n, what = use.c.adv(use.owner), _n(eff), eff["what"]
        if what == "drained":
            back = adv.drained[:n]
            adv.drained = adv.drained[n:]
            got = len(back)
        else:
            got = len(track.recover(adv, what, n))
        kind = {"skill": "skill dice", "fatigue": "fatigue dice", "light-fatigue": "light fatigue dice",
                "overfatigue": "overfatigue dice", "status": "status dice", "any": "dice",
                "drained": "drained dice"}[what]
        said = f"recovers {got} {kind}." if got != 1 else f"recovers 1 {kind.replace('dice', 'die')}."
        use.c.say("recover", f"{use.label}: {adv.name} " + (said if got else f"has no {kind} to recover."),
                  player=use.owner, amount=got)
        return got

    def describe(self, eff: dict) -> str:
        return f"recover {_n(eff)} {eff.get('what', 'any').replace('-', ' ')} dice"


@register
class Status(Each):
    type = "status"
    summary = "gain a status die on the cooldown track"
    fields = {"status": Field(one_of(*STATUSES), required=True)}

    def apply(self, use: DayUse, eff: dict) -> int:
        c, adv = use.c, use.c.adv(use.owner)
        in_use = sum(1 for a in c.state.adventurers.values() for e in a.cooldown if "status" in e)
        if in_use >= c.pack.supply.status_dice and not track.count(adv, status=eff["status"]):
            c.say("status", f"{use.label}: no status dice are left in the supply, so {adv.name} gains none.")
            return 0
        track.gain_status(adv, eff["status"], c.track_size)
        c.say("status", f"{use.label}: {adv.name} gains {eff['status']}.", player=use.owner)
        return 1

    def describe(self, eff: dict) -> str:
        return f"gain {eff.get('status')}"


@register
class BonusXP(Each):
    type = "bonus-xp"
    summary = "gain XP of your own (not on the party's XP Dial)"
    fields = {"amount": Field(_whole, default=1)}

    def apply(self, use: DayUse, eff: dict) -> int:
        adv = use.c.adv(use.owner)
        adv.saved_xp += _n(eff)
        use.c.say("xp", f"{use.label}: {adv.name} gains {_n(eff)} bonus XP ({adv.saved_xp} unspent).",
                  player=use.owner, amount=_n(eff))
        return _n(eff)

    def describe(self, eff: dict) -> str:
        return f"gain {_n(eff)} bonus XP"


@register
class DrawItem(Each):
    type = "draw-item"
    summary = "draw item cards from the common or legendary item deck"
    fields = {"rarity": Field(one_of("common", "legendary"), default="common"), "amount": Field(_whole, default=1)}

    def apply(self, use: DayUse, eff: dict) -> int:
        c, adv = use.c, use.c.adv(use.owner)
        rarity = eff.get("rarity", "common")
        got = 0
        for _ in range(_n(eff)):
            card = top_item(c, rarity)
            if card is None:
                c.say("item", f"{use.label}: the {rarity} item deck is empty.")
                break
            c.say("item", f"{use.label}: {adv.name} draws {c.pack.items[card].name}.", item=card, player=use.owner)
            gain_item(c, use.owner, card)
            got += 1
        return got

    def describe(self, eff: dict) -> str:
        n = _n(eff)
        return f"draw {n} {eff.get('rarity', 'common')} item{'s' if n != 1 else ''}"


def top_item(c: DayCtx, rarity: str) -> str | None:
    """Take the top card of an item deck (a card the session stacked comes first)."""
    d = item_deck(c.state, c.pack, rarity, c.dice)
    s = c.state.days
    for card in list(s.stacked) if s is not None else []:
        if card in d.draw:
            s.stacked.remove(card)
            d.draw.remove(card)
            return card
    return d.draw.pop(0) if d.draw else None


@register
class Choose(Each):
    type = "choose"
    summary = "each adventurer picks one of the options (at an unstable landmark the unstable one is forced)"
    fields = {"options": Field(_options, required=True, read=_read_options),
              "unstable": Field(_whole), "safe": Field(boolean, default=False)}

    def problems(self, eff: dict) -> list[str]:
        n = len(eff.get("options") or [])
        if eff.get("unstable") and eff["unstable"] > n:
            return [f"unstable names option {eff['unstable']}, but there are {n}"]
        return []

    def apply(self, use: DayUse, eff: dict) -> int:
        picked = use.picks.get(use.owner)
        if picked is None:
            picked = forced_option(use.c, use.owner, eff, use.unstable) or 1
        option = eff["options"][picked - 1]
        adv = use.c.adv(use.owner)
        use.c.say("choose", f"{use.label}: {adv.name}: {option['title']}.", player=use.owner, option=picked)
        for i, sub in enumerate(option["effects"], 1):
            DAY_EFFECTS.apply(DayUse(use.c, use.label, use.owner, use.chosen, use.picks, use.unstable,
                                     f"{use.key}.{i}"), sub)
        return 1

    def describe(self, eff: dict) -> str:
        return "each adventurer chooses: " + " or ".join(o["title"] for o in eff.get("options") or [])


def forced_option(c: DayCtx, owner: str, eff: dict, unstable: bool) -> int | None:
    """The option an adventurer must take (1-based), or None when they choose."""
    k = eff.get("unstable")
    if not (unstable and k):
        return None
    if eff.get("safe"):
        adv = c.adv(owner)
        hits = [e for e in eff["options"][k - 1]["effects"] if e["type"] == "damage"]
        if any(Damage.would_defeat(adv, e) for e in hits):
            others = [i for i in range(1, len(eff["options"]) + 1) if i != k]
            return others[0] if len(others) == 1 else None
    return k


# ------------------------------------------------------------------ party --
class PartyEffect(Primitive):
    party = True


@register
class Movement(PartyEffect):
    type = "movement"
    summary = "the party may move this many extra hexes on its next day"
    fields = {"amount": Field(_whole, default=1)}

    def apply(self, use: DayUse, eff: dict) -> int:
        use.c.s.extra_move += _n(eff)
        use.c.say("movement", f"{use.label}: tomorrow the party may move {_n(eff)} extra "
                              f"{'hex' if _n(eff) == 1 else 'hexes'}.", amount=_n(eff))
        return _n(eff)

    def describe(self, eff: dict) -> str:
        return f"move {count(_n(eff), 'extra hex', 'extra hexes')} tomorrow"


@register
class SkipRest(PartyEffect):
    type = "skip-rest"
    summary = "the party skips tonight's Adventurers Rest (and so cannot trade)"
    fields = {}

    def apply(self, use: DayUse, eff: dict) -> int:
        use.c.s.skip_rest = True
        use.c.say("skip-rest", f"{use.label}: tonight the party skips the Adventurers Rest.")
        return 1

    def describe(self, eff: dict) -> str:
        return "skip tonight's Adventurers Rest"


@register
class LoseDay(PartyEffect):
    type = "lose-day"
    summary = "the day is lost: the Day Dial moves on 1 more"
    fields = {}

    def apply(self, use: DayUse, eff: dict) -> int:
        st = use.c.state
        st.day_dial += 1
        use.c.say("lose-day", f"{use.label}: a day is lost; the Day Dial moves on to {st.day_dial}.",
                  day=st.day_dial)
        return 1

    def describe(self, eff: dict) -> str:
        return "lose a day (the Day Dial moves on 1)"


@register
class Gauge(PartyEffect):
    type = "gauge"
    summary = "set the province gauge to a position"
    fields = {"set": Field(_text, required=True)}

    def apply(self, use: DayUse, eff: dict) -> int:
        c = use.c
        step = c.province.effect.step(eff["set"])
        if step is None:
            c.say("gauge", f"{use.label}: this province's gauge has no position `{eff['set']}`; nothing changes.")
            return 0
        c.s.gauge = step.id
        c.say("gauge", f"{use.label}: the {c.province.effect.gauge} gauge moves to {step.name}. {step.text}")
        return 1

    def describe(self, eff: dict) -> str:
        return f"set the province gauge to {eff.get('set')}"


@register
class CloseTown(PartyEffect):
    type = "close-town"
    summary = "a town closes: the party cannot move into its hex"
    fields = {"town": Field(_text, required=True)}

    def apply(self, use: DayUse, eff: dict) -> int:
        c = use.c
        town = c.province.towns.get(eff["town"])
        if town is None or eff["town"] in c.s.closed:
            return 0
        c.s.closed.append(eff["town"])
        c.say("town-closed", f"{use.label}: {town.name} is closed; the party cannot enter it.", town=town.id)
        return 1

    def describe(self, eff: dict) -> str:
        return f"close the town {eff.get('town')}"


@register
class OpenTown(PartyEffect):
    type = "open-town"
    summary = "a closed town opens again"
    fields = {"town": Field(_text, required=True)}

    def apply(self, use: DayUse, eff: dict) -> int:
        c = use.c
        if eff["town"] not in c.s.closed:
            return 0
        c.s.closed.remove(eff["town"])
        town = c.province.towns.get(eff["town"])
        c.say("town-opened", f"{use.label}: {town.name if town else eff['town']} is open again.")
        return 1

    def describe(self, eff: dict) -> str:
        return f"open the town {eff.get('town')}"


@register
class Manual(PartyEffect):
    type = "manual"
    summary = "a step the party applies by hand: the bot shows its text"
    fields = {"text": Field(_text, required=True)}

    def apply(self, use: DayUse, eff: dict) -> int:
        use.c.say("manual", f"📝 {use.label}: {eff['text']} (the party applies this)", manual=True)
        return 0

    def describe(self, eff: dict) -> str:
        return str(eff.get("text"))


# ------------------------------------------------------------------ running --
def needs_choice(effects) -> list[str]:
    """Keys of the effects whose adventurer the party must choose first (``who = "chosen"``)."""
    return [str(i) for i, e in enumerate(effects, 1) if e.get("who") == "chosen" and not _is_party(e)]


def chooses(effects) -> list[dict]:
    return [e for e in effects if e.get("type") == "choose"]


def _is_party(eff: dict) -> bool:
    prim = DAY_EFFECTS.get(eff.get("type", ""))
    return bool(getattr(prim, "party", False))


def run(c: DayCtx, effects, label: str, *, owners: list[str] | None = None, chosen: dict[str, str] | None = None,
        picks: dict[str, int] | None = None, unstable: bool = False, prefix: str = "") -> int:
    """Apply effects in order: party effects once; the others to each adventurer (or the chosen one)."""
    done = 0
    everyone = owners if owners is not None else c.party()
    for i, eff in enumerate(effects, 1):
        key = f"{prefix}{i}"
        if _is_party(eff):
            done += DAY_EFFECTS.apply(DayUse(c, label, None, chosen or {}, picks or {}, unstable, key), eff)
            continue
        targets = everyone
        if eff.get("who") == "chosen":
            pick_ = (chosen or {}).get(key)
            targets = [pick_] if pick_ in c.state.adventurers else everyone[:1]
        for owner in targets:
            done += DAY_EFFECTS.apply(DayUse(c, label, owner, chosen or {}, picks or {}, unstable, key), eff)
    return done


def describe(effects) -> str:
    return "; ".join(DAY_EFFECTS.describe(e) for e in effects)
