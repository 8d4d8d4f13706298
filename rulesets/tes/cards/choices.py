"""Which of a card's choices the party may take (p.36-37).

* A choice whose requirements the party does not meet cannot be chosen.
* At an unstable landmark, a card's unstable choices must be resolved: only they are offered.
* A choice gated by a social check that failed cannot be chosen again (a check is attempted once).
"""
from __future__ import annotations

from engine.text import a_or_an

from rulesets.tes.content.overland import CardChoice, OverlandCard
from rulesets.tes.day_state import Encounter
from rulesets.tes.outcomes.context import DayCtx


def unmet(c: DayCtx, choice: CardChoice) -> str | None:
    """Why the party does not meet the choice's requirements, or None."""
    need = choice.requires
    advs = [c.adv(o) for o in c.party()]
    if "tenacity" in need:
        have = sum(a.tenacity for a in advs)
        if have < need["tenacity"]:
            return f"needs {need['tenacity']} tenacity in the party (it has {have})"
    if "hp" in need:
        low = [a.name for a in advs if a.hp < need["hp"]]
        if low:
            return f"needs every adventurer to have at least {need['hp']} HP ({', '.join(low)} {'has' if len(low) == 1 else 'have'} less)"
    if "line" in need:
        if not any(need["line"] in a.lines() for a in advs):
            line = c.pack.lines.get(need["line"])
            return f"needs an adventurer trained in {line.name if line else need['line']}"
    if "keyword" in need:
        journal = c.state.journal
        held = journal.keywords() if journal is not None else []
        if need["keyword"] not in held:
            kw = getattr(c.pack, "campaign", None)
            kw = kw.keywords.get(need["keyword"]) if kw is not None else None
            return f"needs the keyword {kw.name if kw else need['keyword']}"
    if "item" in need:
        if not any(c.pack.items[i].subtype == need["item"] for a in advs for i in a.ready + a.pack
                   if i in c.pack.items):
            return f"needs an adventurer carrying {a_or_an(need['item'] + ' item')}"
    return None


def available(c: DayCtx, enc: Encounter, card: OverlandCard) -> list[tuple[CardChoice, str | None]]:
    """Every choice with the reason it cannot be taken now (None: it can)."""
    at_unstable = enc.landmark == "unstable"
    has_unstable = any(ch.unstable for ch in card.choices)
    out = []
    for ch in card.choices:
        why = None
        if at_unstable and has_unstable and not ch.unstable:
            why = "at an unstable landmark the unstable choice must be resolved"
        elif ch.number in enc.tried:
            why = "its social check failed (a check is attempted once)"
        else:
            why = unmet(c, ch)
        out.append((ch, why))
    return out


def open_choices(c: DayCtx, enc: Encounter, card: OverlandCard) -> list[CardChoice]:
    return [ch for ch, why in available(c, enc, card) if why is None]
