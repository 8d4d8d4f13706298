"""Every command, implemented once for both front doors."""
from __future__ import annotations

import re
import secrets

from engine.components import confirm_buttons, make_id, on_click
from engine.commands import Invocation, Opt, command, group
from rulesets.tes.present.presenter import adventurer_embed, events_text, mat_view, status_embed
from engine.reply import Button, Embed, Picture, Reply
from engine.core import RuleError
from rulesets.tes.present.common import PLAYER, _pack, _state  # noqa: F401 - used by the commands below
from rulesets.tes.rules.adventurer import OUT_OF_DATE_ADVENTURER

group("adventurer", "Your adventurer and its mat")
group("content", "Browse the campaign's content pack")


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
            "stamina": stamina, "magicka": magicka, "combat": combat, "skill": skill, "id": secrets.token_hex(4)}
    out = await inv.do("adventurer.create", {k: v for k, v in args.items() if v is not None}, player=player)
    owner = str(player) if player else inv.user_id
    reply = await adventurer_show(inv, player=owner, state=out.state)
    reply.content = events_text(out.events)
    reply.pictures = reply.pictures[:1]  # one picture a post: the new mat; `/adventurer show` draws the sheet too
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
    who = re.sub(r'[^a-z0-9]+', '-', adv.name.lower()).strip('-') or 'adventurer'
    filename = f"mat-{who}.png"
    emb = adventurer_embed(state, adv, pack, filename)
    emb.footer = f"Player: {inv.name_of(owner)}"
    view = mat_view(state, adv, pack, inv.name_of(owner))
    # the mat (the board a battle changes) and the sheet (race ability, class, items), one picture each
    return Reply(embeds=[emb], pictures=[Picture("mat", view, filename), Picture("sheet", view, f"sheet-{who}.png")])


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
                     buttons=confirm_buttons("retire", inv.channel_id, adventurer_arg(owner, adv),
                                             f"Retire {adv.name}"[:80], campaign=inv.campaign_id))
    out = await inv.do("adventurer.retire", {"confirm": True}, player=player)
    return Reply(content=events_text(out.events))


@command("adventurer rest", "The Adventurers Rest at the End of Day: heal, and remove the cooldown dice you choose.",
         Opt("dice", str, "Places on your cooldown track to clear, from the left, e.g. 2 or 1,3 "
             "(all or default: leftmost)"),
         Opt("item", str, "Expert: the item you discard to rest"),
         Opt("use", bool, "Expert: resolve the consumable you discard"),
         Opt("skip", bool, "Do not rest tonight"),
         PLAYER, ruleset="tes", renders=True)
async def adventurer_rest(inv: Invocation, dice=None, item=None, use=None, skip=None, player=None) -> Reply:
    state = await _state(inv)
    if state.rules < 3:  # campaigns on an older rules revision: the leader rests the party between battles
        out = await inv.do("party.rest")
        return Reply(content=events_text(out.events))
    args: dict = {}
    if dice and dice.strip().lower() == "all":
        args["dice"] = "all"
    elif dice:
        try:
            args["dice"] = [int(x) for x in re.split(r"[\s,]+", dice.strip()) if x]
        except ValueError:
            raise RuleError("`dice:` lists places on your cooldown track, counted from the left: e.g. `2` or "
                            "`1,3`, or `all` (as many as the rest removes, leftmost first).") from None
    if item:
        args["item"] = item[:60]
    if use:
        args["use"] = True
    if skip:
        args["skip"] = True
    out = await inv.do("day.rest", args, player=player)
    from rulesets.tes.present.day import day_reply

    return await day_reply(inv, out)


@command("adventurer promote", "Flip your class sheet to its master side once its promotion requirement is met.",
         Opt("confirm", bool, "yes: the requirement is met (the party checks it)"), PLAYER, renders=True)
async def adventurer_promote(inv: Invocation, confirm=None, player=None) -> Reply:
    out = await inv.do("adventurer.promote", {"confirm": bool(confirm)}, player=player)
    owner = str(player) if player else inv.user_id
    reply = await adventurer_show(inv, player=owner, state=out.state)
    reply.content = events_text(out.events)
    return reply


# ----------------------------------------------------------------- content --
@command("campaign update", "Leader, between battles: play on with the newest rules and content pack version.")
async def campaign_update(inv: Invocation) -> Reply:
    from rulesets.tes.rules.campaign import pack_version
    from rulesets.tes.state import RULES

    state = await _state(inv)
    out = await inv.do("campaign.update", {"pack_version": pack_version(state.pack), "rules": RULES})
    return Reply(content=events_text(out.events))


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


