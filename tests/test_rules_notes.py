"""docs/rules-notes.md "Not in the bot yet" is true: every card text the bot only shows (marked manual in the
starter pack) is listed there by name, and the list names nothing that the bot applies."""
from __future__ import annotations

import dataclasses
import re
from pathlib import Path

from rulesets.tes.content import load_pack

ROOT = Path(__file__).resolve().parents[1]
HEADING = "### Card texts the party applies by hand"


def manual_texts(pack) -> set[str]:
    """'Owner: part' for every manual text in the pack (an ability, item, enemy skill, face or trigger)."""
    found: set[str] = set()

    def walk(obj, owner: str) -> None:
        if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
            name = getattr(obj, "name", None)
            here = name if isinstance(name, str) and name else owner
            if getattr(obj, "manual", False):
                part = name if isinstance(name, str) and name and name != owner else (
                    getattr(obj, "code", None) or getattr(obj, "timing", None) or "text")
                found.add(f"{owner}: {part}" if owner and owner != part else str(part))
            for f in dataclasses.fields(obj):
                walk(getattr(obj, f.name), here)
        elif isinstance(obj, dict):
            for v in obj.values():
                walk(v, owner)
        elif isinstance(obj, (list, tuple)):
            for v in obj:
                walk(v, owner)

    for f in dataclasses.fields(pack):  # the pack itself owns nothing: its entries are the owners
        walk(getattr(pack, f.name), "")
    # a skill defined once and carried by enemies is listed with each enemy that carries it
    carried = {t.split(": ", 1)[1] for t in found if ": " in t}
    return {t for t in found if ": " in t or t not in carried}


def listed() -> set[str]:
    text = (ROOT / "docs" / "rules-notes.md").read_text()
    assert HEADING in text, f"rules-notes.md has no '{HEADING}' list"
    block = text.split(HEADING, 1)[1]
    block = re.split(r"\n#{1,3} ", block, maxsplit=1)[0]
    return {m.group(1).strip() for m in re.finditer(r"^- (.+?)(?: —.*)?$", block, flags=re.M)}


def test_every_manual_card_text_is_listed_and_nothing_else():
    want = manual_texts(load_pack("starter"))
    have = listed()
    assert not want - have, "manual in the pack but not listed: " + ", ".join(sorted(want - have))
    assert not have - want, "listed but the bot applies it (or it is gone): " + ", ".join(sorted(have - want))


if __name__ == "__main__":  # print the list for the docs
    for line in sorted(manual_texts(load_pack("starter"))):
        print(f"- {line}")
