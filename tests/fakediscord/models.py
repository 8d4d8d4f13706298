"""Plain data objects of the fake Discord: guilds, channels, members, messages
and the record of an interaction.  They know how to render themselves as the
JSON that Discord would send; they never talk to the network themselves."""

from __future__ import annotations

import datetime as _dt
import itertools
import mimetypes
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Dict, List, Optional, Tuple

if TYPE_CHECKING:  # pragma: no cover
    from .server import FakeDiscord

DISCORD_EPOCH_MS = 1420070400000

EPHEMERAL = 1 << 6  # MessageFlags.ephemeral
LOADING = 1 << 7  # MessageFlags.loading ("Bot is thinking...")

# Permissions given to @everyone unless a test says otherwise: view channel,
# send messages, embed links, attach files, read history, use application
# commands, add reactions, use external emojis.
DEFAULT_EVERYONE_PERMISSIONS = (1 << 10) | (1 << 11) | (1 << 14) | (1 << 15) | (1 << 16) | (1 << 31) | (1 << 6) | (1 << 18)
ADMINISTRATOR = 1 << 3
ALL_PERMISSIONS = (1 << 51) - 1


class SnowflakeFactory:
    """Strictly increasing snowflakes built from the wall clock, like Discord's."""

    def __init__(self) -> None:
        self._counter = itertools.count()
        self._last = 0

    def __call__(self) -> int:
        ms = int(time.time() * 1000) - DISCORD_EPOCH_MS
        value = (ms << 22) | (1 << 17) | (next(self._counter) & 0xFFF)
        if value <= self._last:
            value = self._last + 1
        self._last = value
        return value


def iso_now() -> str:
    return _dt.datetime.now(_dt.timezone.utc).isoformat()


@dataclass(eq=False)
class FakeUser:
    id: int
    name: str
    bot: bool = False
    global_name: Optional[str] = None

    def to_json(self) -> Dict[str, Any]:
        data: Dict[str, Any] = {
            'id': str(self.id),
            'username': self.name,
            'discriminator': '0',
            'global_name': self.global_name,
            'avatar': None,
            'public_flags': 0,
        }
        if self.bot:
            data['bot'] = True
        return data

    @property
    def mention(self) -> str:
        return f'<@{self.id}>'


@dataclass(eq=False)
class FakeRole:
    id: int
    guild: 'FakeGuild'
    name: str
    permissions: int = 0
    position: int = 0
    color: int = 0
    hoist: bool = False
    mentionable: bool = False

    def to_json(self) -> Dict[str, Any]:
        return {
            'id': str(self.id),
            'name': self.name,
            'color': self.color,
            'colors': {'primary_color': self.color, 'secondary_color': None, 'tertiary_color': None},
            'hoist': self.hoist,
            'icon': None,
            'unicode_emoji': None,
            'position': self.position,
            'permissions': str(self.permissions),
            'managed': False,
            'mentionable': self.mentionable,
            'flags': 0,
        }


@dataclass(eq=False)
class FakeMember:
    """A user inside one guild.  ``id``/``name`` are the user's."""

    user: FakeUser
    guild: 'FakeGuild'
    nick: Optional[str] = None
    roles: List[FakeRole] = field(default_factory=list)
    joined_at: str = field(default_factory=iso_now)

    @property
    def id(self) -> int:
        return self.user.id

    @property
    def name(self) -> str:
        return self.user.name

    @property
    def mention(self) -> str:
        return f'<@{self.id}>'

    @property
    def permissions(self) -> int:
        if self.guild.owner_id == self.id:
            return ALL_PERMISSIONS
        value = self.guild.default_role.permissions
        for role in self.roles:
            value |= role.permissions
        if value & ADMINISTRATOR:
            return ALL_PERMISSIONS
        return value

    def to_json(self, *, with_user: bool = True, with_permissions: bool = False) -> Dict[str, Any]:
        data: Dict[str, Any] = {
            'nick': self.nick,
            'avatar': None,
            'banner': None,
            'roles': [str(r.id) for r in self.roles],
            'joined_at': self.joined_at,
            'premium_since': None,
            'deaf': False,
            'mute': False,
            'flags': 0,
            'pending': False,
            'communication_disabled_until': None,
        }
        if with_user:
            data['user'] = self.user.to_json()
        if with_permissions:
            data['permissions'] = str(self.permissions)
        return data


