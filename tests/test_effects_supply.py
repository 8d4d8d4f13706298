"""Limited components: the pack carries the rulebook's supply, and the rules stop when a kind runs out."""
from __future__ import annotations

from rulesets.tes.battle import track
from rulesets.tes.battle.effects import REGISTRY, Use, run_effects
from rulesets.tes.battle.enemy import roll_combat
from rulesets.tes.battle.lockpick import caches_left
from rulesets.tes.content import DEFAULT_PACK, Supply, load_pack

from battle_helpers import ctx, jailbreak, party


def _battle():
    """The Jailbreak on the starter pack as it is now (a campaign that recorded its version)."""
    s = party()
    s.pack_version = load_pack(DEFAULT_PACK).content_hash
    s, _ = jailbreak(s, {"S": "-2,2", "R": "-2,1"})
    return s


def test_the_starter_pack_has_the_rulebook_supply():
    assert load_pack(DEFAULT_PACK).supply == Supply(light_fatigue=20, overfatigue=12, status_dice=12,
                                                    enemy_combat_dice=6, cache_chips=6)
    assert (track.LIGHT_FATIGUE_DICE, track.OVERFATIGUE_DICE) == (20, 12)


def test_fatigue_from_an_effect_stops_at_the_supply():
    c = ctx(_battle())
    shannon, ryan = c.adv("S"), c.adv("R")
    ryan.cooldown[:] = [{"fatigue": "light"}] * 13
    shannon.cooldown[:] = [{"fatigue": "light"}] * 7 + [{"fatigue": "over"}] * 4
    ryan.active[:] = [{"fatigue": "over"}] * 7  # dice in active slots come from the same supply
    # in use: 20 light, 11 overfatigue
    eff = REGISTRY.validate({"type": "fatigue", "kind": "light", "amount": 3})[0]
    run_effects(Use(c, c.unit("a:S"), "Enfeeble"), [eff])
    # no light die left: the first becomes overfatigue (the 12th), then nothing is placed
    assert track.count(shannon, fatigue="light") == 7 and track.count(shannon, fatigue="over") == 5


def test_no_status_die_left_means_no_status():
    c = ctx(_battle())
    for u in c.b["units"].values():
        if u["side"] == "enemy":
            u["statuses"] = []
    c.adv("R").cooldown[:] = [{"status": s} for s in ("bane", "blind", "daze", "fear", "maim", "stealth")] * 2
    eff = REGISTRY.validate({"type": "status", "status": "daze"})[0]
    run_effects(Use(c, c.unit("a:S"), "Shield Bash", target="e1"), [eff])
    assert not c.has(c.unit("e1"), "daze")
    assert "no status dice are left in the supply" in c.events[-1].text
    c.adv("R").cooldown.pop()  # one die back in the supply
    run_effects(Use(c, c.unit("a:S"), "Shield Bash", target="e1"), [eff])
    assert c.has(c.unit("e1"), "daze")


def test_an_enemy_rolls_no_more_combat_dice_than_the_supply(monkeypatch):
    c = ctx(_battle())
    pack = c.pack
    e1 = c.unit("e1")
    from rulesets.tes.battle import enemy as enemy_rules

    real = enemy_rules.stats_of

    class Big:
        def __init__(self, base):
            self._base = base

        def __getattr__(self, name):
            return 9 if name == "combat" else getattr(self._base, name)

    monkeypatch.setattr(enemy_rules, "stats_of", lambda c_, u: Big(real(c_, u)))
    total, rolled = roll_combat(c, e1, None)
    assert len(rolled) == pack.supply.enemy_combat_dice == 6
    assert "Only 6 enemy Combat dice" in c.events[-1].text


def test_caches_beyond_the_supply_are_not_placed():
    from dataclasses import replace

    s = _battle()
    c = ctx(s)
    assert caches_left(c)  # the Jailbreak yard has its cache
    s.battle.pop("caches")
    c.pack = replace(c.pack, supply=replace(c.pack.supply, cache_chips=0))
    assert caches_left(c) == {}
