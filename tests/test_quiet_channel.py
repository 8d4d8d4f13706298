"""A quiet channel (a play-by-post table read on phones, hours apart): one post per action with at most one picture,
the picture of what the action changed; rolls and mats only when a player asks (buttons under the post); and no
post without words.  The budget is measured over the shipped scripts of a session's days, a whole first session,
a dungeon fought turn by turn and a delve explored tile by tile: at most 0.5 pictures a command line.
"""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

from commands.core import Table
from commands.local import LocalTable
from engine.reply import Reply
from engine.service import CampaignService
from engine.store import Store

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
sys.path.insert(0, str(EXAMPLES.parent / "bench"))
from bench_channel import SCRIPTS, command_lines  # noqa: E402 - the bench counts the same way


class Counting(LocalTable):
    def __init__(self, *a, **k):
        super().__init__(*a, **k)
        self.posts: list[Reply] = []

    async def print_reply(self, reply: Reply) -> None:
        self.posts.append(reply)
        await super().print_reply(reply)


async def _play(tmp_path, name):
    store = await Store.open(tmp_path / f"{name}.db")
    try:
        local = Counting(Table(CampaignService(store)), channel=name.split(".")[0], out_dir=tmp_path / "out",
                         echo=lambda _line: None)
        lines = (EXAMPLES / name).read_text().splitlines()
        errors = await local.run_script(lines)
        assert errors == 0, name
        return local.posts, command_lines(lines)
    finally:
        await store.close()


async def test_at_most_half_a_picture_per_command_line_and_no_post_without_words(tmp_path):
    pictures = lines = 0
    per_post = []
    for name in SCRIPTS:
        posts, n = await _play(tmp_path, name)
        lines += n
        for post in posts:
            pictures += len(post.pictures)
            per_post.append(len(post.pictures))
            if not post.ephemeral:
                assert (post.content or post.embeds), f"{name}: a post with no words"
    assert pictures / lines <= 0.5, f"{pictures} pictures for {lines} command lines"
    # an action's own post carries one picture at most (a show command may draw a mat and its sheet)
    assert sum(1 for n in per_post if n > 2) == 0


@pytest.mark.parametrize("script", ["dungeon.txt"])
async def test_rolls_are_a_button_away_and_draw_for_the_asker_alone(tmp_path, script):
    store = await Store.open(tmp_path / "d.db")
    try:
        local = Counting(Table(CampaignService(store)), channel="dungeon", out_dir=tmp_path / "out",
                         echo=lambda _line: None)
        await local.run_script((EXAMPLES / script).read_text().splitlines())
        with_roll = [p for p in local.posts if any(b.label.startswith("🎲") for b in p.buttons)]
        assert with_roll, "an engage's post offers its dice as a button"
        # a post whose picture is the map (an enemy phase, a resolve) offers its dice as a button, never draws them
        assert all(not any(pic.kind == "roll" for pic in p.pictures) for p in with_roll)
        button = next(b for b in with_roll[-1].buttons if b.label.startswith("🎲"))
        inv = local.table.invocation("leader", "dungeon", "local-guild", "leader")
        inv.local = True
        reply = await local.table.click(inv, button.custom_id, [])
        assert reply.ephemeral and reply.pictures and all(p.kind == "roll" for p in reply.pictures)
    finally:
        await store.close()


async def test_every_enemy_skill_is_promised_in_the_first_post_and_in_battle_status(tmp_path):
    """Issue 26 item 8: the enemies' skills are listed before they fire (the first post, /battle status)."""
    store = await Store.open(tmp_path / "s.db")
    try:
        local = Counting(Table(CampaignService(store)), channel="dungeon", out_dir=tmp_path / "out",
                         echo=lambda _line: None)
        lines = (EXAMPLES / "dungeon.txt").read_text().splitlines()
        start = next(i for i, ln in enumerate(lines) if "/battle start" in ln)
        assert await local.run_script(lines[:start]) == 0
        before = len(local.posts)
        assert await local.run_script(lines[start: start + 1]) == 0
        first = "\n".join(p.content for p in local.posts[before:])
        assert "What each enemy does" in first
        state = await local.table.service.campaign("dungeon")
        from rulesets.tes.content import load_pack

        pack = load_pack(state.pack, state.pack_version)
        kinds = {u.enemy for u in state.battle.units.values() if u.side == "enemy" and u.enemy}
        for kind in kinds:
            en = pack.enemies[kind]
            assert f"**{en.name}**" in first
            for skill in en.skills:
                assert skill.label in first
        await local.run_line("/battle status")
        status = local.posts[-1].embeds[0].as_text()
        assert "What each enemy does" in status and all(pack.enemies[k].name in status for k in kinds)
    finally:
        await store.close()


async def test_the_enemies_arrows_are_drawn_only_in_the_post_of_their_phase(tmp_path):
    """Issue 26 item 6: a map draws only what happened in the action shown; /battle map later carries no stale
    arrow of the enemy phase before."""
    store = await Store.open(tmp_path / "arrows.db")
    try:
        local = Counting(Table(CampaignService(store)), channel="dungeon", out_dir=tmp_path / "out",
                         echo=lambda _line: None)
        lines = (EXAMPLES / "dungeon.txt").read_text().splitlines()
        seen = None
        for line in lines:
            await local.run_line(line)
            last = local.last
            if last is not None and last.pictures and last.pictures[0].view.get("engages"):
                seen = last
                break
        assert seen is not None, "an enemy phase's post draws its engages"
        await local.run_line("/battle map")
        view = local.last.pictures[0].view
        assert not view.get("engages") and not view.get("moves")
    finally:
        await store.close()


async def test_a_tiles_sixteen_placements_come_in_two_pages_of_eight(tmp_path):
    """Issue 26 item 11: the placements' picture and menu page by 8; the other page is a button away."""
    store = await Store.open(tmp_path / "pages.db")
    try:
        local = Counting(Table(CampaignService(store)), channel="delve", out_dir=tmp_path / "out",
                         echo=lambda _line: None)
        lines = (EXAMPLES / "delve-survey.txt").read_text().splitlines()
        upto = next(i for i, ln in enumerate(lines) if ln.startswith("/explore at:4,-2"))
        assert await local.run_script(lines[: upto + 1]) == 0
        post = local.last
        view = post.pictures[0].view
        assert post.pictures[0].kind == "placements" and len(view["options"]) == 8 and "(1-8 of 16)" in view["title"]
        assert [o[1] for o in post.selects[0].options] == [str(n) for n in range(1, 9)]
        assert await local.run_script(['/click "Placements 9-16"']) == 0
        page = local.last
        assert page.ephemeral and [o["n"] for o in page.pictures[0].view["options"]] == list(range(9, 17))
        assert [o[1] for o in page.selects[0].options] == [str(n) for n in range(9, 17)]
        assert await local.run_script(["/explore place:12"]) == 0
        assert "placement 12 of 16" in local.last.content
    finally:
        await store.close()