@dataclass(eq=False)
class FakeChannel:
    id: int
    guild: 'FakeGuild'
    name: str
    type: int = 0  # 0 text, 2 voice, 4 category, 5 news, 15 forum
    topic: Optional[str] = None
    position: int = 0
    parent: Optional['FakeChannel'] = None
    nsfw: bool = False

    @property
    def mention(self) -> str:
        return f'<#{self.id}>'

    def to_json(self, *, with_permissions_of: Optional[FakeMember] = None) -> Dict[str, Any]:
        data: Dict[str, Any] = {
            'id': str(self.id),
            'type': self.type,
            'guild_id': str(self.guild.id),
            'name': self.name,
            'position': self.position,
            'permission_overwrites': [],
            'parent_id': str(self.parent.id) if self.parent else None,
            'nsfw': self.nsfw,
            'flags': 0,
        }
        if self.type in (0, 5):
            data.update(topic=self.topic, last_message_id=None, rate_limit_per_user=0)
        if self.type == 2:
            data.update(bitrate=64000, user_limit=0, rtc_region=None)
        if with_permissions_of is not None:
            data['permissions'] = str(with_permissions_of.permissions)
        return data


@dataclass(eq=False)
class FakeGuild:
    id: int
    name: str
    owner_id: int
    roles: List[FakeRole] = field(default_factory=list)
    channels: List[FakeChannel] = field(default_factory=list)
    members: List[FakeMember] = field(default_factory=list)
    locale: str = 'en-US'
    joined_at: str = field(default_factory=iso_now)

    @property
    def default_role(self) -> FakeRole:
        return self.roles[0]

    def get_member(self, user_id: int) -> Optional[FakeMember]:
        return next((m for m in self.members if m.id == user_id), None)

    def get_channel(self, channel_id: int) -> Optional[FakeChannel]:
        return next((c for c in self.channels if c.id == channel_id), None)

    def channel(self, name: str) -> FakeChannel:
        return next(c for c in self.channels if c.name == name)

    def member(self, name: str) -> FakeMember:
        return next(m for m in self.members if m.name == name)

    def to_json(self) -> Dict[str, Any]:
        return {
            'id': str(self.id),
            'name': self.name,
            'icon': None,
            'splash': None,
            'discovery_splash': None,
            'banner': None,
            'owner_id': str(self.owner_id),
            'afk_channel_id': None,
            'afk_timeout': 300,
            'verification_level': 0,
            'default_message_notifications': 0,
            'explicit_content_filter': 0,
            'roles': [r.to_json() for r in self.roles],
            'emojis': [],
            'stickers': [],
            'features': [],
            'mfa_level': 0,
            'system_channel_id': None,
            'system_channel_flags': 0,
            'rules_channel_id': None,
            'public_updates_channel_id': None,
            'safety_alerts_channel_id': None,
            'vanity_url_code': None,
            'description': None,
            'premium_tier': 0,
            'premium_subscription_count': 0,
            'preferred_locale': self.locale,
            'nsfw_level': 0,
            'premium_progress_bar_enabled': False,
        }

    def to_gateway_json(self) -> Dict[str, Any]:
        data = self.to_json()
        data.update(
            joined_at=self.joined_at,
            large=False,
            unavailable=False,
            member_count=len(self.members),
            members=[m.to_json() for m in self.members],
            channels=[c.to_json() for c in self.channels],
            threads=[],
            presences=[],
            voice_states=[],
            stage_instances=[],
            guild_scheduled_events=[],
            soundboard_sounds=[],
        )
        return data


@dataclass(eq=False)
class FakeAttachment:
    id: int
    filename: str
    data: bytes
    content_type: Optional[str] = None
    description: Optional[str] = None
    url: str = ''

    @property
    def size(self) -> int:
        return len(self.data)

    def to_json(self) -> Dict[str, Any]:
        data: Dict[str, Any] = {
            'id': str(self.id),
            'filename': self.filename,
            'size': self.size,
            'url': self.url,
            'proxy_url': self.url,
            'content_type': self.content_type,
        }
        if self.description is not None:
            data['description'] = self.description
        return data

    @staticmethod
    def guess_type(filename: str) -> Optional[str]:
        return mimetypes.guess_type(filename)[0]


