"""Finding packs (shipped under content/ or any folder), loading them once, and a pack's content hash."""
from __future__ import annotations

import os
import time
from dataclasses import replace
from pathlib import Path

from rulesets.tes.content.loader import _load_folder
from rulesets.tes.content.reader import ID_RE, _quoted
from rulesets.tes.content.records import ContentError, Pack

CONTENT_DIR: Path = Path(__file__).resolve().parents[3] / "content"
_SHIPPED = CONTENT_DIR.resolve()
_SHIPPED_PREFIX = str(_SHIPPED) + os.sep  # packs shipped in content/ (and their kept versions)
DEFAULT_PACK = "starter"

#: Inside a pack folder: earlier versions of the pack, kept so that campaigns begun on them play on unchanged.
VERSIONS_DIR = ".versions"
#: The kept version for campaigns saved before they recorded their pack's version.
UNVERSIONED = "unversioned"

from engine.packs import content_hash, keep_folder, pack_files  # noqa: E402,F401 - one pack hash for every ruleset

_CACHE: dict[Path, tuple[tuple, Pack, float]] = {}  # folder -> (its files' stamp, the pack, when last looked at)


def _stamp(folder: Path) -> tuple:
    """Every file's place, size and modification time: cheap to read, and it changes when a file does."""
    out: list[tuple[str, int, int]] = []
    todo = [str(folder)]
    try:
        while todo:
            with os.scandir(todo.pop()) as entries:
                for entry in entries:
                    if entry.name.startswith(".") or entry.name == "__pycache__":
                        continue
                    if entry.is_dir():
                        todo.append(entry.path)
                    else:
                        st = entry.stat()
                        out.append((entry.path, st.st_size, st.st_mtime_ns))
    except OSError:
        return ()
    return tuple(sorted(out))


def resolve_pack_path(name_or_path: str) -> Path:
    """A shipped pack id (folder under content/) or a path to a pack folder."""
    s = str(name_or_path or DEFAULT_PACK).strip()
    if ID_RE.match(s) and (CONTENT_DIR / s).is_dir():
        return (CONTENT_DIR / s).resolve()
    p = Path(s).expanduser()
    if p.is_dir():
        return p.resolve()
    if p.is_file() and p.name == "pack.toml":
        return p.parent.resolve()
    shipped = list_packs()
    raise ContentError([f'no content pack "{s}": not a shipped pack ({_quoted(shipped) or "none"}) and not a folder'])


def kept_version(folder: Path, version: str) -> Path | None:
    """The folder of a kept earlier version of the pack in ``folder``, or None.

    ``version`` is a content hash, or "" for a campaign saved before versions were
    recorded (the kept version named "unversioned", if a shipped pack keeps one; so is a
    version recorded the first way, "sha256:..." and a shorter hash of other bytes).
    """
    if version.startswith("sha256:"):
        # The first way versions were recorded (the bot of 2026-11-23 before 09:10): the shipped packs then were
        # the ones campaigns saved before versions were recorded played, so they play on that kept copy.
        version = ""
    name = version or UNVERSIONED
    if not ID_RE.match(name):
        return None
    if not version and folder.parent != _SHIPPED:
        return None  # only a shipped pack keeps a copy for campaigns saved before versions were recorded
    path = folder / VERSIONS_DIR / name
    return path if (path / "pack.toml").is_file() else None


def load_pack(name_or_path: str = DEFAULT_PACK, version: str | None = None) -> Pack:
    """Load and check a pack; raises :class:`ContentError` listing every problem.

    With ``version`` (a campaign's recorded content hash; "" for one saved before
    versions were recorded) the pack's kept copy of that version is loaded when the
    pack keeps one; otherwise the pack as it is.

    Results are cached by folder and by each file's size and modification time, so calling this
    often is cheap.
    """
    folder = resolve_pack_path(name_or_path)
    kept = kept_version(folder, version) if version is not None else None
    if kept is None:
        return _load_cached(folder, False)
    if version and (folder / VERSIONS_DIR / version) == kept:
        try:
            current = _load_cached(folder, False)
        except ContentError:
            current = None
        if current is not None and current.content_hash == version:
            return current  # the version the pack is now: the pack itself (its kept copy waits for an edit)
    return _load_cached(kept, True)


FRESH_SECONDS = 2.0  # a shipped pack's files are looked at again at most this often (a command loads it often)


def _load_cached(folder: Path, kept: bool) -> Pack:
    hit = _CACHE.get(folder)
    now = time.monotonic()
    if hit and now - hit[2] < FRESH_SECONDS and str(folder).startswith(_SHIPPED_PREFIX):
        return hit[1]
    stamp = _stamp(folder)
    if hit and hit[0] == stamp:
        _CACHE[folder] = (stamp, hit[1], now)
        return hit[1]
    pack = replace(_load_folder(folder, kept=kept), content_hash=content_hash(folder))
    _CACHE[folder] = (stamp, pack, now)
    return pack


def keep_version(name_or_path: str) -> Path:
    """Copy the pack as it is now into its ``.versions/<content hash>/``, so that campaigns begun on
    this version play on unchanged after the pack is edited.  Returns the copy's folder."""
    folder = resolve_pack_path(name_or_path)
    load_pack(str(folder))  # only a pack that loads is worth keeping
    return keep_folder(folder)


def list_packs() -> list[str]:
    """Ids of this game's packs shipped in content/ (folders holding a pack.toml and races.toml: content/ holds
    other games' packs too)."""
    if not CONTENT_DIR.is_dir():
        return []
    return sorted(p.name for p in CONTENT_DIR.iterdir() if (p / "pack.toml").is_file() and (p / "races.toml").is_file())


def clear_cache() -> None:
    _CACHE.clear()
