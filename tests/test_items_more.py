"""The starter pack's second shelf of item cards (the shop's and the caches' stock), each used as its card says,
with forced dice.  The first shelf is tests/test_items.py; its coverage test counts these too."""
from __future__ import annotations

import pytest
from battle_helpers import ctx, jailbreak, party, run, texts

from engine.core import RuleError
from rulesets.tes.battle import harm


def _battle(ready=(), who="S", **where):
    s = party()
    s, _ = jailbreak(s, {"S": "-2,2", "R": "-2,1"})
    s.adventurers[who].ready = list(ready)
    for uid, (q, r) in where.items():
        s.battle["units"][uid].update(q=q, r=r)
    # both bandits plain Argonian Bandits (the High Elf's Dodge would blur what a card does)
    s.battle["units"]["e1"].update(enemy="argonian-bandit", name="Argonian Bandit")
    return s


def _ryan_turn(s):
    """Shannon ends her turn so that Ryan (Destruction Staff, magic form) acts."""
    s, _ = run(s, "battle.endturn", "S")
    return s


def _engage(s, who, item, form, forced, *, target="e1", overtax=False, dice="combat"):
    args = {"form": form, "target": target, "item": item}
    if dice:
        args["dice"] = dice
    if overtax:
        args["overtax"] = True
    return run(s, "battle.engage", who, args, forced=list(forced))


def _skeleton(s, uid="e1"):
    """The unit becomes a Skeleton (defense 1), to see a pierce at work."""
    s.battle["units"][uid].update(enemy="skeleton", name="Skeleton", hp=3, max_hp=3)
    return s


def _hp(s, uid):
    u = s.battle["units"][uid]
    return 0 if u["defeated"] else u["hp"]


def _hit(s, n, by="e1", who="S"):
    c = ctx(s)
    taken = harm.damage_adventurer(c, who, n, source=c.unit(by), label="Bandit")
    return taken, texts(c.events)


def _use(s, item, who="S", **args):
    return run(s, "item.use", who, {"item": item, **args})


# ------------------------------------------------------------------- weapons: light --
def test_item_steel_dagger():
    s = _battle(["steel-dagger"], e1=(-1, 2))
    s, _ = _engage(s, "S", "steel-dagger", "light", [1], overtax=True)
    reroll = s.battle["pending"]["rerolls"][0]
    assert reroll["left"] == 1 and reroll["blank_only"]
    s, ev = run(s, "battle.resolve", "S", {})
    assert "bane" in s.battle["units"]["e1"]["statuses"] and "steel-dagger" not in s.adventurers["S"].ready


def test_item_flanged_mace():
    s = _skeleton(_battle(["flanged-mace"], e1=(-1, 2)))
    s, _ = _engage(s, "S", "flanged-mace", "light", [1], overtax=True)
    s, ev = run(s, "battle.resolve", "S", {})
    assert _hp(s, "e1") == 2  # 1 damage through the Skeleton's 1 defense
    assert "daze" in s.battle["units"]["e1"]["statuses"] and "flanged-mace" not in s.adventurers["S"].ready
    plain = _skeleton(_battle([], e1=(-1, 2)))
    plain, _ = run(plain, "battle.engage", "S", {"form": "light", "dice": "combat", "target": "e1"}, forced=[1])
    plain, _ = run(plain, "battle.resolve", "S", {})
    assert _hp(plain, "e1") == 3  # without the mace the defense stops it


def test_item_silver_shortsword():
    s = _battle(["silver-shortsword"], e1=(-1, 2))
    s, _ = _engage(s, "S", "silver-shortsword", "light", [1, 2], overtax=True)
    assert len(s.battle["pending"]["dice"]) == 2  # 1 Combat die + 1 free
    s, ev = run(s, "battle.resolve", "S", {})
    assert _hp(s, "e1") == 0  # 1 + 1 + 1 more: the 3-HP bandit falls
    assert "silver-shortsword" not in s.adventurers["S"].ready


def test_item_boarding_spear():
    s = _battle(["boarding-spear"], e1=(-1, 2))
    s, _ = _engage(s, "S", "boarding-spear", "light", [5], overtax=True)
    assert s.battle["pending"]["rerolls"][0]["left"] == 1
    s, _ = run(s, "battle.reroll", "S", {"dice": [1]}, forced=[4])
    assert s.battle["pending"]["dice"][0]["face"] == "2 damage"
    s, _ = run(s, "battle.resolve", "S", {})
    assert "maim" in s.battle["units"]["e1"]["statuses"] and _hp(s, "e1") == 1


