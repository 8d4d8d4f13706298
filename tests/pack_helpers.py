"""A copy of the starter pack to edit in a test, and the problems its loader names."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from rulesets.tes.content import ContentError, load_pack

STARTER = Path(__file__).resolve().parents[1] / "content" / "starter"


def copy_starter(tmp_path) -> Path:
    """The starter pack copied into ``tmp_path/pack`` (its kept versions left out)."""
    dest = tmp_path / "pack"
    shutil.copytree(STARTER, dest, ignore=shutil.ignore_patterns(".versions"))
    return dest


def load_errors(folder: Path) -> str:
    """Every problem the loader names in the pack at ``folder``, one a line (it must refuse the pack)."""
    with pytest.raises(ContentError) as exc:
        load_pack(str(folder))
    return "\n".join(exc.value.errors)
