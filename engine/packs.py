"""Content pack versions: a pack is pinned by the hash of its files, not only by its name.

A campaign records the hash of its pack when it begins; a ruleset that keeps
old versions of a pack (the Elder Scrolls keeps them in ``.versions/``) plays
the campaign on the version it began with, so editing a pack never changes
what an old log replays to.
"""
from __future__ import annotations

import hashlib
import os
from pathlib import Path


def pack_files(folder: Path) -> list[Path]:
    """Every file of a pack, in a fixed order (hidden files and folders, such as kept versions or an
    editor's, are not part of it)."""
    out = []
    for root, dirs, files in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d != "__pycache__")
        out.extend(Path(root) / f for f in sorted(files) if not f.startswith("."))
    return sorted(out, key=lambda p: p.relative_to(folder).as_posix())


def content_hash(folder: Path | str) -> str:
    """The pack's version as its content: a hash of every file's path in the pack and its bytes.

    It changes when any file of the pack is edited, added, removed or renamed, and
    not otherwise (saving a file unchanged, or moving the whole pack, keeps it).
    """
    folder = Path(folder)
    digest = hashlib.sha256()
    for path in pack_files(folder):
        rel = path.relative_to(folder).as_posix().encode()
        data = path.read_bytes()
        digest.update(len(rel).to_bytes(4, "big") + rel + len(data).to_bytes(8, "big") + data)
    return digest.hexdigest()[:16]
