"""The installed rulesets.  Each is a package that registers itself with the engine when imported.

Adding a ruleset is one line here (see docs/architecture.md, "Adding a ruleset").
"""
from __future__ import annotations

import importlib

INSTALLED = (
    "rulesets.tes",  # The Elder Scrolls: Betrayal of the Second Era (reads campaigns saved before rulesets existed)
    "rulesets.skirmish",  # Skirmish battles between warbands (Channel Magic, Retreat, Wait)
    "rulesets.engage",  # A miniatures game's Engage phase (run distance, out-of-sight roll, intercepts, Fear)
    "rulesets.duel",  # Duels on twelve-sided dice with hidden action cards and a Priority track
)


def load_all() -> None:
    """Import every installed ruleset: its rules, content schema, commands and presenter register."""
    for name in INSTALLED:
        importlib.import_module(name)
