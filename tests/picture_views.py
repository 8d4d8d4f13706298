"""Every picture the bot posts, from real play and from the samples: the views the phone test measures and
the pictures in docs/images.

``every_picture()`` lists (name, kind, view): the hand-written samples of ``render.samples`` and views built
by playing the rules with forced dice (a lockpick check, the free move an interrupt offers, a rune in a hex,
a battle won, a skirmish with a tie on initiative and one played to its winner, a delve grown to 8 tiles and
won, a dungeon set up, a revealed tile's placements).

``python tests/picture_views.py [OUTDIR]`` writes one picture of each (default: docs/images).
"""
from __future__ import annotations

import os
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
for p in (str(HERE), str(HERE.parent)):
    if p not in sys.path:
        sys.path.insert(0, p)

from render.samples import journal_example_view, samples  # noqa: E402

#: the pictures in docs/images: one of each kind, and the map's variants the README shows
DOCS = ("mat-example", "sheet-example", "map-example", "map-enemy-phase", "map-free-move", "map-rune",
        "result-victory", "roll-example", "lockpick-check", "skirmish-map", "skirmish-over", "skirmish-initiative",
        "engage-map", "duel-fight", "overland-example", "map-delve", "map-dungeon", "delve-placements",
        "result-delve", "journal")


def names_of(ids):
    return lambda uid: {"S": "Shannon", "R": "Ryan", "lena": "Lena", "bob": "Bob"}.get(uid, f"player {uid}")


def lockpick_check_view() -> dict:
    """Shannon at a common cache (code 5-2-2): the first attempt rolled 1 2 3."""
    from battle_helpers import run
    from rulesets.tes.present.battle import lockpick_view
    from test_battle_lockpick import _at_cache

    s, _ = _at_cache()
    s, _ = run(s, "battle.lockpick", "S", {}, forced=[1, 2, 3])
    return lockpick_view(s)


def victory_view() -> dict:
    """Shannon defeats the High Elf Bandit, the Jailbreak is won at the end of the round."""
    from battle_helpers import ctx, jailbreak, party, run
    from rulesets.tes.present.battle import result_view

    s = party(ryan=False)
    s, _ = jailbreak(s, {"S": "-2,2"}, forced=(2,))
    s, _ = run(s, "battle.move", "S", {"to": "0,2"})
    s, _ = run(s, "battle.engage", "S", {"target": "HEB1", "dice": "2 shield-discipline, combat"}, forced=[3, 4, 4])
    s, _ = run(s, "battle.resolve", "S", {})
    pack = ctx(s).pack
    s, ev = run(s, "battle.endturn", "S")
    end = next(e for e in ev if e.kind == "battle-end")
    return result_view(s, pack, end)


def free_move_view() -> dict:
    from test_battle_reactions import free_move_picture_view

    return free_move_picture_view()


def rune_view() -> dict:
    from test_battle_hex_dice import rune_picture_view

    return rune_picture_view()


SKIRMISH = [
    ("lena", "campaign.new", {"name": "Fen Crossing", "ruleset": "skirmish", "channel_id": "c", "seed": 3}),
    ("bob", "campaign.join", {}),
    ("lena", "skirmish.warband", {"faction": "wardens", "name": "Thorn Watch"}),
    ("lena", "skirmish.recruit", {"fighter": "thornspeaker"}),
    ("lena", "skirmish.recruit", {"fighter": "bramble-guard"}),
    ("lena", "skirmish.deploy", {"fighter": "a1", "at": "-1,5"}),
    ("lena", "skirmish.deploy", {"fighter": "a2", "at": "-1,4"}),
    ("bob", "skirmish.warband", {"faction": "reavers"}),
    ("bob", "skirmish.recruit", {"fighter": "ashcaller"}),
    ("bob", "skirmish.recruit", {"fighter": "ember-runner"}),
    ("bob", "skirmish.deploy", {"fighter": "b1", "at": "10,5"}),
    ("bob", "skirmish.deploy", {"fighter": "b2", "at": "10,4"}),
]


