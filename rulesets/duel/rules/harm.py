"""What happens to fighters: ongoing effects, Ailments, Grit lost and regained, Recall, the fight's end, the
Priority token, and the bonuses and penalties a roll gets.  Every change is said in words."""
from __future__ import annotations

from typing import Any

from engine.text import count

from rulesets.duel.effects import REGISTRY
from rulesets.duel.rules import dice as D
from rulesets.duel.rules.model import F, listing
from rulesets.duel.state import AILMENTS, Effect, Fighter, Token

AILMENT_WORDS = {"burn": "Burn", "dazzle": "Dazzle", "slow": "Slow", "weak": "Weak"}
KIND_WORDS = {"block": "Block", "bonus": "on rolls", "accuracy": "Accuracy", "damage": "damage", "priority": "Priority"}


def lasting(rounds: int | None) -> str:
    return "for the rest of the fight" if rounds is None else ("until the round ends" if rounds == 1
                                                                else f"for {count(rounds, 'round')}")


def effect_words(e: Effect) -> str:
    """An ongoing effect in a few words: 'Block 1', '+1 on rolls', 'Accuracy on 6+', '+1 damage (gear)'."""
    if e.kind == "block":
        return f"Block {e.amount}" + (f" vs {'/'.join(e.versus)}" if e.versus else "")
    if e.kind == "bonus":
        return f"{e.amount:+d} on rolls"
    if e.kind == "accuracy":
        return f"Accuracy on {D.ACCURACY - e.amount}+"
    if e.kind == "damage":
        return f"{e.amount:+d} damage" + (f" ({'/'.join(e.versus)})" if e.versus else "")
    if e.kind == "priority":
        return f"{e.amount:+d} Priority"
    return f"{e.kind} {e.amount}"


def ailments_text(f: Fighter) -> str:
    return listing([f"{AILMENT_WORDS[a]} {f.ailments[a]}" for a in AILMENTS if f.ailments.get(a)])


# ------------------------------------------------------------- ongoing effects --
def add_effect(c: F, f: Fighter, kind: str, amount: int, rounds: int | None, label: str, caster: str = "",
               uid: int = 0, versus: list[str] | None = None) -> Effect:
    e = Effect(kind, int(amount), rounds, label, caster, uid, list(versus or []))
    f.effects.append(e)
    c.say("ongoing", f"{f.name} has {effect_words(e)} {lasting(rounds)} ({label}).", fighter=f.id)
    return e


def afflict(c: F, f: Fighter, ailment: str, amount: int, label: str = "") -> None:
    before = f.ailments.get(ailment, 0)
    f.ailments[ailment] = before + int(amount)
    now = f.ailments[ailment]
    added = f" (added to {before}: now {AILMENT_WORDS[ailment]} {now})" if before else ""
    c.say("ailment", f"{f.name} suffers {AILMENT_WORDS[ailment]} {amount}{added}"
                     + (f" from {label}" if label else "") + ".", fighter=f.id, ailment=ailment, amount=now)


def cleanse(c: F, f: Fighter, label: str = "") -> int:
    """Every Ailment of ``f`` ends at once: together they are one ongoing effect."""
    if not any(f.ailments.values()):
        c.say("cleanse", f"{f.name} has no Ailment to remove.", fighter=f.id)
        return 0
    gone = ailments_text(f)
    f.ailments = {}
    c.say("cleanse", f"{f.name}'s Ailments are removed ({gone})" + (f" by {label}" if label else "") + ".",
          fighter=f.id)
    return 1


def heal(c: F, f: Fighter, amount: int, label: str = "") -> int:
    got = max(0, min(int(amount), f.max_grit - f.grit))
    if got == 0:
        c.say("heal", f"{f.name} is at full Grit ({f.grit}/{f.max_grit}); {label or 'it'} restores nothing.",
              fighter=f.id)
        return 0
    f.grit += got
    c.say("heal", f"{f.name} gets back {got} Grit ({f.grit}/{f.max_grit}).", fighter=f.id)
    return got


def gain_fame(c: F, f: Fighter, amount: int) -> int:
    if f.monster:
        c.say("fame", f"{f.name}'s Fame is its Rank ({f.rank}); it gains none.", fighter=f.id)
        return 0
    ch = c.state.characters[f.owner]
    ch.fame += int(amount)
    c.fame_changed = True
    c.say("fame", f"{f.name} gains {amount} Fame (now {ch.fame}).", fighter=f.id, player=f.owner)
    return int(amount)


# ------------------------------------------------------------------- rolls --
def roll_mods(c: F, f: Fighter) -> list[list[Any]]:
    """The bonuses and penalties on every die ``f`` rolls: ongoing bonuses, and Dazzle's -1."""
    mods: list[list[Any]] = [[e.label, e.amount] for e in f.effects if e.kind == "bonus" and e.amount]
    if f.ailments.get("dazzle"):
        mods.append(["Dazzle", -1])
    return mods


def accuracy_threshold(f: Fighter) -> int:
    """8, lowered by each effect that reduces Accuracy's difficulty (raised by one that increases it)."""
    return D.ACCURACY - sum(e.amount for e in f.effects if e.kind == "accuracy")


