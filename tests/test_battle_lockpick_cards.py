"""Cards that help during a lockpick check, played at their moment with forced dice: the Rogue's innate
Nimble Fingers (free steps of 1) and the Lockpick Set (one die to any number, then discarded)."""
from __future__ import annotations

import pytest
from battle_helpers import jailbreak, party, run, texts

from engine.core import RuleError
from rulesets.tes.battle import track
from rulesets.tes.battle_state import ItemDeck, LockpickCheck
from rulesets.tes.content import load_pack
from rulesets.tes import args as args_
from rulesets.tes.state import RULES

COMMON = ["iron-sword", "healing-draught", "leather-cap"]  # the Iron Sword's code: 5-2-2, 3 attempts
OLD_PACK = "82fc84b4cf862aa3"  # the starter pack's version kept before these cards were automated


def _at_cache(klass=None, side="novice", ready=(), pack=(), state=None):
    """Shannon (and Ryan) in the Jailbreak; Shannon has just moved onto the common cache."""
    s = state or party()
    adv = s.adventurers["S"]
    adv.class_id, adv.class_side = klass, side
    s, _ = jailbreak(s, {"S": "-2,2", "R": "-2,1"})
    s.adventurers["S"].ready = list(ready)
    s.adventurers["S"].pack = list(pack)
    s.item_decks = {"common": ItemDeck(draw=list(COMMON))}
    s, _ = run(s, "battle.move", "S", {"path": "-1,2 -1,3 0,3"})
    return s


def _light(s) -> int:
    return track.count(s.adventurers["S"], fatigue="light")


def _old_campaign(rules: int):
    s, _ = run(None, "campaign.new", "S", {"name": "Old", "difficulty": "adept", "pack": "starter",
                                           "channel_id": "c", "guild_id": "g", "seed": 7,
                                           "pack_version": OLD_PACK, "rules": rules})
    s, _ = run(s, "adventurer.create", "S", {"name": "Shannon", "race": "argonian", "line": "one-hand-and-shield"})
    s, _ = run(s, "campaign.join", "R")
    s, _ = run(s, "adventurer.create", "R", {"name": "Ryan", "race": "dark-elf", "line": "destruction-staff"})
    return s


# ------------------------------------------------------------ the pack --
def test_the_cards_carry_effects_and_the_old_pack_keeps_them_manual():
    new, old = load_pack("starter"), load_pack("starter", version=OLD_PACK)
    rogue = new.classes["rogue"]
    assert [(e["type"], e["amount"]) for e in rogue.novice.innate.effects] == [("lockpick-free", 1)]
    assert [(e["type"], e["amount"]) for e in rogue.master.innate.effects] == [("lockpick-free", 2)]
    assert not rogue.novice.innate.manual and not rogue.master.innate.manual
    assert [e["type"] for e in new.items["lockpick-set"].effects] == ["lockpick-set"]
    assert not new.items["lockpick-set"].manual
    assert old.classes["rogue"].novice.innate.manual and old.items["lockpick-set"].manual


# ----------------------------------------------------- Nimble Fingers --
def test_nimble_fingers_novice_turns_one_die_one_step_for_free_once_per_check():
    """The Common Item Lockpick Example played by a Rogue: 3 light fatigue in the book, 2 with Nimble Fingers."""
    s = _at_cache("rogue")
    s, ev = run(s, "battle.lockpick", "S", {}, forced=[1, 2, 3])
    t = texts(ev)
    assert "Nimble Fingers" in t and "1 die result may still turn 1 step for free" in t
    assert "apply this yourselves" not in t
    assert s.battle.lockpick.free == 1
    light = _light(s)
    # the 3 turned into a 2: free
    s, ev = run(s, "battle.lockpick", "S", {"adjust": [[3, 2]], "keep": [2, 3]}, forced=[3])
    t = texts(ev)
    assert "Nimble Fingers: die 3 turned 1 step for free" in t and "without gaining fatigue" in t
    assert _light(s) == light and s.battle.lockpick.fatigue == 0
    assert s.battle.lockpick.dice == [3, 2, 2] and s.battle.lockpick.free == 0
    assert "may still turn" not in t  # the next attempt's message offers nothing free any more
    # once per check: the 3 turned into a 5 costs 2 light fatigue, as without the innate
    s, ev = run(s, "battle.lockpick", "S", {"adjust": [[1, 5]]})
    t = texts(ev)
    assert "gains 2 light fatigue" in t and "opens the lock" in t and "for free" not in t
    assert _light(s) == light + 2
    assert s.adventurers["S"].ready == ["iron-sword"] and s.battle.lockpick is None