# ------------------------------------------------------------ autocomplete --
async def autocomplete(inv: Invocation, source: str, current: str) -> list[tuple[str, str]]:
    from rulesets.tes.content import list_packs

    if source == "packs":
        return [(p, p) for p in list_packs() if current.lower() in p.lower()]
    if source == "forms":
        return [(f"{v}", k) for k, v in _form_names().items() if current.lower() in (k + v).lower()]
    pack = await _any_pack(inv)
    if source == "provinces":
        return [(p.name, k) for k, p in pack.provinces.items() if current.lower() in (k + p.name).lower()][:25]
    if source in ("advancements", "untrain"):
        return await _reward_choices(inv, source, current)
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


async def _reward_choices(inv: Invocation, source: str, current: str) -> list[tuple[str, str]]:
    from rulesets.tes.outcomes import mat

    state = await inv.service.campaign(inv.channel_id)
    adv = state.adventurers.get(inv.user_id) if state else None
    if adv is None:
        return []
    pack = _pack(state)
    offers = mat.purchases(state, adv, pack, adv.saved_xp) if source == "advancements" else mat.untrainables(adv, pack)
    return [(o.label[:100], o.key) for o in offers if current.lower() in o.label.lower()][:25]


def _form_names() -> dict[str, str]:
    from rulesets.tes.present.presenter import FORM_NAMES

    return FORM_NAMES


# ---------------------------------------------------------------- buttons --
def adventurer_arg(owner: str, adv) -> str:
    """A button's name for one adventurer: its owner and who it is (``Adventurer.ident``), so a button of a
    retired adventurer never acts on the owner's next one."""
    return f"{owner}.{adv.ident()}"


async def _the_adventurer(inv, arg: str) -> str:
    """The owner a button names, after checking its adventurer is still the one it was made for."""
    owner, _, ident = arg.rpartition(".")
    state = await _state(inv)
    adv = state.adventurers.get(owner)
    if not owner or adv is None or adv.ident() != ident:
        raise RuleError(OUT_OF_DATE_ADVENTURER)
    return owner


@on_click("retire", campaign=True, ruleset="tes")
async def _retire(inv, arg, values) -> Reply:
    owner = await _the_adventurer(inv, arg)
    out = await inv.do("adventurer.retire", {"confirm": True, "adventurer": arg.rpartition(".")[2]},
                       player=owner)  # the rules check again, under the channel's lock, that it is the same one
    return Reply(content=events_text(out.events), update=True)


@on_click("mat", campaign=True, ruleset="tes")
async def _mat(inv, arg, values) -> Reply:
    return await adventurer_show(inv, player=await _the_adventurer(inv, arg))


# ------------------------------------------------------ the shared commands --
def whose_move_of(state):
    from rulesets.tes import rules

    return rules.whose_move(state)