# ------------------------------------------------------------------- weapons: heavy --
def test_item_steel_maul():
    s = _battle(["steel-maul"], e1=(-1, 2), e2=(-2, 3))
    s, _ = _engage(s, "S", "steel-maul", "heavy", [5, 1], overtax=True)
    assert len(s.battle["pending"]["dice"]) == 2
    s, ev = run(s, "battle.resolve", "S", {})
    assert _hp(s, "e1") == 2 and _hp(s, "e2") == 2  # every adjacent enemy is dealt 1
    assert "steel-maul" not in s.adventurers["S"].ready


def test_item_iron_greatsword():
    s = _skeleton(_battle(["iron-greatsword"], e1=(-1, 2)))
    s, _ = _engage(s, "S", "iron-greatsword", "heavy", [1, 1, 1], overtax=True)
    assert len(s.battle["pending"]["dice"]) == 3  # 1 Combat die + 2 free
    s, _ = run(s, "battle.resolve", "S", {})
    assert _hp(s, "e1") == 2 and "iron-greatsword" not in s.adventurers["S"].ready


def test_item_woodcutters_axe():
    s = _battle(["woodcutters-axe"], e1=(-1, 2))
    s, _ = _engage(s, "S", "woodcutters-axe", "heavy", [1])
    assert s.battle["pending"]["rerolls"][0]["left"] == 1
    s, _ = run(s, "battle.resolve", "S", {})
    assert "woodcutters-axe" in s.adventurers["S"].ready  # no overtax: kept
    s = _battle(["woodcutters-axe"], e1=(-1, 2))
    s, _ = _engage(s, "S", "woodcutters-axe", "heavy", [1], overtax=True)
    s, _ = run(s, "battle.resolve", "S", {})
    assert "maim" in s.battle["units"]["e1"]["statuses"]


# ------------------------------------------------------------------ weapons: ranged --
def test_item_oak_longbow():
    s = _skeleton(_battle(["oak-longbow"], e1=(0, 2)))
    s, _ = _engage(s, "S", "oak-longbow", "ranged", [1, 1], overtax=True)
    assert len(s.battle["pending"]["dice"]) == 2
    s, _ = run(s, "battle.resolve", "S", {})
    assert _hp(s, "e1") == 2 and "oak-longbow" not in s.adventurers["S"].ready


def test_item_light_crossbow():
    s = _skeleton(_battle(["light-crossbow"], e1=(0, 2)))
    s, _ = _engage(s, "S", "light-crossbow", "ranged", [1], overtax=True)
    s, _ = run(s, "battle.resolve", "S", {})
    assert _hp(s, "e1") == 1  # 1 through the pierced defense, then 1 true damage


def test_item_reed_shortbow():
    s = _battle(["reed-shortbow"], e1=(0, 2))
    s, _ = _engage(s, "S", "reed-shortbow", "ranged", [1], overtax=True)
    assert s.battle["pending"]["rerolls"][0]["left"] == 1
    s, _ = run(s, "battle.resolve", "S", {})
    assert "blind" in s.battle["units"]["e1"]["statuses"]


# ------------------------------------------------------------------- weapons: magic --
def _magic(item, *, overtax=False, forced=(6,), **where):
    s = _ryan_turn(_battle([item], who="R", **where))
    return _engage(s, "R", item, "magic", forced, overtax=overtax, dice="force-shock")


def test_item_oak_lightning_staff():
    s, _ = _magic("oak-lightning-staff", overtax=True, e1=(0, 2), e2=(1, 2))
    assert s.battle["pending"]["rerolls"][0]["left"] == 1
    s, _ = run(s, "battle.resolve", "R", {})
    assert _hp(s, "e2") == 2  # the enemy next to the target is dealt 1
    assert "oak-lightning-staff" not in s.adventurers["R"].ready


def test_item_birch_frost_wand():
    s, _ = _magic("birch-frost-wand", overtax=True, e1=(0, 2))
    s, _ = run(s, "battle.resolve", "R", {})
    assert "daze" in s.battle["units"]["e1"]["statuses"] and "birch-frost-wand" not in s.adventurers["R"].ready


def test_item_apprentice_staff():
    s, _ = _magic("apprentice-staff", overtax=True, e1=(0, 2))
    assert s.battle["pending"]["rerolls"][0]["blank_only"]
    t0 = s.adventurers["R"].tenacity
    s, _ = run(s, "battle.resolve", "R", {})
    assert s.adventurers["R"].tenacity >= t0 + 1 and "apprentice-staff" not in s.adventurers["R"].ready


