"""What changes adventurers and the party outside battle: the day's effect primitives, the mat's advancements,
the session's decks and the context every day step works with.

Below the overland, cards, town, reward and day packages, above the battle engine (it borrows the battle's
cooldown-track, inventory and item-deck helpers, which work with no battle under way).
"""