def test_nimble_fingers_master_turns_two_dice_and_a_die_of_two_steps_pays_for_one():
    s = _at_cache("rogue", side="master")
    s, ev = run(s, "battle.lockpick", "S", {}, forced=[4, 1, 4])
    assert "2 die results may still each turn 1 step for free" in texts(ev)
    light = _light(s)
    # 4→5 free, 1→2 free, 4→2 is 2 steps paid: 2 light fatigue instead of 4
    s, ev = run(s, "battle.lockpick", "S", {"adjust": [[1, 5], [2, 2], [3, 2]]})
    t = texts(ev)
    assert "die 1 and die 2 turned 1 step for free" in t and "gains 2 light fatigue" in t and "opens the lock" in t
    assert _light(s) == light + 2


def test_nimble_fingers_master_spreads_over_attempts_but_one_result_takes_one_free_step():
    s = _at_cache("rogue", side="master")
    s, _ = run(s, "battle.lockpick", "S", {}, forced=[3, 2, 6])
    light = _light(s)
    # attempt 1: die 1 (a 3) turns to a 4 for free; keep dice 1 and 2, roll die 3 again
    s, ev = run(s, "battle.lockpick", "S", {"adjust": [[1, 4]], "keep": [1, 2]}, forced=[2])
    t = texts(ev)
    assert "die 1 turned 1 step for free (1 more free this check)" in t and _light(s) == light
    assert "1 die result may still turn 1 step for free" in t
    # attempt 2: the same result of die 1 (kept, not rolled again) pays for a second step
    s, ev = run(s, "battle.lockpick", "S", {"adjust": [[1, 5]]})
    t = texts(ev)
    assert "gains 1 light fatigue" in t and "for free" not in t and "opens the lock" in t
    assert _light(s) == light + 1


def test_a_rolled_again_die_is_a_new_result_that_may_take_the_free_step():
    s = _at_cache("rogue", side="master")
    s, _ = run(s, "battle.lockpick", "S", {}, forced=[1, 2, 2])
    light = _light(s)
    s, _ = run(s, "battle.lockpick", "S", {"adjust": [[1, 2]], "keep": [2, 3]}, forced=[4])  # 1→2 free, then rolled
    assert s.battle.lockpick.free == 1 and s.battle.lockpick.freed == []
    s, ev = run(s, "battle.lockpick", "S", {"adjust": [[1, 5]]})  # the new 4 → 5: the second free step
    assert "die 1 turned 1 step for free" in texts(ev) and "opens the lock" in texts(ev)
    assert _light(s) == light


def test_without_the_rogue_class_every_step_costs_fatigue():
    s = _at_cache("sorcerer")
    s, ev = run(s, "battle.lockpick", "S", {}, forced=[1, 2, 3])
    assert "Nimble Fingers" not in texts(ev) and "for free" not in texts(ev)
    light = _light(s)
    s, ev = run(s, "battle.lockpick", "S", {"adjust": [[3, 2]]}, forced=[1])
    assert "gains 1 light fatigue" in texts(ev) and _light(s) == light + 1


# -------------------------------------------------------- Lockpick Set --
def test_lockpick_set_turns_one_die_to_any_number_and_is_discarded():
    s = _at_cache(ready=["lockpick-set"])
    s, ev = run(s, "battle.lockpick", "S", {}, forced=[1, 2, 2])
    t = texts(ev)
    assert "Lockpick Set (ready): `set:3=5` turns one die to any number" in t
    light = _light(s)
    s, ev = run(s, "battle.lockpick", "S", {"set": [[1, 5]]})
    t = texts(ev)
    assert "Shannon uses Lockpick Set to turn die 1 from a 1 to a 5 (no fatigue)" in t
    assert "Lockpick Set is used up and discarded" in t and "opens the lock" in t
    adv = s.adventurers["S"]
    assert _light(s) == light and "lockpick-set" not in adv.ready + adv.pack
    assert adv.ready == ["iron-sword"]
    assert s.item_decks["common"].discard == ["lockpick-set"]


def test_lockpick_set_with_adjust_and_nimble_fingers_in_one_answer():
    s = _at_cache("rogue", ready=["lockpick-set"])
    s, ev = run(s, "battle.lockpick", "S", {}, forced=[6, 3, 1])
    t = texts(ev)
    assert "may still turn 1 step for free" in t and "Lockpick Set (ready)" in t
    light = _light(s)
    s, ev = run(s, "battle.lockpick", "S", {"set": [[1, 5]], "adjust": [[2, 2], [3, 2]]})
    t = texts(ev)
    # 6→5 by the set, 3→2 free (Nimble Fingers), 1→2 paid
    assert "from a 6 to a 5" in t and "die 2 turned 1 step for free" in t and "gains 1 light fatigue" in t
    assert "opens the lock" in t and _light(s) == light + 1 and "lockpick-set" not in s.adventurers["S"].ready