@dataclass(eq=False)
class FakeMessage:
    """A message as the fake stores it.  ``attachments`` keep the raw bytes."""

    id: int
    channel_id: int
    guild_id: Optional[int]
    author: Dict[str, Any]
    content: str = ''
    embeds: List[Dict[str, Any]] = field(default_factory=list)
    components: List[Dict[str, Any]] = field(default_factory=list)
    attachments: List[FakeAttachment] = field(default_factory=list)
    flags: int = 0
    allowed_mentions: Optional[Dict[str, Any]] = None
    tts: bool = False
    type: int = 0
    webhook_id: Optional[int] = None
    application_id: Optional[int] = None
    interaction_metadata: Optional[Dict[str, Any]] = None
    message_reference: Optional[Dict[str, Any]] = None
    timestamp: str = field(default_factory=iso_now)
    edited_timestamp: Optional[str] = None
    deleted: bool = False
    pinned: bool = False
    #: every payload that created or edited this message, in order
    history: List[Dict[str, Any]] = field(default_factory=list)

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & EPHEMERAL)

    @property
    def loading(self) -> bool:
        return bool(self.flags & LOADING)

    @property
    def files(self) -> List[Tuple[str, bytes]]:
        return [(a.filename, a.data) for a in self.attachments]

    @property
    def edits(self) -> int:
        return max(0, len(self.history) - 1)

    def iter_components(self) -> List[Dict[str, Any]]:
        """Every component of the message, flattened (rows, containers, sections)."""
        out: List[Dict[str, Any]] = []

        def walk(items: List[Dict[str, Any]]) -> None:
            for c in items:
                out.append(c)
                walk(c.get('components', []) or [])
                if isinstance(c.get('accessory'), dict):
                    walk([c['accessory']])
                if isinstance(c.get('component'), dict):
                    walk([c['component']])

        walk(self.components)
        return out

    def find_component(self, custom_id: str) -> Optional[Dict[str, Any]]:
        return next((c for c in self.iter_components() if c.get('custom_id') == custom_id), None)

    @property
    def custom_ids(self) -> List[str]:
        return [c['custom_id'] for c in self.iter_components() if 'custom_id' in c]

    def to_json(self) -> Dict[str, Any]:
        data: Dict[str, Any] = {
            'id': str(self.id),
            'channel_id': str(self.channel_id),
            'author': self.author,
            'content': self.content,
            'timestamp': self.timestamp,
            'edited_timestamp': self.edited_timestamp,
            'tts': self.tts,
            'mention_everyone': False,
            'mentions': [],
            'mention_roles': [],
            'attachments': [a.to_json() for a in self.attachments],
            'embeds': self.embeds,
            'components': self.components,
            'pinned': self.pinned,
            'type': self.type,
            'flags': self.flags,
        }
        if self.guild_id is not None:
            data['guild_id'] = str(self.guild_id)
        if self.webhook_id is not None:
            data['webhook_id'] = str(self.webhook_id)
        if self.application_id is not None:
            data['application_id'] = str(self.application_id)
        if self.interaction_metadata is not None:
            data['interaction_metadata'] = self.interaction_metadata
        if self.message_reference is not None:
            data['message_reference'] = self.message_reference
        return data


INTERACTION_KINDS = {1: 'ping', 2: 'application_command', 3: 'component', 4: 'autocomplete', 5: 'modal_submit'}


