"""A committed saved-campaign fixture is never rewritten or deleted: each file under tests/fixtures/ is held to
its SHA-256 in tests/fixtures/MANIFEST.sha256 (and a new file must be listed there: tests/fixture_manifest.py)."""
from __future__ import annotations

from fixture_manifest import FIXTURES, digest, listed, present


def test_every_listed_fixture_is_still_there_unchanged():
    files = present()
    gone = [name for name in listed() if name not in files]
    changed = [name for name, sha in listed().items() if name in files and digest(files[name]) != sha]
    assert not gone, f"committed fixtures were deleted: {gone}"
    assert not changed, f"committed fixtures were rewritten (write new ones in a new folder instead): {changed}"


def test_every_fixture_is_in_the_manifest():
    unlisted = [name for name in present() if name not in listed()]
    assert not unlisted, f"add them with `python tests/fixture_manifest.py --add`: {unlisted}"


def test_the_fixtures_readme_says_they_never_change():
    text = (FIXTURES / "README.md").read_text()
    assert "never rewritten or deleted" in text and "MANIFEST.sha256" in text