def skirmish_start(forced=(1, 2, 3, 4, 5, 5, 1, 1, 2, 2, 3, 6)):
    """A two-player skirmish up to its first initiative roll; returns (state, the start's events)."""
    from engine.core import Action
    from rulesets.skirmish import rules
    from rulesets.skirmish.state import RULES

    state = None
    for actor, type_, args in SKIRMISH:
        if type_ == "campaign.new":
            args = dict(args, rules=RULES)
        state = rules.TABLE.execute(state, Action(type_, actor, args), rules.dice_for(state)).state
    applied = rules.TABLE.execute(state, Action("skirmish.start", "lena", {}), rules.dice_for(state, list(forced)))
    return applied.state, applied.events


def skirmish_tie_view() -> dict:
    """Both warbands roll 4 singles: a roll-off (3 and 3, then 5 and 2) decides who activates first."""
    from rulesets.skirmish.present.view import initiative_view

    s, ev = skirmish_start(forced=(1, 2, 3, 4, 5, 5, 1, 2, 3, 4, 6, 6, 3, 3, 5, 2))
    return initiative_view(s, names_of(None), ev)


def skirmish_over_view() -> dict:
    """The skirmish of examples/skirmish.txt played to its end at the local table's rules: Thorn Watch wins."""
    from engine.core import Action
    from rulesets.skirmish import rules
    from rulesets.skirmish.content import load_pack
    from rulesets.skirmish.present.view import map_view

    s, _ = skirmish_start()
    plays = [("lena", "skirmish.activate", {"fighter": "a2"}, None), ("lena", "skirmish.move", {"to": "3,4"}, None),
             ("lena", "skirmish.wait", {}, None), ("bob", "skirmish.activate", {"fighter": "b2"}, None),
             ("bob", "skirmish.move", {"to": "4,4"}, None), ("bob", "skirmish.attack", {"target": "a2"}, [6, 4, 2, 1]),
             ("bob", "skirmish.end", {}, None)]
    events = []
    for actor, type_, args, forced in plays:
        out = rules.TABLE.execute(s, Action(type_, actor, args), rules.dice_for(s, forced))
        s, events = out.state, out.events
    # the Cinder Reavers are taken out of action: the battle ends with the Thorn Watch on the field
    for f in s.fighters.values():
        if f.owner == "bob":
            f.out, f.hex, f.damage = True, None, 9 if f.type == "ember-runner" else f.damage
    from rulesets.skirmish.rules.engine import finish

    finish(s, events, "lena", "no enemy fighter is left on the battlefield")
    return map_view(s, load_pack(s.pack), names_of(None), events=events)


def real_pictures() -> list[tuple[str, str, dict]]:
    return [("lockpick-check", "lockpick", lockpick_check_view()), ("result-victory", "result", victory_view()),
            ("map-free-move", "map", free_move_view()), ("map-rune", "map", rune_view()),
            ("skirmish-initiative", "skirmish", skirmish_tie_view()), ("skirmish-over", "skirmish", skirmish_over_view())]


def other_rulesets() -> list[tuple[str, str, dict]]:
    """The engage battlefield, the duel's fight and the overland map, from their own render tests' views."""
    import test_duel_render
    import test_engage_render
    import test_overland_render

    return [("engage-pending", "engage", test_engage_render.pending_view()),
            ("engage-map", "engage", test_engage_render.room_view()),
            ("duel-busy", "duel", test_duel_render.view_of(test_duel_render.busy_fight())),
            ("duel-fight", "duel", test_duel_render.example_view()),
            ("overland-example", "overland", test_overland_render.example_view())]


def grown_delve_view() -> dict:
    """The Brinehollow Caves grown to 8 tiles or more (more skyshards to find than the usual 3, so that it grew)."""
    from delve_helpers import PACK, grown_delve
    from rulesets.tes.present.battle import map_picture

    s = grown_delve(8)
    s.battle.delve.required = max(3, s.battle.delve.drawn + 1)
    pic = map_picture(s, PACK, "map-delve.png")
    assert pic.kind == "delvemap" and len(pic.view["delve"]["tiles"]) >= 8
    return pic.view


def delve_end_view() -> dict:
    """The grown delve won: its skyshards gained, the Survey ends with the round (the end drawn as its map)."""
    from battle_helpers import run
    from delve_helpers import PACK, grown_delve
    from rulesets.tes.present.battle import result_view

    s = grown_delve(8)
    s.battle.delve.gained = s.battle.delve.required
    ev = []
    while s.battle is not None:
        s, ev = run(s, "battle.endturn", s.battle.turn.owner)
    end = next(e for e in ev if e.kind == "battle-end")
    view = result_view(s, PACK, end)
    assert view["result"] == "victory" and "delve" in view
    return view