def test_item_ash_wand():
    s, _ = _magic("ash-wand", overtax=True, forced=(6, 1), e1=(0, 2))
    assert len(s.battle["pending"]["dice"]) == 2  # the staff's die and a free Combat die
    s, _ = run(s, "battle.resolve", "R", {})
    assert "bane" in s.battle["units"]["e1"]["statuses"]


# --------------------------------------------------------------------------- armor --
def _armor(item):
    s = _battle([item])
    s.adventurers["S"].active = []
    return s


@pytest.mark.parametrize("item", ["leather-bracers", "hide-boots", "iron-helm", "studded-jerkin", "oak-buckler",
                                  "padded-leggings"])
def test_common_armor_prevents_1(item):
    taken, t = _hit(_armor(item), 2)
    assert taken == 1 and "prevents 1" in t


def test_item_leather_bracers():
    s = _armor("leather-bracers")
    s, _ = _use(s, "Leather Bracers")
    taken, t = _hit(s, 4)
    assert taken == 1 and s.adventurers["S"].ready == []


def test_item_hide_boots():
    s = _armor("hide-boots")
    s, _ = _use(s, "hide boots")
    taken, _ = _hit(s, 1)
    assert taken == 0 and s.adventurers["S"].bonus_hp == 2 and s.adventurers["S"].ready == []


def test_item_iron_helm():
    s = _armor("iron-helm")
    s, _ = _use(s, "iron helm")
    taken, t = _hit(s, 2)
    assert taken == 1 and _hp(s, "e1") == 2 and s.adventurers["S"].ready == []


def test_item_studded_jerkin():
    s = _armor("studded-jerkin")
    s, _ = _use(s, "studded jerkin")
    taken, _ = _hit(s, 5)
    assert taken == 1 and s.adventurers["S"].ready == []


def test_item_oak_buckler():
    s = _armor("oak-buckler")
    s, _ = _use(s, "oak buckler")
    taken, _ = _hit(s, 2)
    assert taken == 1 and "daze" in s.battle["units"]["e1"]["statuses"]


def test_item_padded_leggings():
    s = _armor("padded-leggings")
    s, _ = _use(s, "padded leggings")
    taken, _ = _hit(s, 2)
    assert taken == 1 and s.adventurers["S"].tenacity == 1


# ------------------------------------------------------------------------- potions --
def _mat(s, who="S", **values):
    adv = s.adventurers[who]
    for k, v in values.items():
        setattr(adv, k, v)
    return adv


def test_item_stinkhorn_tonic():
    s = _battle(["stinkhorn-tonic"])
    _mat(s, hp=1, cooldown=[{"fatigue": "light"}, {"fatigue": "light"}])
    s, ev = _use(s, "stinkhorn tonic")
    adv = s.adventurers["S"]
    assert adv.hp == 3 and adv.cooldown == [{"fatigue": "light"}] and adv.expended == ["stinkhorn-tonic"]
    with pytest.raises(RuleError, match="expended"):
        _use(s, "stinkhorn tonic")


def test_item_minor_magicka_philter():
    s = _battle(["minor-magicka-philter"])
    _mat(s, cooldown=[{"die": "d2"}, {"die": "d3"}])
    s, _ = _use(s, "minor magicka philter")
    assert len(s.adventurers["S"].cooldown) == 1


def test_item_fortifying_draught():
    s, _ = _use(_battle(["fortifying-draught"]), "fortifying draught")
    assert s.adventurers["S"].bonus_hp == 2 and s.adventurers["S"].expended == ["fortifying-draught"]


def test_item_courage_cordial():
    s, _ = _use(_battle(["courage-cordial"]), "courage cordial")
    assert s.adventurers["S"].tenacity == 1


def test_item_purging_salts():
    s = _battle(["purging-salts"])
    _mat(s, cooldown=[{"status": "daze"}, {"status": "blind"}, {"fatigue": "light"}])
    s, _ = _use(s, "purging salts")
    assert s.adventurers["S"].cooldown == [{"fatigue": "light"}]


def test_item_restful_brew():
    s = _battle(["restful-brew"])
    _mat(s, cooldown=[{"fatigue": "over"}, {"die": "d2"}, {"fatigue": "light"}])
    s, _ = _use(s, "restful brew")
    assert s.adventurers["S"].cooldown == [{"die": "d2"}]


