"""The offline local table: the same slash commands typed as text lines.

    /campaign new name:"Night Watch" difficulty:expert
    @shannon /adventurer create name:Sil race:argonian line:one-hand-and-shield
    /force 6 2 3          (the next die results, for exact replays)
    /as ryan              (who types the next lines; or prefix one line with @name)
    /click hx:end:local:  (press a button the bot offered, by its id)
    /pick Iron Sword      (answer the last answer's menu: options by label or id, comma separated)
    /dump state.json      (write the campaign state as JSON)

Replies are printed; pictures are written to the output folder.  Everything
goes through the same command layer as the Discord cogs.
"""
from __future__ import annotations

import asyncio
import json
import os
import re
import shlex
import sys
from pathlib import Path

from commands.core import COMMANDS, Table, load_commands
from engine.reply import Reply
from engine.text import count

MENTION = re.compile(r"<@!?([^>\s]+)>")


def strip_comment(line: str) -> str:
    """The line without a trailing ``# comment`` (a ``#`` after a space, outside quotes), as in the README."""
    quote = None
    escaped = False
    for i, ch in enumerate(line):
        if escaped:
            escaped = False
        elif ch == "\\" and quote != "'":
            escaped = True
        elif quote:
            if ch == quote:
                quote = None
        elif ch in "\"'":
            quote = ch
        elif ch == "#" and (i == 0 or line[i - 1].isspace()):
            return line[:i].rstrip()
    return line


QUOTE_HINT = 'put a value with spaces in quotes, e.g. race:"Dark Elf"'


def parse_line(line: str) -> tuple[str | None, str, dict[str, str]]:
    """'@bob /adventurer create race:argonian name:"Sil Tail"' -> ('bob', 'adventurer create', {...})."""
    load_commands()
    text = strip_comment(line.strip())
    user = None
    if text.startswith("@"):
        first, _, text = text.partition(" ")
        user = first[1:]
        text = text.strip()
    if not text.startswith("/"):
        raise ValueError("Commands start with `/`, e.g. `/campaign status` (or `@name /command ...`).")
    try:
        tokens = shlex.split(text[1:])
    except ValueError as exc:
        raise ValueError(f"Could not read that line: {str(exc).lower()}. Every quote needs its closing quote; "
                         f"{QUOTE_HINT}.") from None
    if not tokens:
        raise ValueError("Type a command after `/`.")
    words: list[str] = []
    rest = list(tokens)
    # the longest known command name made of the leading words
    for n in (2, 1):
        cand = " ".join(t.lower() for t in tokens[:n])
        if cand in COMMANDS or cand in LOCAL_COMMANDS:
            words, rest = tokens[:n], tokens[n:]
            break
    if not words:
        words, rest = tokens[:1], tokens[1:]
    name = " ".join(w.lower() for w in words)
    options: dict[str, str] = {}
    loose: list[str] = []
    after: dict[str, list[str]] = {}  # option -> the loose words that followed it (a value with spaces, unquoted)
    if name == "click" and rest:
        # the first word is the button's whole id (it contains colons of its own)
        options["_args"], rest = rest[0], rest[1:]
    last = pending = None
    for tok in rest:
        key, sep, value = tok.partition(":")
        if sep and re.fullmatch(r"[a-z_]+", key):
            options[key] = value
            last = key
            pending = key if value == "" else None  # `to: -2,3`: the value is the next word
        elif pending is not None:
            options[pending], pending = tok, None
        else:
            loose.append(tok)
            if last is not None:
                after.setdefault(last, []).append(tok)
    if loose:
        cmd = COMMANDS.get(name)
        first = next((o.name for o in cmd.options if o.required), None) if cmd else None
        if first and first not in options and not after:
            options[first] = " ".join(loose)
        elif name in LOCAL_COMMANDS:
            options["_args"] = " ".join(loose)
        elif after:
            key, extra = next(iter(after.items()))
            whole = " ".join([options[key], *extra]).strip().replace('"', "'")
            raise ValueError(f"`{extra[0]}` has no option name: write it as option:value. If it is part of `{key}:`, "
                             f'put the whole value in quotes: {key}:"{whole}".')
        else:
            raise ValueError(f"Write options as name:value (`{loose[0]}` has no name); {QUOTE_HINT}.")
    return user, name, options


LOCAL_COMMANDS = {"as", "click", "pick", "dump", "quit", "exit"}


