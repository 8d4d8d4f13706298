"""The Reward Phase (pp.43-44) and advancements (p.31): XP on the dial and each mat, bonus XP, the unstable
landmark's tenacity, untraining, spending XP (attribute squares, skill dice, the Cooldown stat, tenacity), the
cap of 3 saved XP with the excess turned into tenacity, promotion, and the track-quests step (the quests fill it).

* ``phase``  the phase's steps and the players' answers
"""
