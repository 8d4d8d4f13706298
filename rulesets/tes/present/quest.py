"""The campaign's commands: /quest (the guild, the next guild quest, side quests, the guild assist, where the
quest stands) and /journal (the campaign journal as a picture, with its words).

Nothing here reads a step the rules have not reached: `/quest status` shows the step the party works on and the
ones it completed (the state names no other), and the journal names quests, keywords and sessions only.
"""
from __future__ import annotations

from engine.text import count
from typing import Any

from engine.commands import Invocation, Opt, command, group
from engine.components import on_click
from engine.core import RuleError
from engine.reply import Embed, Picture, Reply, clip
from rulesets.tes.present.common import PLAYER, _pack, _state
from rulesets.tes.present.day import day_reply
from rulesets.tes.session.actions import Assist
from rulesets.tes.present.battle import assist_buttons

group("quest", "The campaign's guild quest and side quests")

RESULT_WORDS = {"": "under way", "won": "won", "lost": "lost"}


# ------------------------------------------------------------------ the journal --
def journal_view(state, pack) -> dict[str, Any]:
    """The campaign journal in plain words (for the picture and the text): the party, each session, keywords."""
    from rulesets.tes.quest.common import content, keyword_name
    from rulesets.tes.quest_state import GUILD_ASSIST

    camp = content(pack)
    j = state.journal
    party = []
    names = j.names if j is not None and j.names else {}
    for owner, adv in state.adventurers.items():
        player = (names.get(owner) or {}).get("player") or state.names.get(owner, "")
        party.append({"adventurer": adv.name, "player": player})
    view: dict[str, Any] = {"campaign": state.name, "difficulty": state.difficulty, "party": party,
                            "guild": "", "sessions": [], "keywords": [], "minor": [], "assist": "not used yet",
                            "result": ""}
    if j is None:
        return view
    if j.guild and j.guild in camp.guilds:
        view["guild"] = camp.guilds[j.guild].name
    for s in j.sessions:
        prov = pack.provinces.get(s.province)
        q = camp.quests.get(s.quest) if s.quest else None
        endgame = s.endgame or s.number >= 3  # the third session is the endgame
        eg = camp.endgames.get(s.province) if endgame else None
        view["sessions"].append({
            "number": s.number, "province": prov.name if prov else s.province, "difficulty": s.difficulty,
            "quest": q.name if q else (f"Endgame: {eg.name}" if eg else ("the endgame" if endgame else "—")),
            "result": {"won": "done", "lost": "failed"}.get(s.result, "under way"), "why": s.why,
            "major": (GUILD_ASSIST if s.major == GUILD_ASSIST else keyword_name(pack, s.major)) if s.major else "",
            "xp": s.xp, "days": s.days,
            "sides_done": [camp.side_quests[x].name if x in camp.side_quests else x for x in s.sides_done],
            "sides_failed": [camp.side_quests[x].name if x in camp.side_quests else x for x in s.sides_failed]})
    view["keywords"] = [keyword_name(pack, s.major) for s in j.sessions if s.major and s.major != GUILD_ASSIST]
    view["minor"] = [keyword_name(pack, str(m.get("keyword"))) for m in j.minor]
    view["assist"] = f"used in session {j.assist}" if j.assist else "not used yet"
    view["result"] = j.result
    view["next"] = next_words(state, pack)
    return view


def next_words(state, pack) -> str:
    """What the journal notes for the next session (p.49): the guild quest chosen for it, the choice still to
    make, or the endgame; "" while a session runs or when the campaign is over."""
    from rulesets.tes.quest.common import content

    j = state.journal
    if j is None or j.result or not j.sessions or (state.quests is not None and not j.sessions[-1].result):
        return ""
    camp = content(pack)
    last = j.sessions[-1]
    if last.result != "won":
        return ""
    if j.next and j.next.get("quest") in camp.quests:
        q = camp.quests[j.next["quest"]]
        prov = pack.provinces.get(q.province)
        guild = camp.guilds.get(q.guild)
        return (f"Session {last.number + 1}: {q.name}" + (f" for the {guild.name}" if guild else "")
                + f", in {prov.name if prov else q.province}")
    if j.options:
        names = [camp.quests[o["quest"]].name for o in j.options if o.get("quest") in camp.quests]
        return (f"Session {last.number + 1}: the guild quest is not chosen yet (" + ", ".join(names)
                + "): the party leader chooses with /quest next")
    if last.number + 1 >= 3:
        prov = pack.provinces.get(last.province)
        return f"Session {last.number + 1}: the endgame, in {prov.name if prov else last.province}"
    return ""


