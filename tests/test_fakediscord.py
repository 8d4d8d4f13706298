"""The fake Discord fixture, exercised by a tiny discord.py bot defined here."""

from __future__ import annotations

import asyncio
import io
import time
from typing import Any, List

import aiohttp
import discord
import discord.gateway
import discord.http
import pytest
from discord import app_commands
from discord.ext import commands
from PIL import Image

from fakediscord import EPHEMERAL, FakeDiscord, FakeTimeout, fake_discord  # noqa: F401  (fixture)

PNG_SIGNATURE = b'\x89PNG\r\n\x1a\n'


def tiny_png() -> bytes:
    buf = io.BytesIO()
    Image.new('RGB', (4, 3), (200, 30, 30)).save(buf, format='PNG')
    return buf.getvalue()


# --------------------------------------------------------------------------- the bot

class Counter(discord.ui.DynamicItem[discord.ui.Button], template=r'counter:(?P<n>\d+)'):
    def __init__(self, n: int) -> None:
        super().__init__(discord.ui.Button(label=f'Count {n}', style=discord.ButtonStyle.primary, custom_id=f'counter:{n}'))
        self.n = n

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button, match: Any) -> 'Counter':
        return cls(int(match['n']))

    async def callback(self, interaction: discord.Interaction) -> None:
        view = discord.ui.View(timeout=None)
        view.add_item(Counter(self.n + 1))
        await interaction.response.edit_message(content=f'count={self.n + 1}', view=view)


class PickSelect(discord.ui.Select):
    def __init__(self) -> None:
        super().__init__(custom_id='pick', placeholder='Pick one',
                         options=[discord.SelectOption(label=x.upper(), value=x) for x in 'abc'])

    async def callback(self, interaction: discord.Interaction) -> None:
        await interaction.response.edit_message(content=f'picked {",".join(self.values)}')


class NoteModal(discord.ui.Modal, title='Note'):
    text = discord.ui.TextInput(label='Text', custom_id='note_text')

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f'noted: {self.text.value}', ephemeral=True)


