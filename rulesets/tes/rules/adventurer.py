"""Adventurer creation (rulebook pages 19-27) and the adventurer actions outside battle."""
from __future__ import annotations

import re
from typing import Any

from engine.bounds import CONFIRM, KEY, Text
from engine.core import Action, Event, RuleError
from rulesets.tes.rules.table import Ctx, Handler, action, subject
from rulesets.tes.rules.campaign import MAX_PARTY
from rulesets.tes.state import Adventurer, Campaign, Row, Slot
from engine.text import a_or_an, clean_name, echo, slug
from engine.text import count

# Component limits this bot assumes where the rulebook gives no number (docs/rules-notes.md):
RACE_SHEETS = 2  # "2 sheets for each race": at most 2 adventurers of one race
LINE_TOKENS = 2  # circular tokens of each skill line in the trainer bag
CLASS_SHEETS = 1  # one sheet per class

# Creation places these tokens; their default slots when the player names none.
PLACEABLE = ("health", "stamina", "magicka", "combat", "skill")
DEFAULT_PLACEMENT = {"health": "1L", "stamina": "2L", "magicka": "3L", "combat": "4L", "skill": "5L"}

OUT_OF_DATE_ADVENTURER = ("This button is out of date: that adventurer has retired (or another took its place). "
                          "Nothing was changed; see /campaign status.")

_SLOT_RE = re.compile(r"^\s*(?:row\s*)?(\d)\s*[-:/ ]?\s*(l|r|left|right)\s*$", re.I)


def parse_slot(text: str, rows: int) -> tuple[int, str]:
    """'2R', '2 right', 'row 2 left' -> (1, 'R')  (0-based row, side)."""
    m = _SLOT_RE.match(str(text or ""))
    if not m:
        raise RuleError(
            f"`{echo(text)}` is not a circular slot. Write the row number and side, like `2L` (row 2, left) or `4R`."
        )
    row = int(m.group(1))
    if not 1 <= row <= rows:
        raise RuleError(f"Row {row} does not exist: the mat has rows 1 to {rows}.")
    return row - 1, m.group(2)[0].upper()


MAP_LABEL = re.compile(r"^[^\W\d_]{1,4}\d{1,3}$")


def adventurer_name(state: Campaign, text: Any) -> str:
    """A new adventurer's name as typed: clean, not the name of another adventurer of the party; from rules
    revision 3 also not like a hex (2,1) or a map label (HEB1, E2), which commands use to name units."""
    from engine.hexes import Hex

    name = clean_name(text, "adventurer")
    if state.adventurer_named(name):
        raise RuleError(f"The party already has an adventurer called {name}. Pick another name.")
    if state.rules >= 3:
        try:
            Hex.parse(name)
        except ValueError:
            pass
        else:
            raise RuleError(f"{name} reads like a hex (q,r), which commands use to name where a unit stands. "
                            "Pick a name with a word in it.")
        if MAP_LABEL.match(name):
            raise RuleError(f"{name} reads like a unit's label on the battle map (a few letters and a number, "
                            "e.g. HEB1), which commands use to name units. Pick another name.")
    return name


def adventurer_id(value: Any) -> str:
    """A new adventurer's id as its creation names it (the command draws one); "" for none."""
    text = str(value or "")
    return text if re.fullmatch(r"[a-z0-9]{1,16}", text) else ""


def slot_label(row: int, side: str) -> str:
    return f"row {row + 1} {'left' if side == 'L' else 'right'}"


def lookup(mapping: dict[str, Any], text: Any, what: str, command_hint: str = "") -> str:
    """Find a content entry by id or by name; a clear message when none matches."""
    key = slug(text or "")
    if not key:
        raise RuleError(f"Choose a {what}.{command_hint}")
    if key in mapping:
        return key
    for ident, entry in mapping.items():
        if slug(getattr(entry, "name", "")) == key:
            return ident
    close = [getattr(e, "name", i) for i, e in mapping.items() if key[:3] in i][:5]
    hint = f" Did you mean {', '.join(close)}?" if close else ""
    every = [getattr(e, "name", i) for i, e in mapping.items()]
    names = ", ".join(every[:LIST_MAX]) + (f" and {len(every) - LIST_MAX} more" if len(every) > LIST_MAX else "")
    raise RuleError(f"There is no {what} called `{echo(text)}`.{hint} Choose one of the {len(every)}: "
                    f"{names}.{command_hint if len(every) > LIST_MAX else ''}")


