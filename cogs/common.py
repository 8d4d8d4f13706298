"""The Discord side of the one command layer: interactions in, ``Reply`` out.

Every slash command (generated in ``cogs/slash.py``) calls ``respond`` with its
options.  Rule errors come back ephemeral, and so does any answer meant for the
asker alone, even when it comes late; an answer that cannot be posted after its
action was saved says which action was saved, never that nothing changed.  Pictures are rendered in a worker thread after
the interaction is deferred, so the 3-second limit and the gateway heartbeat
are never at risk.  Buttons and menus are answered by ``HexButton``/``HexSelect``,
dynamic items matching every ``hx:...`` id, so they work after restarts.
"""
from __future__ import annotations

import asyncio
import io
import logging
import re
from typing import Any

import discord
from discord import app_commands

from engine.components import ANY_ID, ID_RE
from commands.core import Invocation, Table
from engine.reply import MAX_CONTENT, Reply, clip

log = logging.getLogger("hexpost.discord")

STYLES = {
    "primary": discord.ButtonStyle.primary,
    "secondary": discord.ButtonStyle.secondary,
    "success": discord.ButtonStyle.success,
    "danger": discord.ButtonStyle.danger,
}
# Answer or defer within this many seconds (Discord allows 3).
DEFER_AFTER = 2.0
# Discord refuses attachments over this size in an interaction reply on a server without boosts.
MAX_UPLOAD = 10 * 1024 * 1024


def table_of(client: discord.Client) -> Table:
    return client.table  # type: ignore[attr-defined]


def invocation(interaction: discord.Interaction) -> Invocation:
    table = table_of(interaction.client)
    user = interaction.user
    inv = table.invocation(str(user.id), str(interaction.channel_id), str(interaction.guild_id or ""),
                           getattr(user, "display_name", user.name))
    guild = interaction.guild
    if guild is not None:
        for member in getattr(guild, "members", [])[:200]:
            inv.names.setdefault(str(member.id), member.display_name)
    return inv


def allowed_mentions(reply: Reply) -> discord.AllowedMentions:
    """Only the player whose move it is may be pinged; never everyone, roles or others."""
    ids = [p for p in [reply.ping, *reply.also_ping] if p and str(p).isdigit()]
    users: Any = [discord.Object(int(p)) for p in dict.fromkeys(ids)] or False
    return discord.AllowedMentions(everyone=False, roles=False, users=users, replied_user=False)


def to_embed(e) -> discord.Embed:
    emb = discord.Embed(title=clip(e.title, 256) or None, description=clip(e.description, 4096) or None,
                        colour=e.color)
    for name, value, inline in e.fields[:25]:
        emb.add_field(name=name, value=value, inline=inline)
    if e.footer:
        emb.set_footer(text=clip(e.footer, 2048))
    if e.image:
        emb.set_image(url=f"attachment://{e.image}")
    return emb


class HexButton(discord.ui.DynamicItem[discord.ui.Button], template=ANY_ID):
    """Every button the bot posts.  The id carries the campaign and the action."""

    def __init__(self, custom_id: str, label: str = "…", style: str = "secondary"):
        super().__init__(discord.ui.Button(custom_id=custom_id, label=clip(label, 80), style=STYLES.get(style)))

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match[str], /):
        return cls(item.custom_id, item.label or "…")

    async def callback(self, interaction: discord.Interaction) -> None:
        await handle_component(interaction, self.item.custom_id, [])


class HexSelect(discord.ui.DynamicItem[discord.ui.Select], template=ANY_ID):
    def __init__(self, custom_id: str, placeholder: str = "", options=None, min_values: int = 1, max_values: int = 1):
        opts = [discord.SelectOption(label=clip(lbl, 100), value=val, description=clip(desc, 100) or None)
                for lbl, val, desc in (options or [("…", "_", "")])][:25]
        super().__init__(discord.ui.Select(custom_id=custom_id, placeholder=clip(placeholder, 150), options=opts,
                                           min_values=min_values, max_values=min(max_values, len(opts))))

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match[str], /):
        return cls(item.custom_id)

    async def callback(self, interaction: discord.Interaction) -> None:
        values = list((interaction.data or {}).get("values", []))
        await handle_component(interaction, self.item.custom_id, values)


def build_view(reply: Reply) -> discord.ui.View | None:
    if not reply.buttons and not reply.selects:
        return None
    view = discord.ui.View(timeout=None)
    for s in reply.selects[:5]:
        view.add_item(HexSelect(s.custom_id, s.placeholder, s.options, s.min_values, s.max_values))
    for b in reply.buttons[:25 - 5 * min(len(reply.selects), 5)]:
        view.add_item(HexButton(b.custom_id, b.label, b.style))
    # The dynamic items answer clicks; a stored view would answer them a second time.
    view.stop()
    return view


