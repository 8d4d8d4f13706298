"""Reading TOML entries field by field: every problem is one message naming the file, the entry and the field."""
from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any, Iterable

from engine.effects import quoted as _quoted
from engine.effects import show as _show
from rulesets.tes.content.records import Face, FaceResult, Hex

ID_RE = re.compile(r"^[a-z0-9][a-z0-9-]*$")
_MISSING = object()


class _Entry:
    """Field readers for one entry; every problem goes to the shared error list."""

    def __init__(self, errors: list[str], file: str, label: str, data: Any):
        self.errors = errors
        self.file = file
        self.label = label
        self.data = data if isinstance(data, dict) else {}
        self.ok = True
        if not isinstance(data, dict):
            self.err(f"must be a table, got {_show(data)}")

    def err(self, msg: str) -> None:
        self.ok = False
        self.errors.append(f"{self.file}, {self.label}: {msg}")

    def sub(self, key: str, label: str, data: Any = _MISSING) -> "_Entry":
        return _Entry(self.errors, self.file, f"{self.label}, {label}", self.data.get(key) if data is _MISSING else data)

    def has(self, key: str) -> bool:
        return key in self.data

    def get(self, key: str, default: Any = _MISSING) -> Any:
        if key not in self.data:
            if default is _MISSING:
                self.err(f'is missing the field "{key}"')
                return None
            return default
        return self.data[key]

    def unknown_keys(self, allowed: Iterable[str]) -> None:
        allowed = set(allowed)
        for k in self.data:
            if k not in allowed:
                self.err(f'has an unknown field "{k}" (allowed: {_quoted(sorted(allowed))})')

    def text(self, key: str, default: Any = _MISSING, allow_empty: bool = False) -> str:
        v = self.get(key, default)
        if v is None and default is not _MISSING:
            return default
        if v is None:
            return ""
        if not isinstance(v, str) or (not allow_empty and not v.strip()):
            self.err(f"{key} must be a non-empty text, got {_show(v)}")
            return ""
        return v.strip()

    def opt_text(self, key: str) -> str | None:
        if key not in self.data:
            return None
        return self.text(key)

    def int(self, key: str, lo: int, hi: int, default: Any = _MISSING) -> int:
        v = self.get(key, default)
        if v is None:
            return lo if default is _MISSING else default
        if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
            self.err(f"{key} must be a whole number from {lo} to {hi}, got {_show(v)}")
            return lo
        return v

    def bool(self, key: str, default: bool = False) -> bool:
        v = self.get(key, default)
        if not isinstance(v, bool):
            self.err(f"{key} must be true or false, got {_show(v)}")
            return default
        return v

    def choice(self, key: str, choices: Iterable[Any], default: Any = _MISSING) -> Any:
        choices = tuple(choices)
        v = self.get(key, default)
        if v is None and (default is None or default is _MISSING):
            return None
        if v not in choices or isinstance(v, bool):
            self.err(f"{key} must be one of {_quoted(choices)}, got {_show(v)}")
            return None
        return v

    def str_list(self, key: str, choices: Iterable[str] | None = None, default: Any = ()) -> tuple[str, ...]:
        v = self.get(key, list(default) if default is not _MISSING else _MISSING)
        if v is None:
            return ()
        if isinstance(v, str):
            v = [v]
        if not isinstance(v, list) or not all(isinstance(x, str) for x in v):
            self.err(f"{key} must be a list of texts, got {_show(v)}")
            return ()
        if choices is not None:
            choices = tuple(choices)
            for x in v:
                if x not in choices:
                    self.err(f"{key} contains {_show(x)}, which is not one of {_quoted(choices)}")
        return tuple(v)

    def hex(self, key: str, v: Any = _MISSING) -> Hex | None:
        if v is _MISSING:
            v = self.get(key)
        if (isinstance(v, list) and len(v) == 2 and all(isinstance(x, int) and not isinstance(x, bool) for x in v)):
            return (v[0], v[1])
        self.err(f"{key} must be a hex written as [q, r], got {_show(v)}")
        return None

    def effects(self, key: str, *, die: bool = False) -> tuple[dict, ...]:
        """A list of effect tables, each checked against the effect registry (a type or a field
        with no behaviour is refused)."""
        from rulesets.tes.content.schema import EFFECTS as REGISTRY

        v = self.get(key, [])
        if isinstance(v, dict):
            v = [v]
        if not isinstance(v, list):
            self.err(f"{key} must be a list of effect tables, got {_show(v)}")
            return ()
        out = []
        for i, eff in enumerate(v, 1):
            full, problems = REGISTRY.validate(eff, defaults={"amount": "value"} if die else None)
            for p in problems:
                self.err(f"{key} #{i} {p}")
            if full is not None:
                out.append(full)
        return tuple(out)

    def ability(self, *, die: bool = False) -> tuple[str, tuple[dict, ...], bool]:
        """text, effects, manual (manual forced on when there are no effects)."""
        text = self.text("text")
        effects = self.effects("effects", die=die)
        manual = self.bool("manual", False)
        if not effects and not manual and self.ok:
            manual = True
        return text, effects, manual


