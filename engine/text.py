"""Player-typed text: names are checked here so no markup or mention sneaks into posts."""
from __future__ import annotations

import re
import unicodedata

from engine.core import RuleError

ALLOWED_PUNCTUATION = set(" -'.,!?()&")
_NOT_SLUG = re.compile(r"[^a-z0-9]+")


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


_MARKDOWN = re.compile(r"([\\*_~`|\[\]#])")
#: zero-width space: put after "@" it keeps "@everyone" from being a mention, and shows nothing
ZWSP = "\u200b"


def plain(text: object) -> str:
    """Text a member wrote, as plain text in a post: its Markdown escaped (no bold, links, spoilers, quotes or
    headings take effect), and no mention of anyone, any role or channel, nor ``@everyone``.  The local table
    shows it back unescaped (``unescape``)."""
    out = _MARKDOWN.sub(r"\\\1", str(text))
    return out.replace("@", "@" + ZWSP).replace("<", "‹").replace(">", "›")


def unescape(text: str) -> str:
    """``plain`` text as a person reads it (the local table prints it): no backslashes, no zero-width spaces."""
    return re.sub(r"\\([\\*_~`|\[\]#])", r"\1", text).replace(ZWSP, "")


def plain_words(text: object, max_len: int = 120) -> str:
    """Member text kept in a rule's words (a reason for the log): only letters, digits, spaces and plain
    punctuation, so nothing in it can act as a mention, a link or Markdown anywhere it is shown."""
    if not isinstance(text, str):
        return ""
    kept = "".join(ch for ch in unicodedata.normalize("NFC", text[:400])
                   if ch.isalnum() or ch in ALLOWED_PUNCTUATION or ch in ":;/+=%")
    return " ".join(kept.split())[:max_len].strip()


def slug(text: str) -> str:
    """The one slug: how ids are matched from what a player typed, and how names become file names.

    Lower case; accents dropped; every run of anything but a-z and 0-9 becomes one dash;
    no dash at either end: 'Dark Elf' -> 'dark-elf', "Lockpick Set's" -> 'lockpick-set-s',
    'Éclair_2' -> 'eclair-2'.  A content id (lower-case letters, digits and dashes) is its own slug.
    """
    plain = unicodedata.normalize("NFKD", str(text)).encode("ascii", "ignore").decode("ascii")
    return _NOT_SLUG.sub("-", plain.lower()).strip("-")


def echo(value, limit: int = 40) -> str:
    """A player's bad value, safe to quote back: short, no backticks, no live mentions."""
    text = " ".join(str(value).split()).replace("`", "'").replace("@", "@\u200b").replace("<", "‹").replace(">", "›")
    return text if len(text) <= limit else text[: limit - 1] + "…"


_IRREGULAR = {"die": "dice", "was": "were", "is": "are", "has": "have"}


def plural(word: str) -> str:
    """The plural of an English noun as the bot uses them: hex -> hexes, enemy -> enemies, die -> dice."""
    if word in _IRREGULAR:
        return _IRREGULAR[word]
    if word.endswith(("s", "x", "z", "ch", "sh")):
        return word + "es"
    if word.endswith("y") and word[-2:-1] not in tuple("aeiou"):
        return word[:-1] + "ies"
    return word + "s"


def count(n: int, one: str, many: str | None = None) -> str:
    """A number with its noun, singular only for exactly one: '1 hex', '2 hexes', '0 hexes', '1 page'.

    The one way the bot words a count: tests/test_messages.py sweeps the code for plurals built by hand."""
    return f"{n} {one if n == 1 or n == -1 else (many or plural(one))}"


def a_or_an(word: str) -> str:
    """The word with its indefinite article: 'a Sorcerer', 'an Archer', 'an Acrobat'."""
    return f"{'an' if str(word)[:1].lower() in 'aeiou' else 'a'} {word}"
