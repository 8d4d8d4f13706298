"""Guided adventurer creation: a draft built one choice at a time, then created.

``/adventurer guide`` keeps an unfinished adventurer in ``Campaign.drafts``
(owner id -> draft) so the prompt survives restarts and days.  Every change is
one ``adventurer.draft`` action, logged and undoable like any other:

* ``start``   — a new draft with a name (replaces the owner's older draft);
* ``pick``    — the value of the draft's current step (race, line, form, layout, class);
* ``restart`` — back to the race step, keeping the name;
* ``cancel``  — throw the draft away;
* ``create``  — run ``adventurer.create`` with the draft's values and drop the draft, in one action.

Each draft has an ``id`` (fresh per start) and a ``rev`` (bumped by every change);
a prompt names both, so a click on a replaced or moved-on prompt is refused as
out of date.  Each pick is checked against the pack and the creation rules at once.
"""
from __future__ import annotations

import re
from typing import Any

from engine.bounds import KEY, Int, OneOf, Text
from engine.core import Action, Event, RuleError
from rulesets.tes.rules.table import Ctx, Handler, action, subject
from rulesets.tes.rules.adventurer import (
    LINE_TOKENS, PLACEABLE, RACE_SHEETS, Create, _placement, adventurer_name, dice_in_use, level_die, lookup,
    parse_slot,
)
from rulesets.tes.rules.campaign import MAX_PARTY
from rulesets.tes.state import Campaign
from engine.text import slug

STEPS = ("race", "line", "form", "layout", "class", "summary")
STEP_NAMES = {"race": "race", "line": "starting skill line", "form": "battle form", "layout": "token placement",
              "class": "class", "summary": "summary"}
LATER = "later"  # the class value meaning "decide after the Jailbreak Introduction"
MAX_DRAFTS = MAX_PARTY * 2
DRAFT_ID_RE = re.compile(r"^[a-z0-9]{1,12}$")

OUT_OF_DATE = "This prompt is out of date: "


def new_draft(draft_id: str, name: str) -> dict[str, Any]:
    return {"id": draft_id, "rev": 0, "name": name, "race": None, "line": None, "form": None, "layout": None,
            "klass": None, "class_done": False}


def current_step(draft: dict[str, Any]) -> str:
    if not draft.get("race"):
        return "race"
    if not draft.get("line"):
        return "line"
    if not draft.get("form"):
        return "form"
    if not draft.get("layout"):
        return "layout"
    if not draft.get("class_done"):
        return "class"
    return "summary"


# ------------------------------------------------------------------ layouts --
def layout_code(slots: dict[str, str]) -> str:
    """{'health': '1L', ...} -> '1L.2L.3L.4L.5L' (Health, Stamina, Magicka, Combat, skill line)."""
    return ".".join(slots[k] for k in PLACEABLE)


def parse_layout(text: Any, rows: int) -> dict[str, str]:
    """'1L.2L.3L.2R.4L' -> {'health': '1L', ...}; every slot checked, none shared."""
    parts = [p for p in re.split(r"[\s./;|]+", str(text or "").strip()) if p]
    if len(parts) != len(PLACEABLE):
        raise RuleError(
            f"`{str(text)[:40]}` is not a token placement: give {len(PLACEABLE)} circular slots for Health, "
            "Stamina, Magicka, Combat and your skill line, in that order, like `1L.2L.3L.4L.5L`."
        )
    slots = {}
    for key, part in zip(PLACEABLE, parts):
        row, side = parse_slot(part, rows)
        slots[key] = f"{row + 1}{side}"
    _placement(slots, rows)  # refuses two tokens in one slot
    return slots


def _fits(pack, race, slots: dict[str, str]) -> bool:
    needs = {"health": 0, "stamina": race.stamina, "magicka": race.magicka, "combat": race.combat, "skill": 2}
    per_row: dict[int, int] = {}
    try:
        for key, text in slots.items():
            row, _side = parse_slot(text, pack.mat.rows)
            per_row[row] = per_row.get(row, 0) + needs[key]
    except RuleError:
        return False
    return len(set(slots.values())) == len(slots) and all(n <= pack.mat.squares_per_row for n in per_row.values())


