"""The players of ``bench_turns.py --days``: the command a player sends to answer the day's open question.

A session of days in the Saltmire asks one question at a time (``engine.prompts.open_prompt``: the day's
``Session.ask``, or the battle's question while a card's battle is fought).  ``decide_day`` answers it as a
player would, with the command its post names:

* the guild draw: ``/quest guild pick:`` one of the cards drawn (the bench's dice choose which);
* the route: ``/day route to:q,r``, the place in the route menu closest to where the guild quest's step is
  triggered (its town, hex, token or landmark), else a place of the menu the party reaches without fatigue;
  ``/day route stay:`` when the party already stands where the step triggers; then each other player
  ``/day agree``;
* an overland or quest card: ``/day choose choice:`` one of its open choices (the post says which are not open;
  with ``--delve`` a choice that goes down into a delve first), then what the card asks: ``/day pick`` (who gains
  it, each one's option, a town effect's choice), a social check's ``/day check dice:all`` then
  ``/day check tenacity:0``;
* a town: each adventurer spends a town action (the shop's first cards, the quest board when the town has one
  and the party holds fewer than 4 side quests, else the town square or the inn), then ``/town done``;
  ``/quest accept pick:1`` for a side quest drawn, ``/quest discard side:1`` when the party must let one go;
* the Reward Phase: ``/reward done``; the Adventurers Rest: ``/adventurer rest`` (on Expert ``skip:``);
* a session won: ``/quest next pick:1`` (the next guild quest);
* a battle a card started: ``None`` here (the bench's battle player plays it, ``bench_turns.decide``).

Nothing here changes the rules: the players read the state (as a player reads the post) and send commands.
"""
from __future__ import annotations

import random

from engine.hexes import Hex, distance
from engine.prompts import open_prompt

MAX_SIDES = 4  # the party holds at most 4 side quests (p.48)

#: day question kind -> what the report calls the question answered
ANSWERED = {"guild": "guild", "next-quest": "next quest", "side-quest": "side quest", "side-discard": "side discard",
            "route": "route", "vote": "vote", "card": "card", "chosen": "who gains it", "either": "each one's option",
            "check-dice": "check dice", "check-tenacity": "check tenacity", "town-effect": "town effect",
            "town": "town", "reward": "reward", "rest": "rest"}


def _ctx(state, pack):
    from rulesets.tes.outcomes.context import DayCtx

    return DayCtx(state, pack, None)


def decide_day(state, pack, rng: random.Random, *, delve: bool = False) -> tuple[str, str, dict, str] | None:
    """(user, command, options, the question answered) for the day's open question; None while a battle is fought
    or when the day asks nothing (the session is over)."""
    if state.battle is not None:
        return None
    s = state.days
    if s is None or s.ask is None:
        return None
    prompt = open_prompt(state)
    if prompt is None:
        return None
    kind = s.ask.kind
    owners = [o for o in s.ask.owners if o in state.adventurers] or [state.leader]
    who = owners[0]
    asked = ANSWERED.get(kind, kind)
    if kind == "guild":
        return state.leader, "quest guild", {"pick": str(rng.randint(1, max(1, len(prompt.options))))}, asked
    if kind == "next-quest":
        return state.leader, "quest next", {"pick": "1"}, asked
    if kind == "side-quest":
        return who, "quest accept", {"pick": "1"}, asked
    if kind == "side-discard":
        return state.leader, "quest discard", {"side": "1"}, asked
    if kind == "route":
        return state.leader, "day route", route(state, pack, rng, prompt.options, delve=delve), asked
    if kind == "vote":
        return who, "day agree", {}, asked
    if kind == "card":
        return state.leader, "day choose", {"choice": card_choice(state, pack, rng, delve=delve)}, asked
    if kind == "chosen":
        member = rng.choice([o for o in state.adventurers if o in state.members] or [state.leader])
        return state.leader, "day pick", {"option": state.adventurers[member].name}, asked
    if kind in ("either", "town-effect"):
        return who, "day pick", {"option": "1"}, asked
    if kind == "check-dice":
        return who, "day check", {"dice": "all"}, asked
    if kind == "check-tenacity":
        return who, "day check", {"tenacity": 0}, asked
    if kind == "town":
        return (*town_action(state, pack, who), asked)
    if kind == "reward":
        return who, "reward done", {}, asked
    if kind == "rest":
        return who, "adventurer rest", ({"skip": True} if state.difficulty == "expert" else {}), asked
    raise RuntimeError(f"the bench does not know how to answer the day's {kind!r} question")