def drawn(pic) -> tuple[bytes, str]:
    """A picture request drawn (in a worker thread): its PNG and its alt text (the attachment's description:
    what it shows, in words, at most 1024 characters)."""
    from render import render
    from render.alt import MAX_ALT, describe

    return render(pic.kind, pic.view), clip(pic.alt or describe(pic.kind, pic.view), MAX_ALT)


async def render_files(reply: Reply) -> list[discord.File]:
    files = []
    too_big = []
    for pic in reply.pictures:
        data, alt = await asyncio.to_thread(drawn, pic)
        if len(data) <= MAX_UPLOAD:
            files.append(discord.File(io.BytesIO(data), filename=pic.filename, description=alt))
        else:
            too_big.append((pic.filename, len(data)))
    for f in reply.files:
        if len(f.data) <= MAX_UPLOAD:
            files.append(discord.File(io.BytesIO(f.data), filename=f.filename))
        else:
            too_big.append((f.filename, len(f.data)))
    if too_big:  # never let the message claim a file it does not carry
        note = "; ".join(f"{name} ({size / 2**20:.1f} MB)" for name, size in too_big)
        reply.content = (f"{reply.content}\n" if reply.content else "") + (
            f"Not attached: {note} is over Discord's {MAX_UPLOAD // 2**20} MB limit for the bot.")
    return files


def message_kwargs(reply: Reply, files: list[discord.File] | None = None) -> dict[str, Any]:
    kwargs: dict[str, Any] = {
        "content": clip(reply.content, MAX_CONTENT) or None,
        "embeds": [to_embed(e) for e in reply.embeds[:10]],
        "allowed_mentions": allowed_mentions(reply),
    }
    view = build_view(reply)
    if view is not None:
        kwargs["view"] = view
    if files:
        kwargs["files"] = files
    return kwargs


async def send_reply(interaction: discord.Interaction, reply: Reply) -> None:
    """Answer an interaction that has not been deferred yet."""
    if reply.pictures or reply.files:
        await interaction.response.defer(ephemeral=reply.ephemeral, thinking=True)
        await send_followup(interaction, reply)
        return
    await interaction.response.send_message(ephemeral=reply.ephemeral, **message_kwargs(reply))
    for extra in reply.followups:
        await send_followup(interaction, extra)


async def send_followup(interaction: discord.Interaction, reply: Reply) -> None:
    files = await render_files(reply)
    kwargs = message_kwargs(reply, files)
    await interaction.followup.send(ephemeral=reply.ephemeral, wait=True, **kwargs)
    for extra in reply.followups:
        await send_followup(interaction, extra)


async def send_private(interaction: discord.Interaction, text: str) -> None:
    """A message only the asker sees, however far the interaction has got."""
    kwargs = {"ephemeral": True, "allowed_mentions": discord.AllowedMentions.none()}
    if interaction.response.is_done():
        await interaction.followup.send(clip(text, MAX_CONTENT), **kwargs)
    else:
        await interaction.response.send_message(clip(text, MAX_CONTENT), **kwargs)


async def send_deferred(interaction: discord.Interaction, reply: Reply, *, private_defer: bool) -> None:
    """Answer an interaction already deferred.  A private answer after a public "thinking" message replaces it
    (Discord would otherwise show the first followup publicly)."""
    if (reply.error or reply.ephemeral) and not private_defer:
        await interaction.delete_original_response()
    if reply.error:
        await interaction.followup.send(clip(reply.content, MAX_CONTENT), ephemeral=True,
                                        allowed_mentions=discord.AllowedMentions.none())
        return
    await send_followup(interaction, reply)


async def read_uploads(interaction: discord.Interaction, name: str, inv: Invocation,
                       options: dict[str, Any]) -> str | None:
    """Read every attachment option into ``inv`` (its value becomes the file name); a refusal text, or None."""
    from engine.commands import COMMANDS

    cmd = COMMANDS.get(name)
    by_key = {o.key: o for o in cmd.options} if cmd else {}
    for key, value in list(options.items()):
        if not isinstance(value, discord.Attachment):
            continue
        opt = by_key.get(key)
        limit = opt.max if opt is not None and opt.max else MAX_UPLOAD
        if value.size > limit:
            return (f"That file is {value.size // 1024} KB; `{opt.name if opt else key}` takes files of at most "
                    f"{max(1, limit // 1024)} KB. Attach a smaller file.")
        try:
            inv.attach(key, await value.read())
        except discord.HTTPException:
            return "The file could not be downloaded from Discord. Attach it again in a moment."
        options[key] = value.filename[:100]
    return None