def journal_text(view: dict[str, Any]) -> str:
    lines = [f"📓 Campaign journal — {view['campaign']} ({view['difficulty']})"
             + (f": the campaign is {view['result']}." if view["result"] else "")]
    lines.append("Party: " + (", ".join(f"{p['adventurer']} ({p['player']})" if p["player"] else p["adventurer"]
                                        for p in view["party"]) or "nobody yet"))
    if view["guild"]:
        lines.append(f"Guild: {view['guild']}")
    for s in view["sessions"]:
        bits = [f"Session {s['number']}: {s['province']}, {s['quest']} — {s['result']}"]
        if s["why"]:
            bits.append(f"({s['why']})")
        if s["major"]:
            bits.append(f"; major keyword {s['major']}")
        if s["days"]:
            bits.append(f"; {count(s['days'], 'day')}, XP Dial {s['xp']}")
        lines.append(" ".join(bits).replace(" ;", ";"))
        if s["sides_done"]:
            lines.append("  Side quests done: " + ", ".join(s["sides_done"]))
        if s["sides_failed"]:
            lines.append("  Side quests not done: " + ", ".join(s["sides_failed"]))
    if not view["sessions"]:
        lines.append("No session played yet: the party leader starts one with `/day start`.")
    if view.get("next"):
        lines.append(f"Next: {view['next']}.")
    lines.append("Keywords: " + (", ".join(view["keywords"] + view["minor"]) or "none yet"))
    lines.append(f"Guild assist: {view['assist']}")
    return "\n".join(lines)


@command("journal", "The campaign journal: the party, its sessions, provinces, keywords, quests and the guild assist.",
         renders=True)
async def journal(inv: Invocation) -> Reply:
    state = await _state(inv)
    view = journal_view(state, _pack(state))
    return Reply(content=clip(journal_text(view), 1990), pictures=[Picture("journal", view, "journal.png")])


# ------------------------------------------------------------------ /quest --
async def _do(inv: Invocation, type_: str, args: dict, player=None) -> Reply:
    out = await inv.do(type_, args, player=player)
    return await day_reply(inv, out)


@command("quest guild", "Leader, first session: choose the party's guild from the 3 guild cards drawn.",
         Opt("pick", str, "The guild card's number (1-3) or its name", required=True), renders=True)
async def quest_guild(inv: Invocation, pick) -> Reply:
    return await _do(inv, "quest.guild", {"pick": pick.strip()[:60]})


@command("quest next", "Leader, after session 1: choose the next guild quest from the epilogue's options.",
         Opt("pick", str, "The option's number or the quest's name", required=True), renders=True)
async def quest_next(inv: Invocation, pick) -> Reply:
    return await _do(inv, "quest.next", {"pick": pick.strip()[:60]})


@command("quest accept", "Accept one of the side quests you drew at the quest board, or neither.",
         Opt("pick", str, "The side quest's number or name, or neither", required=True), PLAYER, renders=True)
async def quest_accept(inv: Invocation, pick, player=None) -> Reply:
    return await _do(inv, "quest.accept", {"pick": pick.strip()[:60]}, player)


@command("quest discard", "Leader: discard one of the party's side quests.",
         Opt("side", str, "The side quest's number or name", required=True), renders=True)
async def quest_discard(inv: Invocation, side) -> Reply:
    return await _do(inv, "quest.discard", {"pick": side.strip()[:60]})


def _hexes(text: str, example: str) -> list[list[int]]:
    hexes = []
    for bit in text.replace(";", " ").split():
        q, _, r = bit.partition(",")
        try:
            hexes.append([int(q), int(r)])
        except ValueError:
            raise RuleError(f"Write the hexes as q,r separated by spaces, e.g. `{example}`.") from None
    return hexes


@command("quest assist", "Leader: call the guild assist, once a campaign (in a battle, or in the Adventurers Rest).",
         Opt("use", str, "yes to call it, no to let the battle end (after a full party defeat)",
             choices=("yes", "no")),
         Opt("path", str, "The hexes the party token moves through, q,r q,r (in the Adventurers Rest)"),
         Opt("round", int, "In a battle: the number the Round Counter is set to (the next round)",
             **Assist.args["round"].range),
         Opt("deploy", str, "In a battle: where the revived adventurers stand, q,r q,r in turn order"),
         renders=True)
async def quest_assist(inv: Invocation, use=None, path=None, round=None, deploy=None,  # noqa: A002
                       ask: str | None = None) -> Reply:
    if use is None and not path and round is None and not deploy and ask is None:
        return await _assist_question(inv)  # once a campaign: never spent by a bare command, always asked first
    args: dict[str, Any] = {}
    if ask:
        args["ask"] = ask
    if use is not None:
        args["use"] = use.strip().lower() != "no"
    if path:
        args["path"] = _hexes(path, "path:3,4 4,4")
    if deploy:
        args["deploy"] = _hexes(deploy, "deploy:2,1 3,1")
    if round is not None:
        args["round"] = round
    out = await inv.do("quest.assist", args)
    if out.state.battle is not None:
        from rulesets.tes.present.battle import battle_reply

        return await battle_reply(inv, out)
    return await day_reply(inv, out)


