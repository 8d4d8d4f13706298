"""Player-typed text: names are checked here so no markup or mention sneaks into posts."""
from __future__ import annotations

import unicodedata

from kernel.core import RuleError

ALLOWED_PUNCTUATION = set(" -'.,!?()&")


def clean_name(text: str | None, what: str, *, max_len: int = 32) -> str:
    """A display name: letters (any script), digits, spaces and - ' . , ! ? ( ) &.

    Anything else (markdown, mentions, emoji, control characters) is refused with
    a message saying what is allowed, rather than silently changed.
    """
    if text is None or not str(text).strip():
        raise RuleError(f"Give the {what} a name.")
    name = " ".join(str(text).split())
    name = unicodedata.normalize("NFC", name)
    if len(name) > max_len:
        raise RuleError(f"The {what} name is {len(name)} characters long; keep it to {max_len} or fewer.")
    bad = sorted({ch for ch in name if not (ch.isalnum() or ch in ALLOWED_PUNCTUATION)})
    if bad:
        shown = " ".join(repr(ch) for ch in bad[:5])
        raise RuleError(
            f"The {what} name can't contain {shown}. Use letters, numbers, spaces and - ' . , ! ? ( ) & only."
        )
    return name


def display_name(text: object, max_len: int = 32) -> str:
    """A member's display name made safe to show in posts and pictures (never refused: what is not a letter,
    digit, space or plain punctuation is left out; "" when nothing is left)."""
    if not isinstance(text, str):
        return ""
    kept = "".join(ch for ch in unicodedata.normalize("NFC", text[:200])
                   if ch.isalnum() or ch in ALLOWED_PUNCTUATION)
    return " ".join(kept.split())[:max_len].strip()


def slug(text: str) -> str:
    """How ids are matched from what a player typed: 'Dark Elf' -> 'dark-elf'."""
    return "-".join(str(text).strip().lower().replace("_", " ").replace("-", " ").split())


def echo(value, limit: int = 40) -> str:
    """A player's bad value, safe to quote back: short, no backticks, no live mentions."""
    text = " ".join(str(value).split()).replace("`", "'").replace("@", "@\u200b").replace("<", "‹").replace(">", "›")
    return text if len(text) <= limit else text[: limit - 1] + "…"