async def respond(interaction: discord.Interaction, name: str, /, **options: Any) -> None:
    """Run command ``name`` for this interaction and answer it."""
    from engine.commands import COMMANDS

    if interaction.guild_id is None:
        await interaction.response.send_message("Hexpost campaigns live in server channels; use it there.",
                                                ephemeral=True)
        return
    table = table_of(interaction.client)
    inv = invocation(interaction)
    cmd = COMMANDS.get(name)
    private = bool(cmd and cmd.private)
    opts = {k: (str(v.id) if isinstance(v, (discord.abc.User, discord.Member)) else v)
            for k, v in options.items() if v is not None}
    for v in options.values():
        if isinstance(v, (discord.abc.User, discord.Member)):
            inv.names[str(v.id)] = v.display_name
    deferred = False
    try:
        if any(isinstance(v, discord.Attachment) for v in opts.values()):
            # Downloading may take longer than Discord waits for a first answer.
            await interaction.response.defer(ephemeral=private, thinking=True)
            deferred = True
            refused = await read_uploads(interaction, name, inv, opts)
            if refused:
                await send_deferred(interaction, Reply.fail(refused), private_defer=private)
                return
        # Run the command first: its answer decides whether the reply is private (errors) or public.
        # Only if it has not answered within DEFER_AFTER seconds is the interaction deferred, so Discord's
        # 3-second limit holds even when the channel is busy.  Drawing happens after a defer (send_reply).
        task = asyncio.ensure_future(table.run(inv, name, opts))
        if not deferred:
            done, _ = await asyncio.wait({task}, timeout=DEFER_AFTER)
            if not done:
                await interaction.response.defer(ephemeral=private, thinking=True)
                deferred = True
        reply = await task
        if deferred:
            await send_deferred(interaction, reply, private_defer=private)
        else:
            await send_reply(interaction, reply)
    except Exception as exc:  # noqa: BLE001 - the answer could not be posted: say what was saved
        await answer_failed(interaction, inv, name, exc)
    finally:
        after_actions(interaction.client, inv)


def after_actions(client: Any, inv: Invocation) -> None:
    """The answer is out: bring the campaign's dashboard up to date if the command or click saved an action
    (in the background; the next action never waits for it)."""
    dashboards = getattr(client, "dashboards", None)
    if inv.done and dashboards is not None:
        dashboards.request(inv.channel_id, inv.done[-1].campaign_id)


async def answer_failed(interaction: discord.Interaction, inv: Invocation, what: str, exc: BaseException) -> None:
    """Posting the answer failed (a picture, a file or the message itself).  Never claim nothing changed when
    the command saved something: name the action and its log number, so nobody repeats it."""
    from commands.core import failure_text, saved_note

    log.error("answering %s for %s in %s failed", what, inv.user_id, inv.channel_id, exc_info=exc)
    if inv.done:
        text = ("Your action was saved, but its answer could not be posted here (the picture or the message "
                "failed). " + saved_note(inv))
    else:
        text = failure_text(inv)
    try:
        await send_private(interaction, text)
    except discord.HTTPException:
        log.warning("could not tell %s that the answer failed", inv.user_id)


async def handle_component(interaction: discord.Interaction, custom_id: str, values: list[str]) -> None:
    table = table_of(interaction.client)
    inv = invocation(interaction)
    if not ID_RE.match(custom_id):
        from engine.components import OLD_BUTTON

        await interaction.response.send_message(OLD_BUTTON, ephemeral=True)
        return
    reply = await table.click(inv, custom_id, values)
    try:
        if reply.error:
            await interaction.response.send_message(clip(reply.content, MAX_CONTENT), ephemeral=True,
                                                    allowed_mentions=discord.AllowedMentions.none())
            return
        if reply.update:
            kwargs = message_kwargs(reply)
            kwargs.setdefault("view", None)
            await interaction.response.edit_message(**kwargs)
            return
        await send_reply(interaction, reply)
    except Exception as exc:  # noqa: BLE001
        await answer_failed(interaction, inv, custom_id, exc)
    finally:
        after_actions(interaction.client, inv)


async def autocomplete(interaction: discord.Interaction, name: str, option: str,
                       current: str) -> list[app_commands.Choice[str]]:
    table = table_of(interaction.client)
    inv = invocation(interaction)
    found = await table.autocomplete(inv, name, option, current)
    return [app_commands.Choice(name=clip(label, 100), value=value[:100]) for label, value in found[:25]]


def completer(name: str, option: str):
    async def complete(interaction: discord.Interaction, current: str):
        return await autocomplete(interaction, name, option, current)

    return complete
