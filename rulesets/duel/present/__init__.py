"""The duel's front: its /duel commands, its presenter for the shared commands, buttons and private menus."""