def _read_toml(path: Path, rel: str, errors: list[str], required: bool = True) -> dict | None:
    if not path.exists():
        if required:
            errors.append(f"{rel}: file is missing")
        return None
    try:
        with path.open("rb") as f:
            return tomllib.load(f)
    except tomllib.TOMLDecodeError as e:
        errors.append(f"{rel}: not valid TOML: {e}")
    except UnicodeDecodeError as e:
        errors.append(f"{rel}: not UTF-8 text: {e}")
    except OSError as e:
        errors.append(f"{rel}: cannot be read: {e.strerror}")
    return None


def _entries(doc: dict | None, key: str, rel: str, errors: list[str], what: str) -> list[tuple[str, _Entry]]:
    """The ``[[key]]`` array of a file as (id, entry); checks ids and duplicates."""
    if doc is None:
        return []
    for k in doc:
        if k != key:
            errors.append(f'{rel}: unknown top-level key "{k}" (entries are written as [[{key}]] tables)')
    raw = doc.get(key, [])
    if not isinstance(raw, list):
        errors.append(f"{rel}: {key} must be written as [[{key}]] tables")
        return []
    seen: dict[str, int] = {}
    out = []
    for i, data in enumerate(raw, 1):
        ident = data.get("id") if isinstance(data, dict) else None
        if not isinstance(ident, str) or not ID_RE.match(ident):
            label = f"{what} #{i}"
            if ident is None:
                errors.append(f'{rel}, {label}: is missing the field "id"')
            else:
                errors.append(f"{rel}, {label}: id must be lower-case letters, digits and dashes, got {_show(ident)}")
            continue
        label = f'{what} "{ident}"'
        if ident in seen:
            errors.append(f"{rel}, {label}: duplicate id (entry #{seen[ident]} already uses it)")
            continue
        seen[ident] = i
        out.append((ident, _Entry(errors, rel, label, data)))
    return out



# -- face notation ----------------------------------------------------------

_RESULT_RE = re.compile(r"^(?:(\d+)\s+)?([a-z][a-z0-9-]*)$")


def parse_face(text: str, icons: Iterable[str]) -> Face:
    """Parse "2 damage", "tenacity", "1 damage + tenacity" or "blank".

    Raises ValueError with a readable message on a bad face.
    """
    if not isinstance(text, str):
        raise ValueError(f"a face must be written as text like \"2 damage\" or \"blank\", got {_show(text)}")
    s = " ".join(text.strip().lower().split())
    if s in ("blank", ""):
        if not s:
            raise ValueError('a face cannot be empty; write "blank" for a blank face')
        return Face(())
    known = set(icons)
    results = []
    for part in s.split("+"):
        part = part.strip()
        m = _RESULT_RE.match(part)
        if not m:
            raise ValueError(f'cannot read face "{text}": "{part}" should look like "2 damage" or "tenacity"')
        value = int(m.group(1)) if m.group(1) is not None else None
        icon = m.group(2)
        if icon not in known:
            raise ValueError(
                f'face "{text}" uses icon "{icon}", which this line does not define (known icons: {_quoted(sorted(known))})'
            )
        results.append(FaceResult(icon, value))
    return Face(tuple(results))

