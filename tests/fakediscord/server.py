"""A fake Discord (REST + gateway) on 127.0.0.1 for driving the real discord.py client.

What it covers
--------------
* REST: ``GET /gateway``, ``/gateway/bot``, ``/users/@me``, ``/users/{id}``,
  ``/oauth2/applications/@me``, ``/guilds/{id}`` (+ channels, roles, members/{id}),
  ``/channels/{id}``; channel messages (POST json or multipart, GET one / history,
  PATCH, DELETE), pins (PUT/DELETE one, GET the list; ``FakeMessage.pinned``), typing; application commands (bulk PUT/GET, POST, GET/PATCH/DELETE
  one; global and per guild); interaction callbacks (types 1, 4, 5, 6, 7, 8, 9,
  json or multipart with ``payload_json`` + ``files[n]``); interaction webhooks
  (followup POST, GET/PATCH/DELETE ``@original`` and ``messages/{id}``); attachment
  download (the ``url`` of every stored attachment serves its bytes).
* Gateway: HELLO, heartbeat ACK, IDENTIFY -> READY (guilds unavailable) + one
  GUILD_CREATE per guild, minimal RESUME (RESUMED or INVALID_SESSION), REQUEST_GUILD_MEMBERS
  (one chunk), zlib-stream transport compression when the client asks for it, and
  arbitrary dispatches pushed by a test (``FakeDiscord.dispatch``).
* Harness: build guilds/channels/roles/members; start and stop clients; create
  INTERACTION_CREATE events like Discord does (slash with subcommand groups and typed
  options with ``resolved`` data, autocomplete, buttons, selects, modal submits) and
  collect everything the bot answered in an ``InteractionResult``; inject 429s.
* Every stored attachment keeps its raw bytes. Interaction latency (dispatch ->
  first callback) is measured, not enforced unless ``enforce_deadline=True``.

Realistic behaviour worth knowing
---------------------------------
* After a type-5 defer the first followup fills in the "thinking" message (as
  Discord does): it becomes ``result.original`` *and* ``result.followups[0]``, and it
  keeps the defer's ephemeral flag.
* ``user_message`` blanks ``content`` for sessions without the MESSAGE_CONTENT intent
  unless the bot is mentioned.
* A second callback for one interaction gets 400 code 40060; a followup before any
  callback gets 404 Unknown Webhook; unknown routes get 404 and are listed in
  ``FakeDiscord.unhandled`` (tests should keep it empty).
* Slash options are typed from the command schema the bot synced (with the
  Discord-side checks: unknown/missing required options, choices, min/max); when
  the command was never synced, types are inferred from the Python values unless
  ``require_sync=True``.

What it does not do
-------------------
No permissions/overwrite enforcement (a refused pin is injected with ``fail``), no real rate-limit buckets
(only injected 429s), no voice, threads, DMs, reactions, webhooks other than the
interaction one, audit logs, stickers, polls, presences, sharding, or zstd; message
events (MESSAGE_CREATE/UPDATE) for the bot's own messages are not echoed unless
``echo_messages=True``.  Payloads are stored as sent, without Discord's
validation of embed/component limits.

URL patching
------------
``FakeDiscord`` sets ``discord.http.Route.BASE`` (used by the REST client *and* by
``discord.webhook.async_`` for interaction callbacks and followups, since both build
``Route`` objects) and ``discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY`` while it
runs, and restores both on exit.  Only one instance may be active at a time.
Calling ``discord.http._set_api_version`` while it runs would undo the patch.
"""

from __future__ import annotations

import asyncio
import contextlib
import fnmatch
import json
import logging
import re
import secrets
import time
import traceback
import zlib
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple, Union

import discord
import discord.gateway
import discord.http
import yarl
from aiohttp import WSMsgType, web

from .models import (
    DEFAULT_EVERYONE_PERMISSIONS,
    EPHEMERAL,
    LOADING,
    FakeAttachment,
    FakeChannel,
    FakeGuild,
    FakeMember,
    FakeMessage,
    FakeRole,
    FakeTimeout,
    FakeUser,
    InteractionResult,
    SnowflakeFactory,
    iso_now,
)

__all__ = ['FakeDiscord', 'RecordedRequest', 'RateLimitRule']

_log = logging.getLogger('fakediscord')

API_VERSION = 10
MESSAGE_CONTENT_INTENT = 1 << 15
_active: Optional['FakeDiscord'] = None


@dataclass
class RecordedRequest:
    method: str
    path: str  # without the /api/v10 prefix
    status: int = 0
    at: float = 0.0
    query: Dict[str, str] = field(default_factory=dict)


@dataclass
class RateLimitRule:
    method: str
    pattern: str  # fnmatch pattern on the path without /api/v10, e.g. '/channels/*/messages'
    times: int
    retry_after: float
    is_global: bool = False
    #: monotonic times at which a 429 was served
    hits: List[float] = field(default_factory=list)

    def matches(self, method: str, path: str) -> bool:
        return (self.method == '*' or self.method == method) and fnmatch.fnmatchcase(path, self.pattern)


@dataclass
class FailRule:
    """Answer matching requests with an HTTP error (e.g. 413 when a file is too large for Discord)."""
    method: str
    pattern: str
    times: int
    status: int
    code: int
    message: str
    hits: int = 0

    def matches(self, method: str, path: str) -> bool:
        return (self.method == '*' or self.method == method) and fnmatch.fnmatchcase(path, self.pattern)


