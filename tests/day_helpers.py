"""Helpers for the tests of the campaign's day: the rulebook's two adventurers, actions with forced dice."""
from __future__ import annotations

from engine.core import Action, RuleError
from rulesets.tes import rules
from rulesets.tes.content import load_pack
from rulesets.tes.state import RULES

RYAN, SHANNON = "ryan", "shannon"


def guild_stack(first: str = "mages-guild") -> list[str]:
    """Every guild card, ``first`` first: stacked at ``day.start``, the guild draw rolls no die."""
    guilds = sorted(load_pack("starter").campaign.guilds)
    return [first] + [g for g in guilds if g != first]


def run(state, type_, actor, args=None, forced=None, on_behalf=None, now=1_700_000_000.0, guild="mages-guild"):
    """One action with the rules.  A session's start answers its guild draw with ``guild`` (the Mages Guild:
    its Sunken Chime starts in Brinehold and its first step is far from the towns and landmarks these tests
    visit), so the day's tests play their days; ``guild=None`` leaves the question open."""
    if type_ == "day.start" and guild:
        args = dict(args or {})
        args["stack"] = guild_stack(guild) + list(args.get("stack") or [])
    dice = rules.dice_for(state, forced) if forced is not None else rules.dice_for(state)
    applied = rules.execute(state, Action(type_, actor, args or {}, on_behalf=on_behalf), dice, now)
    state, events = applied.state, applied.events
    if type_ == "day.start" and guild and state.days is not None and state.days.ask is not None \
            and state.days.ask.kind == "guild":
        applied = rules.execute(state, Action("quest.guild", state.leader, {"pick": "1"}), rules.dice_for(state), now)
        state, events = applied.state, events + applied.events
    return state, events


def said(events) -> str:
    from engine.present import say

    return "\n".join(say(e) for e in events)


def examples_party(difficulty: str = "adept", *, rules_revision: int = RULES):
    """Ryan (Dark Elf, Destruction Staff, the leader) and Shannon (Argonian, One Hand and Shield), placed as in
    the rulebook's Adventurer Creation Examples (examples/creation.txt)."""
    s, _ = run(None, "campaign.new", RYAN, {"name": "Outer Watch", "difficulty": difficulty, "pack": "starter",
                                            "channel_id": "c", "guild_id": "g", "seed": 11,
                                            "pack_version": load_pack("starter").content_hash,
                                            "rules": rules_revision})
    s, _ = run(s, "adventurer.create", RYAN, {"name": "Ryan", "race": "dark-elf", "line": "destruction-staff",
                                              "klass": "sorcerer", "health": "1L", "stamina": "2L", "combat": "2R",
                                              "magicka": "3L", "skill": "4L"})
    s, _ = run(s, "campaign.join", SHANNON)
    s, _ = run(s, "adventurer.create", SHANNON, {"name": "Shannon", "race": "argonian",
                                                 "line": "one-hand-and-shield", "klass": "acrobat", "health": "1L",
                                                 "stamina": "2L", "combat": "3L", "magicka": "4L", "skill": "4R"})
    return s


def stack(state, *cards):
    state, _ = run(state, "day.stack", state.leader, {"cards": list(cards)})
    return state


def refused(state, type_, actor, args=None, **kw) -> str:
    try:
        run(state, type_, actor, args, **kw)
    except RuleError as exc:
        return exc.message
    raise AssertionError(f"{type_} was not refused")


# the general cards taken into the decks at set-up (the first four of each type), so tests know the decks
DECK_STACK = ["ge-p01", "ge-p02", "ge-p03", "ge-p04", "ge-c01", "ge-c02", "ge-c03", "ge-c04"]
# Brinehold's shop on day 1: these six, so the other commons stay in the deck for the tests
BRINEHOLD_SHOP = ["spiced-mead", "lockpick-set", "rune-of-warding", "stamina-tonic", "healing-draught",
                  "travellers-cloak"]
LANDMARK_HEX = {"peaceful": [3, 7], "conflict": [4, 5], "unstable": [3, 3]}  # from Brinehold at Low Tide
UNSTABLE_DIE = {"conflict": 1, "caravan": 3, "peaceful": 6}


def deck_stack(card: str | None = None) -> list[str]:
    """The general cards taken into the decks: the first four of each type, or ``card`` and three others."""
    stack = list(DECK_STACK)
    if card and card.startswith("ge-") and card not in stack:
        kind = "ge-p" if card.startswith("ge-p") else "ge-c"
        first = next(i for i, c in enumerate(stack) if c.startswith(kind))
        stack[first] = card
    return stack


def day_two(difficulty: str = "adept", setup=None, *, players=(RYAN, SHANNON), general=None):
    """Day 1 at Brinehold spent (nobody acts in town), Low Tide kept; the state waits for day 2's route."""
    s = examples_party(difficulty)
    if players == (RYAN,):
        s, _ = run(s, "adventurer.retire", SHANNON, {"confirm": True})
        s, _ = run(s, "campaign.leave", SHANNON)
    if setup is not None:
        setup(s)
    s, _ = run(s, "day.start", RYAN, {"province": "saltmire", "stack": (general or DECK_STACK) + BRINEHOLD_SHOP
                                                   + ["sm-p01"]})
    for who in players:
        s, _ = run(s, "town.done", who)
    for who in players:
        s, _ = run(s, "day.rest", who, {"skip": True} if difficulty == "expert" else {})
    assert s.days.ask.kind == "route", s.days.ask
    return s


def at_card(card: str, landmark: str | None = None, with_before: bool = False, *, day=None, hexes=None, **kw):
    """Day 2: the party moves onto a landmark and draws ``card`` (a peaceful card at a peaceful landmark, a
    conflict card at a conflict one, unless ``landmark`` says otherwise).  Returns (state, words), and with
    ``with_before`` the state just before the party set out too.  ``day`` and ``hexes``: another province's
    day two (a function of ``kw``) and its landmarks within reach."""
    from rulesets.tes.content import load_pack

    kind = load_pack("starter").overland_cards[card].kind
    landmark = landmark or kind
    s = day(**kw) if day is not None else day_two(general=deck_stack(card), **kw)
    s = stack(s, card)
    forced = [UNSTABLE_DIE[kind]] if landmark == "unstable" else None
    s, ev = run(s, "day.route", RYAN, {"to": (hexes or LANDMARK_HEX)[landmark]})
    before = s
    if s.days.ask is not None and s.days.ask.kind == "vote":
        s, ev2 = run(s, "day.vote", SHANNON, {}, forced=forced)
        ev = ev + ev2
    return (s, said(ev), before) if with_before else (s, said(ev))


def train(state, owner: str, line: str, dice: list[str], slot=(4, "L")):
    """Put a skill line and dice on an adventurer's mat (as a trainer and XP would)."""
    from rulesets.tes.outcomes import mat

    pack = load_pack(state.pack, version=state.pack_version)
    adv = state.adventurers[owner]
    mat.add_line(adv, line, slot)
    for d in dice:
        adv.saved_xp += 5
        mat.buy(state, adv, pack, f"die:{d}")
        adv.saved_xp = 0