def layouts(pack, race_id: str, line_id: str) -> list[tuple[str, str, str]]:
    """A few sensible placements for this race and line: (label, code, description), the default first.

    Only placements whose rows have room for their tokens are offered.
    """
    race = pack.races[race_id]
    line = pack.lines[line_id].name
    h, s, m, c, k = "health", "stamina", "magicka", "combat", "skill"
    candidates = [
        ("Default: all on the left", {h: "1L", s: "2L", m: "3L", c: "4L", k: "5L"}),
        ("Combat opposite Stamina", {h: "1L", s: "2L", c: "2R", m: "3L", k: "4L"}),
        ("Combat opposite Magicka", {h: "1L", s: "2L", m: "3L", c: "3R", k: "4L"}),
        (f"{line} opposite Stamina", {h: "1L", s: "2L", k: "2R", m: "3L", c: "4L"}),
        (f"{line} opposite Magicka", {h: "1L", s: "2L", m: "3L", k: "3R", c: "4L"}),
        (f"Compact: Combat opposite Stamina, {line} opposite Magicka", {h: "1L", s: "2L", c: "2R", m: "3L", k: "3R"}),
        (f"Compact: {line} opposite Stamina, Combat opposite Magicka", {h: "1L", s: "2L", k: "2R", m: "3L", c: "3R"}),
        ("Combat opposite Health", {h: "1L", c: "1R", s: "2L", m: "3L", k: "4L"}),
        (f"{line} opposite Health", {h: "1L", k: "1R", s: "2L", m: "3L", c: "4L"}),
    ]
    out: list[tuple[str, str, str]] = []
    seen = set()
    for label, slots in candidates:
        code = layout_code(slots)
        if code in seen or not _fits(pack, race, slots):
            continue
        seen.add(code)
        out.append((label[:100], code, describe_layout(pack, line_id, slots)[:100]))
    return out[:25]


def describe_layout(pack, line_id: str, slots: dict[str, str]) -> str:
    """'1L Health · 2L Stamina · 2R Combat · 3L Magicka · 4L Destruction Staff' (row order, left first)."""
    names = {"health": "Health", "stamina": "Stamina", "magicka": "Magicka", "combat": "Combat",
             "skill": pack.lines[line_id].name if line_id in pack.lines else line_id}
    order = sorted(slots.items(), key=lambda kv: (int(kv[1][:-1]), kv[1][-1]))
    return " · ".join(f"{where} {names[key]}" for key, where in order)


# ------------------------------------------------------------- step checks --
def check_race(state: Campaign, pack, value: Any) -> str:
    race_id = lookup(pack.races, value, "race", " Try `/content races`.")
    race = pack.races[race_id]
    if sum(1 for x in state.adventurers.values() if x.race == race_id) >= RACE_SHEETS:
        raise RuleError(f"Both {race.name} sheets are taken in this party; choose another race.")
    combat_die = level_die(pack, "combat", 1)
    free = combat_die.count - dice_in_use(state, combat_die.id)
    if race.combat > free:
        raise RuleError(f"Only {free} Combat dice are left in the supply; the {race.name} needs {race.combat}. "
                        "Choose another race.")
    return race_id


def check_line(state: Campaign, pack, value: Any) -> str:
    line_id = lookup({k: v for k, v in pack.lines.items() if k != "combat"}, value, "skill line",
                     " Try `/content lines`.")
    line = pack.lines[line_id]
    if sum(1 for x in state.adventurers.values() if line_id in x.lines()) >= LINE_TOKENS:
        raise RuleError(f"Every {line.name} token is taken in this party; choose another starting skill line.")
    first = level_die(pack, line_id, 1)
    free = first.count - dice_in_use(state, first.id)
    if free < 2:
        raise RuleError(f"Only {free} {first.name} dice are left in the supply; a starting line needs 2. "
                        "Choose another skill line.")
    return line_id