class InteractionResult:
    """Everything the bot did in answer to one interaction.

    ``callback`` is the first (and only) interaction response as ``{'type', 'data'}``;
    ``original`` the message that response created or updated (for type 6/7 on a
    component interaction: the message carrying the component); ``followups`` the
    messages posted through the interaction webhook, in order.
    """

    def __init__(self, fake: 'FakeDiscord', *, id: int, token: str, payload: Dict[str, Any],
                 target_message: Optional[FakeMessage] = None) -> None:
        self._fake = fake
        self.id = id
        self.token = token
        self.payload = payload
        self.type: int = payload['type']
        self.kind: str = INTERACTION_KINDS.get(self.type, str(self.type))
        self.target_message = target_message
        self.dispatched_at: Optional[float] = None
        self.callback: Optional[Dict[str, Any]] = None
        self.callback_at: Optional[float] = None
        self.callback_files: List[FakeAttachment] = []
        self.original: Optional[FakeMessage] = None
        self.followups: List[FakeMessage] = []
        #: every request the bot made with this interaction's token: (method, what)
        self.log: List[Tuple[str, str]] = []

    def __repr__(self) -> str:
        return f'<InteractionResult id={self.id} kind={self.kind} callback_type={self.callback_type} followups={len(self.followups)}>'

    # -- timing ---------------------------------------------------------
    @property
    def latency(self) -> Optional[float]:
        """Seconds between the INTERACTION_CREATE dispatch and the callback (Discord allows 3)."""
        if self.dispatched_at is None or self.callback_at is None:
            return None
        return self.callback_at - self.dispatched_at

    @property
    def within_deadline(self) -> bool:
        lat = self.latency
        return lat is not None and lat <= self._fake.interaction_deadline

    # -- callback -------------------------------------------------------
    @property
    def responded(self) -> bool:
        return self.callback is not None

    @property
    def callback_type(self) -> Optional[int]:
        return None if self.callback is None else self.callback['type']

    @property
    def callback_data(self) -> Dict[str, Any]:
        return {} if self.callback is None else (self.callback.get('data') or {})

    @property
    def deferred(self) -> bool:
        return self.callback_type in (5, 6)

    @property
    def choices(self) -> Optional[List[Dict[str, Any]]]:
        if self.callback_type != 8:
            return None
        return self.callback_data.get('choices', [])

    @property
    def modal(self) -> Optional[Dict[str, Any]]:
        return self.callback_data if self.callback_type == 9 else None

    # -- the visible outcome -------------------------------------------
    @property
    def message(self) -> Optional[FakeMessage]:
        """The original response message if any, else the last followup."""
        if self.original is not None:
            return self.original
        return self.followups[-1] if self.followups else None

    @property
    def messages(self) -> List[FakeMessage]:
        out: List[FakeMessage] = []
        for m in ([self.original] if self.original else []) + self.followups:
            if m not in out:
                out.append(m)
        return out

    @property
    def content(self) -> Optional[str]:
        m = self.message
        return None if m is None else m.content

    @property
    def embeds(self) -> List[Dict[str, Any]]:
        m = self.message
        return [] if m is None else m.embeds

    @property
    def components(self) -> List[Dict[str, Any]]:
        m = self.message
        return [] if m is None else m.components

    @property
    def ephemeral(self) -> bool:
        m = self.message
        if m is not None:
            return m.ephemeral
        return bool(self.callback_data.get('flags', 0) & EPHEMERAL)

    @property
    def files(self) -> List[Tuple[str, bytes]]:
        """(filename, raw bytes) of every attachment on the response and followups."""
        out: List[Tuple[str, bytes]] = []
        for m in self.messages:
            out.extend(m.files)
        return out

    def settled(self, followups: int = 0) -> bool:
        if self.callback is None:
            return False
        if self.callback_type == 5 and self.original is not None and self.original.loading:
            return False
        return len(self.followups) >= followups

    async def wait(self, timeout: float = 5.0, *, followups: int = 0) -> 'InteractionResult':
        """Wait for the callback; after a type-5 defer also for the deferred message
        to be filled in; then for at least ``followups`` followup messages."""
        await self._fake.wait_for(lambda: self.settled(followups), timeout=timeout,
                                  what=f'{self!r} to settle (followups>={followups})')
        return self

    async def wait_until(self, predicate: Callable[['InteractionResult'], bool], timeout: float = 5.0) -> 'InteractionResult':
        await self._fake.wait_for(lambda: predicate(self), timeout=timeout, what=f'{self!r}: custom condition')
        return self


class FakeTimeout(TimeoutError):
    """A bounded wait of the harness ran out."""