class _ErrorCollector(logging.Handler):
    def __init__(self) -> None:
        super().__init__(level=logging.ERROR)
        self.records: List[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


class _GatewaySession:
    def __init__(self, ws: web.WebSocketResponse, compress: Optional[str]) -> None:
        self.ws = ws
        self.session_id = secrets.token_hex(16)
        self.seq = 0
        self.identified = False
        self.identify: Dict[str, Any] = {}
        self.presence_updates: List[Dict[str, Any]] = []
        #: transport compression in use ('zlib-stream' or None for plain text frames)
        self.compression: Optional[str] = 'zlib-stream' if compress == 'zlib-stream' else None
        self._zlib = zlib.compressobj() if compress == 'zlib-stream' else None
        self._lock = asyncio.Lock()

    @property
    def open(self) -> bool:
        return not self.ws.closed

    async def send(self, payload: Dict[str, Any]) -> bool:
        text = json.dumps(payload)
        async with self._lock:
            if self.ws.closed:
                return False
            try:
                if self._zlib is not None:
                    await self.ws.send_bytes(self._zlib.compress(text.encode()) + self._zlib.flush(zlib.Z_SYNC_FLUSH))
                else:
                    await self.ws.send_str(text)
            except (ConnectionError, RuntimeError):
                return False
            return True

    async def dispatch(self, event: str, data: Any) -> bool:
        self.seq += 1
        return await self.send({'op': 0, 't': event, 's': self.seq, 'd': data})


def _json(data: Any, status: int = 200, headers: Optional[Dict[str, str]] = None) -> web.Response:
    # Discord answers with exactly "application/json" (no charset) and discord.py checks for that string.
    return web.Response(body=json.dumps(data).encode(), status=status,
                        headers={**(headers or {}), 'Content-Type': 'application/json'})


def _err(status: int, message: str, code: int = 0) -> web.Response:
    return _json({'message': message, 'code': code}, status=status)


class FakeDiscord:
    """The fake Discord server plus the harness API.  Use ``async with FakeDiscord() as fake``."""

    def __init__(
        self,
        *,
        bot_name: str = 'Hexpost',
        heartbeat_interval: float = 41.25,
        token: Optional[str] = None,
        require_sync: bool = False,
        enforce_deadline: bool = False,
        interaction_deadline: float = 3.0,
        echo_messages: bool = False,
        default_timeout: float = 5.0,
    ) -> None:
        self.snowflake = SnowflakeFactory()
        self.bot_user = FakeUser(id=self.snowflake(), name=bot_name, bot=True)
        self.application_id = self.bot_user.id  # as for every bot created since 2020
        self.owner = FakeUser(id=self.snowflake(), name='owner')
        self.heartbeat_interval = heartbeat_interval
        self.token = token
        self.require_sync = require_sync
        self.enforce_deadline = enforce_deadline
        self.interaction_deadline = interaction_deadline
        self.echo_messages = echo_messages
        self.default_timeout = default_timeout

        self.guilds: List[FakeGuild] = []
        self.users: Dict[int, FakeUser] = {self.bot_user.id: self.bot_user, self.owner.id: self.owner}
        self.messages: Dict[int, FakeMessage] = {}
        self.global_commands: List[Dict[str, Any]] = []
        self.guild_commands: Dict[int, List[Dict[str, Any]]] = {}
        self.sync_count = 0
        self.interactions: List[InteractionResult] = []
        self.requests: List[RecordedRequest] = []
        self.unhandled: List[RecordedRequest] = []
        self.rate_limits: List[RateLimitRule] = []
        self.failures: List[FailRule] = []
        self.typing: List[int] = []  # channel ids, one per typing request
        self.identifies: List[Dict[str, Any]] = []
        self.resumes = 0

        self._attachments: Dict[int, FakeAttachment] = {}
        self._by_token: Dict[str, InteractionResult] = {}
        self._by_id: Dict[int, InteractionResult] = {}
        self._sessions: List[_GatewaySession] = []
        self._known_sessions: Dict[str, _GatewaySession] = {}
        self._clients: Dict[discord.Client, asyncio.Task] = {}
        self._tasks: set[asyncio.Task] = set()
        self._cond: Optional[asyncio.Condition] = None
        self._runner: Optional[web.AppRunner] = None
        self._saved: Optional[Tuple[str, yarl.URL]] = None
        self._errors = _ErrorCollector()
        self.port: int = 0

    # ------------------------------------------------------------------ lifecycle
    @property
    def base_url(self) -> str:
        return f'http://127.0.0.1:{self.port}'

    @property
    def api_base(self) -> str:
        return f'{self.base_url}/api/v{API_VERSION}'

    @property
    def gateway_url(self) -> str:
        return f'ws://127.0.0.1:{self.port}/gateway-ws/'

    @property
    def errors(self) -> List[logging.LogRecord]:
        """ERROR log records of discord.py (e.g. exceptions swallowed by the command tree) while running."""
        return self._errors.records

    async def __aenter__(self) -> 'FakeDiscord':
        await self.start()
        return self

    async def __aexit__(self, *exc: Any) -> None:
        await self.close()

    async def start(self) -> None:
        global _active
        if _active is not None:
            raise RuntimeError('another FakeDiscord is already active (the URL patch is process wide)')
        self._cond = asyncio.Condition()
        app = web.Application(middlewares=[self._middleware], client_max_size=64 * 1024 * 1024)
        self._add_routes(app)
        self._runner = web.AppRunner(app, access_log=None, handle_signals=False, shutdown_timeout=1.0)
        await self._runner.setup()
        site = web.TCPSite(self._runner, '127.0.0.1', 0)
        await site.start()
        self.port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        self._saved = (discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY)
        discord.http.Route.BASE = self.api_base
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(self.gateway_url)
        _active = self
        logging.getLogger('discord').addHandler(self._errors)

    async def close(self) -> None:
        global _active
        for client in list(self._clients):
            with contextlib.suppress(Exception):
                await self.stop_client(client)
        for sess in list(self._sessions):
            with contextlib.suppress(Exception):
                await sess.ws.close(code=4000)
        for task in list(self._tasks):
            task.cancel()
        if self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
        if self._saved is not None:
            discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = self._saved
            self._saved = None
        logging.getLogger('discord').removeHandler(self._errors)
        if _active is self:
            _active = None

    def _spawn(self, coro: Any) -> asyncio.Task:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    # ------------------------------------------------------------------ waiting
    async def _notify(self) -> None:
        assert self._cond is not None
        async with self._cond:
            self._cond.notify_all()

    async def wait_for(self, predicate: Callable[[], bool], timeout: Optional[float] = None, what: str = 'condition') -> None:
        """Wait until ``predicate()`` is true.  It is re-checked after every request the fake
        handles and every 20 ms (so it may also look at client-side state).  Raises FakeTimeout,
        whose message includes the last discord.py error log if there was one."""
        assert self._cond is not None, 'FakeDiscord is not running'
        timeout = self.default_timeout if timeout is None else timeout
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        async with self._cond:
            while not predicate():
                remaining = deadline - loop.time()
                if remaining <= 0:
                    raise FakeTimeout(f'timed out after {timeout}s waiting for {what}{self._error_hint()}')
                try:
                    await asyncio.wait_for(self._cond.wait(), min(remaining, 0.02))
                except asyncio.TimeoutError:
                    pass

    def _error_hint(self) -> str:
        if not self.errors:
            return ''
        rec = self.errors[-1]
        text = rec.getMessage()
        if rec.exc_info:
            text += '\n' + ''.join(traceback.format_exception(*rec.exc_info))
        return f'\nlast discord.py error log ({len(self.errors)} in total): {text}'

    # ------------------------------------------------------------------ world building
    def add_guild(self, name: str = 'Test Guild', *, owner: Optional[FakeUser] = None,
                  everyone_permissions: int = DEFAULT_EVERYONE_PERMISSIONS, locale: str = 'en-US') -> FakeGuild:
        gid = self.snowflake()
        owner = owner or self.owner
        guild = FakeGuild(id=gid, name=name, owner_id=owner.id, locale=locale)
        guild.roles.append(FakeRole(id=gid, guild=guild, name='@everyone', permissions=everyone_permissions))
        guild.members.append(FakeMember(user=self.bot_user, guild=guild))
        if owner is not self.bot_user:
            guild.members.append(FakeMember(user=owner, guild=guild))
        self.guilds.append(guild)
        self._broadcast_soon('GUILD_CREATE', guild.to_gateway_json)
        return guild

    def add_role(self, guild: FakeGuild, name: str, *, permissions: int = 0, color: int = 0) -> FakeRole:
        role = FakeRole(id=self.snowflake(), guild=guild, name=name, permissions=permissions,
                        position=len(guild.roles), color=color)
        guild.roles.append(role)
        self._broadcast_soon('GUILD_ROLE_CREATE', lambda: {'guild_id': str(guild.id), 'role': role.to_json()})
        return role

    def add_channel(self, guild: FakeGuild, name: str, *, type: int = 0, topic: Optional[str] = None,
                    category: Optional[FakeChannel] = None) -> FakeChannel:
        channel = FakeChannel(id=self.snowflake(), guild=guild, name=name, type=type, topic=topic,
                              position=len(guild.channels), parent=category)
        guild.channels.append(channel)
        self._broadcast_soon('CHANNEL_CREATE', channel.to_json)
        return channel

    def add_member(self, guild: FakeGuild, name: str, *, roles: Sequence[FakeRole] = (), nick: Optional[str] = None,
                   bot: bool = False, user: Optional[FakeUser] = None) -> FakeMember:
        if user is None:
            user = FakeUser(id=self.snowflake(), name=name, bot=bot)
            self.users[user.id] = user
        member = FakeMember(user=user, guild=guild, nick=nick, roles=list(roles))
        guild.members.append(member)
        self._broadcast_soon('GUILD_MEMBER_ADD', lambda: {**member.to_json(), 'guild_id': str(guild.id)})
        return member

    def _broadcast_soon(self, event: str, make: Callable[[], Dict[str, Any]]) -> None:
        if any(s.identified for s in self._sessions):
            self._spawn(self.dispatch(event, make()))

    def get_guild(self, guild_id: int) -> Optional[FakeGuild]:
        return next((g for g in self.guilds if g.id == guild_id), None)

    def get_channel(self, channel_id: int) -> Optional[FakeChannel]:
        for g in self.guilds:
            c = g.get_channel(channel_id)
            if c is not None:
                return c
        return None

    def channel_messages(self, channel: Union[FakeChannel, int], *, include_deleted: bool = False) -> List[FakeMessage]:
        cid = channel if isinstance(channel, int) else channel.id
        return [m for m in self.messages.values() if m.channel_id == cid and (include_deleted or not m.deleted)]

    # ------------------------------------------------------------------ clients
    async def start_client(self, client: discord.Client, token: str = 'fake-token', *, timeout: float = 10.0) -> None:
        """Run ``client.start(token)`` in a task and wait (bounded) until the client is ready.

        discord.py waits ``guild_ready_timeout`` (default 2 s) after the last GUILD_CREATE
        before on_ready; construct test clients with ``guild_ready_timeout=0.05`` to be fast."""
        if client in self._clients:
            raise RuntimeError('client already started')
        task = asyncio.get_running_loop().create_task(client.start(token), name=f'fakediscord-client-{id(client)}')
        self._clients[client] = task
        deadline = time.monotonic() + timeout
        while not client.is_ready():
            if task.done():
                self._clients.pop(client, None)
                exc = task.exception()
                with contextlib.suppress(Exception):
                    await client.close()
                raise RuntimeError('client stopped before it became ready') from exc
            if time.monotonic() > deadline:
                await self.stop_client(client)
                raise FakeTimeout(f'client not ready after {timeout}s{self._error_hint()}')
            await asyncio.sleep(0.005)

    async def stop_client(self, client: discord.Client, *, timeout: float = 5.0) -> None:
        """Close the client and wait for its ``start`` task to finish (re-raises its error)."""
        task = self._clients.pop(client, None)
        await asyncio.wait_for(client.close(), timeout)
        if task is not None:
            try:
                await asyncio.wait_for(task, timeout)
            except asyncio.TimeoutError:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
                raise FakeTimeout(f'client task did not end {timeout}s after close()') from None

    async def dispatch(self, event: str, data: Any) -> int:
        """Push a gateway DISPATCH to every identified session; returns how many got it."""
        sent = 0
        for sess in list(self._sessions):
            if sess.identified and await sess.dispatch(event, data):
                sent += 1
        return sent

    async def request_reconnect(self) -> None:
        """Send op 7 RECONNECT to every session (the client will RESUME)."""
        for sess in list(self._sessions):
            await sess.send({'op': 7, 'd': None})

    @property
    def sessions(self) -> List[_GatewaySession]:
        return [s for s in self._sessions if s.identified and s.open]

    async def user_message(self, user: FakeMember, channel: FakeChannel, content: str) -> FakeMessage:
        """A member posts a message: stored and dispatched as MESSAGE_CREATE.

        As on Discord, sessions that identified without the MESSAGE_CONTENT intent get an
        empty ``content`` unless the message mentions the bot."""
        msg = FakeMessage(id=self.snowflake(), channel_id=channel.id, guild_id=channel.guild.id,
                          author=user.user.to_json(), content=content)
        msg.history.append({'content': content})
        self.messages[msg.id] = msg
        mentions_bot = f'<@{self.bot_user.id}>' in content or f'<@!{self.bot_user.id}>' in content
        for sess in list(self._sessions):
            if not sess.identified:
                continue
            data = msg.to_json()
            data['member'] = user.to_json(with_user=False)
            if mentions_bot:
                data['mentions'] = [{**self.bot_user.to_json(), 'member': {}}]
            elif not int(sess.identify.get('intents') or 0) & MESSAGE_CONTENT_INTENT:
                data['content'] = ''
            await sess.dispatch('MESSAGE_CREATE', data)
        return msg

    # ------------------------------------------------------------------ rate limits
    def rate_limit(self, method: str, pattern: str, *, times: int = 1, retry_after: float = 0.1,
                   is_global: bool = False) -> RateLimitRule:
        """Answer the next ``times`` matching requests with 429 (``pattern`` is an fnmatch
        pattern on the path after /api/v10, e.g. ``'/channels/*/messages'``)."""
        rule = RateLimitRule(method.upper(), pattern, times, retry_after, is_global)
        self.rate_limits.append(rule)
        return rule

    def fail(self, method: str, pattern: str, *, status: int = 413, code: int = 40005,
             message: str = 'Request entity too large', times: int = 1) -> FailRule:
        """Answer the next ``times`` matching requests with an HTTP error (not a 429: the client does not
        retry), e.g. a followup whose picture Discord refuses."""
        rule = FailRule(method.upper(), pattern, times, status, code, message)
        self.failures.append(rule)
        return rule

    # ------------------------------------------------------------------ commands
    def commands(self, guild: Optional[FakeGuild] = None) -> List[Dict[str, Any]]:
        return self.global_commands if guild is None else self.guild_commands.get(guild.id, [])

    def command_names(self, guild: Optional[FakeGuild] = None) -> List[str]:
        return sorted(c['name'] for c in self.commands(guild))

    def find_command(self, path: str, guild: Optional[FakeGuild] = None) -> Optional[Dict[str, Any]]:
        """Schema of a synced command or subcommand, e.g. ``find_command('campaign new')``."""
        parts = path.split()
        found = self._lookup_command(parts[0], guild)
        if found is None:
            return None
        node: Dict[str, Any] = found[0]
        for part in parts[1:]:
            nxt = next((o for o in node.get('options', []) if o['name'] == part and o['type'] in (1, 2)), None)
            if nxt is None:
                return None
            node = nxt
        return node

    def _lookup_command(self, name: str, guild: Optional[FakeGuild], type: int = 1) -> Optional[Tuple[Dict[str, Any], bool]]:
        if guild is not None:
            for c in self.guild_commands.get(guild.id, []):
                if c['name'] == name and c.get('type', 1) == type:
                    return c, True
        for c in self.global_commands:
            if c['name'] == name and c.get('type', 1) == type:
                return c, False
        return None

    def _store_commands(self, payload: List[Dict[str, Any]], guild_id: Optional[int]) -> List[Dict[str, Any]]:
        old = self.global_commands if guild_id is None else self.guild_commands.get(guild_id, [])
        stored = []
        for cmd in payload:
            stored.append(self._normalise_command(cmd, guild_id, old))
        if guild_id is None:
            self.global_commands = stored
        else:
            self.guild_commands[guild_id] = stored
        self.sync_count += 1
        return stored

    def _normalise_command(self, cmd: Dict[str, Any], guild_id: Optional[int], old: List[Dict[str, Any]]) -> Dict[str, Any]:
        if not isinstance(cmd, dict) or not cmd.get('name'):
            raise ValueError('command without name')
        ctype = cmd.get('type', 1)
        prev = next((c for c in old if c['name'] == cmd['name'] and c.get('type', 1) == ctype), None)
        data = json.loads(json.dumps(cmd))
        data.setdefault('type', ctype)
        data.setdefault('description', '')
        data.setdefault('options', [])
        data.setdefault('default_member_permissions', None)
        data.setdefault('nsfw', False)
        data['id'] = prev['id'] if prev else str(self.snowflake())
        data['application_id'] = str(self.application_id)
        data['version'] = str(self.snowflake())
        if guild_id is not None:
            data['guild_id'] = str(guild_id)
        return data

    # ------------------------------------------------------------------ interactions
    def _base_interaction(self, type: int, user: FakeMember, channel: FakeChannel, data: Dict[str, Any]) -> InteractionResult:
        guild = channel.guild
        iid = self.snowflake()
        token = 'aW50ZXJhY3Rpb246' + secrets.token_urlsafe(48)
        bot_member = guild.get_member(self.bot_user.id)
        payload: Dict[str, Any] = {
            'id': str(iid),
            'application_id': str(self.application_id),
            'type': type,
            'data': data,
            'guild_id': str(guild.id),
            'guild': {'id': str(guild.id), 'locale': guild.locale, 'features': []},
            'guild_locale': guild.locale,
            'channel_id': str(channel.id),
            'channel': channel.to_json(with_permissions_of=user),
            'member': user.to_json(with_permissions=True),
            'token': token,
            'version': 1,
            'locale': 'en-US',
            'app_permissions': str(bot_member.permissions if bot_member else DEFAULT_EVERYONE_PERMISSIONS),
            'entitlements': [],
            'authorizing_integration_owners': {'0': str(guild.id)},
            'context': 0,
            'attachment_size_limit': 10 * 1024 * 1024,
        }
        res = InteractionResult(self, id=iid, token=token, payload=payload)
        return res

    async def _fire(self, res: InteractionResult, *, wait: bool, timeout: Optional[float]) -> InteractionResult:
        self.interactions.append(res)
        self._by_token[res.token] = res
        self._by_id[res.id] = res
        res.dispatched_at = time.monotonic()
        sent = await self.dispatch('INTERACTION_CREATE', res.payload)
        if not sent:
            raise RuntimeError('no identified gateway session to send the interaction to (is a client started?)')
        if wait:
            await res.wait(self.default_timeout if timeout is None else timeout)
        return res

    @staticmethod
    def _check_user(user: Optional[FakeMember], client_user: Optional[FakeMember]) -> FakeMember:
        user = user or client_user
        if not isinstance(user, FakeMember):
            raise TypeError('user must be a FakeMember (fake.add_member(...))')
        return user

    async def slash(self, user: Optional[FakeMember] = None, channel: Optional[FakeChannel] = None,
                    command: str = '', options: Optional[Dict[str, Any]] = None, *,
                    client_user: Optional[FakeMember] = None, wait: bool = True,
                    timeout: Optional[float] = None) -> InteractionResult:
        """Dispatch a CHAT_INPUT interaction for ``command`` ("group sub" paths allowed).

        Option values: str/int/float/bool, a FakeMember/FakeUser (user), FakeChannel,
        FakeRole, or ``(filename, bytes)`` for an attachment option.  With ``wait`` (default)
        returns once the interaction is settled (see ``InteractionResult.wait``)."""
        user = self._check_user(user, client_user)
        if channel is None:
            raise TypeError('channel is required')
        data = self._command_data(command, options or {}, channel.guild, user, focused=None)
        res = self._base_interaction(2, user, channel, data)
        return await self._fire(res, wait=wait, timeout=timeout)

    async def autocomplete(self, user: Optional[FakeMember] = None, channel: Optional[FakeChannel] = None,
                           command: str = '', options: Optional[Dict[str, Any]] = None, *, focused: str,
                           value: Any = '', client_user: Optional[FakeMember] = None,
                           timeout: Optional[float] = None) -> List[Dict[str, Any]]:
        """Dispatch an APPLICATION_COMMAND_AUTOCOMPLETE interaction with ``focused`` being typed
        as ``value``; returns the choices the bot answered (``fake.interactions[-1]`` has the rest)."""
        user = self._check_user(user, client_user)
        if channel is None:
            raise TypeError('channel is required')
        data = self._command_data(command, dict(options or {}), channel.guild, user, focused=(focused, value))
        res = self._base_interaction(4, user, channel, data)
        await self._fire(res, wait=True, timeout=timeout)
        if res.callback_type != 8:
            raise AssertionError(f'autocomplete answered with callback type {res.callback_type}, expected 8')
        return list(res.choices or [])

    def _resolve_message(self, message: Union[FakeMessage, int]) -> FakeMessage:
        msg = self.messages.get(message if isinstance(message, int) else message.id)
        if msg is None or msg.deleted:
            raise LookupError(f'unknown or deleted message {message!r}')
        return msg

    def _component_interaction(self, user: FakeMember, msg: FakeMessage, data: Dict[str, Any]) -> InteractionResult:
        channel = self.get_channel(msg.channel_id)
        if channel is None:
            raise LookupError('message is not in a known guild channel')
        res = self._base_interaction(3, user, channel, data)
        res.payload['message'] = msg.to_json()
        res.target_message = msg
        return res

    async def click(self, user: Optional[FakeMember] = None, message: Union[FakeMessage, int, None] = None,
                    custom_id: str = '', *, client_user: Optional[FakeMember] = None, wait: bool = True,
                    timeout: Optional[float] = None) -> InteractionResult:
        """Press the button ``custom_id`` on ``message`` (it must be on the message and enabled)."""
        user = self._check_user(user, client_user)
        if message is None:
            raise TypeError('message is required')
        msg = self._resolve_message(message)
        comp = msg.find_component(custom_id)
        if comp is None or comp.get('type') != 2:
            raise LookupError(f'no button {custom_id!r} on message {msg.id}; custom ids: {msg.custom_ids}')
        if comp.get('disabled'):
            raise ValueError(f'button {custom_id!r} is disabled')
        res = self._component_interaction(user, msg, {'custom_id': custom_id, 'component_type': 2})
        return await self._fire(res, wait=wait, timeout=timeout)

    async def select(self, user: Optional[FakeMember] = None, message: Union[FakeMessage, int, None] = None,
                     custom_id: str = '', values: Sequence[Any] = (), *, client_user: Optional[FakeMember] = None,
                     wait: bool = True, timeout: Optional[float] = None) -> InteractionResult:
        """Choose ``values`` in the select ``custom_id`` on ``message``.  For string selects the
        values must be option values; for user/role/channel selects pass fake objects."""
        user = self._check_user(user, client_user)
        if message is None:
            raise TypeError('message is required')
        msg = self._resolve_message(message)
        comp = msg.find_component(custom_id)
        if comp is None or comp.get('type') not in (3, 5, 6, 7, 8):
            raise LookupError(f'no select {custom_id!r} on message {msg.id}; custom ids: {msg.custom_ids}')
        if comp.get('disabled'):
            raise ValueError(f'select {custom_id!r} is disabled')
        values = list(values)
        lo, hi = comp.get('min_values', 1), comp.get('max_values', 1)
        if not lo <= len(values) <= hi:
            raise ValueError(f'select {custom_id!r} takes {lo}..{hi} values, got {len(values)}')
        data: Dict[str, Any] = {'custom_id': custom_id, 'component_type': comp['type']}
        if comp['type'] == 3:
            allowed = [o['value'] for o in comp.get('options', [])]
            bad = [v for v in values if v not in allowed]
            if bad:
                raise ValueError(f'{bad} are not options of select {custom_id!r} ({allowed})')
            data['values'] = values
        else:
            resolved: Dict[str, Dict[str, Any]] = {}
            ids = []
            for v in values:
                ids.append(self._add_resolved(resolved, v, user))
            data['values'] = ids
            data['resolved'] = resolved
        res = self._component_interaction(user, msg, data)
        return await self._fire(res, wait=wait, timeout=timeout)

    async def submit_modal(self, user: Optional[FakeMember] = None, modal_from: Optional[InteractionResult] = None,
                           values: Optional[Dict[str, str]] = None, *, channel: Optional[FakeChannel] = None,
                           client_user: Optional[FakeMember] = None, wait: bool = True,
                           timeout: Optional[float] = None) -> InteractionResult:
        """Submit the modal the bot opened in ``modal_from`` (callback type 9) with text ``values``
        by text input custom_id (inputs left out are sent empty)."""
        user = self._check_user(user, client_user)
        if modal_from is None or modal_from.modal is None:
            raise ValueError('modal_from must be an InteractionResult answered with a modal (type 9)')
        modal = modal_from.modal
        values = dict(values or {})

        def convert(items: List[Dict[str, Any]]) -> List[Dict[str, Any]]:
            out = []
            for c in items:
                if c.get('type') == 1:
                    out.append({'type': 1, 'components': convert(c.get('components', []))})
                elif c.get('type') == 18:
                    out.append({'type': 18, 'id': c.get('id', 0), 'component': convert([c['component']])[0]})
                elif c.get('type') == 4:
                    out.append({'type': 4, 'custom_id': c['custom_id'], 'value': str(values.pop(c['custom_id'], c.get('value') or ''))})
                elif c.get('type') == 3:
                    out.append({'type': 3, 'custom_id': c['custom_id'], 'values': list(values.pop(c['custom_id'], []))})
            return out

        components = convert(modal.get('components', []))
        if values:
            raise LookupError(f'no text inputs {sorted(values)} in modal {modal.get("custom_id")!r}')
        if channel is None:
            channel = self.get_channel(int(modal_from.payload['channel_id']))
        assert channel is not None
        res = self._base_interaction(5, user, channel, {'custom_id': modal['custom_id'], 'components': components})
        if modal_from.target_message is not None:
            res.payload['message'] = modal_from.target_message.to_json()
            res.target_message = modal_from.target_message
        return await self._fire(res, wait=wait, timeout=timeout)

    # -- option building ------------------------------------------------
    def _add_resolved(self, resolved: Dict[str, Dict[str, Any]], value: Any, invoker: FakeMember,
                      expected: Optional[int] = None) -> str:
        if isinstance(value, FakeMember):
            resolved.setdefault('users', {})[str(value.id)] = value.user.to_json()
            resolved.setdefault('members', {})[str(value.id)] = value.to_json(with_user=False, with_permissions=True)
            return str(value.id)
        if isinstance(value, FakeUser):
            resolved.setdefault('users', {})[str(value.id)] = value.to_json()
            return str(value.id)
        if isinstance(value, FakeRole):
            resolved.setdefault('roles', {})[str(value.id)] = value.to_json()
            return str(value.id)
        if isinstance(value, FakeChannel):
            resolved.setdefault('channels', {})[str(value.id)] = value.to_json(with_permissions_of=invoker)
            return str(value.id)
        if isinstance(value, tuple) and len(value) == 2 and isinstance(value[1], (bytes, bytearray)):
            att = self._new_attachment(0, str(value[0]), bytes(value[1]))
            resolved.setdefault('attachments', {})[str(att.id)] = att.to_json()
            return str(att.id)
        raise TypeError(f'cannot resolve {value!r} (expected a fake member/user/role/channel or (filename, bytes))')

    @staticmethod
    def _infer_type(value: Any) -> int:
        if isinstance(value, bool):
            return 5
        if isinstance(value, int):
            return 4
        if isinstance(value, float):
            return 10
        if isinstance(value, str):
            return 3
        if isinstance(value, (FakeMember, FakeUser)):
            return 6
        if isinstance(value, FakeChannel):
            return 7
        if isinstance(value, FakeRole):
            return 8
        if isinstance(value, tuple):
            return 11
        raise TypeError(f'cannot infer an option type for {value!r}')

    def _typed_option(self, name: str, value: Any, schema: Optional[Dict[str, Any]], resolved: Dict[str, Dict[str, Any]],
                      invoker: FakeMember) -> Dict[str, Any]:
        otype = schema['type'] if schema else self._infer_type(value)
        opt: Dict[str, Any] = {'name': name, 'type': otype}
        if otype == 3:
            if not isinstance(value, str):
                raise TypeError(f'option {name!r} is a string option, got {value!r}')
            if schema:
                if 'min_length' in schema and len(value) < schema['min_length']:
                    raise ValueError(f'option {name!r} shorter than {schema["min_length"]}')
                if 'max_length' in schema and len(value) > schema['max_length']:
                    raise ValueError(f'option {name!r} longer than {schema["max_length"]}')
            opt['value'] = value
        elif otype == 4:
            if isinstance(value, bool) or not isinstance(value, int):
                raise TypeError(f'option {name!r} is an integer option, got {value!r}')
            opt['value'] = value
        elif otype == 10:
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                raise TypeError(f'option {name!r} is a number option, got {value!r}')
            opt['value'] = float(value) if not float(value).is_integer() else value
        elif otype == 5:
            if not isinstance(value, bool):
                raise TypeError(f'option {name!r} is a boolean option, got {value!r}')
            opt['value'] = value
        elif otype in (6, 7, 8, 9, 11):
            opt['value'] = self._add_resolved(resolved, value, invoker)
        else:
            raise ValueError(f'option {name!r} has type {otype}, which is not a value option')
        if schema and otype in (4, 10):
            if schema.get('min_value') is not None and value < schema['min_value']:
                raise ValueError(f'option {name!r}={value} below min_value {schema["min_value"]}')
            if schema.get('max_value') is not None and value > schema['max_value']:
                raise ValueError(f'option {name!r}={value} above max_value {schema["max_value"]}')
        if schema and schema.get('choices'):
            allowed = [c['value'] for c in schema['choices']]
            if value not in allowed:
                raise ValueError(f'option {name!r}={value!r} is not one of the choices {allowed}')
        if schema and otype == 7 and schema.get('channel_types') and value.type not in schema['channel_types']:
            raise ValueError(f'option {name!r}: channel type {value.type} not in {schema["channel_types"]}')
        return opt

    def _command_data(self, command: str, options: Dict[str, Any], guild: FakeGuild, invoker: FakeMember,
                      focused: Optional[Tuple[str, Any]]) -> Dict[str, Any]:
        parts = command.split()
        if not parts:
            raise ValueError('empty command')
        found = self._lookup_command(parts[0], guild)
        if found is None and self.require_sync:
            raise LookupError(f'command {parts[0]!r} was never synced (synced: {self.command_names()} / guild {self.command_names(guild)})')
        schema_node: Optional[Dict[str, Any]] = found[0] if found else None
        sub_types: List[int] = []
        for i, part in enumerate(parts[1:]):
            if schema_node is not None:
                nxt = next((o for o in schema_node.get('options', []) if o['name'] == part and o['type'] in (1, 2)), None)
                if nxt is None:
                    raise LookupError(f'{" ".join(parts[:i + 1])!r} has no subcommand or group {part!r}')
                schema_node = nxt
                sub_types.append(nxt['type'])
            else:
                sub_types.append(2 if i < len(parts) - 2 else 1)
        leaf_schema = schema_node.get('options', []) if schema_node is not None else None
        if leaf_schema and any(o['type'] in (1, 2) for o in leaf_schema):
            raise LookupError(f'{command!r} is a group; name one of its subcommands')

        resolved: Dict[str, Dict[str, Any]] = {}
        leaf: List[Dict[str, Any]] = []
        all_values = dict(options)
        if focused is not None:
            all_values.pop(focused[0], None)
        by_name = {o['name']: o for o in (leaf_schema or [])}
        for name, value in all_values.items():
            if leaf_schema is not None and name not in by_name:
                raise LookupError(f'{command!r} has no option {name!r} (options: {sorted(by_name)})')
            leaf.append(self._typed_option(name, value, by_name.get(name), resolved, invoker))
        if focused is not None:
            fname, fvalue = focused
            schema = by_name.get(fname)
            if leaf_schema is not None and schema is None:
                raise LookupError(f'{command!r} has no option {fname!r}')
            if schema is not None and not schema.get('autocomplete'):
                raise ValueError(f'option {fname!r} of {command!r} has no autocomplete')
            ftype = schema['type'] if schema else 3
            leaf.append({'name': fname, 'type': ftype, 'value': str(fvalue), 'focused': True})
        elif leaf_schema is not None:
            missing = [o['name'] for o in leaf_schema if o.get('required') and o['name'] not in options]
            if missing:
                raise ValueError(f'{command!r} misses required options {missing}')

        nested = leaf
        for part, t in reversed(list(zip(parts[1:], sub_types))):
            nested = [{'name': part, 'type': t, 'options': nested}]
        data: Dict[str, Any] = {
            'id': found[0]['id'] if found else str(self.snowflake()),
            'name': parts[0],
            'type': 1,
            'options': nested,
        }
        if resolved:
            data['resolved'] = resolved
        if found and found[1]:
            data['guild_id'] = str(guild.id)
        return data

    # ------------------------------------------------------------------ messages
    def _new_attachment(self, channel_id: int, filename: str, data: bytes, content_type: Optional[str] = None,
                        description: Optional[str] = None) -> FakeAttachment:
        aid = self.snowflake()
        att = FakeAttachment(id=aid, filename=filename, data=data,
                             content_type=content_type or FakeAttachment.guess_type(filename),
                             description=description,
                             url=f'{self.base_url}/attachments/{channel_id}/{aid}/{filename}')
        self._attachments[aid] = att
        return att

    def _attachments_from(self, channel_id: int, payload: Dict[str, Any], files: Dict[int, Tuple[str, bytes, Optional[str]]],
                          existing: Sequence[FakeAttachment] = ()) -> Optional[List[FakeAttachment]]:
        """New attachment list, or None when the payload does not touch attachments."""
        if 'attachments' not in payload and not files:
            return None
        if 'attachments' not in payload:
            return list(existing) + [self._new_attachment(channel_id, fn, data, ct) for _, (fn, data, ct) in sorted(files.items())]
        out: List[FakeAttachment] = []
        by_id = {a.id: a for a in existing}
        for entry in payload.get('attachments') or []:
            try:
                key = int(entry['id'])
            except (KeyError, TypeError, ValueError):
                raise web.HTTPBadRequest(text='attachment without id') from None
            if key in files:
                fn, data, ct = files[key]
                out.append(self._new_attachment(channel_id, entry.get('filename') or fn, data, ct, entry.get('description')))
            elif key in by_id:
                out.append(by_id[key])
            else:
                raise web.HTTPBadRequest(text=f'attachment id {key} is neither an upload nor an existing attachment')
        return out

    def _create_message(self, channel_id: int, guild_id: Optional[int], payload: Dict[str, Any],
                        files: Dict[int, Tuple[str, bytes, Optional[str]]], *, flags: int = 0,
                        res: Optional[InteractionResult] = None, type: int = 0) -> FakeMessage:
        content = payload.get('content')
        msg = FakeMessage(
            id=self.snowflake(), channel_id=channel_id, guild_id=guild_id, author=self.bot_user.to_json(),
            content='' if content is None else str(content),
            embeds=list(payload.get('embeds') or []), components=list(payload.get('components') or []),
            flags=flags | (int(payload.get('flags') or 0) & ~LOADING),
            allowed_mentions=payload.get('allowed_mentions'), tts=bool(payload.get('tts', False)), type=type,
            message_reference=payload.get('message_reference'),
        )
        msg.attachments = self._attachments_from(channel_id, payload, files) or []
        if res is not None:
            msg.webhook_id = self.application_id
            msg.application_id = self.application_id
            member = res.payload.get('member', {})
            meta: Dict[str, Any] = {
                'id': str(res.id), 'type': res.type, 'user': member.get('user'),
                'authorizing_integration_owners': res.payload.get('authorizing_integration_owners', {}),
            }
            if res.type == 2:
                meta['name'] = res.payload['data']['name']
                meta['command_type'] = 1
            if res.target_message is not None:
                meta['interacted_message_id'] = str(res.target_message.id)
            msg.interaction_metadata = meta
        msg.history.append(payload)
        self.messages[msg.id] = msg
        return msg

    def _edit_message(self, msg: FakeMessage, payload: Dict[str, Any], files: Dict[int, Tuple[str, bytes, Optional[str]]]) -> None:
        if 'content' in payload:
            msg.content = '' if payload['content'] is None else str(payload['content'])
        if 'embeds' in payload:
            msg.embeds = list(payload['embeds'] or [])
        if 'components' in payload:
            msg.components = list(payload['components'] or [])
        if 'allowed_mentions' in payload:
            msg.allowed_mentions = payload['allowed_mentions']
        if payload.get('flags') is not None:
            # only SUPPRESS_EMBEDS (and IS_COMPONENTS_V2) may change on edit
            mutable = (1 << 2) | (1 << 15)
            msg.flags = (msg.flags & ~mutable) | (int(payload['flags']) & mutable)
        new_atts = self._attachments_from(msg.channel_id, payload, files, msg.attachments)
        if new_atts is not None:
            msg.attachments = new_atts
        msg.flags &= ~LOADING
        msg.edited_timestamp = iso_now()
        msg.history.append(payload)

    async def _echo(self, event: str, msg: FakeMessage) -> None:
        if self.echo_messages and not msg.ephemeral:
            await self.dispatch(event, msg.to_json())

    # ------------------------------------------------------------------ HTTP plumbing
    def _add_routes(self, app: web.Application) -> None:
        r = app.router
        r.add_get('/gateway-ws/', self._ws_handler)
        r.add_get('/attachments/{channel_id}/{attachment_id}/{filename}', self._h_attachment)
        for v in (9, 10):
            p = f'/api/v{v}'
            r.add_get(p + '/gateway', self._h_gateway)
            r.add_get(p + '/gateway/bot', self._h_gateway_bot)
            r.add_get(p + '/users/@me', self._h_me)
            r.add_get(p + '/users/{user_id}', self._h_user)
            r.add_get(p + '/oauth2/applications/@me', self._h_application)
            r.add_get(p + '/applications/@me', self._h_application)
            r.add_get(p + '/guilds/{guild_id}', self._h_guild)
            r.add_get(p + '/guilds/{guild_id}/channels', self._h_guild_channels)
            r.add_get(p + '/guilds/{guild_id}/roles', self._h_guild_roles)
            r.add_get(p + '/guilds/{guild_id}/members/{user_id}', self._h_guild_member)
            r.add_get(p + '/channels/{channel_id}', self._h_channel)
            r.add_post(p + '/channels/{channel_id}/messages', self._h_channel_post)
            r.add_get(p + '/channels/{channel_id}/messages', self._h_channel_history)
            r.add_get(p + '/channels/{channel_id}/messages/{message_id}', self._h_channel_get)
            r.add_patch(p + '/channels/{channel_id}/messages/{message_id}', self._h_channel_patch)
            r.add_delete(p + '/channels/{channel_id}/messages/{message_id}', self._h_channel_delete)
            r.add_post(p + '/channels/{channel_id}/typing', self._h_typing)
            for pins in ('/channels/{channel_id}/messages/pins', '/channels/{channel_id}/pins'):
                r.add_get(p + pins, self._h_pins)
                r.add_put(p + pins + '/{message_id}', self._h_pin)
                r.add_delete(p + pins + '/{message_id}', self._h_unpin)
            for cp in ('/applications/{app_id}/commands', '/applications/{app_id}/guilds/{guild_id}/commands'):
                r.add_put(p + cp, self._h_cmd_bulk)
                r.add_get(p + cp, self._h_cmd_list)
                r.add_post(p + cp, self._h_cmd_upsert)
                r.add_get(p + cp + '/{command_id}', self._h_cmd_get)
                r.add_patch(p + cp + '/{command_id}', self._h_cmd_patch)
                r.add_delete(p + cp + '/{command_id}', self._h_cmd_delete)
            r.add_post(p + '/interactions/{interaction_id}/{token}/callback', self._h_callback)
            r.add_post(p + '/webhooks/{app_id}/{token}', self._h_followup)
            r.add_get(p + '/webhooks/{app_id}/{token}/messages/{message_id}', self._h_wh_get)
            r.add_patch(p + '/webhooks/{app_id}/{token}/messages/{message_id}', self._h_wh_patch)
            r.add_delete(p + '/webhooks/{app_id}/{token}/messages/{message_id}', self._h_wh_delete)

    @web.middleware
    async def _middleware(self, request: web.Request, handler: Callable[[web.Request], Any]) -> web.StreamResponse:
        path = re.sub(r'^/api/v\d+', '', request.path)
        rec = RecordedRequest(request.method, path, at=time.monotonic(), query=dict(request.query))
        is_api = request.path.startswith('/api/')
        if is_api:
            self.requests.append(rec)
            if self.token is not None and not path.startswith(('/webhooks/', '/interactions/')):
                if request.headers.get('Authorization') != f'Bot {self.token}':
                    rec.status = 401
                    return _err(401, '401: Unauthorized', 0)
            for fail in self.failures:
                if fail.hits < fail.times and fail.matches(request.method, path):
                    fail.hits += 1
                    rec.status = fail.status
                    await self._notify()
                    return _json({'message': fail.message, 'code': fail.code}, status=fail.status)
            for rule in self.rate_limits:
                if len(rule.hits) < rule.times and rule.matches(request.method, path):
                    rule.hits.append(time.monotonic())
                    rec.status = 429
                    body = {'message': 'You are being rate limited.', 'retry_after': rule.retry_after, 'global': rule.is_global}
                    if not rule.is_global:
                        body['code'] = 0
                    headers = {'Via': '1.1 google', 'Retry-After': str(max(1, int(rule.retry_after + 0.999))),
                               'X-RateLimit-Scope': 'global' if rule.is_global else 'user'}
                    if rule.is_global:
                        headers['X-RateLimit-Global'] = 'true'
                    await self._notify()
                    return _json(body, status=429, headers=headers)
        try:
            resp = await handler(request)
        except web.HTTPNotFound:
            if is_api:
                rec.status = 404
                self.unhandled.append(rec)
            resp = _err(404, '404: Not Found', 0)
        except web.HTTPMethodNotAllowed:
            rec.status = 405
            self.unhandled.append(rec)
            resp = _err(405, '405: Method Not Allowed', 0)
        except web.HTTPBadRequest as e:
            resp = _json({'message': 'Invalid Form Body', 'code': 50035, 'errors': {'_errors': [{'message': e.text}]}}, status=400)
        rec.status = resp.status
        if is_api:
            await self._notify()
        return resp

    async def _read_body(self, request: web.Request) -> Tuple[Dict[str, Any], Dict[int, Tuple[str, bytes, Optional[str]]]]:
        """JSON body or multipart (payload_json + files[n]) -> (payload, {index: (filename, bytes, content_type)})."""
        ctype = request.content_type
        files: Dict[int, Tuple[str, bytes, Optional[str]]] = {}
        if ctype.startswith('multipart/'):
            payload: Dict[str, Any] = {}
            reader = await request.multipart()
            extra = 0
            while True:
                part = await reader.next()
                if part is None:
                    break
                name = part.name or ''  # type: ignore[union-attr]
                raw = await part.read()  # type: ignore[union-attr]
                if name == 'payload_json':
                    payload = json.loads(bytes(raw).decode())
                    continue
                m = re.fullmatch(r'files\[(\d+)\]', name)
                if m:
                    idx = int(m.group(1))
                else:
                    idx = 1000 + extra  # legacy 'file' / 'file1' fields
                    extra += 1
                filename = part.filename or name  # type: ignore[union-attr]
                files[idx] = (filename, bytes(raw), FakeAttachment.guess_type(filename))
            return payload, files
        if request.can_read_body:
            text = await request.text()
            if text:
                try:
                    return json.loads(text), files
                except json.JSONDecodeError:
                    raise web.HTTPBadRequest(text='body is not JSON') from None
        return {}, files

    # ------------------------------------------------------------------ gateway
    async def _ws_handler(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(max_msg_size=0, autoping=True)
        await ws.prepare(request)
        sess = _GatewaySession(ws, request.query.get('compress'))
        self._sessions.append(sess)
        try:
            await sess.send({'op': 10, 'd': {'heartbeat_interval': int(self.heartbeat_interval * 1000)}, 's': None, 't': None})
            async for msg in ws:
                if msg.type == WSMsgType.TEXT:
                    await self._on_gateway(sess, json.loads(msg.data))
                elif msg.type == WSMsgType.ERROR:
                    break
        finally:
            if sess in self._sessions:
                self._sessions.remove(sess)
            if self._cond is not None:
                await self._notify()
        return ws

    async def _on_gateway(self, sess: _GatewaySession, msg: Dict[str, Any]) -> None:
        op, d = msg.get('op'), msg.get('d')
        if op == 1:
            await sess.send({'op': 11, 'd': None, 's': None, 't': None})
        elif op == 2:
            if self.token is not None and d.get('token') != self.token:
                await sess.ws.close(code=4004, message=b'Authentication failed.')
                return
            sess.identify = d
            self.identifies.append(d)
            sess.identified = True
            self._known_sessions[sess.session_id] = sess
            ready: Dict[str, Any] = {
                'v': API_VERSION,
                'user': {**self.bot_user.to_json(), 'verified': True, 'mfa_enabled': False, 'flags': 0},
                'guilds': [{'id': str(g.id), 'unavailable': True} for g in self.guilds],
                'session_id': sess.session_id,
                'session_type': 'normal',
                'resume_gateway_url': self.gateway_url,
                'application': {'id': str(self.application_id), 'flags': 0},
                'private_channels': [],
                'relationships': [],
                'presences': [],
                'guild_join_requests': [],
                'geo_ordered_rtc_regions': [],
                'user_settings': {},
            }
            if 'shard' in d:
                ready['shard'] = d['shard']
            await sess.dispatch('READY', ready)
            for g in self.guilds:
                await sess.dispatch('GUILD_CREATE', g.to_gateway_json())
            await self._notify()
        elif op == 6:
            old = self._known_sessions.get(d.get('session_id'))
            if old is None or (self.token is not None and d.get('token') != self.token):
                await sess.send({'op': 9, 'd': False, 's': None, 't': None})
                return
            self.resumes += 1
            sess.session_id = old.session_id
            sess.seq = max(old.seq, int(d.get('seq') or 0))
            sess.identify = old.identify
            sess.identified = True
            self._known_sessions[sess.session_id] = sess
            await sess.dispatch('RESUMED', {})
            await self._notify()
        elif op == 3:
            sess.presence_updates.append(d)
        elif op == 8:
            guild = self.get_guild(int(d['guild_id']))
            if guild is not None:
                await sess.dispatch('GUILD_MEMBERS_CHUNK', {
                    'guild_id': str(guild.id), 'members': [m.to_json() for m in guild.members],
                    'chunk_index': 0, 'chunk_count': 1, 'not_found': [], 'nonce': d.get('nonce'),
                })
        # op 4 (voice state) and others are ignored

    # ------------------------------------------------------------------ REST handlers
    async def _h_attachment(self, request: web.Request) -> web.Response:
        att = self._attachments.get(int(request.match_info['attachment_id']))
        if att is None:
            return web.Response(status=404)
        return web.Response(body=att.data, content_type=att.content_type or 'application/octet-stream')

    async def _h_gateway(self, request: web.Request) -> web.Response:
        return _json({'url': self.gateway_url})

    async def _h_gateway_bot(self, request: web.Request) -> web.Response:
        return _json({
            'url': self.gateway_url, 'shards': 1,
            'session_start_limit': {'total': 1000, 'remaining': 999, 'reset_after': 14400000, 'max_concurrency': 1},
        })

    async def _h_me(self, request: web.Request) -> web.Response:
        return _json({**self.bot_user.to_json(), 'verified': True, 'mfa_enabled': False, 'flags': 0,
                                  'locale': 'en-US', 'email': None})

    async def _h_user(self, request: web.Request) -> web.Response:
        user = self.users.get(int(request.match_info['user_id']))
        if user is None:
            return _err(404, 'Unknown User', 10013)
        return _json(user.to_json())

    async def _h_application(self, request: web.Request) -> web.Response:
        return _json({
            'id': str(self.application_id), 'name': self.bot_user.name, 'icon': None, 'description': '',
            'summary': '', 'type': None, 'bot_public': True, 'bot_require_code_grant': False,
            'verify_key': '0' * 64, 'flags': 0, 'owner': self.owner.to_json(), 'team': None,
            'bot': self.bot_user.to_json(), 'redirect_uris': [], 'interactions_endpoint_url': None,
            'approximate_guild_count': len(self.guilds), 'tags': [], 'hook': True,
        })

    def _guild_or_404(self, request: web.Request) -> FakeGuild:
        guild = self.get_guild(int(request.match_info['guild_id']))
        if guild is None:
            raise _Abort(_err(404, 'Unknown Guild', 10004))
        return guild

    def _channel_or_404(self, request: web.Request) -> FakeChannel:
        channel = self.get_channel(int(request.match_info['channel_id']))
        if channel is None:
            raise _Abort(_err(404, 'Unknown Channel', 10003))
        return channel

    def _message_or_404(self, request: web.Request, channel: FakeChannel) -> FakeMessage:
        msg = self.messages.get(int(request.match_info['message_id']))
        if msg is None or msg.deleted or msg.channel_id != channel.id or msg.ephemeral:
            raise _Abort(_err(404, 'Unknown Message', 10008))
        return msg

    async def _h_guild(self, request: web.Request) -> web.Response:
        return _json(self._guild_or_404(request).to_json())

    async def _h_guild_channels(self, request: web.Request) -> web.Response:
        return _json([c.to_json() for c in self._guild_or_404(request).channels])

    async def _h_guild_roles(self, request: web.Request) -> web.Response:
        return _json([r.to_json() for r in self._guild_or_404(request).roles])

    async def _h_guild_member(self, request: web.Request) -> web.Response:
        member = self._guild_or_404(request).get_member(int(request.match_info['user_id']))
        if member is None:
            return _err(404, 'Unknown Member', 10007)
        return _json(member.to_json())

    async def _h_channel(self, request: web.Request) -> web.Response:
        return _json(self._channel_or_404(request).to_json())

    async def _h_channel_post(self, request: web.Request) -> web.Response:
        channel = self._channel_or_404(request)
        payload, files = await self._read_body(request)
        if not any(payload.get(k) for k in ('content', 'embeds', 'components', 'sticker_ids', 'poll')) and not files:
            return _err(400, 'Cannot send an empty message', 50006)
        mtype = 19 if payload.get('message_reference') else 0
        msg = self._create_message(channel.id, channel.guild.id, payload, files, flags=int(payload.get('flags') or 0) & ~EPHEMERAL, type=mtype)
        await self._echo('MESSAGE_CREATE', msg)
        return _json(msg.to_json())

    async def _h_channel_history(self, request: web.Request) -> web.Response:
        channel = self._channel_or_404(request)
        msgs = [m for m in self.channel_messages(channel) if not m.ephemeral]
        q = request.query
        if 'before' in q:
            msgs = [m for m in msgs if m.id < int(q['before'])]
        if 'after' in q:
            msgs = [m for m in msgs if m.id > int(q['after'])]
        msgs.sort(key=lambda m: m.id, reverse=True)
        limit = int(q.get('limit', 50))
        return _json([m.to_json() for m in msgs[:limit]])

    async def _h_channel_get(self, request: web.Request) -> web.Response:
        channel = self._channel_or_404(request)
        return _json(self._message_or_404(request, channel).to_json())

    async def _h_channel_patch(self, request: web.Request) -> web.Response:
        channel = self._channel_or_404(request)
        msg = self._message_or_404(request, channel)
        payload, files = await self._read_body(request)
        self._edit_message(msg, payload, files)
        await self._echo('MESSAGE_UPDATE', msg)
        return _json(msg.to_json())

    async def _h_channel_delete(self, request: web.Request) -> web.Response:
        channel = self._channel_or_404(request)
        msg = self._message_or_404(request, channel)
        msg.deleted = True
        return web.Response(status=204)

    async def _h_pin(self, request: web.Request) -> web.Response:
        channel = self._channel_or_404(request)
        self._message_or_404(request, channel).pinned = True
        return web.Response(status=204)

    async def _h_unpin(self, request: web.Request) -> web.Response:
        channel = self._channel_or_404(request)
        self._message_or_404(request, channel).pinned = False
        return web.Response(status=204)

    async def _h_pins(self, request: web.Request) -> web.Response:
        channel = self._channel_or_404(request)
        pinned = [m for m in self.channel_messages(channel) if m.pinned]
        if request.path.endswith('/messages/pins'):  # the newer route: items with their pin time
            return _json({'items': [{'pinned_at': m.timestamp, 'message': m.to_json()} for m in pinned],
                          'has_more': False})
        return _json([m.to_json() for m in pinned])

    def delete_message(self, message: Union[FakeMessage, int]) -> FakeMessage:
        """A member (or a moderator) deletes a message, as in the Discord client: later edits of it get 404."""
        msg = self._resolve_message(message)
        msg.deleted = True
        msg.pinned = False
        return msg

    def pinned(self, channel: Union[FakeChannel, int]) -> List[FakeMessage]:
        """The channel's pinned messages."""
        return [m for m in self.channel_messages(channel) if m.pinned]

    async def _h_typing(self, request: web.Request) -> web.Response:
        channel = self._channel_or_404(request)
        self.typing.append(channel.id)
        return web.Response(status=204)

    # -- commands
    def _cmd_scope(self, request: web.Request) -> Optional[int]:
        if int(request.match_info['app_id']) != self.application_id:
            raise _Abort(_err(403, 'Missing Access', 50001))
        gid = request.match_info.get('guild_id')
        if gid is None:
            return None
        guild = self.get_guild(int(gid))
        if guild is None:
            raise _Abort(_err(403, 'Missing Access', 50001))
        return guild.id

    def _cmd_list(self, gid: Optional[int]) -> List[Dict[str, Any]]:
        return self.global_commands if gid is None else self.guild_commands.setdefault(gid, [])

    async def _h_cmd_bulk(self, request: web.Request) -> web.Response:
        gid = self._cmd_scope(request)
        payload, _ = await self._read_body(request)
        if not isinstance(payload, list):
            return _err(400, 'Invalid Form Body', 50035)
        try:
            stored = self._store_commands(payload, gid)
        except ValueError as e:
            return _json({'message': 'Invalid Form Body', 'code': 50035, 'errors': {'_errors': [{'message': str(e)}]}}, status=400)
        return _json(stored)

    async def _h_cmd_list(self, request: web.Request) -> web.Response:
        return _json(self._cmd_list(self._cmd_scope(request)))

    async def _h_cmd_upsert(self, request: web.Request) -> web.Response:
        gid = self._cmd_scope(request)
        payload, _ = await self._read_body(request)
        lst = self._cmd_list(gid)
        data = self._normalise_command(payload, gid, lst)
        lst[:] = [c for c in lst if c['id'] != data['id']] + [data]
        return _json(data, status=201)

    def _cmd_or_404(self, request: web.Request) -> Tuple[List[Dict[str, Any]], Dict[str, Any]]:
        lst = self._cmd_list(self._cmd_scope(request))
        cmd = next((c for c in lst if c['id'] == request.match_info['command_id']), None)
        if cmd is None:
            raise _Abort(_err(404, 'Unknown application command', 10063))
        return lst, cmd

    async def _h_cmd_get(self, request: web.Request) -> web.Response:
        return _json(self._cmd_or_404(request)[1])

    async def _h_cmd_patch(self, request: web.Request) -> web.Response:
        _, cmd = self._cmd_or_404(request)
        payload, _ = await self._read_body(request)
        cmd.update({k: v for k, v in payload.items() if k not in ('id', 'application_id', 'guild_id')})
        return _json(cmd)

    async def _h_cmd_delete(self, request: web.Request) -> web.Response:
        lst, cmd = self._cmd_or_404(request)
        lst.remove(cmd)
        return web.Response(status=204)

    # -- interactions
    async def _h_callback(self, request: web.Request) -> web.Response:
        res = self._by_id.get(int(request.match_info['interaction_id']))
        if res is None or res.token != request.match_info['token']:
            return _err(404, 'Unknown interaction', 10062)
        now = time.monotonic()
        if self.enforce_deadline and res.dispatched_at is not None and now - res.dispatched_at > self.interaction_deadline:
            return _err(404, 'Unknown interaction', 10062)
        if res.callback is not None:
            return _err(400, 'Interaction has already been acknowledged.', 40060)
        body, files = await self._read_body(request)
        ctype = body.get('type')
        data = body.get('data') or {}
        allowed = {2: (4, 5, 9), 3: (4, 5, 6, 7, 9), 4: (8,), 5: (4, 5, 6, 7)}.get(res.type, (1,))
        if ctype not in allowed:
            return _err(400, f'Interaction callback type {ctype} is not valid for interaction type {res.type}', 50035)
        guild_id = int(res.payload['guild_id'])
        channel_id = int(res.payload['channel_id'])
        res.callback = {'type': ctype, 'data': data}
        res.callback_at = now
        res.log.append(('callback', str(ctype)))
        resource: Dict[str, Any] = {'type': ctype}
        if ctype == 4:
            mtype = 20 if res.type == 2 else (19 if res.type == 3 else 0)
            res.original = self._create_message(channel_id, guild_id, data, files, res=res, type=mtype)
            res.callback_files = list(res.original.attachments)
            resource['message'] = res.original.to_json()
        elif ctype == 5:
            flags = LOADING | (int(data.get('flags') or 0) & EPHEMERAL)
            res.original = self._create_message(channel_id, guild_id, {}, {}, flags=flags, res=res,
                                                type=20 if res.type == 2 else 0)
            resource['message'] = res.original.to_json()
        elif ctype in (6, 7):
            target = res.target_message
            if target is None:
                return _err(400, 'no message to update', 50035)
            res.original = target
            if ctype == 7:
                before = set(a.id for a in target.attachments)
                self._edit_message(target, data, files)
                res.callback_files = [a for a in target.attachments if a.id not in before]
                resource['message'] = target.to_json()
        response_message = res.original if ctype in (4, 5, 7) else None
        if res.original is not None and ctype in (4, 5, 7):
            await self._echo('MESSAGE_CREATE' if ctype != 7 else 'MESSAGE_UPDATE', res.original)
        if request.query.get('with_response') not in ('1', 'true', 'True'):
            return web.Response(status=204)
        inter: Dict[str, Any] = {'id': str(res.id), 'type': res.type}
        if response_message is not None:
            inter.update(response_message_id=str(response_message.id),
                         response_message_loading=response_message.loading,
                         response_message_ephemeral=response_message.ephemeral)
        return _json({'interaction': inter, 'resource': resource})

    def _webhook_res(self, request: web.Request) -> InteractionResult:
        res = self._by_token.get(request.match_info['token'])
        if res is None or int(request.match_info['app_id']) != self.application_id:
            raise _Abort(_err(404, 'Unknown Webhook', 10015))
        if res.callback is None:
            raise _Abort(_err(404, 'Unknown Webhook', 10015))
        return res

    def _webhook_message(self, request: web.Request, res: InteractionResult) -> FakeMessage:
        mid = request.match_info['message_id']
        if mid == '@original':
            msg = res.original
        else:
            msg = next((m for m in res.messages if str(m.id) == mid), None)
        if msg is None or msg.deleted:
            raise _Abort(_err(404, 'Unknown Message', 10008))
        return msg

    async def _h_followup(self, request: web.Request) -> web.Response:
        res = self._webhook_res(request)
        payload, files = await self._read_body(request)
        if not any(payload.get(k) for k in ('content', 'embeds', 'components', 'poll')) and not files:
            return _err(400, 'Cannot send an empty message', 50006)
        if res.callback_type == 5 and res.original is not None and res.original.loading and not res.followups:
            msg = res.original  # the first followup after a defer replaces the "thinking" message
            self._edit_message(msg, payload, files)
            msg.edited_timestamp = None
        else:
            channel_id = int(request.query.get('thread_id') or res.payload['channel_id'])
            msg = self._create_message(channel_id, int(res.payload['guild_id']), payload, files,
                                       flags=int(payload.get('flags') or 0) & EPHEMERAL, res=res, type=0)
        res.followups.append(msg)
        res.log.append(('followup', str(msg.id)))
        await self._echo('MESSAGE_CREATE', msg)
        if request.query.get('wait') in ('1', 'true', 'True'):
            return _json(msg.to_json())
        return web.Response(status=204)

    async def _h_wh_get(self, request: web.Request) -> web.Response:
        res = self._webhook_res(request)
        return _json(self._webhook_message(request, res).to_json())

    async def _h_wh_patch(self, request: web.Request) -> web.Response:
        res = self._webhook_res(request)
        msg = self._webhook_message(request, res)
        payload, files = await self._read_body(request)
        self._edit_message(msg, payload, files)
        res.log.append(('edit', request.match_info['message_id']))
        await self._echo('MESSAGE_UPDATE', msg)
        return _json(msg.to_json())

    async def _h_wh_delete(self, request: web.Request) -> web.Response:
        res = self._webhook_res(request)
        msg = self._webhook_message(request, res)
        msg.deleted = True
        res.log.append(('delete', request.match_info['message_id']))
        return web.Response(status=204)


class _Abort(Exception):
    def __init__(self, response: web.Response) -> None:
        self.response = response


def _wrap(handler: Callable[..., Any]) -> Callable[..., Any]:
    async def inner(self: FakeDiscord, request: web.Request) -> web.StreamResponse:
        try:
            return await handler(self, request)
        except _Abort as a:
            return a.response

    inner.__name__ = handler.__name__
    inner.__doc__ = handler.__doc__
    return inner


for _name in list(vars(FakeDiscord)):
    if _name.startswith('_h_'):
        setattr(FakeDiscord, _name, _wrap(getattr(FakeDiscord, _name)))
del _name