def test_lockpick_set_used_on_a_failed_attempt_is_gone_for_the_next():
    s = _at_cache(ready=["lockpick-set"])
    s, _ = run(s, "battle.lockpick", "S", {}, forced=[1, 1, 1])
    s, ev = run(s, "battle.lockpick", "S", {"set": [[1, 5]], "keep": [1]}, forced=[4, 4])
    t = texts(ev)
    assert "Attempt 1 fails" in t and "Attempt 2 of 3" in t and s.battle.lockpick.dice == [5, 4, 4]
    assert "Lockpick Set (ready)" not in t.split("Attempt 2 of 3")[1]
    assert s.battle.lockpick.used == ["lockpick-set"]
    with pytest.raises(RuleError, match="already used Lockpick Set in this check"):
        run(s, "battle.lockpick", "S", {"set": [[2, 2]]})


@pytest.mark.parametrize("args,error", [
    ({"set": [[4, 5]]}, "There is no die 4"),
    ({"set": [[1, 7]]}, "shows 1 to 6, not 7"),
    ({"set": [[1, 0]]}, "shows 1 to 6, not 0"),
    ({"set": [[1, 1]]}, "Die 1 already shows a 1"),
    ({"set": [[1, 5], [2, 2]]}, "sets one die"),
    ({"set": []}, "Write the die to set as `die=value`"),
    ({"set": [[1, 5]], "adjust": [[1, 4]]}, "both set and adjusted"),
])
def test_lockpick_set_refuses_bad_values_and_changes_nothing(args, error):
    s = _at_cache(ready=["lockpick-set"])
    s, _ = run(s, "battle.lockpick", "S", {}, forced=[1, 2, 3])
    before = s.to_dict()
    with pytest.raises(RuleError, match=error):
        run(s, "battle.lockpick", "S", args)
    assert s.to_dict() == before and s.adventurers["S"].ready == ["lockpick-set"]


def test_lockpick_set_option_text_is_parsed_once_with_a_clear_message():
    assert args_.die_setting("3=5") == [[3, 5]] and args_.die_setting(" 2->6 ") == [[2, 6]]
    assert args_.die_setting([[3, 5]]) == [[3, 5]]
    for bad in ("3", "five", "3=", "=5", "3=5=1", "12=5", [["a", 5]], [[3]]):
        with pytest.raises(RuleError, match=r"`set:3=5` \(die 3 becomes a 5\)"):
            args_.die_setting(bad)


def test_lockpick_set_must_be_ready_and_held():
    s = _at_cache(pack=["lockpick-set"])
    s, ev = run(s, "battle.lockpick", "S", {}, forced=[1, 2, 3])
    assert "Lockpick Set" not in texts(ev)  # a pack card is not offered
    with pytest.raises(RuleError, match="Lockpick Set is in Shannon's pack: during a battle only items in ready slots"):
        run(s, "battle.lockpick", "S", {"set": [[1, 5]]})
    s = _at_cache()
    s, _ = run(s, "battle.lockpick", "S", {}, forced=[1, 2, 3])
    with pytest.raises(RuleError, match="Shannon has no Lockpick Set in a ready slot"):
        run(s, "battle.lockpick", "S", {"set": [[1, 5]]})
    # no check going on: nothing to set
    s3 = party()
    s3, _ = jailbreak(s3, {"S": "-2,2", "R": "-2,1"})
    s3.adventurers["S"].ready = ["lockpick-set"]
    s3, _ = run(s3, "battle.move", "S", {"to": "-1,2"})
    with pytest.raises(RuleError, match="No lockpick check is going on"):
        run(s3, "battle.lockpick", "S", {"set": [[1, 5]]})


def test_item_use_points_to_the_lockpick_command_and_keeps_the_card():
    s = _at_cache(ready=["lockpick-set"])
    with pytest.raises(RuleError, match=r"only during a lockpick check .*`/lockpick set:3=5`"):
        run(s, "item.use", "S", {"item": "lockpick set"})
    s, _ = run(s, "battle.lockpick", "S", {}, forced=[1, 2, 3])
    with pytest.raises(RuleError, match=r"during your lockpick check: answer with `/lockpick set:3=5`"):
        run(s, "item.use", "S", {"item": "lockpick set"})
    assert s.adventurers["S"].ready == ["lockpick-set"]


def test_the_check_saves_its_free_steps_and_an_old_check_loads_unchanged():
    lp = LockpickCheck(owner="S", dice=[1, 2, 3], free=1, free_by="Shannon's Nimble Fingers", freed=[0],
                       used=["lockpick-set"])
    d = lp.to_dict()
    assert LockpickCheck.from_dict(d) == lp
    old = LockpickCheck(owner="S", dice=[1, 2, 3]).to_dict()
    assert not {"free", "free_by", "freed", "used"} & set(old)  # a check without them saves as before
    assert LockpickCheck.from_dict(old).free == 0


