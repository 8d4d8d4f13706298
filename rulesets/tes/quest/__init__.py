"""Quests (rulebook pp.46-48, with p.34's quest encounters and p.40's quest board and guild kiosk).

``common`` (the campaign's content and records as the rules read them), ``effects`` (the effect primitives a
quest adds to the day: keywords, side-quest cards, overland tokens, named items, the shop's refresh),
``guild`` (the guild quest: steps revealed one at a time, their set-up, triggers, ongoing effects, linked
steps, success and failure), ``sides`` (side quests: the quest board, cards from encounters, the limit of 4,
tallies, completion in towns), ``endgame`` (the endgame's day-by-day encounters and their keywords),
``encounter`` (a quest encounter triggered and resolved in the day), ``kiosk`` (the guild's town action) and
``actions`` (the party's answers).

Below the day's driver and the session, above the cards, towns and rewards it fills the slots of: the first
trigger of the Overland Phase (``overland.travel.QUEST_TRIGGERS``), a town's side quests
(``town.visit.TOWN_HOOKS``), the kiosk and the board (``town.features.FEATURES``) and the Reward Phase's
track-quests step (``reward.phase.TRACK_HOOKS``).
"""
