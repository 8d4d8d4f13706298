"""Every saved campaign we have, found by walking the folders: users' files from earlier versions
(``../shared/fixtures/saved/``, beside the checkout) and the project's own (``tests/fixtures/``).

Each export imports into a fresh channel (by the leader who exported it), each database opens; every campaign equals
the replay of its log, and then plays on: the next sensible action in its state is taken and saved (the question
waiting is answered the way its deadline would, else the player whose move it is passes, else the leader goes on).
A file added to either folder is picked up with no change here.
"""
from __future__ import annotations

import json
import shutil
from pathlib import Path
from types import SimpleNamespace

import pytest

import rulesets as _all
from commands.core import Table
from engine import rulesets
from engine.deadlines import fire_deadline
from engine.service import CampaignService, replay
from engine.store import Store
from helpers.table import play

_all.load_all()

HERE = Path(__file__).parent
OURS = HERE / "fixtures"
USERS = HERE.parent.parent / "shared" / "fixtures" / "saved"
ROOTS = [r for r in (USERS, OURS) if r.is_dir()]


def _exports() -> list[Path]:
    out = []
    for root in ROOTS:
        for p in sorted(root.rglob("*.json")):
            try:
                doc = json.loads(p.read_text())
            except (ValueError, UnicodeDecodeError):
                continue
            if isinstance(doc, dict) and doc.get("format") == "hexpost-campaign":
                out.append(p)
    return out


def _databases() -> list[Path]:
    return [p for root in ROOTS for p in sorted(root.rglob("*.db"))]


def _id(p: Path) -> str:
    for root in ROOTS:
        if p.is_relative_to(root):
            return ("saved/" if root == USERS else "fixtures/") + p.relative_to(root).as_posix()
    return p.name


EXPORTS = _exports()
DATABASES = _databases()

# What the player whose move it is does to pass it on, by ruleset (when no question with a default is open).
PASS = {
    "tes": ("/endturn", "/battle stay", "/town done", "/reward done", "/day agree"),
    "skirmish": ("/skirmish end", "/skirmish wait"),
    "duel": ("/duel pass",),
    "engage": ("/mini next", "/mini end"),
}
# What the leader does when nobody's move is awaited (a campaign between battles or sessions).
LEADER = {
    "tes": ("/day start", "/battle start encounter:bandit-ambush", "/adventurer rest", "/quest next pick:1",
            "/adventurer create name:Quill race:argonian line:one-hand-and-shield"),
    "skirmish": ("/skirmish start", "/skirmish rematch"),
    "duel": ("/duel fight monster:cave-troll", "/duel fight monster:marsh-wisp"),
    "engage": ("/mini start",),
}


async def _version(store, channel):
    stored = await store.load_active(channel)
    return None if stored is None else stored.version


async def _replays(store, channel):
    stored = await store.load_active(channel)
    assert stored is not None, f"no campaign in channel {channel}"
    state = rulesets.load(stored.state)
    assert replay(await store.log(stored.id)).to_dict() == state.to_dict(), "the campaign differs from its log"
    return stored, state


async def _play_on(store, tmp_path, channel) -> str:
    """Take the next sensible action; returns what was done (the test fails when nothing could be)."""
    stored, state = await _replays(store, channel)
    errors, text, _ = await play(store, tmp_path, channel, f"/as {state.leader}\n/campaign status")
    assert errors == 0, text
    game = rulesets.of_state(stored.state)
    tried = []
    prompt = game.open_prompt(state) if game.open_prompt else None
    if prompt is not None and prompt.timeout_action:
        table = Table(CampaignService(store))
        due = SimpleNamespace(channel_id=channel, campaign_id=stored.id, key=prompt.deadline_key)
        await fire_deadline(table, due)
        if await _version(store, channel) != stored.version:
            return f"the {prompt.kind} question's default"
        tried.append(f"the {prompt.kind} question's default")
    waiting = game.whose_move(state)
    lines = [f"/as {waiting[0]}\n{line}" for line in PASS.get(game.name, ())] if waiting else []
    lines += [f"/as {state.leader}\n{line}" for line in LEADER.get(game.name, ())]
    for script in lines:
        before = await _version(store, channel)
        errors, text, _ = await play(store, tmp_path, channel, script)
        if errors == 0 and await _version(store, channel) != before:
            return script
        tried.append(f"{script!r}: {text[-300:]}")
    pytest.fail("no next action worked:\n" + "\n".join(tried))


@pytest.mark.parametrize("path", EXPORTS, ids=[_id(p) for p in EXPORTS])
async def test_every_export_imports_and_plays_on(tmp_path, path):
    doc = json.loads(path.read_text())
    store = await Store.open(tmp_path / "new.db")
    try:
        errors, text, _ = await play(store, tmp_path, "imported",
                                     f'/as {doc["exported_by"]}\n/campaign import file:"{path}"')
        assert errors == 0 and "imported from channel" in text, text
        await _play_on(store, tmp_path, "imported")
        await _replays(store, "imported")  # what was played on replays too
    finally:
        await store.close()


@pytest.mark.parametrize("path", DATABASES, ids=[_id(p) for p in DATABASES])
async def test_every_database_opens_and_plays_on(tmp_path, path):
    copy = tmp_path / "old.db"
    shutil.copy(path, copy)
    store = await Store.open(copy)
    try:
        channels = [channel for _cid, channel in await store.active_campaigns()]
        assert channels, "the database holds no campaign"
        for channel in channels:
            await _play_on(store, tmp_path, channel)
            await _replays(store, channel)
    finally:
        await store.close()


def test_the_users_folder_is_walked():
    """The users' files are beside the checkout (CI lays them there): the walk must find them, not skip them."""
    if not USERS.is_dir():
        pytest.skip("the users' saved campaigns are not beside this checkout")
    assert any(p.is_relative_to(USERS) for p in EXPORTS) and any(p.is_relative_to(USERS) for p in DATABASES)


def test_every_pack_version_a_saved_campaign_names_is_kept():
    """A campaign plays on the pack version it began on: each one a saved file names is shipped (the pack as it is
    now, or a kept copy in ``content/<pack>/.versions/``), else it would silently play on other content."""
    from engine.packs import content_hash
    from rulesets.tes.content.packs import CONTENT_DIR

    missing = []
    for path in EXPORTS:
        state = json.loads(path.read_text())["state"]
        version, pack = str(state.get("pack_version") or ""), str(state.get("pack") or "starter")
        if len(version) != 16 or not (CONTENT_DIR / pack).is_dir():
            continue  # unrecorded or the first "sha256:" form: read as the kept "unversioned" copy
        folder = CONTENT_DIR / pack
        kept = folder / ".versions" / version
        if content_hash(folder) != version and not (kept.is_dir() and any(kept.glob("*.toml"))):
            missing.append(f"{_id(path)}: {pack} {version}")
    assert not missing, missing