def damage_mods(f: Fighter, attack_type: str) -> list[tuple[str, int]]:
    out = [(e.label, e.amount) for e in f.effects
           if e.kind == "damage" and (not e.versus or attack_type in e.versus)]
    if f.ailments.get("weak"):
        out.append(("Weak", -1))
    return out


def blocks(c: F, victim: Fighter, attack_type: str) -> list[tuple[str, int]]:
    """Every Block that applies to an attack of this type: the worn gear, then ongoing Blocks."""
    out: list[tuple[str, int]] = []
    gear = c.pack.gear.get(victim.gear) if victim.gear else None
    if gear is not None and (not gear.versus or attack_type in gear.versus):
        out.append((gear.name, gear.block))
    out += [(e.label, e.amount) for e in victim.effects
            if e.kind == "block" and (not e.versus or attack_type in e.versus)]
    return out


def priority_of(f: Fighter, printed: int) -> tuple[int, str]:
    """Where an action goes on the track: its Priority, moved by effects and by Slow's -6; and why, in words."""
    value, why = int(printed), []
    for e in f.effects:
        if e.kind == "priority" and e.amount:
            value += e.amount
            why.append(f"{e.amount:+d} {e.label}")
    if f.ailments.get("slow"):
        value -= D.SLOW
        why.append(f"-{D.SLOW} Slow")
    return value, (f" ({printed} {' '.join(why)})" if why else "")


# --------------------------------------------------------------- Grit, Recall --
def injure(c: F, f: Fighter, amount: int, why: str) -> None:
    """``amount`` Injury: Grit goes down (never below 0); at 0 the fighter is Recalled."""
    if amount <= 0 or not f.standing:
        return
    f.grit = max(0, f.grit - int(amount))
    c.say("injury", f"{f.name} suffers {amount} Injury ({why}): {f.grit}/{f.max_grit} Grit left.", fighter=f.id,
          amount=amount, grit=f.grit)
    if f.grit <= 0:
        recall(c, f)


def recall(c: F, f: Fighter) -> None:
    fight = c.fight
    f.recalled = True
    gone = [t for t in fight.track if t.fighter == f.id]
    fight.track = [t for t in fight.track if t.fighter != f.id]
    f.discard += [t.card for t in gone if t.card] + [p.card for p in f.placed]
    f.placed = []
    if f.monster:
        c.say("recalled", f"{f.name} falls at 0 Grit and leaves the fight.", fighter=f.id)
    else:
        c.say("recalled", f"{f.name} is at 0 Grit: Recalled, {f.name} leaves the fight.", fighter=f.id,
              player=f.owner)
    if check_end(c):
        return
    if fight.token == f.id:
        award_token(c, f"{f.name} left the fight with it")


def sides(c: F) -> dict[int, list[Fighter]]:
    out: dict[int, list[Fighter]] = {}
    for f in c.seated():
        out.setdefault(f.side, []).append(f)
    return out


def side_name(c: F, side: int) -> str:
    members = [f.name for f in c.seated() if f.side == side]
    return listing(members) or "nobody"


def check_end(c: F) -> bool:
    """The fight ends when every participant on a side has less than 1 Grit."""
    fight = c.fight
    if fight.over:
        return True
    for side, members in sides(c).items():
        if members and all(m.grit < 1 for m in members):
            others = [s for s in sides(c) if s != side]
            end_fight(c, others[0] if others else -1)
            return True
    return False


def end_fight(c: F, winner: int) -> None:
    fight = c.fight
    fight.step = "over"
    fight.winner = winner
    fight.track, fight.current, fight.chain, fight.question = [], None, None, None
    fight.queue, fight.at, fight.lure = [], 0, ""
    monster = next((f for f in c.seated() if f.monster), None)
    won = side_name(c, winner)
    if monster is not None and winner == monster.side:
        fight.result = f"the {monster.name} defeated every character"
        c.say("fight-end", f"The fight is over: the {monster.name} has defeated every character.", winner=winner)
        monster.grit = monster.max_grit
        c.say("monster-heals", f"{monster.name} heals fully ({monster.grit}/{monster.max_grit} Grit) and can be "
                               "fought again later.", fighter=monster.id)
    elif monster is not None:
        fight.result = f"{won} defeated the {monster.name}"
        c.say("fight-end", f"The fight is over: {won} defeated the {monster.name}!", winner=winner)
    else:
        fight.result = f"{won} won"
        c.say("fight-end", f"The fight is over: {won} won.", winner=winner)
    ended = [f"{f.name}: {ailments_text(f)}" for f in c.seated() if any(f.ailments.values())]
    ended += [f"{f.name}: {listing([effect_words(e) for e in f.effects])}" for f in c.seated() if f.effects]
    for f in c.seated():
        f.effects, f.ailments = [], {}
        f.discard += [t.card for t in f.out] + [p.card for p in f.placed] + f.hand
        f.out, f.placed, f.hand = [], [], []
        if not f.monster and f.owner in c.state.characters:
            c.state.characters[f.owner].fights += 1
    if ended:
        c.say("effects-end", "Every ongoing effect and Ailment ends with the fight (" + "; ".join(ended) + ").")
    c.state.history.append({"no": fight.no, "kind": fight.kind, "rounds": fight.round, "result": fight.result})