class LocalTable:
    def __init__(self, table: Table, *, channel: str = "local", out_dir=Path("local-table-out"),
                 user: str = "leader", echo=print):
        self.table = table
        self.channel = channel
        self.out_dir = out_dir if callable(out_dir) else Path(out_dir)  # a callable makes the folder when first needed
        self.user = user
        self.echo = echo
        self.images: list[Path] = []
        self.last: Reply | None = None
        self._count = 0
        self.dashboard = True  # print the dashboard when an action changed it
        self._board: list[str] = []

    def show(self, text: str) -> str:
        from engine.text import unescape

        return unescape(MENTION.sub(lambda m: "@" + m.group(1), text))

    async def member(self, name: str) -> str:
        """A typed name as the party knows it: `@Shannon` and `@shannon` are one member (names are not case
        sensitive at the local table); a name the party does not know yet is kept as typed."""
        state = await self.table.service.campaign(self.channel)
        known = [str(m) for m in getattr(state, "members", [])] + ([str(state.leader)] if state is not None else [])
        if name in known:
            return name
        return next((m for m in known if m.casefold() == name.casefold()), name)

    def button_by_label(self, label: str) -> str | None:
        """The id of the button labelled ``label`` (not case sensitive) in the last answer and its follow-ups."""
        want = label.strip().strip('"').casefold()
        todo = [self.last] if self.last is not None else []
        while todo:
            reply = todo.pop(0)
            for b in reply.buttons:
                if b.label.casefold() == want:
                    return b.custom_id
            todo.extend(reply.followups)
        return None

    def menu_pick(self, text: str) -> tuple[str, list[str]] | str:
        """(the menu's id, the values) for ``text``: options of a menu of the last answer named by label, id or
        place (1, 2, ...), comma separated; or what is wrong, in words."""
        menus = []
        todo = [self.last] if self.last is not None else []
        while todo:
            reply = todo.pop(0)
            menus += reply.selects
            todo.extend(reply.followups)
        if not menus:
            return "The last answer has no menu to pick from. Menus are printed as [menu: ...] with their options."
        wants = [w.strip().strip('"') for w in text.split(",") if w.strip()]
        if not wants:
            return "Write the options to pick after /pick, by label or id, comma separated: e.g. /pick 1."
        problem = ""
        for sel in menus:
            values = []
            for want in wants:
                key = want.casefold()
                hit = next((v for _l, v, _d in sel.options if v.casefold() == key), None)
                hit = hit or next((v for label, v, _d in sel.options if label.casefold() == key), None)
                if hit is None and want.isdigit() and 1 <= int(want) <= len(sel.options):
                    hit = sel.options[int(want) - 1][1]
                if hit is None:
                    problem = (f"The menu \"{sel.placeholder}\" has no option {want!r}. Its options: "
                               + ", ".join(label for label, _v, _d in sel.options) + ".")
                    break
                values.append(hit)
            else:
                if sel.min_values <= len(values) <= sel.max_values:
                    return sel.custom_id, values
                wanted = (str(sel.max_values) if sel.min_values == sel.max_values
                          else f"{sel.min_values} to {sel.max_values}")
                problem = f"The menu \"{sel.placeholder}\" takes {wanted} of its options; you named {len(values)}."
        return problem

    async def run_line(self, line: str) -> Reply | None:
        text = line.strip()
        if not text or text.startswith("#"):
            return None
        try:
            user, name, options = parse_line(text)
        except ValueError as exc:
            self.echo(f"! {exc}")
            return Reply.fail(str(exc))
        who = await self.member(user or self.user)
        inv = self.table.invocation(who, self.channel, "local-guild", who)
        inv.local = True
        if name == "as":
            target = options.get("_args", "").strip().lstrip("@")
            if not target:
                self.echo("! Write `/as name`.")
                return Reply.fail("Write `/as name`.")
            self.user = await self.member(target)
            self.echo(f"(now typing as @{self.user})")
            return None
        if name == "dump":
            path = options.get("_args") or "state.json"
            problem = await self.dump_state(path)
            if problem:
                self.echo(f"! {problem}")
                return Reply.fail(problem)
            self.echo(f"(state written to {path})")
            return None
        if name in ("quit", "exit"):
            raise EOFError
        if name == "click":
            target = options.get("_args", "")
            if not target.startswith("hx:"):  # a button of the last answer named by its label
                target = self.button_by_label(target)
                if target is None:
                    problem = (f"No button labelled {options.get('_args', '')!r} in the last answer. Name a button by "
                               "its label or its id (`/click hx:...`), as the answer prints them.")
                    self.echo(f"! {problem}")
                    return Reply.fail(problem)
            reply = await self.table.click(inv, target, (options.get("values") or "").split(",")
                                           if options.get("values") else [])
        elif name == "pick":
            picked = self.menu_pick(options.get("_args", ""))
            if isinstance(picked, str):
                self.echo(f"! {picked}")
                return Reply.fail(picked)
            reply = await self.table.click(inv, picked[0], picked[1])
        elif name == "force":
            state = await self.table.service.campaign(self.channel)
            leader = state.leader if state else who
            reply = await self.table.run(self.table.invocation(leader, self.channel, "local-guild"), "force",
                                         {"values": options.get("values", "")})
        else:
            reply = await self.table.run(inv, name, options)
        await self.print_reply(reply)
        self.last = reply
        if inv.done:
            await self.print_dashboard(inv.done[-1].campaign_id)
        return reply

    async def print_dashboard(self, campaign_id: int | None = None) -> None:
        """The campaign's dashboard as a block of lines, printed when it changed (as Discord edits its post)."""
        from commands.dashboard import local_block

        if not self.dashboard:
            return
        block = await local_block(self.table, self.channel, campaign_id)
        if block and block != self._board:
            self.echo(self.show("\n".join(block)))
        self._board = block

    async def print_reply(self, reply: Reply) -> None:
        from render import render

        prefix = "(only you see this) " if reply.ephemeral else ""
        self.echo(self.show(prefix + reply.as_text()))
        for pic in reply.pictures:
            data = await asyncio.to_thread(render, pic.kind, pic.view)
            self._count += 1
            try:
                path = self.folder() / picture_name(self._count, pic.kind, pic.filename)
            except OSError as exc:
                self.echo(f"! The picture could not be written: {exc.strerror or exc}. "
                          "Choose a folder you can write to with --out.")
                continue
            if self.write(path, data, "picture"):
                self.images.append(path)
        for f in reply.files:
            try:
                self.write(self.folder() / f.filename, f.data, "file")
            except OSError as exc:
                self.echo(f"! The file {f.filename} could not be written: {exc.strerror or exc}. "
                          "Choose a folder you can write to with --out.")
        for extra in reply.followups:
            await self.print_reply(extra)

    def folder(self) -> Path:
        """The folder pictures go to, made when the first one is written (a run without pictures leaves none)."""
        if callable(self.out_dir):
            self.out_dir = self.out_dir()
        self.out_dir.mkdir(parents=True, exist_ok=True)
        return self.out_dir

    def write(self, path: Path, data: bytes, what: str) -> bool:
        """Write a picture or a file the bot sent; a folder that can't be written is said, not a traceback."""
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
        except OSError as exc:
            self.echo(f"! The {what} could not be written to {path}: {exc.strerror or exc}. "
                      "Choose a folder you can write to with --out.")
            return False
        self.echo(f"[{what} written: {path}]")
        return True

    async def dump_state(self, path: str | Path) -> str | None:
        """Write the campaign state as JSON to ``path``; what went wrong, in words (None: written)."""
        state = await self.table.service.campaign(self.channel)
        if state is None:
            return "There is no campaign in this channel yet, so there is no state to write. Start one with " \
                   "/campaign new."
        try:
            Path(path).write_text(json.dumps(state.to_dict(), indent=2, sort_keys=True))
        except OSError as exc:
            return f"Could not write the state to {path}: {exc.strerror or exc}. " + PATH_HINT
        return None

    async def run_script(self, lines) -> int:
        """Run lines in order; returns how many replies were errors (``self.failed`` lists them)."""
        errors = 0
        self.failed: list[tuple[int, str, str]] = []  # (line number, line, answer)
        for number, line in enumerate(lines, 1):
            if line.strip() and not line.strip().startswith("#"):
                self.echo(self.show(f"> {line.rstrip()}"))
            try:
                reply = await self.run_line(line)
            except EOFError:
                break
            if reply is not None and reply.error:
                errors += 1
                self.failed.append((number, line.strip(), self.show(reply.as_text())))
        return errors

    async def interactive(self) -> None:
        self.echo("Hexpost local table. Type /help, or /quit to leave. Typing as @" + self.user + ".")
        loop = asyncio.get_running_loop()
        while True:
            try:
                line = await loop.run_in_executor(None, lambda: input(f"{self.user}> "))
            except (EOFError, KeyboardInterrupt):
                self.echo("")
                break
            try:
                await self.run_line(line)
            except EOFError:
                break