#: a refusal lists every choice up to this many (the pack's 15 classes all fit); beyond, it names the command
LIST_MAX = 25


def level_die(pack, line_id: str, level: int):
    for die in pack.lines[line_id].dice:
        if die.level == level:
            return die
    raise RuleError(f"The {pack.lines[line_id].name} line has no level {level} die in this pack.")


def dice_in_use(state: Campaign, die_type: str, *, besides: str | None = None) -> int:
    return sum(
        1
        for owner, adv in state.adventurers.items()
        if owner != besides
        for d in adv.dice.values()
        if d["type"] == die_type
    )


def _placement(args: dict[str, Any], rows: int) -> dict[str, tuple[int, str]]:
    """Every token's slot: the player's choices, the rest in default order into free slots."""
    chosen: dict[str, tuple[int, str]] = {}
    for key in PLACEABLE:
        if args.get(key):
            chosen[key] = parse_slot(args[key], rows)
    taken: dict[tuple[int, str], str] = {}
    for key, where in chosen.items():
        if where in taken:
            raise RuleError(
                f"{taken[where].title()} and {key} are both placed in {slot_label(*where)}; "
                "each circular slot holds one token."
            )
        taken[where] = key
    free = [(r, s) for s in ("L", "R") for r in range(rows) if (r, s) not in taken]
    for key in PLACEABLE:
        if key not in chosen:
            default = parse_slot(DEFAULT_PLACEMENT[key], rows)
            where = default if default not in taken else free[0]
            chosen[key] = where
            taken[where] = key
            if where in free:
                free.remove(where)
    return chosen


