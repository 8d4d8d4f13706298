"""Every command, implemented once for both front doors."""
from __future__ import annotations

import random
import re
from datetime import datetime, timezone

from kernel.components import confirm_buttons, make_id, on_click
from kernel.commands import Invocation, Opt, command
from rulesets.tes.present.presenter import adventurer_embed, events_text, mat_view, status_embed
from kernel.reply import COLOR_OK, Button, Embed, Picture, Reply, clip
from kernel.core import RuleError, word
from rulesets.tes.state import DIFFICULTIES

PLAYER = Opt("player", str, "Act for this player's adventurer (party leader only)", user=True)


def _pack(state):
    from rulesets.tes.content import load_pack

    return load_pack(state.pack, version=state.pack_version)


async def _state(inv: Invocation):
    state = await inv.service.campaign(inv.channel_id)
    if state is None:
        raise RuleError("This channel has no campaign yet. Start one with `/campaign new`.")
    return state


# ---------------------------------------------------------------- campaign --
def _version_of(pack: str | None) -> str:
    """The pack's content hash now: the campaign plays on this version of it from now on."""
    from rulesets.tes.content import ContentError, load_pack

    try:
        return load_pack(pack or "starter").content_hash
    except (ContentError, OSError, ValueError):
        return ""  # the rules refuse the pack with its problems listed


@command(
    "campaign new", "Open a campaign in this channel; you become the party leader.",
    Opt("name", str, "The campaign's name", required=True),
    Opt("difficulty", str, "Apprentice, Adept or Expert (default Adept)", choices=DIFFICULTIES),
    Opt("pack", str, "Content pack (default: the starter pack)", autocomplete="packs"),
)
async def campaign_new(inv: Invocation, name, difficulty=None, pack=None) -> Reply:
    seed = random.SystemRandom().randrange(1, 2**53)
    if pack and not inv.local:
        from rulesets.tes.content import list_packs

        if pack not in list_packs():
            raise RuleError(f"There is no content pack called `{pack}` on this bot. Packs: {', '.join(list_packs())}. "
                            "The bot's host adds a pack by putting its folder in `content/`.")
    out = await inv.do("campaign.new", {
        "name": name, "difficulty": difficulty or "adept", "pack": pack or "starter",
        "channel_id": inv.channel_id, "guild_id": inv.guild_id, "seed": seed, "pack_version": _version_of(pack),
    })
    e = Embed(title=f"Campaign opened: {out.state.name}", color=COLOR_OK, description=events_text(out.events))
    e.add("Next", "Players join with `/campaign join` and create adventurers with `/adventurer create`.\n"
                  "See the party any time with `/campaign status`.")
    return Reply(embeds=[e])


@command("campaign join", "Join the party in this channel.")
async def campaign_join(inv: Invocation) -> Reply:
    out = await inv.do("campaign.join")
    return Reply(content=events_text(out.events) + " Create your adventurer with `/adventurer create`.")


@command("campaign leave", "Leave the party (your adventurer retires).", PLAYER,
         Opt("confirm", bool, "yes to leave without the button (scripts)", local_only=True))
async def campaign_leave(inv: Invocation, player=None, confirm=None) -> Reply:
    who = str(player) if player else inv.user_id
    if not confirm:
        # Retiring an adventurer, or removing someone else, can't be taken back: confirm first,
        # and only offer the button when the leave would be allowed.
        from rulesets.tes import rules

        state = await _state(inv)
        adv = state.adventurers.get(who)
        if who != inv.user_id or adv is not None:
            rules.execute(state, inv.action("campaign.leave", player=player), rules.dice_for(state))
            what = ("Leave the party" if who == inv.user_id else f"Remove <@{who}> from the party") + (
                f"? **{adv.name}** retires for good." if adv else "?")
            return Reply(content=what, ephemeral=True,
                         buttons=confirm_buttons("leave", inv.channel_id, who,
                                                 "Leave the party" if who == inv.user_id else "Remove them"))
    out = await inv.do("campaign.leave", player=player)
    return Reply(content=events_text(out.events))


