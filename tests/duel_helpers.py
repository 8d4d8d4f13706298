"""A duel campaign driven action by action through the ruleset's table, with forced dice (no store, no front
door): what the rules tests use to set up a fight and play it."""
from __future__ import annotations

from engine.actions import dice_for
from engine.core import Action, RuleError
from engine.prompts import open_prompt
from rulesets.duel import RULESET


class Table:
    def __init__(self, leader: str = "ann", now: float = 1000.0):
        self.state = None
        self.now = now
        self.leader = leader
        self.lines: list[str] = []  # every event line, in order
        self.dice: list[int] = []  # every die rolled, in order
        self.run(leader, "campaign.new", name="Test Road", channel_id="c1", seed=7)

    # ------------------------------------------------------------ running --
    def run(self, actor: str, type_: str, *, on_behalf: str | None = None, **args) -> list[str]:
        applied = RULESET.execute(self.state, Action(type_, actor, args, on_behalf=on_behalf), dice_for(self.state),
                                  self.now)
        self.state = applied.state
        self.dice += applied.dice
        said = [e.words() for e in applied.events]
        self.lines += said
        self.last = applied
        return said

    def refused(self, actor: str, type_: str, *, on_behalf: str | None = None, **args) -> str:
        before = self.state.to_dict()
        try:
            self.run(actor, type_, on_behalf=on_behalf, **args)
        except RuleError as exc:
            assert self.state.to_dict() == before
            return exc.message
        raise AssertionError(f"{type_} {args} was accepted")

    def force(self, *values: int) -> None:
        self.state.forced += list(values)

    # ------------------------------------------------------------ looking --
    @property
    def fight(self):
        return self.state.fight

    def f(self, who: str):
        """A fighter by player (``ann``) or monster id (``cave-troll``)."""
        fight = self.state.fight
        return fight.fighters.get(f"c:{who}") or fight.fighters[f"m:{who}"]

    @property
    def prompt(self):
        return open_prompt(self.state)

    def text(self) -> str:
        return "\n".join(self.lines)

    # ------------------------------------------------------------ playing --
    def character(self, who: str, hero: str, name: str | None = None, **args) -> None:
        self.run(who, "duel.character", hero=hero, name=name or who.capitalize(), **args)

    def place(self, who: str, *cards: str, **args) -> list[str]:
        return self.run(who, "duel.place", cards=list(cards), **args)

    def passes(self) -> int:
        """Everyone asked in the running Fame reroll chain passes; how many were asked."""
        n = 0
        while self.prompt is not None and self.prompt.kind == "fame":
            self.run(self.prompt.owner, "duel.reroll")
            n += 1
        return n


def fight(heroes: dict[str, str], *, monster: str | None = "cave-troll", rival: str | None = None,
          fame: dict[str, int] | None = None, gear: dict[str, str] | None = None, roll_off: tuple[int, ...] = (),
          starter: str | None = None) -> Table:
    """Characters made (in this order), their Fame set, a fight called and joined by all: round 1, placing."""
    t = Table(next(iter(heroes)))
    for who, hero in heroes.items():
        t.character(who, hero)
    for who, value in (fame or {}).items():
        t.state.characters[who].fame = value
    if monster:
        t.run(starter or t.leader, "duel.fight", monster=monster)
    else:
        t.run(starter or t.leader, "duel.fight", rival=rival)
    t.force(*roll_off)
    while t.prompt is not None and t.prompt.kind == "join":
        who = t.prompt.owner
        options = [o.value for o in t.prompt.options]
        want = (gear or {}).get(who)
        pick = next((v for v in options if want and v.endswith("." + want)), None)
        if pick is None:
            side = "b" if rival and who != (starter or t.leader) and who != rival and "b" in options else None
            pick = next(v for v in options if v != "out" and (side is None or v.startswith(side)))
        t.run(who, "duel.join", choice=pick)
    return t