@action
class Create(Handler):
    type = "adventurer.create"
    summary = "Create your adventurer."
    args = {k: Text() for k in ("name", "race", "line", "klass", "form", *PLACEABLE)} | {"id": KEY}
    joins = True  # a player's own creation seats them

    def check(self, state, action, ctx):
        self._build(state, action, ctx)  # builds on a throw-away copy; raises on any broken rule

    def apply(self, state, action, ctx):
        adv, events = self._build(state, action, ctx)
        owner = adv.owner
        if owner not in state.members:
            state.members.append(owner)
        state.adventurers[owner] = adv
        return state, events

    def _build(self, state: Campaign, action: Action, ctx: Ctx) -> tuple[Adventurer, list[Event]]:
        pack = ctx.pack_for(state)
        a = action.args
        owner = subject(state, action)
        events: list[Event] = []
        if state.battle:
            raise RuleError("Adventurers are created between battles. Wait until this battle ends.")
        if owner in state.adventurers:
            raise RuleError(
                f"You already have an adventurer, {state.adventurers[owner].name}. "
                "See it with `/adventurer show`, or `/adventurer retire` it first to make a new one."
            )
        if owner not in state.members:
            if owner != action.actor:
                # the leader acts for members only: nobody is put into a party they never joined
                raise RuleError("{@player} is not in this party. They join with `/campaign join` (or create "
                                "their own adventurer) first.", player=owner)
            if len(state.members) >= MAX_PARTY:
                raise RuleError(f"The party is full ({MAX_PARTY} players), so you can't create an adventurer here.")
            events.append(Event("joined", "{@player} joins the party.", {"player": owner}))
        if len(state.adventurers) >= MAX_PARTY:
            raise RuleError(f"The party already has {MAX_PARTY} adventurers, the most it can have.")

        name = adventurer_name(state, a.get("name"))

        race_id = lookup(pack.races, a.get("race"), "race", " Try `/content races`.")
        race = pack.races[race_id]
        same_race = sum(1 for x in state.adventurers.values() if x.race == race_id)
        if same_race >= RACE_SHEETS:
            raise RuleError(f"Both {race.name} sheets are taken in this party; choose another race.")

        line_id = lookup(
            {k: v for k, v in pack.lines.items() if k != "combat"}, a.get("line"), "skill line",
            " Try `/content lines`.",
        )
        line = pack.lines[line_id]
        tokens_used = sum(1 for x in state.adventurers.values() if line_id in x.lines())
        if tokens_used >= LINE_TOKENS:
            raise RuleError(f"Every {line.name} token is taken in this party; choose another starting skill line.")

        form = a.get("form")
        if line.form:
            if form and slug(form) != line.form:
                raise RuleError(
                    f"{line.name} sets your battle form to {line.form}; leave `form` empty or choose {line.form}."
                )
            form = line.form
        else:
            from rulesets.tes.content import BATTLE_FORMS

            if not form:
                raise RuleError(
                    f"{line.name} has no battle form of its own: choose your starting form with `form:` "
                    f"({', '.join(BATTLE_FORMS)})."
                )
            form = slug(form)
            if form not in BATTLE_FORMS:
                raise RuleError(f"`{echo(a.get('form'))}` is not a battle form. Choose one of: {', '.join(BATTLE_FORMS)}.")

        class_id = None
        if a.get("klass"):
            class_id = self.check_class(state, pack, a["klass"], owner)

        rows_n = pack.mat.rows
        squares_n = pack.mat.squares_per_row
        where = _placement(a, rows_n)
        needs = {
            "health": 0,
            "stamina": race.stamina,
            "magicka": race.magicka,
            "combat": race.combat,
            "skill": 2,
        }
        labels = {"health": "Health", "stamina": "Stamina", "magicka": "Magicka", "combat": "Combat", "skill": line.name}
        per_row: dict[int, list[str]] = {}
        for key, (row, _side) in where.items():
            per_row.setdefault(row, []).append(key)
        for row, keys in per_row.items():
            total = sum(needs[k] for k in keys)
            if total > squares_n:
                parts = " and ".join(f"{labels[k]} needs {needs[k]}" for k in keys)
                raise RuleError(
                    f"Row {row + 1} has only {count(squares_n, 'square slot')}: {parts}. Move one of them to another row."
                )

        combat_die = level_die(pack, "combat", 1)
        free_combat = combat_die.count - dice_in_use(state, combat_die.id)
        if race.combat > free_combat:
            raise RuleError(f"Only {free_combat} Combat dice are left in the supply; this race needs {race.combat}.")
        first_die = level_die(pack, line_id, 1)
        free_first = first_die.count - dice_in_use(state, first_die.id)
        if free_first < 2:
            raise RuleError(
                f"Only {free_first} {first_die.name} dice are left in the supply; a starting line needs 2. "
                "Choose another skill line."
            )

        rows = [Row(squares=[None] * squares_n) for _ in range(rows_n)]
        adv = Adventurer(
            owner=owner, name=name, race=race_id, rows=rows, hp=race.health,
            cooldown_stat=race.cooldown, battle_form=form, class_id=class_id, id=adventurer_id(a.get("id")),
        )

        def place(key: str, slot: Slot, fill: list[dict[str, str]]) -> None:
            row_i, side = where[key]
            row = rows[row_i]
            if side == "L":
                row.left = slot
                order = range(squares_n)
            else:
                row.right = slot
                order = range(squares_n - 1, -1, -1)
            free = [i for i in order if row.squares[i] is None]
            for item, idx in zip(fill, free):
                row.squares[idx] = item

        def new_dice(die, n: int) -> list[dict[str, str]]:
            out = []
            for _ in range(n):
                die_id = f"d{adv.next_die}"
                adv.next_die += 1
                adv.dice[die_id] = {"type": die.id, "line": die.line, "level": die.level}
                out.append({"die": die_id})
            return out

        place("health", Slot("stat", "health", race.health), [])
        place("stamina", Slot("stat", "stamina"), [{"stat": "stamina"}] * race.stamina)
        place("magicka", Slot("stat", "magicka"), [{"stat": "magicka"}] * race.magicka)
        place("combat", Slot("line", "combat"), new_dice(combat_die, race.combat))
        place("skill", Slot("line", line_id), new_dice(first_die, 2))

        cls_text = pack.classes[class_id].name if class_id else "chosen after the Jailbreak Introduction (or `/adventurer class`)"
        events.append(Event(
            "adventurer-created",
            f"{name} the {race.name} joins the party: {race.health} Health, {race.stamina} Stamina, "
            f"{race.magicka} Magicka, {race.combat} Combat, Cooldown {race.cooldown}; starts with {line.name} "
            f"(2 {first_die.name}), {form} battle form; class: {cls_text}.",
            {"player": owner, "name": name, "race": race_id, "line": line_id, "class": class_id},
        ))
        return adv, events

    @staticmethod
    def check_class(state: Campaign, pack, text: Any, owner: str) -> str:
        class_id = lookup(pack.classes, text, "class", " Try `/content classes`.")
        klass = pack.classes[class_id]
        if getattr(klass, "expansion_only", False):
            raise RuleError(f"{klass.name} needs an expansion this pack does not include; choose another class.")
        taken = [x for o, x in state.adventurers.items() if o != owner and x.class_id == class_id]
        if len(taken) >= CLASS_SHEETS:
            raise RuleError(f"{taken[0].name} already has the {klass.name} class sheet; choose another class.")
        return class_id


