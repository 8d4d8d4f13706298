"""The battle engine: clash battles played on the hex map.

Modules, one concern each:

* ``state``      the battle's typed records (battle, unit, turn, waiting roll, questions) and their JSON
* ``model``      the battle's map (it can grow: ``place_tile``), units and the context object
* ``pool``       the enemy pool (EP) and drawing enemies from the level bags
* ``track``      the cooldown track, fatigue, status dice and recovery
* ``harm``       damage, prevention, healing and defeat
* ``effects``    the one registry of effect functions (keyed by effect type)
* ``engage``     the adventurers' move, engage and resolve steps
* ``enemy``      enemy turns: movement, targets, rolls and skills
* ``status``     status dice on chips: no duplicates, S-code dice back to their owner's track
* ``lockpick``   caches, the item decks and lockpick checks
* ``companion``  companions: joining, deployment and their turns after the adventurers
* ``objectives`` objectives, achievements and class rewards
* ``flow``       setup, turn order, rounds, end of battle and cleanup

``Campaign.battle`` is a ``state.Battle`` (saved as JSON through its ``to_dict``);
nothing here imports Discord or pictures.
"""