async def _assist_question(inv: Invocation) -> Reply:
    """`/quest assist` with no option: say what the assist does and ask, with buttons (nothing is spent yet)."""
    await inv.service.check(inv.channel_id, inv.action("quest.assist", {"use": True}))  # a dry run: may it now?
    state = await _state(inv)
    run = state.quests
    asked = state.battle is not None and run is not None and run.assist == "asked"
    where = ("the whole party is down: called now, every adventurer heals to full and stands again, and the battle "
             "goes on; not called, the battle ends and its encounter is failed" if asked else
             "in a battle it comes at the end of this round (every adventurer heals to full, revived ones stand "
             "again); in the Adventurers Rest it heals everyone and may move the party up to 6 hexes")
    key = (f"g{run.serial}" if run is not None else "g0") + ("-down" if asked else "")
    cid = await inv.service.campaign_id(inv.channel_id)
    return Reply(content=f"Call the party's guild assist? It can be called **once a campaign**: {where}. Each "
                         "adventurer also draws a common and a legendary item, and the session's keyword becomes "
                         "\"Guild Assist\". (By command: `/quest assist use:yes`, or `use:no` to let the battle end.)",
                 ephemeral=True, buttons=assist_buttons(inv, cid, key, asked))


@on_click("qassist", campaign=True, ruleset="tes")
async def _assist_click(inv: Invocation, arg: str, values: list[str]) -> Reply:
    key, _, answer = arg.rpartition(".")
    state = await _state(inv)
    run = state.quests
    down = key.endswith("-down")  # the question the whole party's fall asked (else the leader's own call)
    stale = (run is None or key.removesuffix("-down") != f"g{run.serial}" or answer not in ("yes", "no")
             or (down and run.assist != "asked") or (not down and (answer == "no" or run.assist == "armed"))
             or (state.journal is not None and state.journal.assist))
    if stale:
        return Reply.fail("This button is out of date: that question about the guild assist is no longer open. "
                          "Nothing was changed.")
    ask = f"g{run.serial}-assist" if run.assist == "asked" else None
    return await quest_assist(inv, use=answer, ask=ask)


def _no_quest_words(state, pack) -> str:
    """Why no guild quest is under way, and what comes next (after an epilogue: the next session's quest)."""
    j = state.journal
    if j is not None and j.result:
        return f"No guild quest is under way: the campaign is {j.result} (`/journal` tells its story)."
    if j is None or not j.sessions:
        return "No guild quest is under way: the party leader starts a session with `/day start`."
    last = j.sessions[-1]
    done = (f"Session {last.number} is over"
            + {"won": ", its guild quest completed", "lost": ", its guild quest failed"}.get(last.result, "") + ". ")
    if j.options and not j.next:
        return (done + "Its epilogue names the next guild quests: the party leader chooses one with `/quest next` "
                "(its province is session " + f"{last.number + 1}'s), then starts the session with `/day start`.")
    after = next_words(state, pack)
    if after:
        return done + f"Next: {after}. The party leader starts it with `/day start`."
    return done + "The party leader starts the next session with `/day start`."


@command("quest status", "The guild quest's step the party works on, the steps done, and the side quests.",
         renders=False)
async def quest_status(inv: Invocation) -> Reply:
    state = await _state(inv)
    pack = _pack(state)
    from rulesets.tes.quest.common import content

    camp = content(pack)
    run = state.quests
    if run is None:
        raise RuleError(_no_quest_words(state, pack))
    e = Embed(title="The guild quest")
    q = camp.quests.get(run.quest) if run.quest else None
    if run.endgame:
        eg = camp.endgames.get(state.days.province) if state.days is not None else None
        e.add("Endgame", f"{eg.name}: day {run.day} of {eg.days} played." if eg else "the endgame")
    elif q is None:
        e.add("Quest", "Not chosen yet: the party chooses its guild first (`/quest guild`).")
    else:
        e.add("Quest", f"{q.name} (complexity {q.complexity})")
        for sid in run.done:
            st = camp.step(sid)
            if st is not None:
                e.add(f"Step {st.code} — done", clip(st.objective, 300))
        st = camp.step(run.step) if run.step else None
        if st is not None and run.result == "":
            e.add(f"Step {st.code} — now", clip(f"{st.story}\nObjective: {st.objective}", 1000))
        if run.result:
            e.add("Result", {"success": "completed", "failed": "failed"}.get(run.result, run.result))
    if run.sides:
        from rulesets.tes.quest_state import SIDE_QUESTS_MAX

        e.add(f"Side quests ({len(run.sides)} of {SIDE_QUESTS_MAX})", "\n".join(
            f"{camp.side_quests[x.id].name if x.id in camp.side_quests else x.id}: {x.count} so far"
            + (" — done, its rewards wait for a town" if x.ready else "") for x in run.sides))
    else:
        e.add("Side quests", "none")
    return Reply(embeds=[e])


__all__ = ["journal_text", "journal_view"]