@command("campaign status", "Show the party, dials, session and whose move it is.")
async def campaign_status(inv: Invocation) -> Reply:
    state = await _state(inv)
    pack = _pack(state)
    buttons = [Button(make_id("mat", inv.channel_id, owner), f"Mat: {adv.name}"[:80])
               for owner, adv in list(state.adventurers.items())[:4]]
    return Reply(embeds=[status_embed(state, pack)], buttons=buttons)


@command("campaign end", "End this campaign (party leader; asks for confirmation).",
         Opt("confirm", bool, "yes to end without the button (scripts)", local_only=True))
async def campaign_end(inv: Invocation, confirm=None) -> Reply:
    state = await _state(inv)
    if inv.user_id != state.leader:
        raise RuleError(f"Only the party leader (<@{state.leader}>) can end the campaign.")
    if not confirm:
        return Reply(
            content=f"End **{state.name}** for good? The log is kept, but nobody can play it any more.",
            buttons=confirm_buttons("end", inv.channel_id, "", "End the campaign"), ephemeral=True)
    out = await inv.do("campaign.end", {"confirm": True})
    return Reply(content=events_text(out.events))


@command("campaign log", "Show the campaign's latest actions.",
         Opt("page", int, "1 = the newest actions, 2 = the ones before, ...", min=1, max=10000))
