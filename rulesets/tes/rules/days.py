"""The session's days (rulebook pp.12-14 and 34-46): the actions of the day packages, registered on this
ruleset's action table.

Each day package owns its actions (``rulesets.tes.day``, ``overland``, ``cards``, ``town``, ``reward``); this
module puts them on the table, which lives here in the rules layer above them.
"""
from __future__ import annotations

# The effect primitives of the day register themselves as they are imported (the content loader checks
# every card against them).
from rulesets.tes.outcomes import effects as _effects  # noqa: F401
