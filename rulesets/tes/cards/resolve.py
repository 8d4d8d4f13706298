"""Resolving an overland card (pp.36-38): the party takes one choice; a social check, the decisions its effects
need and a clash choice's battle come first; then its outcome.

``proceed`` is called by the day's driver until the encounter has a result: it asks what must be asked (the
leader's choice, a social check, who gains an item, each adventurer's option) and otherwise moves on by
itself.  A peaceful choice succeeds unless its text says otherwise; a battle choice succeeds when the battle
is won (the objective achieved with an adventurer standing).
"""
from __future__ import annotations

from engine.core import RuleError, strong
from rulesets.tes.battle import flow
from rulesets.tes.cards import social
from rulesets.tes.cards.choices import available, open_choices
from rulesets.tes.content.overland import CardChoice, OverlandCard
from rulesets.tes.day_state import Encounter
from rulesets.tes.outcomes import effects as day_effects
from rulesets.tes.outcomes.asks import answered, close, open_ask
from rulesets.tes.outcomes.context import DayCtx

DELVE_LATER = ("Delve battles are not in the bot yet, so a delve choice cannot be taken; choose another way "
               "(docs/rules-notes.md, \"Not in the bot yet\").")


def card_of(c: DayCtx, enc: Encounter) -> OverlandCard:
    """The encounter's card: an overland card, or a quest encounter's (a step, a side quest, an endgame day,
    read the same way: ``rulesets.tes.content.quests``)."""
    card = c.pack.overland_cards.get(enc.card)
    if card is None and getattr(c.pack, "campaign", None) is not None:
        card = c.pack.campaign.cards.get(enc.card)
    if card is None:
        raise RuleError(f"This pack version has no card `{enc.card}`.")
    return card


def choice_of(c: DayCtx, enc: Encounter) -> CardChoice | None:
    if enc.choice is None:
        return None
    return card_of(c, enc).choices[enc.choice - 1]


def present(c: DayCtx, enc: Encounter) -> None:
    """Read the card: its story and its choices (the Encounter Phase begins)."""
    card = card_of(c, enc)
    c.say("card", f"📜 {strong(card.name)} ({card.label}): {card.story}", card=card.id)
    for ch, why in available(c, enc, card):
        icon = {"peaceful": "🕊️", "clash": "⚔️", "delve": "🔦", "dungeon": "🏯"}[ch.outcome]  # dungeon: quests only
        tag = " (unstable)" if ch.unstable else ""
        tail = f" — not open: {why}." if why else ""
        c.say("card-choice", f"{ch.number}. {icon}{tag} {strong(ch.title)} (☼ {ch.xp} XP): {ch.text}{tail}",
              card=card.id, choice=ch.number)


def proceed(c: DayCtx, enc: Encounter) -> bool:
    """Move the card's resolution on; True once it has a result (success or failed)."""
    for _ in range(20):
        if enc.result:
            return True
        if c.s.ask is not None or c.state.battle is not None:
            return False
        card = card_of(c, enc)
        choice = choice_of(c, enc)
        if choice is None:
            offered = [ch for ch in open_choices(c, enc, card)]
            takeable = [ch for ch in offered if ch.outcome != "delve" or delve_ready(c)]
            if not takeable:
                why = (" (its only way is a delve battle, not in the bot yet)" if offered else
                       " (no choice is open to the party)")
                c.say("card-failed", f"The party cannot resolve {card.name}{why}: the encounter is failed.")
                enc.result = "failed"
                return True
            if len(offered) == 1 and len(takeable) == 1:
                c.say("card-auto", f"Only one way is open: {strong(takeable[0].title)}.")
                take(c, enc, takeable[0].number)
                continue
            open_ask(c, "card", [c.state.leader], card=card.id)
            return False
        if choice.check is not None and enc.check is not None and not enc.check.result:
            return False
        if choice.check is not None and choice.check.mode == "gate" and enc.check is not None \
                and enc.check.result == "failure":
            enc.tried.append(choice.number)
            enc.choice, enc.check = None, None
            c.say("card", f"{choice.title} cannot be chosen after the failed check: the party chooses again.")
            continue
        if choice.outcome in ("clash", "delve", "dungeon"):
            if enc.battle is None:
                start_battle(c, enc, choice)
                continue
            last = c.state.last_battle
            won = last is not None and last.no == enc.battle and last.outcome == "victory"
            effects = choice.effects if won else choice.failed
            if not decided(c, enc, effects):
                return False
            finish(c, enc, choice, effects, success=won)
            return True
        effects = list(choice.effects)
        if choice.check is not None and choice.check.mode == "bonus" and enc.check is not None \
                and enc.check.result == "success":
            effects += list(choice.check.effects)
        if not decided(c, enc, effects):
            return False
        finish(c, enc, choice, effects, success=True)
        return True
    return False


