"""Setting a session up (pp.12-14; province codes p.15).

1. The province: its overland map and gazetteer from the pack.
2. The enemy bags: chips with no province code or the province's code (``Session.code``: battles the day starts
   draw only from them).  The trainer bag: every skill line's tokens (2 each, Combat aside) not on a mat.
3. The decks: each overland deck takes 4 of the general cards of its type at random and the province's cards
   of that type; the delve deck takes the general delve cards and the province's, without its special (SP)
   cards; the side-quest deck takes every side quest.  Item decks are the campaign's.
4. The dials: the XP Dial keeps its position; the Day Dial is unset until the first New Day.
7. The party token starts in the province's starting town (a quest may name another), with the province's
   overland tokens on their hexes.

The endgame (session 3, p.51) draws no overland deck and places no party token: the party does not move (the
session keeps the starting town's hex as where its encounters happen, and no picture draws it).
"""
from __future__ import annotations

from engine.core import RuleError, strong
from engine.text import count
from rulesets.tes.content.overland import DECK_TYPES, GENERAL
from rulesets.tes.day_state import Deck, Session, Token
from rulesets.tes.outcomes import decks
from rulesets.tes.outcomes.context import DayCtx
from rulesets.tes.outcomes.mat import LINE_TOKENS, line_tokens_in_use

GENERAL_PER_DECK = 4  # general cards shuffled into each overland deck (p.12)


def _newest(pack_id: str) -> str:
    from rulesets.tes.content import load_pack

    try:
        return load_pack(pack_id).content_hash
    except Exception:  # noqa: BLE001 - a pack that does not load has no newer version to offer
        return ""


def _endgame_next(state, pack) -> bool:
    """Whether the session being set up is the campaign's endgame (its third)."""
    from rulesets.tes.quest.common import quests_on
    from rulesets.tes.session.setup import SESSIONS, number

    return quests_on(state, pack) and number(state) >= SESSIONS


def start(c: DayCtx, province_id: str | None, stacked: list[str] | None = None) -> None:
    """``stacked``: cards to come out first from their decks (the local table's and the tests' forced draws)."""
    state, pack = c.state, c.pack
    if not pack.provinces:
        if state.pack_version and pack.content_hash != _newest(state.pack):
            raise RuleError(f"This campaign plays an earlier version of the `{state.pack}` pack, which has no "
                            "province yet. The party leader moves it onto the newest with `/campaign update`.")
        raise RuleError(f"The content pack `{state.pack}` has no province to play a session in.")
    pid = province_id or next(iter(pack.provinces))
    prov = pack.provinces.get(pid) or next((p for p in pack.provinces.values()
                                            if p.name.lower() == str(pid).lower() or p.code == str(pid).upper()),
                                           None)
    if prov is None:
        raise RuleError(f"There is no province `{pid}` in this pack. Provinces: "
                        + ", ".join(f"{p.name} (`{k}`)" for k, p in pack.provinces.items()) + ".")
    s = Session(province=prov.id, code=prov.code, stacked=list(stacked or []))
    endgame = _endgame_next(state, pack)
    state.days = s
    state.day_dial = 0
    c.say("session", f"🗺️ A session begins in {strong(prov.name)} ({prov.code}). {prov.description}",
          province=prov.id)
    # decks
    for kind in DECK_TYPES if not endgame else ():
        general = sorted(k for k, card in pack.overland_cards.items() if card.code == GENERAL and card.kind == kind)
        chosen = decks.pick(s, general, GENERAL_PER_DECK, c.dice)
        own = list(prov.cards.get(kind, ()))
        s.decks[kind] = Deck(pool=chosen + own)
        c.say("setup", f"The {kind} deck: {len(chosen)} of {len(general)} general cards and the province's "
                       f"{len(own)}, shuffled ({count(len(chosen) + len(own), 'card')}).", deck=kind)
    delve = getattr(pack, "delve_cards", None) or {}
    delve_ids = sorted(k for k, card in delve.items()  # general cards and the province's, its special ones out
                       if getattr(card, "province", None) in (None, "", prov.code) and not getattr(card, "special", False))
    s.decks["delve"] = Deck(pool=delve_ids)
    camp = getattr(pack, "campaign", None)
    side = sorted(camp.side_quests) if camp is not None else []
    s.decks["side-quest"] = Deck(pool=side)
    if delve_ids or side:
        c.say("setup", f"The delve deck: {count(len(delve_ids), 'card')} (special cards removed); the side-quest deck: "
                       f"{count(len(side), 'card')}.")
    # bags
    bags = {"1/5": set(), "10/20": set()}
    for e in pack.enemies.values():
        if e.quest_unit or getattr(e, "province", None) not in (None, "", prov.code):
            continue
        bags.setdefault(e.bag, set()).add(e.chip)
    c.say("setup", f"Enemy bags for {prov.code}: {count(len(bags['1/5']), 'chip')} in the level 1/5 bag, "
                   f"{len(bags['10/20'])} in the level 10/20 bag (chips of other provinces stay in the box).")
    # trainer bag
    bag: list[str] = []
    for line_id in sorted(pack.lines):
        if line_id == "combat":
            continue
        bag += [line_id] * max(0, LINE_TOKENS - line_tokens_in_use(state, line_id))
    s.trainer_bag = bag
    # dials, the party token, overland tokens
    town = prov.towns.get(prov.start) or next(iter(prov.towns.values()))
    h = prov.hex_of_town(town.id)
    s.party = [h[0], h[1]]
    s.tokens = [Token(t.id, t.kind, t.name, t.hex[0], t.hex[1]) for t in prov.tokens]
    tokens = "; ".join(f"the {t.name} at {t.hex[0]},{t.hex[1]}" for t in prov.tokens)
    if endgame:
        c.say("setup", f"The XP Dial stays at {state.xp_dial}; the Day Dial is set at the first New Day. No overland "
                       "deck is drawn and no party token is placed: the endgame's party does not move"
                       + (f"; {tokens}." if tokens else "."))
    else:
        c.say("setup", f"The XP Dial stays at {state.xp_dial}; the Day Dial is set at the first New Day. The party "
                       f"token starts in {town.name} ({h[0]},{h[1]})" + (f"; {tokens}." if tokens else "."))