# ----------------------------------------------------------- old pack --
@pytest.mark.parametrize("rules", sorted({1, RULES}))
def test_a_campaign_on_the_old_pack_keeps_both_cards_manual(rules):
    s = _at_cache("rogue", ready=["lockpick-set"], state=_old_campaign(rules))
    assert s.pack_version == OLD_PACK
    s, ev = run(s, "battle.lockpick", "S", {}, forced=[1, 2, 3])
    t = texts(ev)
    assert "Nimble Fingers" in t and "apply this yourselves" in t
    assert "for free" not in t and "Lockpick Set (ready)" not in t and s.battle.lockpick.free == 0
    light = _light(s)
    s2, ev = run(s, "battle.lockpick", "S", {"adjust": [[3, 2]]}, forced=[1])
    assert "gains 1 light fatigue" in texts(ev) and _light(s2) == light + 1
    with pytest.raises(RuleError, match="No card in this campaign's content sets a lockpick die"):
        run(s, "battle.lockpick", "S", {"set": [[1, 5]]})
    # the card shows its text for the party and is discarded, as before
    s3 = _at_cache(ready=["lockpick-set"], state=_old_campaign(rules))
    s3, ev = run(s3, "item.use", "S", {"item": "lockpick set"})
    assert "change one die result" in texts(ev) and "apply this yourselves" in texts(ev)
    assert s3.adventurers["S"].ready == []


# -------------------------------------------------------- local table --
def _stacked(pack, top: list[str]) -> list[int]:
    """Forced results that shuffle the common deck (``lockpick._shuffle``) with ``top`` as its first cards."""
    cards = sorted(k for k, it in pack.items.items() if it.rarity == "common")
    want = top + [k for k in cards if k not in top]
    out, forced = list(cards), []
    for i in range(len(out) - 1, 0, -1):
        j = out.index(want[i])
        forced.append(j + 1)
        out[i], out[j] = out[j], out[i]
    assert out == want
    return forced


async def test_a_rogue_uses_the_lockpick_set_at_the_local_table(tmp_path):
    """Shannon wins a Lockpick Set from the Jailbreak's cache, becomes a Rogue, and at the next battle's cache
    turns one die with the set (`/lockpick set:3=2`) and another with Nimble Fingers: the lock opens, no fatigue."""
    from commands.core import Table
    from commands.local import LocalTable
    from engine.service import CampaignService
    from engine.store import Store

    pack = load_pack("starter")
    shuffle = " ".join(map(str, _stacked(pack, ["lockpick-set", "iron-sword"])))
    script = f"""
/campaign new name:Jail difficulty:adept
/adventurer create name:Shannon race:argonian line:one-hand-and-shield
/force 2
/battle start encounter:jailbreak deploy:-2,2
/move path:"-1,2 -1,3 0,3"
/force {shuffle} 5 5 2
/lockpick
/lockpick
/force 3 4 4
/engage target:"High Elf Bandit" dice:"2 shield-discipline, combat"
/resolve
/endturn
/battle class class:rogue
/battle start encounter:bandit-ambush deploy:-2,2
/move path:"-1,2 -1,3 0,3"
/force 5 3 6
/lockpick
/lockpick set:3=2 adjust:2=2
"""
    store = await Store.open(tmp_path / "x.db")
    out: list[str] = []
    try:
        local = LocalTable(Table(CampaignService(store)), out_dir=tmp_path / "out", echo=out.append)
        errors = await local.run_script(script.strip().splitlines())
        text = "\n".join(out)
        assert errors == 0, text
        state = await local.table.service.campaign("local")
        bad = await local.run_line("/lockpick set:3=9")
        assert bad.error and "No lockpick check is going on" in bad.content
        cid = await local.table.service.campaign_id("local")
        log = await store.log(cid)
    finally:
        await store.close()
    first, second = text.split("Battle 2:", 1)
    assert "draws **Lockpick Set** (misc)" in first and "Shannon becomes a Rogue" in first
    assert "Lockpick Set (ready): `set:3=5`" in second and "Nimble Fingers: 1 die result may still turn" in second
    assert "Shannon uses Lockpick Set to turn die 3 from a 6 to a 2 (no fatigue)" in second
    assert "Nimble Fingers: die 2 turned 1 step for free" in second
    assert "opens the lock" in second and "draws **Iron Sword**" in second
    sh = state.adventurers["leader"]
    assert "lockpick-set" not in sh.ready + sh.pack and "iron-sword" in sh.ready
    assert track.count(sh, fatigue="light") == 0
    assert "lockpick-set" in state.item_decks["common"].discard
    last = [e for e in log if e.type == "battle.lockpick"][-1]
    assert last.action["args"] == {"adjust": [[2, 2]], "set": [[3, 2]]}  # the log keeps canonical values