# ------------------------------------------------------------------ the route --
def quest_target(state, pack) -> tuple[Hex, bool] | None:
    """Where the guild quest's step is triggered, and whether the party must move into it (a landmark)."""
    from rulesets.tes.quest.common import content
    from rulesets.tes.quest.guild import extreme_landmark

    run = state.quests
    if run is None or not run.step or run.result:
        return None
    step = content(pack).step(run.step)
    if step is None:
        return None
    trig = step.trigger
    s = state.days
    prov = pack.provinces[s.province]
    here = Hex(*s.party)
    if trig.town:
        if trig.town != "any":
            h = prov.hex_of_town(trig.town)
            return (Hex(*h), False) if h else None
        towns = [Hex(*prov.hex_of_town(t)) for t in prov.towns if t not in s.closed]
        return (min(towns, key=lambda h: (distance(here, h), h)), False) if towns else None
    if trig.hex:
        return Hex(*trig.hex), False
    if trig.token:
        from rulesets.tes.overland.tokens import token

        tok = token(_ctx(state, pack), trig.token)
        return (Hex(tok.q, tok.r), False) if tok is not None else None
    if trig.landmark:
        if trig.where:
            h = extreme_landmark(prov, trig.landmark, trig.where)
            return (Hex(*h), True) if h else None
        marks = [Hex(*h) for h, f in prov.features.items()
                 if f[0] != "town" and (trig.landmark == "any" or f[0] == trig.landmark) and Hex(*h) != here]
        return (min(marks, key=lambda h: (distance(here, h), h)), True) if marks else None
    return None  # a linked step: triggered at once by the step before


def route(state, pack, rng: random.Random, options, *, delve: bool = False) -> dict:
    """The leader's route: toward the quest's step (the objective names the place; a hex the menu does not list is
    typed as q,r), else one of the menu's places reached without fatigue."""
    from engine.hexes import reachable
    from rulesets.tes.overland.geo import enterable
    from rulesets.tes.overland.travel import allowance

    s = state.days
    here = Hex(*s.party)
    target = quest_target(state, pack)
    if delve:  # --delve: the conflict landmarks first (their cards may go down into a delve)
        prov = pack.provinces[s.province]
        marks = [Hex(*h) for h, f in prov.features.items() if f[0] == "conflict" and Hex(*h) != here]
        if marks:
            target = min(marks, key=lambda h: (distance(here, h), h)), True
    if target is not None:
        goal, must_move = target
        if goal == here and not must_move:
            return {"stay": True}
        free, extra = allowance(_ctx(state, pack))
        reach = reachable(here, free + extra, enterable(pack.provinces[s.province], s))
        spots = [(distance(h, goal), d > free, d, h) for h, d in reach.items() if h != here]
        if spots:
            best = min(spots)
            if best[0] < distance(here, goal) or goal == here:
                return {"to": f"{best[3].q},{best[3].r}"}
    places = []
    for o in options:
        q, r = (int(v) for v in o.value.split(","))
        places.append((Hex(q, r), "fatigue" in (o.detail or "")))
    rested = [h for h, tired in places if not tired] or [h for h, _ in places]
    if not rested:
        return {"stay": True}
    h = rng.choice(rested)
    return {"to": f"{h.q},{h.r}"}


# ------------------------------------------------------------------- a card --
def card_choice(state, pack, rng: random.Random, *, delve: bool = False) -> int:
    """One of the card's open choices (a delve's first with ``--delve``), as the card's post lists them."""
    from rulesets.tes.cards.choices import available
    from rulesets.tes.cards.resolve import card_of

    c = _ctx(state, pack)
    enc = state.days.encounter
    card = card_of(c, enc)
    open_ = [ch for ch, why in available(c, enc, card) if why is None]
    if not open_:
        return 1
    if delve:
        down = [ch for ch in open_ if ch.outcome == "delve"]
        if down:
            return down[0].number
    return rng.choice(open_).number


# ------------------------------------------------------------------- a town --
def town_action(state, pack, owner: str) -> tuple[str, str, dict]:
    """An adventurer's town action: the first one of the visit goes to a feature, then they are done."""
    from rulesets.tes.town.visit import ACTIONS, town_def

    s = state.days
    visit = s.town
    town = town_def(_ctx(state, pack), visit)
    if visit.actions.get(owner, 0) >= ACTIONS:  # none spent yet: the first goes to a feature
        features = set(town.features)
        run = state.quests
        if "board" in features and owner == state.leader and run is not None and run.quest \
                and len(run.sides) < MAX_SIDES and not run.offer:
            return owner, "town visit", {"feature": "board"}
        if "shop" in features and len(visit.shop) >= town.shop_takes > 0:
            return owner, "town visit", {"feature": "shop", "item": ", ".join(visit.shop[:town.shop_takes])}
        if "square" in features and town.square is not None and not town.square.group:
            return owner, "town visit", {"feature": "square"}
    return owner, "town done", {}
