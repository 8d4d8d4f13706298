"""Content pack versions: a pack is pinned by the hash of its files, not only by its name.

A campaign records the hash of its pack when it begins; if the host edits the
pack later, the campaign can say so (a replay of its log may then differ).
"""
from __future__ import annotations

import hashlib
from pathlib import Path

PACK_FILES = ("*.toml", "**/*.toml")


def content_hash(folder: str | Path) -> str:
    """A short, stable hash of every content file in a pack folder (names and bytes, in sorted order)."""
    root = Path(folder)
    digest = hashlib.sha256()
    files = sorted({p for pattern in PACK_FILES for p in root.glob(pattern) if p.is_file()})
    for path in files:
        digest.update(path.relative_to(root).as_posix().encode())
        digest.update(b"\0")
        digest.update(path.read_bytes())
        digest.update(b"\0")
    return "sha256:" + digest.hexdigest()[:16]