class TinyBot(commands.Bot):
    def __init__(self, *, register_dynamic: bool = True) -> None:
        super().__init__(command_prefix='!', intents=discord.Intents.default(), guild_ready_timeout=0.05)
        self.register_dynamic = register_dynamic
        self.seen: List[Any] = []
        self.png = tiny_png()
        self.ready_fired = asyncio.Event()
        self._build_tree()

    async def setup_hook(self) -> None:
        if self.register_dynamic:
            self.add_dynamic_items(Counter)

    async def on_ready(self) -> None:
        self.ready_fired.set()

    def _build_tree(self) -> None:
        bot = self
        campaign = app_commands.Group(name='campaign', description='Campaign commands')
        admin = app_commands.Group(name='admin', description='Campaign admin', parent=campaign)

        @campaign.command(name='new', description='Start a campaign')
        @app_commands.describe(name='Campaign name', difficulty='How hard', size='Party size')
        @app_commands.choices(difficulty=[app_commands.Choice(name=n.title(), value=n) for n in ('novice', 'adept', 'veteran')])
        async def new(interaction: discord.Interaction, name: str, difficulty: str,
                      size: app_commands.Range[int, 1, 8] = 4) -> None:
            bot.seen.append(('new', name, difficulty, size))
            await interaction.response.send_message(f'created {name} ({difficulty}, {size})')

        @admin.command(name='reset', description='Reset a campaign')
        async def reset(interaction: discord.Interaction, confirm: bool, where: discord.TextChannel,
                        who: discord.Member, ratio: float) -> None:
            bot.seen.append(('reset', confirm, where, who, ratio))
            await interaction.response.send_message(f'reset {confirm} {where.name} {who.name} {ratio}')

        adventurer = app_commands.Group(name='adventurer', description='Adventurers')

        @adventurer.command(name='create', description='Create an adventurer')
        async def create(interaction: discord.Interaction, name: str, race: str) -> None:
            await interaction.response.send_message(f'{name} the {race}')

        @create.autocomplete('race')
        async def race_ac(interaction: discord.Interaction, current: str) -> List[app_commands.Choice[str]]:
            bot.seen.append(('ac', interaction.namespace.name, current))
            races = ['dwarf', 'darkling', 'elf', 'human']
            return [app_commands.Choice(name=r.title(), value=r) for r in races if r.startswith(current.lower())]

        @app_commands.command(name='art', description='An embed with a picture')
        async def art(interaction: discord.Interaction) -> None:
            embed = discord.Embed(title='Map', description='The table map').set_image(url='attachment://map.png')
            await interaction.response.send_message(embed=embed, file=discord.File(io.BytesIO(bot.png), 'map.png'))

        @app_commands.command(name='slow', description='Defers then follows up')
        async def slow(interaction: discord.Interaction) -> None:
            await interaction.response.defer(thinking=True)
            await asyncio.sleep(0.05)
            await interaction.followup.send('done thinking', file=discord.File(io.BytesIO(bot.png), 'late.png'))
            await interaction.followup.send('psst', ephemeral=True)

        @app_commands.command(name='oops', description='Fails politely')
        async def oops(interaction: discord.Interaction) -> None:
            await interaction.response.send_message('You cannot do that here.', ephemeral=True)

        @app_commands.command(name='panel', description='A panel with a counter and a select')
        async def panel(interaction: discord.Interaction) -> None:
            view = discord.ui.View(timeout=None)
            view.add_item(Counter(0))
            view.add_item(PickSelect())
            await interaction.response.send_message('panel', view=view)

        @app_commands.command(name='note', description='Opens a modal')
        async def note(interaction: discord.Interaction) -> None:
            await interaction.response.send_modal(NoteModal())

        @app_commands.command(name='boom', description='Raises')
        async def boom(interaction: discord.Interaction) -> None:
            raise RuntimeError('kaboom')

        @app_commands.command(name='sleepy', description='Answers late')
        async def sleepy(interaction: discord.Interaction, seconds: float) -> None:
            await asyncio.sleep(seconds)
            await interaction.response.send_message('yawn')

        @app_commands.command(name='revise', description='Sends, edits, fetches, deletes')
        async def revise(interaction: discord.Interaction) -> None:
            await interaction.response.send_message('draft', file=discord.File(io.BytesIO(b'first'), 'a.txt'),
                                                    allowed_mentions=discord.AllowedMentions.none())
            await interaction.edit_original_response(content='final', attachments=[discord.File(io.BytesIO(bot.png), 'b.png')])
            original = await interaction.original_response()
            bot.seen.append(('revise', original.content, [a.filename for a in original.attachments]))
            extra = await interaction.followup.send('temp', wait=True)
            await extra.delete()

        for cmd in (campaign, adventurer, art, slow, oops, panel, note, boom, sleepy, revise):
            self.tree.add_command(cmd)


async def setup_world(fake: FakeDiscord, *, register_dynamic: bool = True):
    guild = fake.add_guild('Table Top')
    chan = fake.add_channel(guild, 'table', topic='play here')
    other = fake.add_channel(guild, 'lobby')
    alice = fake.add_member(guild, 'alice')
    bob = fake.add_member(guild, 'bob')
    bot = TinyBot(register_dynamic=register_dynamic)
    await fake.start_client(bot, token='x')
    return bot, guild, chan, other, alice, bob


def assert_clean(fake: FakeDiscord) -> None:
    assert fake.unhandled == []
    assert fake.errors == [], [r.getMessage() for r in fake.errors]


# --------------------------------------------------------------------------- tests