async def main_local(db: str, script: str | None, out_dir: str, dump_state: str | None, user: str,
                     channel: str = "local") -> int:
    from engine.service import CampaignService
    from engine.store import Store

    lines: list[str] | None = None
    if script:
        if script == "-":
            lines = sys.stdin.read().splitlines()
        else:
            try:
                lines = Path(script).read_text(encoding="utf-8").splitlines()
            except FileNotFoundError:
                print(f"There is no script file {script!r}. Give the path of a text file with one command a line "
                      "(for example examples/creation.txt).", file=sys.stderr)
                return 1
            except (OSError, UnicodeDecodeError) as exc:
                print(f"Could not read the script {script!r}: {exc}.", file=sys.stderr)
                return 1
    if dump_state and (problem := writable_file(dump_state)):
        print(f"Can't write the state to {dump_state} (--dump-state): {problem}. " + PATH_HINT,
              file=sys.stderr)
        return 1
    if problem := writable_folder(out_dir):  # checked now; the run's folder is made with its first picture
        print(f"Can't make a folder for the pictures in {out_dir} (--out): {problem}. Choose a folder "
              "you can write to, e.g. --out local-table-out.", file=sys.stderr)
        return 1
    store = await Store.open(db)
    try:
        table = Table(CampaignService(store))
        local = LocalTable(table, channel=channel, out_dir=lambda: run_folder(out_dir), user=user)
        print(f"(database: {db}; pictures go to a new folder {next_run_folder(out_dir)}/ when there are any)")
        errors = 0
        if lines is not None:
            errors = await local.run_script(lines)
            for number, line, answer in local.failed:
                print(f"Line {number} failed: {line}\n  {answer.splitlines()[0] if answer else ''}", file=sys.stderr)
            if errors:
                print(f"{count(errors, 'line')} of {script} failed.", file=sys.stderr)
        else:
            await local.interactive()
        if dump_state:
            problem = await local.dump_state(dump_state)
            if problem:
                print(f"--dump-state: {problem}", file=sys.stderr)
                errors += 1
        return errors
    finally:
        await store.close()


