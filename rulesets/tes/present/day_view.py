"""What the party reads about its day: the overland picture's view model, the phase and who must act."""
from __future__ import annotations

from typing import Any

from rulesets.tes.day_state import PHASE_NAMES
from rulesets.tes.quest.endgame import day_limit, in_endgame

ASK_WORDS = {
    "route": "{who} proposes today's route (`/day route` or the menu)",
    "vote": "the party looks at the route: {who} may agree or object (`/day agree`, `/day object`)",
    "card": "{who} chooses how the party resolves the card (`/day choose` or the menu)",
    "chosen": "{who} chooses which adventurer gains it (`/day pick`)",
    "either": "{who} choose{s} an option each (`/day pick`)",
    "check-dice": "{who} may roll dice for the social check (`/day check dice:`)",
    "check-tenacity": "{who} commit{s} tenacity to the social check (`/day check tenacity:`)",
    "town-effect": "{who} chooses the town effect (`/day pick`)",
    "town": "{who} take{s} town actions (`/town visit`, `/town done`)",
    "reward": "{who} spend{s} XP (`/reward buy`, `/reward untrain`, `/reward done`)",
    "rest": "{who} rest{s} (`/adventurer rest`); trade first with `/day trade`",
    # the campaign's questions (rulesets.tes.session, rulesets.tes.quest)
    "guild": "{who} chooses the party's guild (`/quest guild` or the menu)",
    "next-quest": "{who} chooses the guild quest for session 2 (`/quest next` or the menu)",
    "side-quest": "{who} accept{s} one side quest or neither (`/quest accept` or the menu)",
    "side-discard": "{who} chooses the side quest to discard (`/quest discard` or the menu)",
}


def waiting_line(state, mention) -> tuple[str, list[str]]:
    """(who must act and how, in words; the players to ping) for the day's question, or ('', [])."""
    s = state.days
    if s is None or s.ask is None or state.battle is not None:
        return "", []
    owners = [o for o in s.ask.owners if o in state.members] or [state.leader]
    who = ", ".join(mention(o) for o in owners)
    plural = len(owners) > 1
    words = ASK_WORDS.get(s.ask.kind, "{who} must answer")
    return "Now: " + words.format(who=who, s="" if plural else "s") + ".", owners


def overland_view(state, pack) -> dict[str, Any]:
    """The view model ``render.render("overland", ...)`` draws."""
    s = state.days
    prov = pack.provinces[s.province]
    hexes = []
    for (q, r), letter in sorted(prov.hexes.items(), key=lambda kv: (kv[0][1], kv[0][0])):
        name, colour = prov.terrain.get(letter, ("?", "#cccccc"))
        h: dict[str, Any] = {"q": q, "r": r, "terrain": letter, "color": colour}
        f = prov.features.get((q, r))
        if f is not None:
            h["feature"] = f[0]
            if f[0] == "town":
                h["town"] = f[1]
                h["name"] = prov.towns[f[1]].name
            elif f[1]:
                h["name"] = f[1]
        hexes.append(h)
    eff = prov.effect
    phase = PHASE_NAMES.get(s.phase, s.phase)
    where = prov.town_at(tuple(s.party))
    status = f"{phase} Phase" if s.phase != "over" else "The session is over"
    if s.encounter is not None and s.phase in ("encounter", "reward"):
        enc = s.encounter
        if enc.card and enc.card in pack.overland_cards:
            status += f" · {pack.overland_cards[enc.card].name}"
        elif enc.kind in ("town", "caravan") and enc.town:
            t = prov.caravan if enc.kind == "caravan" else prov.towns.get(enc.town)
            status += f" · {t.name if t else enc.town}"
    elif in_endgame(state):
        status += " · the endgame"
    elif where is not None:
        status += f" · in {where.name}"
    view = {
        "title": f"{prov.name} ({prov.code})",
        "version": f"{pack.id}-{pack.content_hash}-{prov.id}",
        "hexes": hexes,
        "terrain": [{"letter": k, "name": v[0], "color": v[1]} for k, v in prov.terrain.items()],
        "closed": list(s.closed),
        "party": None if in_endgame(state) else {"q": s.party[0], "r": s.party[1]},
        "route": [list(p) for p in s.route] if len(s.route) > 1 else [],
        "proposal": [list(p) for p in s.proposal.path] if s.proposal is not None else [],
        "tokens": [{"kind": t.kind, "name": t.name, "q": t.q, "r": t.r, "path": [list(p) for p in t.path]}
                   for t in s.tokens],
        "day": state.day_dial or None,
        "day_limit": day_limit(state, pack),
        "status": status,
        "gauge": {"name": eff.gauge, "at": s.gauge,
                  "steps": [{"id": st.id, "name": st.name, "movement": st.movement} for st in eff.steps]},
        "compass": {"corner": prov.compass_corner, "faces": list(prov.compass_faces)},
        "log": list(s.log[-4:]),
    }
    return view
