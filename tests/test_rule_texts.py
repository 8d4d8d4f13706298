"""Rule texts are data for presenters: no mention syntax or Markdown in rule code, and every command a message
names as the fix is a command that exists (a renamed command cannot leave a stale hint behind)."""
from __future__ import annotations

import ast
import re
from pathlib import Path

from commands.core import COMMANDS, load_commands

ROOT = Path(__file__).resolve().parents[1]
CMD = re.compile(r"(?:^|[\s`(])/([a-z][a-z_-]*)(?: ([a-z][a-z_-]*))?")


def _rule_files():
    for folder in (ROOT / "engine", *sorted((ROOT / "rulesets").glob("*/"))):
        for path in sorted(folder.rglob("*.py")):
            if "present" in path.parts or path.name == "present.py":
                continue
            yield path


def _strings(path: Path):
    tree = ast.parse(path.read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            yield node.lineno, node.value


def test_every_command_named_in_a_rule_text_exists():
    load_commands()
    groups = {name.split()[0] for name in COMMANDS}
    bad = []
    for path in _rule_files():
        for line, text in _strings(path):
            for m in CMD.finditer(text):
                first, second = m.group(1), m.group(2)
                if first not in groups:
                    if first in ("dev", "tmp", "etc", "home", "usr", "proc", "root"):
                        continue  # a path in a docstring, not a command
                    bad.append(f"{path.relative_to(ROOT)}:{line}: /{first}")
                elif second and f"{first} {second}" not in COMMANDS and first not in COMMANDS:
                    bad.append(f"{path.relative_to(ROOT)}:{line}: /{first} {second}")
    assert not bad, "rule texts name commands that do not exist:\n" + "\n".join(bad)
