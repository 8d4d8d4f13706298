"""A campaign's sessions played at the local table from scripts, checked against the journal and the adventurers.

* examples/session.txt: session 1 from its set-up (the guild draw) through the Fighters Guild's The Salt Road to
  its epilogue, the keyword, the next guild quest and the adventurers put away;
* examples/session-2.txt: the next session in the same channel: the party as it was, the province and the quest
  from session 1's epilogue (The Sunken Chime: a social check, a drifting token, a retry step, a keyword-gated
  choice, the final battle), to its epilogue that leads into the endgame;
* examples/endgame.txt: session 3, the endgame's four days, won: the campaign is won;
* examples/campaign-lost.txt: a quest step failed: the session and the campaign are lost.

And the no-spoiler rule (p.46): everything the table showed (messages, button and menu labels, command output,
the text drawn on the pictures) never holds a step's words before the rules reach that step.
"""
from __future__ import annotations

from pathlib import Path

from helpers.table import play

from engine import rulesets
from engine.service import CampaignService, replay
from engine.store import Store
from rulesets.tes.content import load_pack

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def _script(name: str) -> str:
    return (EXAMPLES / name).read_text()


async def _replays(store, channel: str) -> None:
    stored = await store.load_active(channel)
    assert replay(await store.log(stored.id)).to_dict() == rulesets.load(stored.state).to_dict()


def check_session_one(state) -> None:
    """What examples/session.txt leaves: session 1 won in 4 days, the next quest chosen, the party put away."""
    j = state.journal
    assert state.days is None or state.days.phase == "over"  # no session runs between sessions
    assert j.guild == "fighters-guild" and j.result == ""
    (one,) = j.sessions
    assert (one.number, one.province, one.quest, one.result) == (1, "saltmire", "sm-salt-road", "won")
    assert (one.major, one.days, one.xp) == ("salt-road-sworn", 4, 9)
    assert j.keywords() == ["salt-road-sworn"] and j.assist == 0
    assert j.next == {"province": "saltmire", "quest": "sm-sunken-chime"} and j.options == []
    ryan = next(a for a in state.adventurers.values() if a.name == "Ryan")
    shannon = next(a for a in state.adventurers.values() if a.name == "Shannon")
    # put away (p.49): full HP, tenacity 0, saved XP kept (3 each after the last Reward Phase), no die in the track
    assert (ryan.hp, ryan.max_hp, ryan.tenacity, ryan.saved_xp) == (4, 4, 0, 3)
    assert (shannon.hp, shannon.max_hp, shannon.tenacity, shannon.saved_xp) == (5, 5, 0, 3)
    assert ryan.cooldown == [] and shannon.cooldown == []
    assert {n["adventurer"] for n in j.names.values()} == {"Ryan", "Shannon"}


def check_session_two(state) -> None:
    """What examples/session-2.txt leaves: The Sunken Chime won in 6 days, the endgame next."""
    j = state.journal
    assert j.guild == "mages-guild" and [s.number for s in j.sessions] == [1, 2]
    two = j.sessions[1]
    assert (two.province, two.quest, two.result, two.major, two.days) == (
        "saltmire", "sm-sunken-chime", "won", "chime-bearer", 6)
    assert j.keywords() == ["salt-road-sworn", "chime-bearer"] and j.next is None
    for adv in state.adventurers.values():
        assert adv.hp == adv.max_hp and adv.tenacity == 0 and adv.saved_xp == 3 and adv.cooldown == []


def step_words(step) -> list[str]:
    """The words of a step only the step's own reading shows (its story and its objective)."""
    return [w for w in (step.story, step.objective) if w]


def check_no_spoilers(transcript: str, quests) -> None:
    """Each step's words appear only after the line that reveals the step ("Step <code> —")."""
    for q in quests:
        for st in q.steps:
            reveal = transcript.find(f"Step {st.code} — ")
            for words in step_words(st):
                first = transcript.find(words)
                if first == -1:
                    continue
                assert reveal != -1 and reveal <= first, (st.code, words[:60])