# --------------------------------------------------------------------- consumables --
def test_item_melon_salad():
    s = _battle(["melon-salad"])
    _mat(s, hp=1)
    s, ev = _use(s, "marsh melon salad")
    assert s.adventurers["S"].hp == 3 and s.adventurers["S"].ready == [] and "discarded" in texts(ev)


def test_item_porridge_pot():
    s = _battle(["porridge-pot"])
    _mat(s, cooldown=[{"fatigue": "light"}])
    _mat(s, "R", cooldown=[{"fatigue": "light"}, {"fatigue": "light"}])
    s, _ = _use(s, "porridge pot")
    assert s.adventurers["S"].cooldown == [] and s.adventurers["R"].cooldown == [{"fatigue": "light"}]


def test_item_smoked_eel():
    s, _ = _use(_battle(["smoked-eel"]), "smoked eel")
    assert s.adventurers["S"].bonus_hp == 2 and s.adventurers["S"].ready == []


def test_item_honey_cakes():
    s, _ = _use(_battle(["honey-cakes"]), "honey cakes")
    assert s.adventurers["S"].tenacity == 1 and s.adventurers["R"].tenacity == 1


def test_item_bitter_tea():
    s = _battle(["bitter-tea"])
    _mat(s, cooldown=[{"die": "d2"}])
    s, _ = _use(s, "bitter root tea")
    assert s.adventurers["S"].cooldown == [] and s.adventurers["S"].ready == []


def test_item_hearty_stew():
    s = _battle(["hearty-stew"])
    _mat(s, hp=1)
    s, _ = _use(s, "hearty stew")
    adv = s.adventurers["S"]
    assert adv.hp == 4 and {"fatigue": "light"} in adv.cooldown


def test_item_trail_jerky():
    s = _battle(["trail-jerky"])
    _mat(s, hp=1)
    s, _ = _use(s, "trail jerky")
    assert s.adventurers["S"].hp == 2 and s.adventurers["S"].tenacity == 1


def test_item_salted_rations():
    s, _ = _use(_battle(["salted-rations"]), "salted rations")
    assert s.adventurers["S"].bonus_hp == 1 and s.adventurers["R"].bonus_hp == 1


def test_item_mulled_wine():
    s = _battle(["mulled-wine"])
    _mat(s, cooldown=[{"status": "daze"}])
    s, _ = _use(s, "mulled wine")
    assert s.adventurers["S"].tenacity == 1 and s.adventurers["S"].cooldown == []


def test_item_fisherman_soup():
    s = _battle(["fisherman-soup"])
    _mat(s, hp=1, cooldown=[{"fatigue": "light"}])
    _mat(s, "R", hp=1)
    s, _ = _use(s, "fisherman's soup")
    assert s.adventurers["S"].hp == 2 and s.adventurers["R"].hp == 2 and s.adventurers["S"].cooldown == []


# -------------------------------------------------------------------- enchantments --
def _next_battle(s):
    s, _ = run(s, "battle.retreat", "S")
    s.battle = None
    s, _ = jailbreak(s, {"S": "-2,2", "R": "-2,1"})
    return s


def test_item_glyph_of_resolve():
    s, ev = _use(_battle(["glyph-of-resolve"]), "glyph of resolve", target="Ryan")
    assert s.adventurers["R"].enchants == ["glyph-of-resolve"] and s.adventurers["S"].ready == []
    s.adventurers["R"].tenacity = 0
    s = _next_battle(s)
    assert s.adventurers["R"].tenacity == 1 and s.adventurers["S"].tenacity == 0


def test_item_glyph_of_stamina():
    s, _ = _use(_battle(["glyph-of-stamina"]), "glyph of stamina")
    _mat(s, cooldown=[{"fatigue": "light"}] * 4)
    s, _ = run(s, "battle.retreat", "S")
    s.battle = None
    s, ev = jailbreak(s, {"S": "-2,2", "R": "-2,1"})
    assert "Glyph of Stamina: Shannon recovers 1 light fatigue" in texts(ev)
    assert s.adventurers["S"].cooldown == [{"fatigue": "light"}]  # 4, less 1 by the glyph, less 2 by the recovery


def test_item_glyph_of_mending():
    s, _ = _use(_battle(["glyph-of-mending"]), "glyph of mending")
    _mat(s, hp=1)
    s = _next_battle(s)
    assert s.adventurers["S"].hp == 2