async def test_login_ready_and_sync(fake_discord: FakeDiscord) -> None:
    fake = fake_discord
    assert discord.http.Route.BASE == fake.api_base
    bot, guild, chan, *_ = await setup_world(fake)
    assert bot.ready_fired.is_set() and bot.user.id == fake.bot_user.id
    assert bot.application_id == fake.application_id
    g = bot.get_guild(guild.id)
    assert g is not None and g.name == 'Table Top'
    assert isinstance(g.get_channel(chan.id), discord.TextChannel) and g.get_channel(chan.id).topic == 'play here'
    assert fake.identifies[0]['intents'] == bot.intents.value
    assert [s.compression for s in fake.sessions] == ['zlib-stream']  # discord.py asks for zlib-stream
    assert bot.latency < 5  # heartbeat was ACKed

    synced = await bot.tree.sync()
    assert sorted(c.name for c in synced) == fake.command_names() == ['adventurer', 'art', 'boom', 'campaign', 'note', 'oops', 'panel', 'revise', 'sleepy', 'slow']
    new = fake.find_command('campaign new')
    assert new['description'] == 'Start a campaign'
    opts = {o['name']: o for o in new['options']}
    assert opts['name']['type'] == 3 and opts['name']['required'] and opts['name']['description'] == 'Campaign name'
    assert opts['size']['type'] == 4 and opts['size']['min_value'] == 1 and opts['size']['max_value'] == 8
    assert [c['value'] for c in opts['difficulty']['choices']] == ['novice', 'adept', 'veteran']
    assert fake.find_command('campaign admin')['type'] == 2
    assert fake.find_command('adventurer create')['options'][1]['autocomplete'] is True
    # ids are stable across re-syncs, as on Discord
    ids = {c['name']: c['id'] for c in fake.commands()}
    await bot.tree.sync()
    assert {c['name']: c['id'] for c in fake.commands()} == ids and fake.sync_count == 2
    # guild sync is stored separately
    bot.tree.copy_global_to(guild=discord.Object(guild.id))
    await bot.tree.sync(guild=discord.Object(guild.id))
    assert fake.command_names(guild) == fake.command_names()
    await fake.stop_client(bot)
    assert_clean(fake)


async def test_slash_options_arrive_typed(fake_discord: FakeDiscord) -> None:
    fake = fake_discord
    bot, guild, chan, other, alice, bob = await setup_world(fake)
    await bot.tree.sync()

    res = await fake.slash(client_user=alice, channel=chan, command='campaign new', options={'name': 'Test', 'difficulty': 'adept', 'size': 3})
    assert res.callback_type == 4 and res.content == 'created Test (adept, 3)'
    assert bot.seen[-1] == ('new', 'Test', 'adept', 3) and isinstance(bot.seen[-1][3], int)
    assert res.message.interaction_metadata['name'] == 'campaign' and not res.ephemeral
    assert res.latency is not None and res.within_deadline

    res = await fake.slash(alice, chan, 'campaign admin reset', {'confirm': True, 'where': other, 'who': bob, 'ratio': 0.5})
    _, confirm, where, who, ratio = bot.seen[-1]
    assert confirm is True and isinstance(ratio, float) and ratio == 0.5
    assert where.id == other.id and where.name == 'lobby'
    assert isinstance(who, discord.Member) and who.id == bob.id and who.name == 'bob'
    assert res.content == 'reset True lobby bob 0.5'

    # the harness refuses what Discord's client would refuse
    with pytest.raises(ValueError):
        await fake.slash(alice, chan, 'campaign new', {'name': 'X', 'difficulty': 'godlike'})
    with pytest.raises(ValueError):
        await fake.slash(alice, chan, 'campaign new', {'name': 'X', 'difficulty': 'adept', 'size': 9})
    with pytest.raises(LookupError):
        await fake.slash(alice, chan, 'campaign new', {'name': 'X', 'difficulty': 'adept', 'colour': 'red'})
    with pytest.raises(LookupError):
        await fake.slash(alice, chan, 'campaign', {})
    await fake.stop_client(bot)
    assert_clean(fake)


async def test_autocomplete_returns_choices(fake_discord: FakeDiscord) -> None:
    fake = fake_discord
    bot, guild, chan, other, alice, bob = await setup_world(fake)
    await bot.tree.sync()
    choices = await fake.autocomplete(alice, chan, 'adventurer create', options={'name': 'Grim'}, focused='race', value='da')
    assert choices == [{'name': 'Darkling', 'value': 'darkling'}]
    assert bot.seen[-1] == ('ac', 'Grim', 'da')
    assert fake.interactions[-1].callback_type == 8
    await fake.stop_client(bot)
    assert_clean(fake)


async def test_embed_with_png_attachment(fake_discord: FakeDiscord) -> None:
    fake = fake_discord
    bot, guild, chan, other, alice, bob = await setup_world(fake)
    await bot.tree.sync()
    res = await fake.slash(alice, chan, 'art')
    assert res.callback_type == 4
    assert res.embeds[0]['title'] == 'Map' and res.embeds[0]['image']['url'] == 'attachment://map.png'
    [(filename, data)] = res.files
    assert filename == 'map.png' and data == bot.png and data.startswith(PNG_SIGNATURE)
    att = res.message.attachments[0]
    assert att.content_type == 'image/png' and att.size == len(bot.png)
    # the attachment URL serves the bytes, and discord.py's Message parsed the response
    async with aiohttp.ClientSession() as session:
        async with session.get(att.url) as resp:
            assert await resp.read() == bot.png
    await fake.stop_client(bot)
    assert_clean(fake)