def picture_name(number: int, kind: str, filename: str) -> str:
    """A picture's file name at the local table: its number in the run, its kind, what it shows
    (``004-map-12.png``, ``005-roll-12-3.png``, ``006-mat-vilya-12.png``, ``007-skirmish-initiative-9-round2.png``)."""
    stem = re.sub(r"[^a-z0-9]+", "-", Path(str(filename or "")).stem.lower()).strip("-")
    kind = re.sub(r"[^a-z0-9]+", "-", str(kind or "picture").lower()).strip("-") or "picture"
    if stem != kind and not stem.startswith(kind + "-"):
        stem = f"{kind}-{stem}" if stem else kind
    return f"{number:03d}-{stem}.png"


def next_run_folder(out_dir: str | Path) -> Path:
    """The folder the next run's pictures will go to."""
    base = Path(out_dir)
    taken = [int(p.name[4:]) for p in base.glob("run-*") if p.name[4:].isdigit()] if base.is_dir() else []
    return base / f"run-{max(taken, default=0) + 1:03d}"


def writable_file(path: str | Path) -> str | None:
    """Why a file can't be written at ``path`` (None: it can, as far as can be told before writing)."""
    p = Path(path)
    if p.is_dir():
        return "that is a folder"
    folder = p.parent if str(p.parent) else Path(".")
    if not folder.is_dir():
        return f"there is no folder {folder}"
    if not os.access(folder, os.W_OK) or p.exists() and not os.access(p, os.W_OK):
        return "permission denied"
    return None


PATH_HINT = "Give the path of a file in a folder that exists and you can write to, e.g. state.json."


def writable_folder(path: str | Path) -> str | None:
    """Why the pictures' folder ``path`` could not be made or written (None: it can, as far as can be told)."""
    p = Path(path)
    while not p.exists():  # the nearest folder that exists must let us make the rest
        if p.parent == p:
            break
        p = p.parent
    if p.exists() and not p.is_dir():
        return f"{p} is a file, not a folder"
    if not os.access(p, os.W_OK):
        return "permission denied"
    return None


def run_folder(out_dir: str | Path) -> Path:
    """A new folder for this run's pictures (run-001, run-002, ...): a later run never overwrites earlier pictures."""
    base = Path(out_dir)
    base.mkdir(parents=True, exist_ok=True)
    taken = [int(p.name[4:]) for p in base.glob("run-*") if p.name[4:].isdigit()]
    number = max(taken, default=0) + 1
    while True:
        folder = base / f"run-{number:03d}"
        try:
            folder.mkdir()
            return folder
        except FileExistsError:
            number += 1
