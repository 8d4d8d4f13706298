"""Every item card of the starter pack, used as its card says (rulebook pages 28-29), with forced dice."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from battle_helpers import ctx, jailbreak, party, run, texts

from engine.core import RuleError
from rulesets.tes.battle import harm
from rulesets.tes.battle_state import ItemDeck
from rulesets.tes.content import load_pack


def _battle(ready=(), **where):
    s = party()
    s, _ = jailbreak(s, {"S": "-2,2", "R": "-2,1"})
    s.adventurers["S"].ready = list(ready)
    for uid, (q, r) in where.items():
        s.battle["units"][uid].update(q=q, r=r)
    return s


def _hit(s, n, by="e1"):
    c = ctx(s)
    taken = harm.damage_adventurer(c, "S", n, source=c.unit(by), label="Bandit")
    return taken, texts(c.events)


# ------------------------------------------------------------- weapons --
def test_item_iron_sword():
    s = _battle(["iron-sword"], e1=(-1, 2))
    s2, _ = run(s, "battle.engage", "S", {"form": "light", "dice": "combat", "target": "e1", "item": "iron-sword"},
                forced=[1, 1])
    assert len(s2.battle["pending"]["dice"]) == 2  # 1 Combat die + 1 free
    s3, _ = run(s, "battle.engage", "S", {"form": "light", "dice": "combat", "target": "e1", "item": "iron-sword",
                                          "overtax": True}, forced=[1, 1, 1])
    assert len(s3.battle["pending"]["dice"]) == 3
    s3, ev = run(s3, "battle.resolve", "S", {})
    assert "iron-sword" not in s3.adventurers["S"].ready and "discarded after its overtax" in texts(ev)


def test_item_hunting_bow():
    s = _battle(["hunting-bow"], e1=(0, 2))
    s, ev = run(s, "battle.engage", "S", {"form": "ranged", "dice": "combat", "target": "e1", "item": "hunting-bow",
                                         "overtax": True}, forced=[6])
    s, ev = run(s, "battle.resolve", "S", {})
    assert "daze" in s.battle["units"]["e1"]["statuses"]
    assert "hunting-bow" not in s.adventurers["S"].ready


def test_item_battle_axe():
    s = _battle(["battle-axe"], e1=(-1, 2), e2=(-2, 3))
    hp2 = s.battle["units"]["e2"]["hp"]
    s, _ = run(s, "battle.engage", "S", {"form": "heavy", "dice": "combat", "target": "e1", "item": "battle-axe",
                                        "overtax": True}, forced=[1])
    assert s.battle["pending"]["rerolls"][0]["left"] == 1
    s, ev = run(s, "battle.resolve", "S", {})
    assert s.battle["units"]["e2"]["hp"] < hp2  # every adjacent enemy takes 1
    assert "battle-axe" not in s.adventurers["S"].ready


def test_item_stormcaller_staff():
    s = _battle(["stormcaller-staff"], e1=(0, 2), e2=(1, 2))
    hp1, hp2 = s.battle["units"]["e1"]["hp"], s.battle["units"]["e2"]["hp"]
    s, _ = run(s, "battle.endturn", "S")
    s.adventurers["R"].ready = ["stormcaller-staff"]
    s, _ = run(s, "battle.engage", "R", {"form": "magic", "target": "e1", "item": "stormcaller-staff"}, forced=[1])
    assert s.battle["units"]["e2"]["hp"] == hp2 - 1 or s.battle["units"]["e2"]["defeated"]
    assert s.battle["units"]["e1"]["hp"] < hp1 or s.battle["units"]["e1"]["defeated"]
    assert "stormcaller-staff" in s.adventurers["R"].ready  # no overtax: kept


# --------------------------------------------------------------- armor --
def test_item_leather_cap():
    s = _battle(["leather-cap"])
    s.adventurers["S"].active = []
    taken, t = _hit(s, 2)
    assert taken == 1 and "Leather Cap (armor) prevents 1" in t
    s, ev = run(s, "item.use", "S", {"item": "Leather Cap"})
    assert "overtax" in texts(ev) and s.adventurers["S"].armed == ["leather-cap"]
    taken, t = _hit(s, 4)
    assert taken == 1 and "prevents 2 more" in t  # 1 + 2 of 4
    assert s.adventurers["S"].ready == [] and "discarded after its overtax" in t


def test_item_chainmail_shirt():
    s = _battle(["chainmail-shirt"])
    s.adventurers["S"].active = []
    s, _ = run(s, "item.use", "S", {"item": "chainmail-shirt"})
    taken, t = _hit(s, 1)
    adv = s.adventurers["S"]
    assert taken == 0 and adv.bonus_hp == 3 and adv.ready == []


def test_item_ebony_greaves():
    s = _battle(["ebony-greaves"])
    s.adventurers["S"].active = []
    taken, _ = _hit(s, 3)
    assert taken == 1
    s, _ = run(s, "item.use", "S", {"item": "ebony greaves"})
    hp = s.adventurers["S"].hp
    taken, t = _hit(s, 5)
    assert taken == 0 and s.adventurers["S"].hp == hp  # the overtax prevents all of the damage
    assert "Ebony Greaves (armor) prevents 2" in t and "(overtax) prevents 3 more damage" in t
    assert s.adventurers["S"].ready == [] and "discarded after its overtax" in t


# ------------------------------------------------------------- potions --
def test_item_healing_draught():
    s = _battle(["healing-draught"])
    s.adventurers["S"].hp = 1
    s, ev = run(s, "item.use", "S", {"item": "Healing Draught"})
    adv = s.adventurers["S"]
    assert adv.hp == 4 and adv.expended == ["healing-draught"] and adv.ready == ["healing-draught"]
    assert "expended" in texts(ev)
    with pytest.raises(RuleError, match="expended"):
        run(s, "item.use", "S", {"item": "Healing Draught"})


def test_item_healing_draught_on_an_ally():
    s = _battle(["healing-draught"])
    s.adventurers["R"].hp = 1
    s, _ = run(s, "item.use", "S", {"item": "healing-draught", "target": "Ryan"})
    assert s.adventurers["R"].hp == 4 and s.adventurers["S"].hp == s.adventurers["S"].max_hp
    with pytest.raises(RuleError, match="not in the party"):
        run(_battle(["healing-draught"]), "item.use", "S", {"item": "healing-draught", "target": "e1"})


def test_item_stamina_tonic():
    s = _battle(["stamina-tonic"])
    adv = s.adventurers["S"]
    adv.cooldown = [{"fatigue": "light"}, {"fatigue": "light"}, {"fatigue": "light"}]
    s, _ = run(s, "item.use", "S", {"item": "stamina tonic"})
    assert s.adventurers["S"].cooldown == [{"fatigue": "light"}]


def test_item_elixir_of_clarity():
    s = _battle(["elixir-of-clarity"])
    adv = s.adventurers["S"]
    adv.cooldown = [{"die": "d2"}, {"die": "d3"}]
    s, _ = run(s, "item.use", "S", {"item": "elixir-of-clarity"})
    adv = s.adventurers["S"]
    assert adv.cooldown == [] and adv.tenacity == 1 and adv.expended == ["elixir-of-clarity"]


# --------------------------------------------------------- consumables --
def test_item_travel_bread():
    s = _battle(["travel-bread"])
    s.adventurers["S"].hp = s.adventurers["R"].hp = 1
    s, ev = run(s, "item.use", "S", {"item": "travel bread"})
    assert s.adventurers["S"].hp == 2 and s.adventurers["R"].hp == 2  # the ally in range too
    assert s.adventurers["S"].ready == [] and "travel-bread" not in s.adventurers["S"].pack
    assert "used up and discarded" in texts(ev)


def test_item_spiced_mead():
    s = _battle(["spiced-mead"])
    s, _ = run(s, "item.use", "S", {"item": "spiced mead"})
    adv = s.adventurers["S"]
    assert adv.tenacity == 2 and {"fatigue": "light"} in adv.cooldown and adv.ready == []


def test_consumables_and_potions_work_between_battles():
    s = party()
    adv = s.adventurers["S"]
    adv.hp, adv.pack = 1, ["healing-draught", "spiced-mead"]
    s, _ = run(s, "item.use", "S", {"item": "healing-draught"})
    s, _ = run(s, "item.use", "S", {"item": "spiced-mead"})
    adv = s.adventurers["S"]
    assert adv.hp == 4 and adv.tenacity == 2 and adv.pack == ["healing-draught"]


# ------------------------------------------- enchantment, clothing, misc --
def test_item_rune_of_warding():
    s = _battle(["rune-of-warding"])
    s, ev = run(s, "item.use", "S", {"item": "rune of warding", "target": "Ryan"})
    assert "start of each battle" in texts(ev)
    assert s.adventurers["S"].ready == [] and s.adventurers["R"].enchants == ["rune-of-warding"]
    s, _ = run(s, "battle.retreat", "S")
    s.battle = None
    s.adventurers["R"].bonus_hp = 0
    s, ev = jailbreak(s, {"S": "-2,2", "R": "-2,1"})
    assert s.adventurers["R"].bonus_hp == 2 and s.adventurers["S"].bonus_hp == 0


def test_item_travellers_cloak():
    s = _battle(["travellers-cloak"])
    with pytest.raises(RuleError, match="costs 2 tenacity"):
        run(s, "item.use", "S", {"item": "traveller's cloak"})
    s.adventurers["S"].tenacity = 3
    s, ev = run(s, "item.use", "S", {"item": "travellers-cloak"})
    assert s.adventurers["S"].tenacity == 1 and s.battle["turn"]["free_move"] == 2
    assert s.adventurers["S"].ready == ["travellers-cloak"]  # clothing stays


def test_item_lockpick_set():
    """Used during a lockpick check with `/lockpick set:` (more in test_battle_lockpick_cards.py)."""
    s = _battle(["lockpick-set"])
    with pytest.raises(RuleError, match="/lockpick set:3=5"):
        run(s, "item.use", "S", {"item": "lockpick set"})
    s.item_decks = {"common": ItemDeck(draw=["iron-sword"])}  # code 5-2-2
    s, _ = run(s, "battle.move", "S", {"path": "-1,2 -1,3 0,3"})
    s, _ = run(s, "battle.lockpick", "S", {}, forced=[2, 2, 1])
    s, ev = run(s, "battle.lockpick", "S", {"set": [[3, 5]]})
    assert "turn die 3 from a 1 to a 5" in texts(ev) and "opens the lock" in texts(ev)
    assert s.adventurers["S"].ready == ["iron-sword"] and s.adventurers["S"].cooldown == []


# ---------------------------------------------------------------- pets --
def test_item_loyal_hound():
    s = _battle(["loyal-hound"])
    s.adventurers["S"].active = []
    for n in (1, 2):
        taken, t = _hit(s, 1)
        assert taken == 0 and s.adventurers["S"].pet_chips == {"loyal-hound": n}
    taken, t = _hit(s, 2)
    assert taken == 1 and "HP limit" in t and s.adventurers["S"].ready == []
    with pytest.raises(RuleError, match="works by itself"):
        run(_battle(["loyal-hound"]), "item.use", "S", {"item": "loyal-hound"})


def test_item_war_hound_lead():
    s = party()
    s.adventurers["R"].ready = ["war-hound-lead"]
    s, ev = jailbreak(s, {"S": "-2,2", "R": "-2,1"})
    hound = next(u for u in s.battle["units"].values() if u.get("companion") == "war-hound")
    assert hound["controller"] == "R" and not hound["keep"]


def test_a_pet_never_goes_back_to_the_pack():
    s = party()
    s.adventurers["S"].ready = ["loyal-hound"]
    with pytest.raises(RuleError, match="cannot go back"):
        run(s, "item.stow", "S", {"item": "loyal hound"})


# ----------------------------------------------------------- inventory --
def test_ready_and_stow_keep_the_four_slots_and_one_armor_per_body_area():
    s = party()
    adv = s.adventurers["S"]
    adv.ready = ["iron-sword", "healing-draught", "spiced-mead", "travel-bread"]
    adv.pack = ["leather-cap"]
    with pytest.raises(RuleError, match="ready slots are full"):
        run(s, "item.ready", "S", {"item": "leather cap"})
    s, ev = run(s, "item.ready", "S", {"item": "leather cap", "swap": "spiced mead"})
    adv = s.adventurers["S"]
    assert "leather-cap" in adv.ready and adv.pack == ["spiced-mead"]
    s, _ = run(s, "item.stow", "S", {"item": "iron sword"})
    assert "iron-sword" in s.adventurers["S"].pack
    adv = s.adventurers["S"]
    adv.pack.append("ebony-greaves")
    adv.ready = ["leather-cap"]
    adv.pack.append("chainmail-shirt")
    s, _ = run(s, "item.ready", "S", {"item": "chainmail shirt"})  # chest and head: both worn
    assert s.adventurers["S"].ready == ["leather-cap", "chainmail-shirt"]
    with pytest.raises(RuleError, match="not in your pack"):
        run(s, "item.ready", "S", {"item": "iron axe"})


def test_only_ready_items_work_in_battle_and_only_in_round_one_may_move():
    s = _battle([])
    s.adventurers["S"].pack = ["healing-draught"]
    with pytest.raises(RuleError, match="not in your ready slots"):
        run(s, "item.use", "S", {"item": "healing draught"})
    s.battle["round"] = 2
    with pytest.raises(RuleError, match="round 1"):
        run(s, "item.ready", "S", {"item": "healing draught"})


def test_rogue_pilfer_draws_an_item_and_a_full_inventory_asks_what_to_drop():
    from rulesets.tes.battle.effects import Use, run_effects

    pack = load_pack("starter")
    pilfer = pack.classes["rogue"].novice.ability("pilfer")
    assert not pilfer.manual and pilfer.effects[0]["type"] == "draw-item"
    s = _battle(["iron-sword"])
    s.item_decks = {"common": ItemDeck(draw=["spiced-mead", "travel-bread"])}
    c = ctx(s)
    run_effects(Use(c, c.unit("a:S"), "Pilfer"), pilfer.effects)
    assert s.adventurers["S"].ready == ["iron-sword", "spiced-mead"]
    adv = s.adventurers["S"]
    adv.ready = ["iron-sword", "spiced-mead", "leather-cap", "chainmail-shirt"]
    adv.pack = ["healing-draught", "stamina-tonic", "lockpick-set", "rune-of-warding"]
    c = ctx(s)
    run_effects(Use(c, c.unit("a:S"), "Pilfer"), pilfer.effects)
    t = texts(c.events)
    assert adv.holding == "travel-bread" and "/item drop" in t and "Lockpick Set" in t
    s, ev = run(s, "item.drop", "S", {"item": "lockpick set"})
    adv = s.adventurers["S"]
    assert adv.holding is None and "travel-bread" in adv.pack and "lockpick-set" not in adv.pack
    assert "lockpick-set" in s.item_decks["common"].discard


def test_leaving_the_drawn_card():
    s = party()
    adv = s.adventurers["S"]
    adv.ready, adv.pack, adv.holding = ["iron-sword"], [], "travel-bread"
    s, ev = run(s, "item.drop", "S", {"item": "travel bread"})
    assert s.adventurers["S"].holding is None and s.adventurers["S"].ready == ["iron-sword"]


def test_bad_item_names_say_what_you_hold():
    s = party()
    s.adventurers["S"].ready = ["iron-sword"]
    with pytest.raises(RuleError, match="Iron Sword"):
        run(s, "item.use", "S", {"item": "nothing"})
    with pytest.raises(RuleError, match="weapon"):
        run(s, "item.use", "S", {"item": "iron sword"})


# ------------------------------------------------------------- coverage --
def test_every_starter_item_has_a_test_or_is_listed_as_manual():
    """An item is covered by a test named test_item_<id> (here or in test_items_more.py); a manual part must be in
    "Not in the bot yet"."""
    import test_items_more

    pack = load_pack("starter")
    names = list(globals()) + list(vars(test_items_more))
    tested = {name[len("test_item_"):] for name in names if name.startswith("test_item_")}
    missing = [k for k in pack.items if k.replace("-", "_") not in tested]
    assert not missing, f"starter items with no test: {missing}"
    notes = Path(__file__).resolve().parent.parent.joinpath("docs", "rules-notes.md").read_text()
    section = notes.split("## Battle: Not in the bot yet", 1)[1].split("\n## ", 1)[0]
    section = re.sub(r"\s+", " ", section)
    manual = [it.name for it in pack.items.values()
              if it.manual or any(e.get("type") == "manual" for e in it.effects + it.overtax_effects)]
    unlisted = [n for n in manual if n not in section]
    assert not unlisted, f"manual items not listed under 'Not in the bot yet': {unlisted}"


async def test_item_commands_at_the_local_table(tmp_path):
    """A player drinks a potion with /item use; bad input is refused with the fix and changes nothing."""
    from commands.core import Table
    from commands.local import LocalTable
    from engine.service import CampaignService
    from engine.store import Store

    store = await Store.open(tmp_path / "table.db")
    try:
        local = LocalTable(Table(CampaignService(store)), out_dir=tmp_path / "o", echo=lambda _: None, user="ryan")
        await local.run_script([
            "/campaign new name:Table",
            "/adventurer create name:Vilya race:dark-elf line:destruction-staff",
        ])
        bad = await local.run_line("/item use item:Nothing")
        assert bad.error and "not in your" in bad.content and "You hold: none" in bad.content
        bad = await local.run_line("/item ready item:healing-draught")
        assert bad.error and "not in your pack" in bad.content
        await local.run_line("/battle start encounter:jailbreak")
        bad = await local.run_line("/item drop item:iron-sword")
        assert bad.error and "not in your" in bad.content
    finally:
        await store.close()