def check_form(pack, line_id: str, value: Any) -> str:
    from rulesets.tes.content import BATTLE_FORMS

    line = pack.lines[line_id]
    form = slug(value or "")
    if line.form:
        raise RuleError(f"{line.name} sets your battle form to {line.form}; there is no form to choose.")
    if form not in BATTLE_FORMS:
        raise RuleError(f"`{str(value)[:40]}` is not a battle form. Choose one of: {', '.join(BATTLE_FORMS)}.")
    return form


def create_args(draft: dict[str, Any]) -> dict[str, Any]:
    """The ``adventurer.create`` arguments this draft stands for (so far)."""
    args: dict[str, Any] = {"name": draft["name"], "race": draft.get("race"), "line": draft.get("line")}
    if draft.get("form"):
        args["form"] = draft["form"]
    if draft.get("layout"):
        args.update(dict(zip(PLACEABLE, draft["layout"].split("."))))
    if draft.get("klass"):
        args["klass"] = draft["klass"]
    return args


def _create_action(action: Action, draft: dict[str, Any], rules: int = 0) -> Action:
    args = create_args(draft)
    if rules >= 3:  # from rules revision 3 the adventurer takes its draft's id (earlier drafts made none)
        args["id"] = draft["id"]
    return Action("adventurer.create", action.actor, args, action.on_behalf)