async def test_session_one_through_its_epilogue_then_session_two_in_the_same_channel(tmp_path):
    store = await Store.open(tmp_path / "session.db")
    try:
        errors, text, local = await play(store, tmp_path, "marsh", _script("session.txt"))
        assert errors == 0, [f for f in local.failed]
        state = await CampaignService(store).campaign("marsh")
        check_session_one(state)
        for words in ("The guild deck: ", "The party contracts with the **Fighters Guild**",
                      "Step C05 is linked to the one before", "Battle 2: **The Salt Baron's Hall**",
                      "enemy pool 32", "Epilogue (E07)", "major keyword **Salt Road Sworn**",
                      "The adventurers are put away"):
            assert words in text, words
        assert "Session 1: The Saltmire, The Salt Road — done" in text  # /journal, in words and as a picture
        assert any("journal" in p.name for p in local.images)
        from rulesets.tes.present.quest import journal_view

        view = journal_view(state, load_pack("starter"))
        assert view["guild"] == "Fighters Guild" and view["keywords"] == ["Salt Road Sworn"]
        assert [(x["number"], x["province"], x["quest"], x["result"]) for x in view["sessions"]] == [
            (1, "The Saltmire", "The Salt Road", "done")]
        await _replays(store, "marsh")
        pack = load_pack("starter")
        salt, chime = pack.campaign.quests["sm-salt-road"], pack.campaign.quests["sm-sunken-chime"]
        check_no_spoilers(text, [salt, chime])
        assert chime.steps[0].story not in text  # the next quest's first step waits for session 2

        # session 2: the province is the journal's, not the leader's
        errors, refused, _ = await play(store, tmp_path, "marsh", "/as ryan\n/day start province:nowhere")
        assert errors == 1 and "Session 2 is played in The Saltmire" in refused
        errors, text2, local = await play(store, tmp_path, "marsh", _script("session-2.txt"))
        assert errors == 0, [f for f in local.failed]
        state = await CampaignService(store).campaign("marsh")
        check_session_two(state)
        assert "📕 Session 2 of the campaign." in text2 and "The party takes up the Mages Guild's card" in text2
        assert "The Sunken Chime, step D" in text2 and "not open: needs the keyword Chime-Heard" in text2
        assert "Epilogue (F18)" in text2 and "Session 3 is the endgame, in The Saltmire" in text2
        check_no_spoilers(text + "\n" + text2, [salt, chime])
        await _replays(store, "marsh")

        # session 3, the endgame: four days in order, no movement; won, the campaign is won
        errors, text3, local = await play(store, tmp_path, "marsh", _script("endgame.txt"))
        assert errors == 0, [f for f in local.failed]
        state = await CampaignService(store).campaign("marsh")
        j = state.journal
        assert j.result == "won" and [s.result for s in j.sessions] == ["won", "won", "won"]
        assert j.sessions[2].endgame and j.sessions[2].days == 4 and j.sessions[2].major == ""
        assert j.keywords() == ["salt-road-sworn", "chime-bearer"]
        for words in ("📕 Session 3 of the campaign — the endgame.", "the party does not move",
                      "Keyword Chime-Bearer", "Keyword Salt Road Sworn", "Endgame, day 4",
                      "🏆 The Tidecaller sinks back", "The campaign is won"):
            assert words in text3, words
        assert text3.count("campaign is won") == 2  # the victory line (once), then the journal's heading
        assert "Session 3: The Saltmire, Endgame: The Tide Unbound — done" in text3
        await _replays(store, "marsh")
        errors, refused, _ = await play(store, tmp_path, "marsh", "/as ryan\n/day start")
        assert errors == 1 and "This campaign is won" in refused
    finally:
        await store.close()


async def test_a_failed_step_loses_the_campaign(tmp_path):
    store = await Store.open(tmp_path / "lost.db")
    try:
        errors, text, local = await play(store, tmp_path, "lost", _script("campaign-lost.txt"))
        assert errors == 1 and local.failed[0][1] == "/day start"  # the last line: a lost campaign starts no session
        assert "This campaign is lost" in local.failed[0][2]
        assert "💀 Step B04 is failed, and with it the guild quest **The Salt Road**" in text
        state = await CampaignService(store).campaign("lost")
        j = state.journal
        assert j.result == "lost" and j.sessions[0].result == "lost" and j.sessions[0].days == 3
        assert "Session 1: The Saltmire, The Salt Road — failed" in text
        pack = load_pack("starter")
        check_no_spoilers(text, [pack.campaign.quests["sm-salt-road"]])
        salt = pack.campaign.quests["sm-salt-road"]
        assert salt.steps[2].story not in text and salt.epilogue.story not in text
        await _replays(store, "lost")
    finally:
        await store.close()


async def transcript_with_pictures(tmp_path, monkeypatch, channel: str, scripts: list[str]) -> list[str]:
    """Everything the local table showed while playing ``scripts`` (examples/ file names) in ``channel``, with
    the text of every picture's view in its place (what a picture draws comes from its view)."""
    import json

    import render
    from commands.core import Table
    from commands.local import LocalTable

    out: list[str] = []
    real = render.render

    def drawn(kind, view):
        out.append(f"[picture {kind}] " + json.dumps(view, ensure_ascii=False))
        return real(kind, view)

    monkeypatch.setattr(render, "render", drawn)
    store = await Store.open(tmp_path / "spoilers.db")
    try:
        local = LocalTable(Table(CampaignService(store)), channel=channel, out_dir=tmp_path / "out", echo=out.append)
        for name in scripts:
            assert await local.run_script(_script(name).strip().splitlines()) == 0, local.failed
    finally:
        await store.close()
    return out


async def test_no_step_words_before_their_time_in_words_buttons_or_pictures(tmp_path, monkeypatch):
    """The whole campaign's transcript with the text of every picture's view in its place: no step's story or
    objective before the line that reveals the step."""
    out = await transcript_with_pictures(tmp_path, monkeypatch, "marsh", ["session.txt", "session-2.txt",
                                                                         "endgame.txt"])
    pictures = [line for line in out if line.startswith("[picture ")]
    assert any(p.startswith("[picture overland]") for p in pictures)
    assert any(p.startswith("[picture journal]") for p in pictures)
    assert any(p.startswith("[picture map]") for p in pictures)
    pack = load_pack("starter")
    check_no_spoilers("\n".join(out), list(pack.campaign.quests.values()))
    # buttons and menus are in the transcript too
    assert "[menu: The party's guild" in "\n".join(out)
