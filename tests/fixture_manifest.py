"""The manifest of the committed saved-campaign fixtures: every file under tests/fixtures/ and its SHA-256.

A committed fixture is never rewritten or deleted (tests/test_fixture_manifest.py holds every file to its line
here).  New fixtures are added with ``python tests/fixture_manifest.py --add``, which appends lines for files not
listed yet and refuses to change a line that is there.
"""
from __future__ import annotations

import hashlib
import sys
from pathlib import Path

FIXTURES = Path(__file__).parent / "fixtures"
MANIFEST = FIXTURES / "MANIFEST.sha256"
NOT_FIXTURES = {"README.md", "MANIFEST.sha256"}
SQLITE_SIDE_FILES = ("-wal", "-shm", "-journal")  # what SQLite leaves beside a database it opened (not committed)


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def present() -> dict[str, Path]:
    return {p.relative_to(FIXTURES).as_posix(): p for p in sorted(FIXTURES.rglob("*"))
            if p.is_file() and p.name not in NOT_FIXTURES and "__pycache__" not in p.parts
            and not p.name.endswith(SQLITE_SIDE_FILES)}


def listed() -> dict[str, str]:
    out: dict[str, str] = {}
    if MANIFEST.is_file():
        for line in MANIFEST.read_text().splitlines():
            if line.strip() and not line.startswith("#"):
                sha, name = line.split(maxsplit=1)
                out[name] = sha
    return out


def add() -> list[str]:
    known = listed()
    new = [name for name in present() if name not in known]
    if new:
        with MANIFEST.open("a") as f:
            for name in new:
                f.write(f"{digest(FIXTURES / name)}  {name}\n")
    return new


if __name__ == "__main__":
    if sys.argv[1:] != ["--add"]:
        sys.exit("usage: python tests/fixture_manifest.py --add")
    for name in add():
        print("added", name)
