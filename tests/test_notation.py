"""/roll: dice notation for table talk, read by the d20 library."""
from __future__ import annotations

import random

import pytest

from engine.core import RuleError
from engine.notation import roll_notation
from rulesets.tes.present.presenter import UNSTABLE_FACES


@pytest.mark.parametrize("text, lo, hi, count", [
    ("3d6+2", 5, 20, 3), ("2d12", 2, 24, 2), ("d6", 1, 6, 1), ("4d6kh3", 3, 18, 4), ("1d20 - 1", 0, 19, 1),
])
def test_notation_totals_and_every_die_shown(text, lo, hi, count):
    for _ in range(30):
        r = roll_notation(text)
        assert lo <= r.total <= hi
        assert len(r.values) == count
        for v in r.values:
            assert str(v) in r.breakdown


def test_keep_highest_keeps_the_highest():
    for _ in range(50):
        r = roll_notation("4d6kh3")
        assert r.total == sum(sorted(r.values)[1:])


def test_unstable_die_names_its_face():
    r = roll_notation("unstable", rng=random.Random(3), named={"unstable": UNSTABLE_FACES})
    assert r.total in UNSTABLE_FACES.values() and r.values[0] in UNSTABLE_FACES


@pytest.mark.parametrize("text, fragment", [
    ("", "Give dice"), ("banana", "dice notation"), ("3d", "not dice notation"), ("1000d6", "too many dice"),
    ("9" * 100, "too long"), ("<@123>", "dice notation"),
])
def test_bad_notation_is_explained(text, fragment):
    with pytest.raises(RuleError) as err:
        roll_notation(text)
    assert fragment in err.value.message


async def test_roll_command_reply(player):
    reply = await player("1001")("roll", dice="2d6+1")
    assert not reply.error and "2d6+1" in reply.content and "**" in reply.content
    bad = await player("1001")("roll", dice="2q6")
    assert bad.error and bad.ephemeral
