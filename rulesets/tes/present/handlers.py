"""Every command, implemented once for both front doors."""
from __future__ import annotations

import re

from engine.components import confirm_buttons, make_id, on_click
from engine.commands import Invocation, Opt, command, group
from rulesets.tes.present.presenter import adventurer_embed, events_text, mat_view, status_embed
from engine.reply import Button, Embed, Picture, Reply
from engine.core import RuleError
from rulesets.tes.present.common import PLAYER, _pack, _state  # noqa: F401 - used by the commands below

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


@command("adventurer rest", "Leader: the Adventurers Rest between battles — heal and clear cooldown dice by difficulty.",
         ruleset="tes")
async def adventurer_rest(inv: Invocation) -> Reply:
    out = await inv.do("party.rest")
    return Reply(content=events_text(out.events))


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
@on_click("retire")
async def _retire(inv, arg, values) -> Reply:
    reply = await adventurer_retire(inv, player=arg or None, confirm=True)
    reply.update = not reply.error
    return reply


@on_click("mat")
async def _mat(inv, arg, values) -> Reply:
    return await adventurer_show(inv, player=arg or None)


# ------------------------------------------------------ the shared commands --
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
        buttons = [Button(make_id("mat", inv.channel_id, owner), f"Mat: {adv.name}"[:80])
                   for owner, adv in list(state.adventurers.items())[:4]]
        embed = status_embed(state, pack)
        if update_available(state):
            embed.add("Update", "Newer rules or a newer version of the pack are available. The party leader "
                                "can move the campaign onto them between battles with `/campaign update`.")
        return Reply(embeds=[embed], buttons=buttons)

    def leave_note(self, state, who: str) -> str:
        adv = state.adventurers.get(who)
        return f"**{adv.name}** retires for good." if adv else ""

    async def after(self, inv: Invocation, out) -> Reply | None:
        if out.state.battle:  # in battle the party sees the map as it is again, and whose move it is
            from rulesets.tes.present.battle import battle_reply

            return await battle_reply(inv, out)
        return None

    async def autocomplete(self, inv: Invocation, source: str, current: str) -> list[tuple[str, str]]:
        return await autocomplete(inv, source, current)

    def help_lines(self) -> str:
        return ("**Adventurers**: `/adventurer create` (or `/adventurer guide` for menus) → `/adventurer show`.\n"
                "**Battle**: the leader `/battle start encounter:jailbreak`; on your turn `/move`, `/engage`, "
                "`/resolve` (or the buttons), `/ability`, `/endturn`. `/battle map` any time; `/content races`.\n"
                "**Delves**: `/battle start encounter:brinehollow-caves`; `/explore` the door hexes rimmed in gold and "
                "choose where each new tile goes; walk onto tiles with skyshards.")

    def settings_lines(self, state) -> list[tuple[str, str]]:
        from rulesets.tes.rules.battle_prompts import prevent_timeout_minutes as timeout_of

        return [("prevent_timeout_minutes", f"{timeout_of(state)} (0 = wait for the answer without a time-out)")]