# ----------------------------------------------------------------- action --
@action
class Draft(Handler):
    type = "adventurer.draft"
    summary = "Build your adventurer step by step (/adventurer guide)."
    args = {"op": Text(20), "draft": KEY, "name": Text(), "step": Text(20), "value": Text(),
            "rev": OneOf((Int(0, 1_000_000), Text(12)))}
    joins = True  # a player not in the party may draft their own adventurer (its creation seats them)

    def check(self, state, action, ctx):
        self._run(state.clone(), action, ctx)  # on a throw-away copy; raises on any broken rule

    def apply(self, state, action, ctx):
        return state, self._run(state, action, ctx)

    def _run(self, state: Campaign, action: Action, ctx: Ctx) -> list[Event]:
        owner = subject(state, action)
        op = action.args.get("op")
        if op == "start":
            return self._start(state, action, ctx, owner)
        draft = self._draft(state, action, owner)
        name = draft["name"]
        if op == "pick":
            return self._pick(state, action, ctx, owner, draft)
        if op == "restart":
            state.drafts[owner] = new_draft(draft["id"], name) | {"rev": draft["rev"] + 1}
            return [Event("draft", f"The draft for {name} starts over.", {"player": owner, "draft": draft["id"]})]
        if op == "cancel":
            del state.drafts[owner]
            return [Event("draft", f"The draft for {name} is thrown away.",
                          {"player": owner, "draft": draft["id"]})]
        if op == "create":
            step = current_step(draft)
            if step != "summary":
                raise RuleError(f"{OUT_OF_DATE}the draft still needs its {STEP_NAMES[step]}. "
                                "Use the newest prompt, or run `/adventurer guide` again.")
            create = _create_action(action, draft, state.rules)
            handler = _create_handler()
            handler.check(state, create, ctx)
            state, events = handler.apply(state, create, ctx)
            state.drafts.pop(owner, None)
            return events
        raise RuleError(f"`{op}` is not a draft step. Use the buttons and menus of `/adventurer guide`.")

    # ---- steps -------------------------------------------------------------
    def _start(self, state: Campaign, action: Action, ctx: Ctx, owner: str) -> list[Event]:
        draft_id = str(action.args.get("draft") or "")
        if not DRAFT_ID_RE.match(draft_id):
            raise RuleError("A draft needs an id of lowercase letters and digits (the bot makes one).")
        if state.battle:
            raise RuleError("Adventurers are created between battles. Wait until this battle ends.")
        if owner in state.adventurers:
            raise RuleError(
                f"You already have an adventurer, {state.adventurers[owner].name}. "
                "See it with `/adventurer show`, or `/adventurer retire` it first to make a new one."
            )
        if owner not in state.members and len(state.members) >= MAX_PARTY:
            raise RuleError(f"The party is full ({MAX_PARTY} players), so you can't create an adventurer here.")
        name = adventurer_name(state, action.args.get("name"))
        # drafts of players who have an adventurer by now can never finish
        for other in [o for o in state.drafts if o in state.adventurers]:
            del state.drafts[other]
        if owner not in state.drafts and len(state.drafts) >= MAX_DRAFTS:
            raise RuleError(f"This party already has {MAX_DRAFTS} unfinished drafts. Finish or cancel one first, "
                            "or use `/adventurer create`.")
        old = state.drafts.get(owner)
        state.drafts[owner] = new_draft(draft_id, name) | {"rev": (old["rev"] + 1) if old else 0}
        text = f"{{@player}} starts a guided draft for {name}."
        if old:
            text += f" (It replaces the unfinished draft for {old['name']}.)"
        return [Event("draft", text, {"player": owner, "draft": draft_id})]

    def _pick(self, state: Campaign, action: Action, ctx: Ctx, owner: str, draft: dict[str, Any]) -> list[Event]:
        pack = ctx.pack_for(state)
        step = current_step(draft)
        asked = action.args.get("step")
        if asked and asked != step:
            raise RuleError(f"{OUT_OF_DATE}the draft is at its {STEP_NAMES[step]} step now. "
                            "Use the newest prompt, or run `/adventurer guide` again.")
        value = action.args.get("value")
        if value is None or str(value).strip() == "":
            raise RuleError(f"Choose a {STEP_NAMES[step]} from the menu.")
        new = dict(draft)
        if step == "race":
            new["race"] = check_race(state, pack, value)
            shown = pack.races[new["race"]].name
        elif step == "line":
            new["line"] = check_line(state, pack, value)
            new["form"] = pack.lines[new["line"]].form or None
            shown = pack.lines[new["line"]].name
        elif step == "form":
            from rulesets.tes.content import BATTLE_FORM_NAMES

            new["form"] = check_form(pack, draft["line"], value)
            shown = BATTLE_FORM_NAMES.get(new["form"], new["form"])
        elif step == "layout":
            slots = parse_layout(value, pack.mat.rows)
            new["layout"] = layout_code(slots)
            shown = describe_layout(pack, draft["line"], slots)
        elif step == "class":
            if slug(value) in (LATER, "none", "") and slug(value) not in pack.classes:
                new["klass"] = None
                shown = "decided after the Jailbreak Introduction"
            else:
                new["klass"] = Create.check_class(state, pack, value, owner)
                shown = pack.classes[new["klass"]].name
            new["class_done"] = True
        else:
            raise RuleError("Every choice is made: press Create (or Start over).")
        if step in ("form", "layout", "class") or (step == "line" and new["form"]):
            # everything chosen so far, checked by the creation rules themselves (on a throw-away build)
            _create_handler()._build(state, _create_action(action, new), ctx)
        new["rev"] = draft["rev"] + 1
        state.drafts[owner] = new
        return [Event("draft", f"Draft {draft['name']}: {STEP_NAMES[step]} — {shown}.",
                      {"player": owner, "draft": draft["id"], "step": step})]

    # ---- helpers -------------------------------------------------------------
    @staticmethod
    def _draft(state: Campaign, action: Action, owner: str) -> dict[str, Any]:
        draft = state.drafts.get(owner)
        if draft is None:
            if owner in state.adventurers:
                why = f"{state.adventurers[owner].name} has been created already."
            else:
                why = "that draft was finished, thrown away or undone."
            raise RuleError(f"{OUT_OF_DATE}{why} Start a new one with `/adventurer guide`.")
        if str(action.args.get("draft") or "") != draft["id"]:
            raise RuleError(f"{OUT_OF_DATE}a newer `/adventurer guide` replaced this draft "
                            f"(now {draft['name']}). Use the newest prompt.")
        rev = action.args.get("rev")
        if rev is not None and str(rev) != str(draft["rev"]):
            raise RuleError(f"{OUT_OF_DATE}the draft has moved on since. Use the newest prompt, "
                            "or run `/adventurer guide` again.")
        return draft


def _create_handler() -> Handler:
    from rulesets.tes.rules.table import HANDLERS

    return HANDLERS["adventurer.create"]
