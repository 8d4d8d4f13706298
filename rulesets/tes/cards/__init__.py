"""Overland encounters (pp.36-38 and 42): a card's choices and requirements, social checks, outcomes applied by
the effect primitives of the day, and battles started from a card whose result feeds it.

* ``choices``  which choices the party may take (requirements, unstable choices, checks already failed)
* ``social``   social checks: dice of the named lines rolled first, then tenacity committed; once per check
* ``resolve``  taking a choice, the decisions its effects need (who, each adventurer's option), the outcome,
               and a clash choice's battle
"""
