"""The pack author's command line::

    python -m rulesets.tes.content validate <pack-id-or-folder>
    python -m rulesets.tes.content list
    python -m rulesets.tes.content keep <pack-id-or-folder>

``keep`` copies the pack as it is now into its ``.versions/<content hash>/`` folder: run it
before editing a pack that running campaigns use, so that they play on unchanged.
"""
from __future__ import annotations

import sys

from engine.text import count

from rulesets.tes.content.packs import DEFAULT_PACK, keep_version, list_packs, load_pack
from rulesets.tes.content.records import ContentError


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    usage = ("usage: python -m rulesets.tes.content validate <pack-id-or-folder>\n"
             "       python -m rulesets.tes.content list\n"
             "       python -m rulesets.tes.content keep <pack-id-or-folder>")
    if not argv or argv[0] in ("-h", "--help"):
        print(usage)
        return 0 if argv else 2
    cmd = argv[0]
    if cmd == "list":
        for pid in list_packs():
            print(pid)
        return 0
    if cmd == "keep":
        target = argv[1] if len(argv) > 1 else DEFAULT_PACK
        try:
            dest = keep_version(target)
        except ContentError as e:
            print(f"{target}: {count(len(e.errors), 'problem')}; only a pack that loads can be kept")
            for line in e.errors:
                print(f"  - {line}")
            return 1
        print(f"kept: {dest}")
        return 0
    if cmd == "validate":
        target = argv[1] if len(argv) > 1 else DEFAULT_PACK
        try:
            pack = load_pack(target)
        except ContentError as e:
            print(f"{target}: {count(len(e.errors), 'problem')}")
            for line in e.errors:
                print(f"  - {line}")
            return 1
        n_dice = sum(len(line.dice) for line in pack.lines.values())
        print(f"OK: {pack.name} ({pack.id} {pack.version}): " + ", ".join(count(len(v), w) for v, w in (
            (pack.races, "race"), (pack.lines, "skill line"), (range(n_dice), "die type"), (pack.classes, "class"),
            (pack.enemies, "enemy"), (pack.items, "item"), (pack.tiles, "tile"), (pack.encounters, "encounter"),
            (pack.quests, "quest"))))
        camp = pack.campaign
        if camp is not None and (camp.guilds or camp.side_quests or camp.quests):
            steps = sum(len(q.steps) for q in camp.quests.values())
            print("campaign: " + ", ".join(count(len(v), w) for v, w in (
                (pack.provinces, "province"), (camp.guilds, "guild card"), (camp.quests, "guild quest"),
                (range(steps), "quest step"), (camp.side_quests, "side quest"), (camp.keywords, "keyword"),
                (camp.endgames, "endgame"))))
        print(f"content hash: {pack.content_hash}")
        return 0
    print(usage)
    return 2