async def test_defer_then_followup_and_ephemeral(fake_discord: FakeDiscord) -> None:
    fake = fake_discord
    bot, guild, chan, other, alice, bob = await setup_world(fake)
    await bot.tree.sync()
    res = await fake.slash(alice, chan, 'slow', wait=False)
    await res.wait(followups=2)
    assert res.callback_type == 5 and res.deferred and res.within_deadline
    assert res.original is res.followups[0]  # the first followup filled in the "thinking" message
    assert res.original.content == 'done thinking' and not res.original.loading and not res.original.ephemeral
    assert res.files[0][0] == 'late.png' and res.files[0][1] == bot.png
    assert res.followups[1].content == 'psst' and res.followups[1].ephemeral and res.followups[1].flags & EPHEMERAL

    err = await fake.slash(alice, chan, 'oops')
    assert err.ephemeral and err.callback_data['flags'] & EPHEMERAL
    assert err.content == 'You cannot do that here.'
    await fake.stop_client(bot)
    assert_clean(fake)


async def test_buttons_selects_and_restart(fake_discord: FakeDiscord) -> None:
    fake = fake_discord
    bot, guild, chan, other, alice, bob = await setup_world(fake)
    await bot.tree.sync()
    panel = await fake.slash(alice, chan, 'panel')
    msg = panel.message
    assert msg.custom_ids == ['counter:0', 'pick']

    click = await fake.click(alice, message=msg, custom_id='counter:0')
    assert click.callback_type == 7 and click.original is msg
    assert msg.content == 'count=1' and msg.custom_ids == ['counter:1'] and msg.edits == 1

    panel2 = await fake.slash(alice, chan, 'panel')
    sel = await fake.select(bob, message=panel2.message, custom_id='pick', values=['b'])
    assert sel.callback_type == 7 and panel2.message.content == 'picked b'
    with pytest.raises(ValueError):
        await fake.select(bob, message=panel2.message, custom_id='pick', values=['z'])
    with pytest.raises(LookupError):
        await fake.click(alice, message=msg, custom_id='counter:0')  # no longer on the message

    # restart: a brand new client that never sent the panel still handles the old button
    await fake.stop_client(bot)
    bot2 = TinyBot()
    await fake.start_client(bot2)
    again = await fake.click(alice, message=msg, custom_id='counter:1')
    assert again.callback_type == 7 and msg.content == 'count=2'
    await fake.stop_client(bot2)

    # control: without add_dynamic_items nobody answers the click
    bot3 = TinyBot(register_dynamic=False)
    await fake.start_client(bot3)
    with pytest.raises(FakeTimeout):
        await fake.click(alice, message=msg, custom_id='counter:2', timeout=0.3)
    await fake.stop_client(bot3)
    assert_clean(fake)


async def test_edit_fetch_and_delete_through_the_webhook(fake_discord: FakeDiscord) -> None:
    fake = fake_discord
    bot, guild, chan, other, alice, bob = await setup_world(fake)
    await bot.tree.sync()
    res = await fake.slash(alice, chan, 'revise')
    await res.wait_until(lambda r: bool(r.followups) and r.followups[0].deleted)
    assert res.original.content == 'final' and res.original.edits == 1
    assert res.original.history[0]['content'] == 'draft'
    assert res.original.allowed_mentions == {'parse': []}
    assert [f for f, _ in res.original.files] == ['b.png'] and res.original.files[0][1] == bot.png
    assert bot.seen[-1] == ('revise', 'final', ['b.png'])
    assert [what for what, _ in res.log] == ['callback', 'edit', 'followup', 'delete']
    await fake.stop_client(bot)
    assert_clean(fake)