# ------------------------------------------------------------ the Priority token --
def award_token(c: F, why: str) -> None:
    """The participant with the highest Fame gains the Priority token (a monster's Fame is its Rank); a tie is
    rolled off on Finesse."""
    fight = c.fight
    standing = [f for f in c.seated() if f.standing]
    if not standing or fight.over:
        return
    best = max(c.fame(f) for f in standing)
    top = [f for f in standing if c.fame(f) == best]
    winner = top[0] if len(top) == 1 else rolloff(c, top, best)
    if winner.id != fight.token:
        c.say("token", f"{winner.name} gains the Priority token (the highest Fame, {best}; {why}).",
              fighter=winner.id)
    fight.token = winner.id


def rolloff(c: F, tied: list[Fighter], fame: int) -> Fighter:
    """Tied fighters roll Finesse: the highest die wins, then the second highest, and so on; a full tie rolls
    again (only those still tied)."""
    c.say("rolloff", f"{listing([f.name for f in tied])} tie at {fame} Fame: they roll Finesse for the Priority "
                     "token.")
    rolls: list[dict[str, Any]] = []
    while len(tied) > 1:
        rolls = []
        for f in tied:
            faces = D.pool(c.dice, f.skills.get("finesse", 1))
            mods = roll_mods(c, f)
            values = D.treated(faces, sum(m[1] for m in mods))
            rolls.append({"fighter": f.id, "name": f.name, "dice": faces, "values": values, "mods": mods})
        best = max(D.rolloff_key(r["values"]) for r in rolls)
        words = "; ".join(f"{r['name']} {' '.join(map(str, sorted(r['values'], reverse=True)))}" for r in rolls)
        still = [f for f, r in zip(tied, rolls) if D.rolloff_key(r["values"]) == best]
        if len(still) > 1:
            c.say("rolloff", f"Finesse: {words}. Still tied: {listing([f.name for f in still])} roll again.")
        else:
            c.say("rolloff", f"Finesse: {words}. {still[0].name} wins the roll-off.")
        tied = still
    c.rolloff = rolls  # type: ignore[attr-defined]
    return tied[0]


# ------------------------------------------------------------ effects in play --
class Use:
    """The fight's side of an effect (``rulesets.duel.effects``): who it reaches and what it may change."""

    def __init__(self, c: F, actor: Fighter, label: str, *, target: Fighter | None = None, ally: str = "",
                 uid: int = 0):
        self.c, self.actor, self.label, self.target, self.ally, self.uid = c, actor, label, target, ally, uid
        self.lasting = 0  # ongoing effects created from the card

    def who(self, eff: dict) -> list[Fighter]:
        kind = eff.get("who") or "self"
        if kind == "target":
            return [self.target] if self.target is not None and self.target.standing else []
        if kind == "enemies":
            return self.c.enemies(self.actor)
        if kind == "ally" and self.ally:
            f = self.c.fight.fighters.get(self.ally)
            if f is not None and f.standing and f.side == self.actor.side:
                return [f]
            self.c.say("ally-gone", f"{self.label}: the ally it was meant for has left the fight, so it goes to "
                                    f"{self.actor.name}.", fighter=self.actor.id)
        return [self.actor] if self.actor.standing else []

    def add_effect(self, f: Fighter, kind: str, amount: int, rounds: int | None, versus: list[str]) -> None:
        add_effect(self.c, f, kind, amount, rounds, self.label, self.actor.id, self.uid, versus)
        self.lasting += 1

    def afflict(self, f: Fighter, ailment: str, amount: int) -> None:
        afflict(self.c, f, ailment, amount, self.label)

    def heal(self, f: Fighter, amount: int) -> int:
        return heal(self.c, f, amount, self.label)

    def cleanse(self, f: Fighter) -> int:
        return cleanse(self.c, f, self.label)

    def gain_fame(self, f: Fighter, amount: int) -> int:
        return gain_fame(self.c, f, amount)

    def set_focus(self, f: Fighter) -> None:
        f.focus = True
        self.c.say("focus", f"{f.name} focuses: the discard pile comes back into the hand when the round ends.",
                   fighter=f.id)

    def set_lure(self, f: Fighter) -> None:
        self.c.fight.lure = f.id
        self.c.say("lure", f"{f.name} lures the enemy: this round the monster's attack, and enemy attacks aimed at "
                           f"{f.name}'s allies, come at {f.name}.", fighter=f.id)


def run_effects(use: Use, effects) -> None:
    for eff in effects:
        if not use.actor.standing and eff.get("who") != "target":
            return
        REGISTRY.apply(use, eff)


def track_order_key(c: F, t: Token) -> tuple[int, int, int]:
    """Highest Priority first; equal Priorities in turn order; one fighter's equal actions as placed."""
    return (-t.priority, c.rank_in_order(t.fighter), t.seq)