# ------------------------------------------------------------------------ clothing --
def test_item_hooded_cloak():
    s = _battle(["hooded-cloak"])
    with pytest.raises(RuleError, match="costs 1 tenacity"):
        _use(s, "hooded cloak")
    _mat(s, tenacity=2)
    s, _ = _use(s, "hooded cloak")
    assert {"status": "stealth"} in s.adventurers["S"].cooldown and s.adventurers["S"].tenacity == 1
    assert s.adventurers["S"].ready == ["hooded-cloak"]  # clothing stays


def test_item_riding_gloves():
    s = _battle(["riding-gloves"])
    _mat(s, tenacity=2, cooldown=[{"fatigue": "light"}] * 3)
    s, _ = _use(s, "riding gloves")
    assert s.adventurers["S"].cooldown == [{"fatigue": "light"}] and s.adventurers["S"].tenacity == 0


def test_item_pilgrims_robe():
    s = _battle(["pilgrims-robe"])
    _mat(s, tenacity=2)
    _mat(s, "R", hp=1)
    s, _ = _use(s, "pilgrim's robe", target="Ryan")
    assert s.adventurers["R"].hp == 3 and s.adventurers["S"].tenacity == 0


def test_item_scholars_sash():
    s = _battle(["scholars-sash"])
    _mat(s, tenacity=3, cooldown=[{"die": "d2"}])
    s, _ = _use(s, "scholar's sash")
    assert s.adventurers["S"].cooldown == [] and s.adventurers["S"].tenacity == 0


def test_item_fur_mantle():
    s = _battle(["fur-mantle"])
    _mat(s, tenacity=2)
    s, _ = _use(s, "fur mantle")
    assert s.adventurers["S"].bonus_hp == 2


# ---------------------------------------------------------------------------- misc --
def test_item_smelling_salts():
    s = _battle(["smelling-salts"])
    _mat(s, cooldown=[{"status": "daze"}, {"status": "blind"}, {"status": "maim"}])
    s, ev = _use(s, "smelling salts")
    assert s.adventurers["S"].cooldown == [{"status": "maim"}] and s.adventurers["S"].ready == []


def test_item_healers_kit():
    s = _battle(["healers-kit"])
    _mat(s, "R", hp=1)
    s, ev = _use(s, "healer's kit", target="Ryan")
    assert s.adventurers["R"].hp == 4 and s.adventurers["S"].ready == [] and "discarded" in texts(ev)


# ---------------------------------------------------------------------------- pets --
@pytest.mark.parametrize("item,limit", [("stray-dog", 2), ("marsh-hawk", 2), ("pack-mule", 3)])
def test_common_pets_prevent_1_until_their_limit(item, limit):
    s = _armor(item)
    for n in range(1, limit + 1):
        taken, _ = _hit(s, 1)
        assert taken == 0
    assert item not in s.adventurers["S"].ready  # discarded at its HP limit


def test_item_stray_dog():
    s = _armor("stray-dog")
    _hit(s, 1)
    assert s.adventurers["S"].pet_chips == {"stray-dog": 1}


def test_item_marsh_hawk():
    s = _armor("marsh-hawk")
    taken, t = _hit(s, 2)
    assert taken == 1 and s.adventurers["S"].pet_chips == {"marsh-hawk": 1}


def test_item_pack_mule():
    s = _armor("pack-mule")
    for _ in range(2):
        _hit(s, 1)
    assert s.adventurers["S"].pet_chips == {"pack-mule": 2} and "pack-mule" in s.adventurers["S"].ready


# ----------------------------------------------------------------------- legendary --
def test_item_dawnfire_blade():
    s = _battle(["dawnfire-blade"], e1=(-1, 2))
    s, _ = _engage(s, "S", "dawnfire-blade", "light", [5, 1, 1], overtax=True)
    assert len(s.battle["pending"]["dice"]) == 3  # 1 Combat die + 2 free
    s, _ = run(s, "battle.resolve", "S", {})
    assert _hp(s, "e1") == 1 and "bane" in s.battle["units"]["e1"]["statuses"]


def test_item_thunderhead_maul():
    s = _battle(["thunderhead-maul"], e1=(-1, 2), e2=(-2, 3))
    s, _ = _engage(s, "S", "thunderhead-maul", "heavy", [5, 1])
    assert len(s.battle["pending"]["dice"]) == 2
    s, _ = run(s, "battle.resolve", "S", {})
    assert _hp(s, "e1") == 2 and _hp(s, "e2") == 2  # 1 damage to the target and each enemy next to it
    s = _battle(["thunderhead-maul"], e1=(-1, 2), e2=(-2, 3))
    s, _ = _engage(s, "S", "thunderhead-maul", "heavy", [5, 1], overtax=True)
    s, _ = run(s, "battle.resolve", "S", {})
    assert _hp(s, "e1") == 0 and _hp(s, "e2") == 0  # 2 more to every enemy adjacent to Shannon


