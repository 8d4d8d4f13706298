"""What a command answers, independent of Discord: text, embeds, pictures, buttons.

The cogs turn a ``Reply`` into a Discord message; the local table prints it and
writes its pictures to a folder.  Pictures are requested, not drawn, here: the
front door renders them off the event loop.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

# Discord's limits (https://discord.com/developers/docs/resources/message):
MAX_CONTENT = 2000
MAX_EMBED_DESCRIPTION = 4096
MAX_FIELD_VALUE = 1024
MAX_FIELDS = 25
MAX_EMBED_TOTAL = 6000

COLOR_INFO = 0x4B6CB7
COLOR_OK = 0x3C9D5D
COLOR_ERROR = 0xC0392B
COLOR_BATTLE = 0xB5651D


def clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


MORE = "(continued below)"


def split_text(text: str, first: int = 1700, rest: int = 1990) -> list[str]:
    """A long post in parts, none lost: the first at most ``first`` characters (room is left for what follows it
    in its message), the others at most ``rest``; each part ends at a line's end where one fits, and every part
    but the last says that more follows."""
    parts: list[str] = []
    left = text
    limit = first
    while len(left) > limit:
        room = limit - len(MORE) - 1
        cut = left.rfind("\n", 0, room + 1)
        if cut <= 0:  # one line longer than a part: cut it at the last space that fits, else anywhere
            cut = left.rfind(" ", 0, room + 1)
            cut = cut if cut > 0 else room
        parts.append(left[:cut].rstrip() + "\n" + MORE)
        left = left[cut:].lstrip("\n ")
        limit = rest
    parts.append(left)
    return parts


@dataclass
class Embed:
    title: str = ""
    description: str = ""
    fields: list[tuple[str, str, bool]] = field(default_factory=list)
    color: int = COLOR_INFO
    footer: str = ""
    image: str | None = None  # filename of an attached picture to show inside the embed

    def add(self, name: str, value: str, inline: bool = False) -> "Embed":
        self.fields.append((clip(name, 256), clip(value or "—", MAX_FIELD_VALUE), inline))
        return self

    def as_text(self) -> str:
        out = []
        if self.title:
            out.append(f"== {self.title} ==")
        if self.description:
            out.append(self.description)
        for name, value, _inline in self.fields:
            out.append(f"{name}: {value}")
        if self.footer:
            out.append(f"({self.footer})")
        return "\n".join(out)


@dataclass
class Picture:
    """A picture to render: ``kind`` is "mat", "map" or "roll"; ``view`` its view model."""

    kind: str
    view: dict[str, Any]
    filename: str
    alt: str = ""  # the picture in words (the attachment's description); empty: render.alt describes the view


@dataclass
class FileOut:
    """A ready file (e.g. an exported campaign as JSON)."""

    filename: str
    data: bytes


@dataclass
class Button:
    custom_id: str
    label: str
    style: str = "secondary"  # primary | secondary | success | danger


@dataclass
class Select:
    custom_id: str
    placeholder: str
    options: list[tuple[str, str, str]]  # (label, value, description)
    min_values: int = 1
    max_values: int = 1


@dataclass
class Reply:
    content: str = ""
    embeds: list[Embed] = field(default_factory=list)
    pictures: list[Picture] = field(default_factory=list)
    files: list[FileOut] = field(default_factory=list)
    buttons: list[Button] = field(default_factory=list)
    selects: list[Select] = field(default_factory=list)
    ephemeral: bool = False
    ping: str | None = None  # the one user this post may mention (whose move it is)
    # when several players must act at once (a town visit, the rest), the others this post may mention too
    also_ping: list[str] = field(default_factory=list)
    update: bool = False  # for a click: edit the clicked message instead of posting a new one
    error: bool = False
    followups: list["Reply"] = field(default_factory=list)  # further posts (e.g. long logs)

    @classmethod
    def fail(cls, message: str) -> "Reply":
        return cls(content=clip(message, MAX_CONTENT), ephemeral=True, error=True)

    def as_text(self) -> str:
        parts = [self.content] if self.content else []
        parts += [e.as_text() for e in self.embeds]
        for b in self.buttons:
            parts.append(f"[button: {b.label}]  (id {b.custom_id})")
        for s in self.selects:
            many = f"{s.min_values}-{s.max_values} options" if s.max_values > s.min_values else (
                "1 option" if s.max_values == 1 else f"{s.max_values} options")
            parts.append(f"[menu: {s.placeholder}]  (id {s.custom_id}; pick {many} by label or id, comma "
                         "separated)")
            parts += [f"  - {label}  [id {value}]" + (f" — {detail}" if detail else "")
                      for label, value, detail in s.options]
        return "\n".join(parts)
