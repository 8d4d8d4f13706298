"""The Overland Phase (pp.34-36 and 46): the party token's movement with fatigue movement, the encounter its
hex triggers, NPC tokens that move, and the province effect at the End of Day.

* ``geo``      the overland map as hexes: what can be entered, routes, the closest town
* ``travel``   base movement, the route's check, fatigue movement, triggering the encounter
* ``tokens``   NPC and objective tokens moving along the shortest route (p.46)
* ``province`` the province effect: its gauge placed on day 1 and activated by the peaceful card's icons
"""
