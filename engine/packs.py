"""Content packs: a ruleset's packs found and parsed (``Packs``), and their versions: a pack is pinned by the hash
of its files, not only by its name.

A campaign records the hash of its pack when it begins; a ruleset that keeps
old versions of a pack (the Elder Scrolls keeps them in ``.versions/``) plays
the campaign on the version it began with, so editing a pack never changes
what an old log replays to.
"""
from __future__ import annotations

import hashlib
import os
import re
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable


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


VERSIONS = ".versions"  # a pack's kept versions: ``<pack>/.versions/<content hash>/``, each a copy of the pack
VERSION = re.compile(r"[0-9a-f]{16}")


def keep_folder(folder: Path | str) -> Path:
    """Copy the pack in ``folder`` as it is now into its ``.versions/<content hash>/``, so that campaigns begun on
    this version play on unchanged after the pack is edited (``python -m engine.packs keep <folder>``).  Returns
    the copy's folder."""
    import shutil

    folder = Path(folder)
    dest = folder / VERSIONS / content_hash(folder)
    for path in pack_files(folder):
        target = dest / path.relative_to(folder)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, target)
    return dest


def _stamp(folder: Path) -> float:
    return max((p.stat().st_mtime for p in folder.glob("*.toml")), default=0.0)


# ------------------------------------------------------------------ a ruleset's packs --
PACK_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,59}")
CONTENT = Path(__file__).resolve().parent.parent / "content"  # the project's content/ folder


class ContentError(Exception):
    """Everything wrong with a pack, found at once: ``errors`` holds one line a problem."""

    def __init__(self, errors: list[str]):
        self.errors = errors
        super().__init__("; ".join(errors))


class Packs:
    """A ruleset's content packs: folders of ``content/`` holding its ``marks`` (the files that say a folder is
    one of its packs: ``list``), found by id, parsed by ``parse`` (which raises ``ContentError``) and kept until
    one of their files changes.  An id that is not a plain name is read as a folder path (the local table's own
    packs).  ``load`` wants a folder with the ``required`` files; a missing mark is then the parser's to report."""

    def __init__(self, parse: Callable[[Path], Any], default: str, marks: tuple[str, ...],
                 required: tuple[str, ...] = (), root: Path = CONTENT):
        self.parse, self.default, self.marks, self.required, self.root = parse, default, marks, required, root
        self._cached = lru_cache(maxsize=8)(lambda path, mtime: parse(Path(path)))

    def dir(self, pack_id: str) -> Path:
        return self.root / pack_id if PACK_ID.fullmatch(pack_id) else Path(pack_id)

    def _is_pack(self, folder: Path, marks: tuple[str, ...]) -> bool:
        return all((folder / m).is_file() for m in marks)

    def load(self, pack_id: str | None = None, version: str = ""):
        """The pack called ``pack_id``, checked; ``FileNotFoundError`` when there is none.  ``version``: a
        campaign's recorded content hash; when the pack keeps that version (``keep_folder``), its copy."""
        folder = self.dir(str(pack_id or self.default))
        try:
            found = folder.is_dir() and self._is_pack(folder, self.required)
        except (OSError, ValueError):
            found = False
        if not found:
            raise FileNotFoundError(pack_id)
        if version and VERSION.fullmatch(version):
            kept = folder / VERSIONS / version
            if kept.is_dir():
                return self._cached(str(kept), _stamp(kept))
        return self._cached(str(folder), _stamp(folder))

    def of(self, state):
        """The pack a campaign plays: the version it began on when the pack keeps it, else the pack as it is."""
        return self.load(getattr(state, "pack", None), str(getattr(state, "pack_version", "") or ""))

    def list(self) -> list[str]:
        return sorted(p.name for p in self.root.iterdir() if p.is_dir() and self._is_pack(p, self.marks))


class PackPresenter:
    """The part of a ruleset's presenter (``engine.rulesets.RulesetPresenter``) that names its packs: which are
    installed, the default, and a pack's version as ``/campaign new`` records it.  ``PACKS`` is the ruleset's."""

    PACKS: Packs

    @property
    def default_pack(self) -> str:
        return self.PACKS.default

    def packs(self) -> list[str]:
        return self.PACKS.list()

    def pack_version(self, pack_id: str) -> str:
        return content_hash(self.PACKS.dir(pack_id))


def main(argv: list[str] | None = None) -> int:
    """``python -m engine.packs keep <pack folder>``: keep the pack's current version for its campaigns."""
    import sys

    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) != 2 or args[0] != "keep" or not Path(args[1]).is_dir():
        print("usage: python -m engine.packs keep <pack folder>  (run it before editing a pack campaigns use)")
        return 2
    print(f"kept: {keep_folder(args[1]).as_posix()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