def test_item_windsong_bow():
    s = _skeleton(_battle(["windsong-bow"], e1=(0, 2)))
    s, ev = _engage(s, "S", "windsong-bow", "ranged", [1], overtax=True)
    assert s.battle["pending"]["rerolls"][0]["left"] == 1
    s, ev = run(s, "battle.resolve", "S", {}, forced=[1])  # its Reassemble rolls a blank
    assert "Skeleton is dealt 2 true damage" in texts(ev)  # the overtax ignores its defense
    assert _hp(s, "e1") == 0  # and 1 damage through the pierced defense


def test_item_staff_of_embers():
    s, ev = _magic("staff-of-embers", overtax=True, e1=(0, 2), e2=(1, 2))
    assert s.battle["pending"]["rerolls"][0]["blank_only"]
    s, ev = run(s, "battle.resolve", "R", {})
    assert "gains bane" in texts(ev)
    assert _hp(s, "e2") == 2 and _hp(s, "e1") == 0  # 1 to the target and its neighbour, then 2 more to the target


def test_item_dragonscale_helm():
    s = _armor("dragonscale-helm")
    taken, _ = _hit(s, 3)
    assert taken == 1
    s, _ = _use(s, "dragonscale helm")
    hp = s.adventurers["S"].hp
    taken, _ = _hit(s, 6)
    assert taken == 0 and s.adventurers["S"].hp == hp and s.adventurers["S"].ready == []


def test_item_runed_buckler():
    s = _armor("runed-buckler")
    s, _ = _use(s, "runed buckler")
    taken, _ = _hit(s, 3)
    assert taken == 1 and _hp(s, "e1") == 1


def test_item_shadowweave_boots():
    s = _armor("shadowweave-boots")
    s, _ = _use(s, "shadowweave boots")
    taken, _ = _hit(s, 3)
    assert taken == 1 and {"status": "stealth"} in s.adventurers["S"].cooldown


def test_item_grand_restorative():
    s = _battle(["grand-restorative"])
    _mat(s, hp=1)
    s, _ = _use(s, "grand restorative")
    assert s.adventurers["S"].hp == s.adventurers["S"].max_hp == 5  # 1 + 5, no higher than Health


def test_item_tidewater_elixir():
    s = _battle(["tidewater-elixir"])
    _mat(s, cooldown=[{"die": "d2"}, {"die": "d3"}, {"fatigue": "light"}])
    s, _ = _use(s, "tidewater elixir")
    adv = s.adventurers["S"]
    assert adv.cooldown == [{"fatigue": "light"}] and adv.bonus_hp == 2


def test_item_feast_basket():
    s = _battle(["feast-basket"])
    _mat(s, hp=1)
    _mat(s, "R", hp=1)
    s, _ = _use(s, "feast basket")
    for who in "SR":
        assert s.adventurers[who].hp == 3 and s.adventurers[who].tenacity == 1


def test_item_glyph_of_fury():
    s, _ = _use(_battle(["glyph-of-fury"]), "glyph of fury")
    _mat(s, tenacity=0)
    s = _next_battle(s)
    assert s.adventurers["S"].tenacity == 2


def test_item_sigil_of_the_warden():
    s, _ = _use(_battle(["sigil-of-the-warden"]), "sigil of the warden")
    _mat(s, bonus_hp=0)
    s = _next_battle(s)
    assert s.adventurers["S"].bonus_hp == 3


def test_item_cloak_of_gales():
    s = _battle(["cloak-of-gales"])
    _mat(s, tenacity=1)
    s, _ = _use(s, "cloak of gales")
    assert s.battle["turn"]["free_move"] == 3 and s.adventurers["S"].tenacity == 0


def test_item_mercenary_writ():
    s = party()
    s.adventurers["R"].ready = ["mercenary-writ"]
    s, ev = jailbreak(s, {"S": "-2,2", "R": "-2,1"})
    sword = next(u for u in s.battle["units"].values() if u.get("companion") == "hired-sellsword")
    assert sword["controller"] == "R" and not sword["keep"]


def test_item_silver_fox():
    s = _armor("silver-fox")
    for n in range(1, 5):
        taken, _ = _hit(s, 2)
        assert taken == 0
    assert "silver-fox" not in s.adventurers["S"].ready