async def test_modal_roundtrip(fake_discord: FakeDiscord) -> None:
    fake = fake_discord
    bot, guild, chan, other, alice, bob = await setup_world(fake)
    await bot.tree.sync()
    opened = await fake.slash(alice, chan, 'note')
    assert opened.callback_type == 9 and opened.modal['title'] == 'Note'
    done = await fake.submit_modal(alice, opened, {'note_text': 'hello'})
    assert done.content == 'noted: hello' and done.ephemeral
    await fake.stop_client(bot)
    assert_clean(fake)


async def test_rate_limit_is_honoured(fake_discord: FakeDiscord) -> None:
    fake = fake_discord
    bot, guild, chan, other, alice, bob = await setup_world(fake)
    rule = fake.rate_limit('POST', '/channels/*/messages', times=2, retry_after=0.15)
    channel = bot.get_channel(chan.id)
    started = time.monotonic()
    sent = await channel.send('after the storm', file=discord.File(io.BytesIO(bot.png), 'storm.png'))
    elapsed = time.monotonic() - started
    assert len(rule.hits) == 2 and elapsed >= 0.29
    assert rule.hits[1] - rule.hits[0] >= 0.14
    statuses = [r.status for r in fake.requests if r.method == 'POST' and r.path.startswith('/channels/')]
    assert statuses == [429, 429, 200]
    [stored] = fake.channel_messages(chan)
    assert stored.id == sent.id and stored.content == 'after the storm' and stored.files == [('storm.png', bot.png)]
    assert sent.attachments[0].filename == 'storm.png'
    assert await sent.attachments[0].read() == bot.png

    # interaction webhooks go through the same patched base and honour 429 too
    await bot.tree.sync()
    wh_rule = fake.rate_limit('POST', '/webhooks/*', times=1, retry_after=0.05)
    res = await fake.slash(alice, chan, 'slow', wait=False)
    await res.wait(followups=2)
    assert len(wh_rule.hits) == 1 and res.original.content == 'done thinking'
    await fake.stop_client(bot)
    assert_clean(fake)


async def test_latency_and_bot_errors_are_reported() -> None:
    async with FakeDiscord(interaction_deadline=0.05) as fake:
        bot, guild, chan, other, alice, bob = await setup_world(fake)
        await bot.tree.sync()
        late = await fake.slash(alice, chan, 'sleepy', {'seconds': 0.1})
        assert late.content == 'yawn' and late.latency >= 0.1 and not late.within_deadline
        quick = await fake.slash(alice, chan, 'sleepy', {'seconds': 0})
        assert quick.latency < 0.05 and quick.within_deadline
        # an exception in the bot means no callback: the timeout says why
        with pytest.raises(FakeTimeout, match='kaboom'):
            await fake.slash(alice, chan, 'boom', timeout=0.3)
        assert fake.interactions[-1].callback is None
        fake.errors.clear()
        # world changes after READY are pushed to the client
        news = fake.add_channel(guild, 'news')
        await fake.wait_for(lambda: bot.get_channel(news.id) is not None, timeout=2, what='CHANNEL_CREATE')
        assert_clean(fake)


async def test_repeatable_and_restores_urls() -> None:
    before = (discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY)
    for _ in range(2):
        async with FakeDiscord() as fake:
            bot, guild, chan, *_ = await setup_world(fake)
            typing_before = len(fake.typing)
            async with bot.get_channel(chan.id).typing():
                pass
            assert len(fake.typing) == typing_before + 1
            # RECONNECT -> the client resumes the same session
            await fake.request_reconnect()
            await fake.wait_for(lambda: fake.resumes == 1, timeout=5, what='resume')
            fetched = await bot.fetch_channel(chan.id)
            assert fetched.name == 'table'
            # pushed dispatches reach the client; without the message content intent the
            # content is blanked unless the bot is mentioned, as on Discord
            alice = fake.guilds[0].member('alice')
            for text, expected in (('hi bot', ''), (f'{fake.bot_user.mention} hi', f'{fake.bot_user.mention} hi')):
                waiter = asyncio.ensure_future(bot.wait_for('message', timeout=2))
                await asyncio.sleep(0)
                await fake.user_message(alice, chan, text)
                got = await waiter
                assert got.content == expected and got.channel.id == chan.id and got.author.id == alice.id
            assert_clean(fake)
        # leaving the context stopped the client that was still running
        assert bot.is_closed()
        assert (discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY) == before
    leftover = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
    assert leftover == []