async def campaign_log(inv: Invocation, page=None) -> Reply:
    page = page or 1
    per_page = 10
    stored_id = await inv.service.campaign_id(inv.channel_id)
    if stored_id is None:
        raise RuleError("This channel has no campaign yet. Start one with `/campaign new`.")
    total = await inv.service.store.log_count(stored_id)
    pages = max(1, -(-total // per_page))
    if page > pages:
        raise RuleError(f"The log has {pages} page(s) ({total} actions); choose a page from 1 to {pages}.")
    before = total - (page - 1) * per_page + 1
    entries = await inv.service.store.log(stored_id, limit=per_page, before_seq=before)
    lines = []
    for e in entries:
        when = datetime.fromtimestamp(e.at, timezone.utc).strftime("%Y-%m-%d %H:%M")
        who = f"<@{e.actor}>" + (f" for <@{e.on_behalf}>" if e.on_behalf else "")
        first = word(e.events[0]["text"], e.events[0].get("data") or {}) if e.events else ""
        undone = " ~~undone~~" if e.undone_by else ""
        dice = f" · dice {e.dice}" if e.dice else ""
        lines.append(f"`#{e.seq}` {when} {who} `{e.type}`{undone}{dice}\n  {clip(first, 180)}")
    emb = Embed(title=f"Campaign log — page {page} of {pages}", description=clip("\n".join(lines), 4000))
    buttons = []
    if page < pages:
        buttons.append(Button(make_id("log", inv.channel_id, str(page + 1)), "Older"))
    if page > 1:
        buttons.append(Button(make_id("log", inv.channel_id, str(page - 1)), "Newer"))
    return Reply(embeds=[emb], buttons=buttons, ephemeral=True)


@command("campaign settings", "Change campaign settings (party leader).",
         Opt("reminder_hours", int, "Remind the player whose move it is after this many hours (0 = off)",
             min=0, max=24 * 14),
         Opt("prevent_timeout_minutes", int, "Minutes to answer a prevention question before the automatic "
             "choice applies (0 = wait)", min=0, max=7 * 24 * 60))
async def campaign_settings(inv: Invocation, reminder_hours=None, prevent_timeout_minutes=None) -> Reply:
    args = {k: v for k, v in {"reminder_hours": reminder_hours,
                              "prevent_timeout_minutes": prevent_timeout_minutes}.items() if v is not None}
    if not args:
        from rulesets.tes.rules.battle_prompts import prevent_timeout_minutes as timeout_of

        state = await _state(inv)
        e = Embed(title="Settings")
        e.add("reminder_hours", f"{state.settings.get('reminder_hours', 24)} (0 = no reminders)")
        e.add("prevent_timeout_minutes", f"{timeout_of(state)} (0 = wait for the answer without a time-out)")
        return Reply(embeds=[e], ephemeral=True)
    out = await inv.do("campaign.settings", args)
    return Reply(content=events_text(out.events))


@command("campaign leader", "Hand the party lead to another member (party leader).",
         Opt("player", str, "The new leader", required=True, user=True))
async def campaign_leader(inv: Invocation, player) -> Reply:
    out = await inv.do("campaign.leader", {"player": str(player)})
    return Reply(content=events_text(out.events))


# -------------------------------------------------------------- adventurer --
SLOT_HELP = "circular slot: row 1-5 and side, e.g. 2L or 4R"


@command(
    "adventurer create", "Create your adventurer (race, starting skill line, token placement, class).",
    Opt("name", str, "Your adventurer's name", required=True),
    Opt("race", str, "Race", required=True, autocomplete="races"),
    Opt("line", str, "Starting skill line (2 level-1 dice)", required=True, autocomplete="lines"),
    Opt("class", str, "Class by open choice; leave empty to choose after the Jailbreak Introduction",
        autocomplete="classes", arg="klass"),
    Opt("form", str, "Battle form, only for a starting line without one", autocomplete="forms"),
    Opt("health", str, f"Health token {SLOT_HELP} (default 1L)"),
    Opt("stamina", str, f"Stamina token {SLOT_HELP} (default 2L)"),
    Opt("magicka", str, f"Magicka token {SLOT_HELP} (default 3L)"),
    Opt("combat", str, f"Combat token {SLOT_HELP} (default 4L)"),
    Opt("skill", str, f"Starting skill line token {SLOT_HELP} (default 5L)"),
    PLAYER,
    renders=True,
)
async def adventurer_create(inv: Invocation, name, race, line, klass=None, form=None, health=None, stamina=None,
                            magicka=None, combat=None, skill=None, player=None) -> Reply:
    args = {"name": name, "race": race, "line": line, "klass": klass, "form": form, "health": health,
            "stamina": stamina, "magicka": magicka, "combat": combat, "skill": skill}
    out = await inv.do("adventurer.create", {k: v for k, v in args.items() if v is not None}, player=player)
    owner = str(player) if player else inv.user_id
    reply = await adventurer_show(inv, player=owner, state=out.state)
    reply.content = events_text(out.events)
    return reply


@command("adventurer show", "Show an adventurer's mat as a picture.",
         Opt("player", str, "Whose adventurer (default: yours)", user=True), renders=True)
async def adventurer_show(inv: Invocation, player=None, state=None) -> Reply:
    state = state or await _state(inv)
    owner = str(player) if player else inv.user_id
    adv = state.adventurers.get(owner)
    if adv is None:
        if owner == inv.user_id:
            raise RuleError("You have no adventurer yet. Create one with `/adventurer create`.")
        raise RuleError(f"<@{owner}> has no adventurer in this campaign.")
    pack = _pack(state)
    filename = f"mat-{re.sub(r'[^a-z0-9]+', '-', adv.name.lower()).strip('-') or 'adventurer'}.png"
    emb = adventurer_embed(state, adv, pack, filename)
    emb.footer = f"Player: {inv.name_of(owner)}"
    return Reply(embeds=[emb], pictures=[Picture("mat", mat_view(state, adv, pack, inv.name_of(owner)), filename)])


@command("adventurer class", "Choose your class by open choice (if you have none yet).",
         Opt("class", str, "Class", required=True, autocomplete="classes", arg="klass"), PLAYER, renders=True)
async def adventurer_class(inv: Invocation, klass, player=None) -> Reply:
    out = await inv.do("adventurer.class", {"klass": klass}, player=player)
    reply = await adventurer_show(inv, player=str(player) if player else inv.user_id, state=out.state)
    reply.content = events_text(out.events)
    return reply


@command("adventurer retire", "Retire your adventurer so you can create another (asks for confirmation).",
         PLAYER, Opt("confirm", bool, "yes to retire without the button (scripts)", local_only=True))
async def adventurer_retire(inv: Invocation, player=None, confirm=None) -> Reply:
    owner = str(player) if player else inv.user_id
    if not confirm:
        state = await _state(inv)
        adv = state.adventurers.get(owner)
        if adv is None:
            raise RuleError("There is no adventurer to retire.")
        if owner != inv.user_id and inv.user_id != state.leader:
            raise RuleError("You can only retire your own adventurer.")
        return Reply(content=f"Retire **{adv.name}** for good?", ephemeral=True,
                     buttons=confirm_buttons("retire", inv.channel_id, owner, f"Retire {adv.name}"[:80]))
    out = await inv.do("adventurer.retire", {"confirm": True}, player=player)
    return Reply(content=events_text(out.events))


# ----------------------------------------------------------------- content --
@command("content races", "List the races of this campaign's content pack.")
async def content_races(inv: Invocation) -> Reply:
    pack = await _any_pack(inv)
    e = Embed(title=f"Races — {pack.name}")
    for r in list(pack.races.values())[:25]:
        e.add(f"{r.name} (`{r.id}`)",
              f"Health {r.health} · Stamina {r.stamina} · Magicka {r.magicka} · Combat {r.combat} · "
              f"Cooldown {r.cooldown}\n*{r.ability.name}:* {r.ability.text}")
    return Reply(embeds=[e], ephemeral=True)


@command("content lines", "List the skill lines of this campaign's content pack.")
async def content_lines(inv: Invocation) -> Reply:
    pack = await _any_pack(inv)
    e = Embed(title=f"Skill lines — {pack.name}")
    for ln in list(pack.lines.values())[:25]:
        dice = ", ".join(f"L{d.level} {d.name}" for d in ln.dice)
        e.add(f"{ln.name} (`{ln.id}`)",
              f"{(ln.constellation or 'innate').title()} · {ln.stat.title()} · form: {ln.form or 'none'}\n{dice}")
    return Reply(embeds=[e], ephemeral=True)


@command("content classes", "List the classes of this campaign's content pack.")
async def content_classes(inv: Invocation) -> Reply:
    pack = await _any_pack(inv)
    e = Embed(title=f"Classes — {pack.name}")
    for c in [c for c in pack.classes.values() if not getattr(c, "expansion_only", False)][:25]:
        e.add(f"{c.name} (`{c.id}`)", f"*{c.novice.innate.name}:* {c.novice.innate.text}")
    return Reply(embeds=[e], ephemeral=True)


async def _any_pack(inv: Invocation):
    from rulesets.tes.content import DEFAULT_PACK, load_pack

    state = await inv.service.campaign(inv.channel_id)
    return load_pack(state.pack, version=state.pack_version) if state else load_pack(DEFAULT_PACK)


# -------------------------------------------------------------------- misc --
@command("roll", "Roll dice for table talk: 3d6+2, 2d12, 4d6kh3, d6 ...",
         Opt("dice", str, "Dice notation, e.g. 3d6+2 or 4d6kh3", required=True))
async def roll(inv: Invocation, dice) -> Reply:
    from kernel.notation import roll_notation

    result = roll_notation(dice)
    return Reply(content=f"<@{inv.user_id}> rolls `{result.notation}`: {result.breakdown} = **{result.total}**")


@command("undo", "Take back the last action if it rolled no dice (party leader; asks for confirmation).",
         Opt("confirm", bool, "yes to undo without the button (scripts)", local_only=True))
async def undo(inv: Invocation, confirm=None, expected: str | None = None) -> Reply:
    state = await _state(inv)
    if inv.user_id != state.leader:
        raise RuleError(f"Only the party leader (<@{state.leader}>) can undo.")
    stored_id = await inv.service.campaign_id(inv.channel_id)
    last = await inv.service.store.last_entry(stored_id)
    if expected and last and str(last.seq) != expected:
        raise RuleError("This undo prompt is out of date: more has happened since. Run `/undo` again.")
    if not confirm:
        if last is None or last.undone_by or last.type == "undo":
            raise RuleError("There is nothing to undo.")
        if not last.undoable:
            why = "it rolled dice" if last.dice else "it can't be taken back"
            raise RuleError(f"The last action (#{last.seq}, `{last.type}`) can't be undone: {why}.")
        first = word(last.events[0]["text"], last.events[0].get("data") or {}) if last.events else last.type
        return Reply(content=f"Undo action #{last.seq}: {clip(first, 300)}", ephemeral=True,
                     buttons=confirm_buttons("undo", inv.channel_id, str(last.seq), "Undo it"))
    out = await inv.do("undo", {"confirm": True})
    if out.state.battle:  # in battle the party sees the map as it is again, and whose move it is
        from rulesets.tes.present.battle import battle_reply

        return await battle_reply(inv, out)
    return Reply(content=events_text(out.events))


@command("help", "What this bot does and how to start.")
async def help_(inv: Invocation) -> Reply:
    e = Embed(title="Hexpost — play-by-post board game campaigns", color=COLOR_OK)
    e.description = (
        "Run a campaign of *The Elder Scrolls: Betrayal of the Second Era* in this channel, a few moves a day. "
        "The bot keeps the rules, rolls the dice and draws the mats and the map.\n\n"
        "**Start**: `/campaign new` (you lead) → friends `/campaign join` → everyone `/adventurer create` "
        "(or `/adventurer guide` for menus) → `/adventurer show` to see your mat.\n"
        "**Battle**: the leader `/battle start encounter:jailbreak`; on your turn `/move`, `/engage`, "
        "`/resolve` (or the buttons), `/ability`, `/endturn`. `/battle map` any time.\n"
        "**Anytime**: `/campaign status`, `/campaign log`, `/roll 2d6`, `/content races`.\n"
        "**Leader**: `/campaign settings`, `/undo`, `/campaign end`, `/campaign export`; "
        "add `player:` to act for an absent player."
    )
    return Reply(embeds=[e], ephemeral=True)


@command("force", "Force the next die results (local table; party leader).",
         Opt("values", str, "Results in order, e.g. 3 5 1", required=True), local_only=True)
async def force(inv: Invocation, values) -> Reply:
    try:
        numbers = [int(v) for v in re.split(r"[\s,]+", values.strip()) if v]
    except ValueError:
        raise RuleError("Force whole numbers, e.g. `/force 3 5 1`.") from None
    out = await inv.do("dice.force", {"values": numbers})
    return Reply(content=events_text(out.events))


# ------------------------------------------------------------ autocomplete --
async def autocomplete(inv: Invocation, source: str, current: str) -> list[tuple[str, str]]:
    from rulesets.tes.content import list_packs

    if source == "packs":
        return [(p, p) for p in list_packs() if current.lower() in p.lower()]
    if source == "forms":
        return [(f"{v}", k) for k, v in _form_names().items() if current.lower() in (k + v).lower()]
    pack = await _any_pack(inv)
    kind = {"races": "races", "lines": "lines", "classes": "classes", "encounters": "encounters",
            "items": "items", "enemies": "enemies"}.get(source)
    if kind is None:
        return []
    out = []
    for ident, name in pack.search(kind, current):
        if kind == "lines" and ident == "combat":
            continue
        if kind == "classes" and getattr(pack.classes[ident], "expansion_only", False):
            continue
        out.append((name, ident))
    return out[:25]


def _form_names() -> dict[str, str]:
    from rulesets.tes.present.presenter import FORM_NAMES

    return FORM_NAMES


# ---------------------------------------------------------------- buttons --
@on_click("end")
async def _end(inv, arg, values) -> Reply:
    state = await inv.service.campaign(inv.channel_id)
    if state is None:
        return Reply.fail("This prompt is out of date: the campaign has already ended.")
    reply = await campaign_end(inv, confirm=True)
    reply.update = not reply.error
    return reply


@on_click("undo")
async def _undo(inv, arg, values) -> Reply:
    reply = await undo(inv, confirm=True, expected=arg)
    reply.update = not reply.error and not reply.pictures  # in battle: a new post with the map for the party
    return reply


@on_click("retire")
async def _retire(inv, arg, values) -> Reply:
    reply = await adventurer_retire(inv, player=arg or None, confirm=True)
    reply.update = not reply.error
    return reply


@on_click("leave")
async def _leave(inv, arg, values) -> Reply:
    reply = await campaign_leave(inv, player=arg or None, confirm=True)
    reply.update = not reply.error
    return reply


@on_click("mat")
async def _mat(inv, arg, values) -> Reply:
    return await adventurer_show(inv, player=arg or None)


@on_click("log")
async def _log(inv, arg, values) -> Reply:
    return await campaign_log(inv, page=int(arg) if arg.isdigit() else 1)