@action
class ChooseClass(Handler):
    type = "adventurer.class"
    summary = "Choose your class (open choice) if you have none yet."
    args = {"klass": Text()}

    def check(self, state, action, ctx):
        owner = subject(state, action)
        adv = state.adventurers.get(owner)
        if adv is None:
            raise RuleError("You have no adventurer yet. Create one with `/adventurer create`.")
        if adv.class_id:
            raise RuleError(f"{adv.name} is already {a_or_an(ctx.pack_for(state).classes[adv.class_id].name)}; "
                            "a class is a permanent choice.")
        if state.battle:
            raise RuleError("Choose your class between battles.")
        if state.class_rewards.get(owner):
            raise RuleError("Your class rewards are waiting: choose with `/battle class` (see `/battle status`).")
        Create.check_class(state, ctx.pack_for(state), action.args.get("klass"), owner)

    def apply(self, state, action, ctx):
        owner = subject(state, action)
        adv = state.adventurers[owner]
        adv.class_id = Create.check_class(state, ctx.pack_for(state), action.args.get("klass"), owner)
        name = ctx.pack_for(state).classes[adv.class_id].name
        return state, [Event("class-chosen", f"{adv.name} becomes {a_or_an(name)} (novice side).",
                             {"player": owner, "class": adv.class_id})]


@action
class Retire(Handler):
    type = "adventurer.retire"
    summary = "Retire your adventurer (to create a new one)."
    # ``adventurer``: which one the confirmation button was for (``Adventurer.ident``)
    args = {"confirm": CONFIRM, "adventurer": KEY}

    def check(self, state, action, ctx):
        owner = subject(state, action)
        if owner not in state.adventurers:
            if action.args.get("adventurer"):
                raise RuleError(OUT_OF_DATE_ADVENTURER)
            raise RuleError("There is no adventurer to retire.")
        if action.args.get("adventurer") and state.adventurers[owner].ident() != action.args["adventurer"]:
            raise RuleError(OUT_OF_DATE_ADVENTURER)
        if state.battle:
            raise RuleError("You can't retire in the middle of a battle.")
        if not action.args.get("confirm"):
            raise RuleError("Retiring removes the adventurer for good. Confirm with the button (or `confirm:yes`).")

    def apply(self, state, action, ctx):
        owner = subject(state, action)
        adv = state.adventurers.pop(owner)
        return state, [Event("retired", f"{adv.name} retires from the party.", {"player": owner})]