def dungeon_view() -> dict:
    """The Riot in the Drowned Gaol set up: its caged units, star and lettered hexes."""
    from battle_helpers import party, run
    from delve_helpers import PACK
    from rulesets.tes.present.battle import map_picture

    s = party()
    s, _ = run(s, "battle.start", "S", {"encounter": "gaol-riot", "session": 1})
    return map_picture(s, PACK, "map-dungeon.png").view


def placements_picture_view() -> dict:
    """Shannon explores the entrance's door: the Mudwalker Den's six placements, the first suggested."""
    from battle_helpers import run
    from delve_helpers import PACK, delve, on_top
    from rulesets.tes.present.delve_view import placements_view

    s, _ = delve(hexes={"S": "1,0", "R": "1,1"})
    on_top(s, "forgotten-storeroom")
    s, _ = run(s, "battle.explore", "S", {})
    return placements_view(s, PACK)


def delve_pictures() -> list[tuple[str, str, dict]]:
    return [("map-delve", "delvemap", grown_delve_view()), ("result-delve", "delvemap", delve_end_view()),
            ("map-dungeon", "delvemap", dungeon_view()), ("delve-placements", "placements", placements_picture_view())]


def every_picture() -> list[tuple[str, str, dict]]:
    real = real_pictures() + other_rulesets() + delve_pictures() + [("journal", "journal", journal_example_view())]
    taken = {name for name, _, _ in real}
    return [x for x in samples() if x[0] not in taken] + real


def write_docs(outdir: str) -> list[str]:
    from render import render

    os.makedirs(outdir, exist_ok=True)
    out = []
    for name, kind, view in every_picture():
        if name in DOCS:
            path = os.path.join(outdir, f"{name}.png")
            with open(path, "wb") as fh:
                fh.write(render(kind, view))
            out.append(path)
    return out


async def dashboard_post() -> dict:
    """The dashboard of a real battle (the Jailbreak Introduction, as it begins), as the README's
    drawing of the post shows it: mentions as names, Discord timestamps as a reader in UTC sees them."""
    import re
    import time

    from commands.core import Table
    from commands.dashboard import build
    from commands.local import LocalTable
    from engine.service import CampaignService
    from engine.store import Store
    from render import render

    store = await Store.open(":memory:")
    try:
        table = Table(CampaignService(store))
        lt = LocalTable(table, echo=lambda text: None)
        lt.dashboard = False
        lines = [x for x in (HERE.parent / "examples" / "creation.txt").read_text().splitlines()
                 if x.strip() and not x.startswith("#")][:5]
        for line in lines + ["/battle start encounter:jailbreak"]:
            await lt.run_line(line)
        built = await build(table, lt.channel)
        board = built.board
        embed = board.embed()
        since = board.since or time.time()

        def words(text: str) -> str:
            text = re.sub(r"<@([^>]+)>", lambda m: "@" + built.inv.name_of(m.group(1)), text)
            text = re.sub(r"<t:(\d+):f>", lambda m: time.strftime("%d %B %Y %H:%M", time.gmtime(int(m.group(1)))),
                          text)
            return re.sub(r"<t:(\d+):R>", lambda m: "a minute ago" if int(m.group(1)) <= since + 1 else "in a day",
                          text).replace("`", "")

        picture = render(board.picture.kind, board.picture.view) if board.picture else None
        return {"author": "Hexpost", "title": embed.title, "description": words(embed.description),
                "fields": [[name, words(value)] for name, value, _inline in embed.fields], "footer": embed.footer,
                "color": f"#{embed.color:06x}", "picture": picture}
    finally:
        await store.close()


def write_dashboard(outdir: str) -> str:
    import asyncio

    from render.embed import render_post

    path = os.path.join(outdir, "dashboard.png")
    with open(path, "wb") as fh:
        fh.write(render_post(asyncio.run(dashboard_post())))
    return path


if __name__ == "__main__":  # refresh docs/images
    folder = sys.argv[1] if len(sys.argv) > 1 else str(HERE.parent / "docs" / "images")
    for path in write_docs(folder) + [write_dashboard(folder)]:
        print(path)
