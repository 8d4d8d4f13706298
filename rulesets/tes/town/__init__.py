"""Town encounters (pp.38-41): the town effect, the shop and trainer revealed, two town actions per adventurer at
the town's features (shop, trainer, inn, alchemy station, town square, guild kiosk, quest board), closed towns,
and the traveling caravan resolved the same way from its gazetteer entry.

* ``visit``     beginning a visit (town effect, reveal, side-quest slot), its end
* ``features``  what each feature does when an adventurer uses a town action there
"""