class TesPresenter:
    """What the shared campaign commands (commands/campaign.py) ask of this game."""

    @property
    def default_pack(self) -> str:
        from rulesets.tes.content import DEFAULT_PACK

        return DEFAULT_PACK

    def packs(self) -> list[str]:
        from rulesets.tes.content import list_packs

        return list_packs()

    def pack_version(self, pack_id: str) -> str:
        from rulesets.tes.rules.campaign import pack_version

        return pack_version(pack_id)

    def new_campaign_next(self) -> str:
        return "Players join with `/campaign join` and create adventurers with `/adventurer create`."

    def join_next(self) -> str:
        return "Create your adventurer with `/adventurer create`."

    async def status(self, inv: Invocation, state) -> Reply:
        from rulesets.tes.rules.update import update_available

        pack = _pack(state)
        buttons = [Button(make_id("mat", inv.channel_id, adventurer_arg(owner, adv), campaign=inv.campaign_id),
                          f"Mat: {adv.name}"[:80])
                   for owner, adv in list(state.adventurers.items())[:4]]
        embed = status_embed(state, pack)
        if update_available(state):
            embed.add("Update", "Newer rules or a newer version of the pack are available. The party leader "
                                "can move the campaign onto them between battles with `/campaign update`.")
        return Reply(embeds=[embed], buttons=buttons)

    def leave_note(self, state, who: str) -> str:
        adv = state.adventurers.get(who)
        return f"**{adv.name}** retires for good." if adv else ""

    character = "adventurer"  # what a member plays, in words
    difficulties = ("apprentice", "adept", "expert")

    def named_dice(self) -> dict[str, dict[int, str]]:
        """The dice `/roll` knows by name in this game: the overland unstable die."""
        from rulesets.tes.present.presenter import UNSTABLE_FACES

        return {"unstable": UNSTABLE_FACES}


    def dashboard(self, inv: Invocation, state):
        """The dashboard's phase and picture (engine.dashboard): the battle map in a battle, the overland map
        in a session of days."""
        from engine.dashboard import FILENAME, Scene
        from rulesets.tes.day_state import PHASE_NAMES
        from rulesets.tes.present.battle import map_picture
        from rulesets.tes.present.day_view import overland_view, waiting_line
        from rulesets.tes.quest.endgame import day_limit

        pack = _pack(state)
        if state.battle:
            b = state.battle
            return Scene(phase=f"Battle: {b.name or 'battle'}, round {b.round}",
                         picture=map_picture(state, pack, FILENAME), shows="the battle map",
                         waiting="" if whose_move_of(state) else "the enemies act")
        s = state.days
        if s is not None and s.phase != "over":
            prov = pack.provinces.get(s.province)
            phase = (f"Day {state.day_dial or 1} of {day_limit(state, pack)} in {prov.name if prov else s.province}"
                     f", {PHASE_NAMES.get(s.phase, s.phase)} Phase")
            line, _owners = waiting_line(state, lambda o: state.adventurers[o].name if o in state.adventurers
                                         else inv.name_of(o))
            waiting = line.removeprefix("Now: ").rstrip(".") if line else ""
            return Scene(phase=phase, picture=Picture("overland", overland_view(state, pack), FILENAME),
                         waiting=waiting, shows="the overland map")
        missing = [m for m in state.members if m not in state.adventurers]
        if missing:
            return Scene(phase="Creating adventurers", waiting="still to create: " + ", ".join(
                inv.name_of(m) for m in missing))
        return Scene(phase=f"Session {state.session}, between battles",
                     waiting="the leader starts a session with /day start, or a battle")

    def members_by_name(self, state) -> dict[str, str]:
        """Adventurers' names -> their players: `first:Sil` at the local table means Sil's player."""
        return {adv.name: owner for owner, adv in state.adventurers.items()}

    def recap_picture(self, state):
        """The picture a recap shows: the battle map in a battle, else the overland map during a session."""
        from engine.reply import Picture

        if state.battle:
            from rulesets.tes.present.battle import map_picture

            return map_picture(state, _pack(state), "map-recap.png")
        if state.days is not None:
            from rulesets.tes.present.day_view import overland_view

            return Picture("overland", overland_view(state, _pack(state)), "overland-recap.png")
        return None

    async def after(self, inv: Invocation, out) -> Reply | None:
        if out.state.battle:  # in battle the party sees the map as it is again, and whose move it is
            from rulesets.tes.present.battle import battle_reply

            return await battle_reply(inv, out)
        if out.state.days is not None:  # during a session: the day as it is again, and who must act
            from rulesets.tes.present.day import day_reply

            return await day_reply(inv, out, picture=True)
        return None

    async def timeout_reply(self, inv: Invocation, out) -> Reply:
        """The post after a prompt's time-out (engine.deadlines): the battle, or the day, as it is now."""
        if out.state.battle is None and out.state.days is not None:  # a question of the day timed out
            from rulesets.tes.present.day import day_reply

            return await day_reply(inv, out)
        from rulesets.tes.present.battle import battle_reply

        return await battle_reply(inv, out)

    def prompt_minutes(self, state) -> int:
        """Minutes for a prompt saved without a deadline (engine.deadlines.sweep); a question of the day
        without a deadline waits (``/day settings hours:0``)."""
        from engine.prompts import open_prompt
        from rulesets.tes.rules.battle_prompts import prevent_timeout_minutes

        prompt = open_prompt(state)
        if prompt is not None and prompt.kind.startswith("day-"):
            return 0
        return prevent_timeout_minutes(state)

    async def autocomplete(self, inv: Invocation, source: str, current: str) -> list[tuple[str, str]]:
        return await autocomplete(inv, source, current)

    def help_lines(self) -> str:
        return ("**Adventurers**: `/adventurer create` (or `/adventurer guide` for menus) → `/adventurer show`.\n"
                "**Days**: the leader `/day start`; `/day status` shows the overland map and who acts; `/day route`, "
                "`/town visit`, `/reward buy`, `/adventurer rest` (or the buttons).\n"
                "**Campaign**: three sessions; at the first `/day start` the leader picks the guild (`/quest guild`); "
                "`/quest status` shows the quest, `/journal` the campaign journal; the third session is the endgame.\n"
                "**Battle**: the leader `/battle start encounter:jailbreak`; on your turn `/move`, `/engage`, "
                "`/resolve` (or the buttons), `/ability`, `/endturn`. `/battle map` any time; `/content races`.\n"
                "**Delves**: `/battle start encounter:brinehollow-caves`; `/explore` the door hexes rimmed in gold and "
                "choose where each new tile goes; walk onto tiles with skyshards.")

    def settings_lines(self, state) -> list[tuple[str, str]]:
        from rulesets.tes.rules.battle_prompts import prevent_timeout_minutes as timeout_of

        from rulesets.tes.outcomes.asks import day_hours

        return [("prevent_timeout_minutes", f"{timeout_of(state)} (0 = wait for the answer without a time-out)"),
                ("day_hours", f"{day_hours(state)} (hours a question of the day waits; change with `/day settings`)")]