def delve_ready(c: DayCtx) -> bool:
    """Whether delve battles can be played (the battle engine says so: ``flow.DELVE_BATTLES``)."""
    return bool(getattr(flow, "DELVE_BATTLES", False))


def take(c: DayCtx, enc: Encounter, number) -> None:
    """The party takes a choice (the leader's answer)."""
    card = card_of(c, enc)
    try:
        n = int(number)
    except (TypeError, ValueError):
        raise RuleError(f"Choose a choice by its number, 1 to {len(card.choices)}.") from None
    states = {ch.number: why for ch, why in available(c, enc, card)}
    if n not in states:
        raise RuleError(f"{card.name} has choices 1 to {len(card.choices)}.")
    ch = card.choices[n - 1]
    if states[n]:
        raise RuleError(f"{ch.title} cannot be chosen: it {states[n]}.")
    if ch.outcome == "delve" and not delve_ready(c):
        raise RuleError(DELVE_LATER)
    enc.choice = n
    close(c)
    c.say("card-take", f"The party chooses {strong(ch.title)}.", choice=n)
    if ch.check is not None:
        social.start(c, enc, ch.check)


def start_battle(c: DayCtx, enc: Encounter, choice: CardChoice) -> None:
    card = card_of(c, enc)
    party = [o for o in c.party() if c.adv(o).hp > 0]
    if not party:
        c.say("battle", "Every adventurer is defeated: the party cannot fight, and the encounter is failed.")
        enc.battle = -1
        enc.defeated = True
        return
    lead = c.state.leader
    if lead in party:
        i = party.index(lead)
        party = party[i:] + party[:i]
    left_out = [c.adv(o).name for o in c.party() if o not in party]
    if left_out:
        c.say("battle", f"{', '.join(left_out)} {'is' if len(left_out) == 1 else 'are'} defeated and "
                        "stays out of this battle.")
    # an overland card's delve choice goes below ground (a kept pack version's card without a delve played its
    # encounter); a quest card (a step, a side quest, an endgame day) has one encounter, whose mode its battle
    # choices name (a battle-first card fights before any choice: ``choice`` is None)
    delve = choice is not None and choice.outcome == "delve" and getattr(card, "delve", None)
    battle = delve or card.encounter
    # a quest's final battle uses the End of Session EP of the campaign's session (p.56)
    session_table = c.state.session if getattr(card, "final", False) else None
    flow.setup(c, battle, party, None, None, session_table, province=c.s.code)
    enc.battle = c.state.battle.no
    flow.proceed(c)


def decided(c: DayCtx, enc: Encounter, effects) -> bool:
    """Ask what the effects need decided before they run; True when nothing is left to ask."""
    for key in day_effects.needs_choice(effects):
        if key not in enc.chosen:
            open_ask(c, "chosen", [c.state.leader], key=key, what=day_effects.describe([effects[int(key) - 1]]))
            return False
    for eff in day_effects.chooses(effects):
        unstable = enc.landmark == "unstable"
        waiting = [o for o in c.party() if o not in enc.picks and c.adv(o).hp > 0
                   and day_effects.forced_option(c, o, eff, unstable) is None]
        if waiting:
            open_ask(c, "either", waiting, options=[o["title"] for o in eff["options"]])
            return False
    return True


def choose_adventurer(c: DayCtx, enc: Encounter, target: str) -> None:
    ask = c.s.ask
    key = str(ask.data.get("key"))
    if target not in c.state.adventurers:
        raise RuleError("Choose an adventurer of the party.")
    enc.chosen[key] = target
    c.say("chosen", f"The party chooses {c.adv(target).name} to {ask.data.get('what')}.", player=target)
    close(c)


def pick_option(c: DayCtx, enc: Encounter, owner: str, option) -> None:
    options = c.s.ask.data.get("options") or []
    try:
        n = int(option)
    except (TypeError, ValueError):
        n = 0
    if not 1 <= n <= len(options):
        raise RuleError("Pick one of the options: " + ", ".join(f"{i}. {t}" for i, t in enumerate(options, 1)) + ".")
    enc.picks[owner] = n
    c.say("pick", f"{c.adv(owner).name} chooses: {options[n - 1]}.", player=owner)
    if answered(c, owner):
        close(c)


def finish(c: DayCtx, enc: Encounter, choice: CardChoice, effects, *, success: bool) -> None:
    card = card_of(c, enc)
    label = f"{card.name}: {choice.title}"
    if choice.manual and not effects:
        c.say("manual", f"📝 {label}: {choice.text} (the party applies this)", manual=True)
    day_effects.run(c, effects, label, chosen=enc.chosen, picks=enc.picks, unstable=enc.landmark == "unstable")
    enc.result = "success" if success else "failed"
    enc.xp = choice.xp if success else 0
    c.say("card-done", f"{card.name} is {'resolved' if success else 'failed'}"
                       + (f": ☼ {choice.xp} XP in the Reward Phase." if success else "."), result=enc.result)
