"""The campaign in a pack: guild cards, keywords, side quests, guild quests with their steps, and endgames.

Files (all optional: a pack without guild cards plays sessions without quests):

* ``guilds.toml``                    [[guild]] the guild deck: each guild card and its guild kiosk action
* ``keywords.toml``                  [[keyword]] major (guild quests) and minor (side quests, encounters) keywords
* ``side_quests.toml``               [[side_quest]] the side-quest deck
* ``provinces/<id>/quests.toml``     [[quest]] the province's guild quests: steps in order, then the epilogue
* ``provinces/<id>/endgame.toml``    the endgame in that province: its days and their encounters

A quest encounter (a guild quest step, a side quest, an endgame day) reads like an overland card: a story and
choices in the overland card format (``rulesets.tes.content.overland``), so the day resolves it the same way.
Every problem names the file, the entry and the field (docs/content-format.md, "Guild quests, side quests and
the endgame").
"""
from __future__ import annotations

from engine.text import a_or_an
import re
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Iterable

from rulesets.tes.content.overland import DAY_EFFECTS, CardChoice, _choice, _day_effects, _in
from rulesets.tes.content.reader import ID_RE, _Entry, _entries, _quoted, _read_toml, _show

TRIGGER_KEYS = ("town", "hex", "token", "landmark", "where", "linked", "tally", "count")
TALLIES = ("peaceful", "conflict", "unstable", "town", "battle", "any")
WHERE = ("north", "south", "east", "west")
LANDMARK_KINDS = ("peaceful", "conflict", "unstable", "any")
TIMINGS = ("new-day", "end-of-day")
FAIL = ("quest", "retry")
#: a quest card's choice outcomes: peaceful, or a battle that names its encounter's mode (docs/content-format.md,
#: "Guild quests"): the words the party sees (the choice's icon, the menus) name the battle it fights
BATTLES = ("clash", "delve", "dungeon")
STEP_OUTCOMES = ("peaceful",) + BATTLES
CODE_RE = re.compile(r"^[A-Z][0-9]{2}$")
#: effect types that name something a loader can check: (field, what it names)
REFERENCES = {"keyword": ("keyword", "keyword"), "side-quest": ("card", "side quest"),
              "gain-item": ("item", "item"), "place-token": ("town", "town"),
              "move-token": ("toward", "town"), "close-town": ("town", "town"), "open-town": ("town", "town")}


# ------------------------------------------------------------------ records --
@dataclass(frozen=True)
class Keyword:
    id: str
    name: str
    kind: str  # major | minor
    text: str


@dataclass(frozen=True)
class Kiosk:
    """A guild's town action at a guild kiosk (p.40): effects of the day on the adventurer who takes it."""

    name: str
    text: str
    effects: tuple[dict, ...] = ()
    manual: bool = False


@dataclass(frozen=True)
class GuildCard:
    id: str
    name: str
    text: str
    kiosk: Kiosk


@dataclass(frozen=True)
class QuestTrigger:
    """What triggers a quest encounter (p.34): the party in a town, a hex or a token's hex at the Overland
    Phase's trigger step, moving into a landmark of a kind (``where``: only the northernmost, southernmost...
    of them), at once after the previous step (``linked``), or no encounter: successful encounters counted
    in the Reward Phase (``tally`` kind, ``count`` of them)."""

    town: str | None = None  # a town id, or "any"
    hex: tuple[int, int] | None = None
    token: str | None = None
    landmark: str | None = None  # peaceful | conflict | unstable | any
    where: str | None = None  # north | south | east | west
    linked: bool = False
    tally: str | None = None
    count: int = 0

    def words(self) -> str:
        if self.linked:
            return "at once, the same day"
        if self.tally:
            what = {"any": "encounters", "battle": "battles", "town": "town encounters",
                    "unstable": "encounters at unstable landmarks"}.get(self.tally, f"{self.tally} encounters")
            return f"{self.count} {what} succeeded (counted in the Reward Phase)"
        if self.town:
            return "in any town" if self.town == "any" else f"in town {self.town}"
        if self.hex:
            return f"in hex {self.hex[0]},{self.hex[1]}"
        if self.token:
            return f"in the hex of token {self.token}"
        if self.landmark:
            most = f"{self.where}ernmost " if self.where else ""
            kind = "" if self.landmark == "any" else f"{self.landmark} "
            return f"moving into the {most}{kind}landmark"
        return "never"


@dataclass(frozen=True)
class Ongoing:
    """An ongoing step effect (p.47): active until the step is completed, at New Day or at the End of Day's
    Activate Province Effect step: effects of the day, a token that moves, or words the party applies."""

    timing: str
    text: str
    effects: tuple[dict, ...] = ()
    token: str | None = None
    move: int = 0
    toward: str = "party"
    manual: bool = False


@dataclass(frozen=True)
class Step:
    """A guild quest step (p.47).  Read like an overland card by the day: ``name``, ``label``, ``story``,
    ``choices``, ``encounter``."""

    id: str
    code: str  # "A01": its letter (order in the quest) and its number in the gazetteer
    quest: str
    title: str  # the quest's title
    guild: str
    story: str
    objective: str
    trigger: QuestTrigger
    choices: tuple[CardChoice, ...]
    encounter: str | None = None
    final: bool = False  # the session's final battle: End of Session EP (p.56)
    fail: str = "quest"  # quest | retry | a step id
    recommended: int = 0
    setup_text: str = ""
    setup: tuple[dict, ...] = ()
    ongoing: tuple[Ongoing, ...] = ()
    rewards: str = ""
    battle_first: bool = False  # its encounter's battle is fought first; its choices follow a victory
    kind: str = "step"

    @property
    def letter(self) -> str:
        return self.code[0]

    @property
    def name(self) -> str:
        return f"{self.title}, step {self.letter}"

    @property
    def label(self) -> str:
        return self.code


@dataclass(frozen=True)
class NextQuest:
    province: str
    quest: str


@dataclass(frozen=True)
class Epilogue:
    id: str
    code: str
    story: str
    keyword: str  # the major keyword it gives
    next: tuple[NextQuest, ...] = ()  # session 1: the guild quests offered for session 2
    lore: str = ""  # session 2: the words that lead into the endgame in this province


@dataclass(frozen=True)
class GuildQuest:
    id: str
    guild: str
    province: str
    name: str
    complexity: int
    snapshot: str
    start: str  # the starting town
    steps: tuple[Step, ...]
    epilogue: Epilogue

    def step(self, step_id: str) -> Step | None:
        return next((s for s in self.steps if s.id == step_id), None)

    def next_step(self, step: Step) -> Step | None:
        """The first step of the next letter (None: the epilogue comes next)."""
        later = [s for s in self.steps if s.letter > step.letter]
        return later[0] if later else None


@dataclass(frozen=True)
class SideQuest:
    """A side-quest card (p.48): an encounter it triggers (choices, a battle), or a tally of encounters whose
    rewards (``xp``, ``effects``) come at the next town encounter."""

    id: str
    number: int
    name: str
    story: str
    text: str
    trigger: QuestTrigger
    choices: tuple[CardChoice, ...] = ()
    encounter: str | None = None
    xp: int = 0  # rewards of a tally quest (an encounter's are on its choices)
    effects: tuple[dict, ...] = ()
    battle_first: bool = False
    kind: str = "side"
    final: bool = False

    @property
    def label(self) -> str:
        return f"SQ {self.number}"


@dataclass(frozen=True)
class KeywordRule:
    """What an endgame day does for a party that has a keyword (p.51), before its encounter."""

    keyword: str
    text: str
    effects: tuple[dict, ...] = ()
    manual: bool = False


@dataclass(frozen=True)
class EndgameDay:
    id: str
    day: int
    title: str
    story: str
    choices: tuple[CardChoice, ...]
    encounter: str | None = None
    final: bool = False
    keywords: tuple[KeywordRule, ...] = ()
    battle_first: bool = False
    kind: str = "endgame"

    @property
    def name(self) -> str:
        return self.title

    @property
    def label(self) -> str:
        return f"Endgame, day {self.day}"


@dataclass(frozen=True)
class Endgame:
    province: str
    name: str
    text: str
    days: int  # its day limit
    province_effect: bool
    setup: tuple[dict, ...]
    encounters: tuple[EndgameDay, ...]
    victory: str
    defeat: str

    def on_day(self, day: int) -> EndgameDay | None:
        return next((e for e in self.encounters if e.day == day), None)


@dataclass(frozen=True)
class Campaign:
    """Everything a pack's campaign plays with (``Pack.campaign``)."""

    guilds: dict[str, GuildCard] = field(default_factory=dict)
    keywords: dict[str, Keyword] = field(default_factory=dict)
    side_quests: dict[str, SideQuest] = field(default_factory=dict)
    quests: dict[str, GuildQuest] = field(default_factory=dict)
    endgames: dict[str, Endgame] = field(default_factory=dict)  # province id -> its endgame
    cards: dict[str, Any] = field(default_factory=dict)  # every step, side quest and endgame day by id

    def quest_of(self, guild: str, province: str) -> GuildQuest | None:
        return next((q for q in self.quests.values() if q.guild == guild and q.province == province), None)

    def step(self, step_id: str) -> Step | None:
        card = self.cards.get(step_id)
        return card if isinstance(card, Step) else None


# ------------------------------------------------------------------ loading --
def load_campaign(folder: Path, errors: list[str], *, lines: dict, items: dict, encounters: dict,
                  provinces: dict, overland_cards: dict) -> Campaign:
    keywords = _load_keywords(folder, errors)
    guilds = _load_guilds(folder, errors)
    sides = _load_side_quests(folder, errors, lines)
    quests: dict[str, GuildQuest] = {}
    endgames: dict[str, Endgame] = {}
    for prov in provinces.values():
        rel_dir = _in("provinces", prov.folder)
        if (folder / rel_dir / "quests.toml").is_file():
            quests.update(_load_quests(folder, rel_dir, prov, errors, lines, quests))
        if (folder / rel_dir / "endgame.toml").is_file():
            eg = _load_endgame(folder, rel_dir, prov, errors, lines)
            if eg is not None:
                endgames[prov.id] = eg
    cards: dict[str, Any] = {}
    for q in quests.values():
        for s in q.steps:
            _add_card(cards, s, errors, f'{_in("provinces", provinces[q.province].folder, "quests.toml")}, quest "{q.id}"',
                      overland_cards)
    for sq in sides.values():
        _add_card(cards, sq, errors, "side_quests.toml", overland_cards)
    for prov_id, eg in endgames.items():
        for d in eg.encounters:
            _add_card(cards, d, errors, _in("provinces", provinces[prov_id].folder, "endgame.toml"), overland_cards)
    camp = Campaign(guilds, keywords, sides, quests, endgames, cards)
    _cross_check(camp, errors, provinces, items, encounters, overland_cards)
    return camp


def _add_card(cards: dict, card, errors: list[str], where: str, overland: dict) -> None:
    if card.id in cards or card.id in overland:
        errors.append(f'{where}, "{card.id}": duplicate id (a step, side quest, endgame day or overland card '
                      "already uses it)")
        return
    cards[card.id] = card


def _load_keywords(folder: Path, errors: list[str]) -> dict[str, Keyword]:
    rel = "keywords.toml"
    if not (folder / rel).is_file():
        return {}
    out = {}
    for kid, e in _entries(_read_toml(folder / rel, rel, errors), "keyword", rel, errors, "keyword"):
        e.unknown_keys(["id", "name", "kind", "text"])
        kw = Keyword(kid, e.text("name"), e.choice("kind", ("major", "minor")) or "minor", e.text("text"))
        if e.ok:
            out[kid] = kw
    return out


def _load_guilds(folder: Path, errors: list[str]) -> dict[str, GuildCard]:
    rel = "guilds.toml"
    if not (folder / rel).is_file():
        return {}
    out = {}
    for gid, e in _entries(_read_toml(folder / rel, rel, errors), "guild", rel, errors, "guild"):
        e.unknown_keys(["id", "name", "text", "kiosk"])
        ke = e.sub("kiosk", "kiosk")
        ke.unknown_keys(["name", "text", "effects", "manual"])
        effects = _day_effects(ke, "effects")
        manual = ke.bool("manual", False) or not effects
        for eff in effects:
            if eff.get("who") == "chosen":
                ke.err("a kiosk action reaches the adventurer who takes it: remove who = \"chosen\"")
        kiosk = Kiosk(ke.text("name"), ke.text("text"), effects, manual)
        if not ke.ok:
            e.ok = False
        card = GuildCard(gid, e.text("name"), e.text("text"), kiosk)
        if e.ok:
            out[gid] = card
    return out


def _trigger(e: _Entry, *, side: bool = False) -> QuestTrigger | None:
    if not e.has("trigger"):
        e.err('is missing the field "trigger" (what triggers its encounter, e.g. trigger = { town = "brinehold" })')
        return None
    te = e.sub("trigger", "trigger")
    te.unknown_keys(TRIGGER_KEYS)
    ways = [k for k in ("town", "hex", "token", "landmark", "linked", "tally") if te.has(k)]
    if len(ways) != 1:
        te.err("names exactly one of town, hex, token, landmark, linked or tally, got "
               + (", ".join(ways) if ways else "none"))
        return None
    way = ways[0]
    t = QuestTrigger()
    if way == "town":
        t = QuestTrigger(town=te.text("town"))
    elif way == "hex":
        t = QuestTrigger(hex=te.hex("hex"))
    elif way == "token":
        t = QuestTrigger(token=te.text("token"))
    elif way == "landmark":
        t = QuestTrigger(landmark=te.choice("landmark", LANDMARK_KINDS), where=te.choice("where", WHERE, None))
    elif way == "linked":
        if not te.bool("linked", False):
            te.err("linked = true, or leave it out")
        t = QuestTrigger(linked=True)
    else:
        t = QuestTrigger(tally=te.choice("tally", TALLIES), count=te.int("count", 1, 12))
    if side and way in ("hex", "token", "linked"):
        te.err(f"a side quest is not tied to one province: trigger it by town, landmark or tally, not {way}")
    if te.has("where") and way != "landmark":
        te.err("where belongs to a landmark trigger")
    if te.has("count") and way != "tally":
        te.err("count belongs to a tally trigger")
    if not te.ok:
        e.ok = False
        return None
    return t


def _choices(e: _Entry, lines: dict, outcomes: Iterable[str] = STEP_OUTCOMES,
             key: str = "choice", steps: bool = False) -> tuple[CardChoice, ...]:
    raw = e.get(key, [])
    if not isinstance(raw, list) or not raw:
        e.err(f"needs at least one [[...{key}]] (how the party resolves its encounter)")
        return ()
    out = []
    for i, rc in enumerate(raw, 1):
        outcome = rc.get("outcome", "peaceful") if isinstance(rc, dict) else "peaceful"
        # a battle choice is read as a clash choice is (the overland card format knows no dungeons: they never
        # appear on overland cards), then keeps the word of its battle's mode
        battle = isinstance(outcome, str) and outcome in BATTLES
        ce = e.sub("", f"choice #{i}", dict(rc, outcome="clash") if battle else rc)
        if outcome not in outcomes:
            ce.err(f"outcome must be one of {_quoted(tuple(outcomes))}, got {_show(outcome)}")
        ch = _choice(ce, i, lines, steps=steps) if ce.ok else None
        if ch is not None and battle:
            ch = replace(ch, outcome=outcome)
        if ch is not None and ce.ok:
            out.append(ch)
        else:
            e.ok = False
    return tuple(out)


def _ongoing(e: _Entry, rel_ok: bool = True) -> tuple[Ongoing, ...]:
    raw = e.get("ongoing", [])
    out = []
    for i, ro in enumerate(raw if isinstance(raw, list) else [], 1):
        oe = e.sub("", f"ongoing #{i}", ro)
        oe.unknown_keys(["timing", "text", "effects", "token", "move", "toward", "manual"])
        timing = oe.choice("timing", TIMINGS)
        effects = _day_effects(oe, "effects")
        token = oe.opt_text("token")
        move = oe.int("move", 0, 12, 0)
        toward = oe.text("toward", "party")
        if toward not in ("party", "compass") and not toward.startswith("town:"):
            oe.err(f'toward must be "party", "compass" or "town:<town id>", got {_show(toward)}')
        manual = oe.bool("manual", False)
        if token and not move:
            oe.err("a token's move must be at least 1")
        if sum(bool(x) for x in (effects, token, manual)) != 1:
            oe.err("does one thing: effects, a token that moves (token and move), or manual = true")
        ong = Ongoing(timing or "end-of-day", oe.text("text"), effects, token, move, toward, manual)
        if oe.ok:
            out.append(ong)
        else:
            e.ok = False
    return tuple(out)


def _battle_first(e: _Entry, choices: tuple[CardChoice, ...], encounter: str | None) -> bool:
    """``battle_first``: the encounter's battle is fought before the choices (which follow a victory)."""
    first = e.bool("battle_first", False)
    if first and not encounter:
        e.err('battle_first needs the battle: encounter = "<id>"')
    if first and any(ch.outcome != "peaceful" for ch in choices):
        e.err("with battle_first the battle comes first: its choices are peaceful")
    if not first and any(ch.outcome in BATTLES for ch in choices) and not encounter:
        e.err('has a battle choice (clash, delve or dungeon) but names no encounter (encounter = "<id>")')
    if encounter and not first and not any(ch.outcome in BATTLES for ch in choices):
        e.err("names an encounter but no choice is a battle (clash, delve or dungeon; or write battle_first = true)")
    return first


def _load_side_quests(folder: Path, errors: list[str], lines: dict) -> dict[str, SideQuest]:
    rel = "side_quests.toml"
    if not (folder / rel).is_file():
        return {}
    out: dict[str, SideQuest] = {}
    numbers: dict[int, str] = {}
    for sid, e in _entries(_read_toml(folder / rel, rel, errors), "side_quest", rel, errors, "side quest"):
        e.unknown_keys(["id", "number", "name", "story", "text", "trigger", "choice", "encounter", "battle_first",
                        "xp", "effects"])
        number = e.int("number", 1, 999)
        if number in numbers:
            e.err(f'number {number} is used by side quest "{numbers[number]}" too')
        numbers[number] = sid
        trigger = _trigger(e, side=True)
        tally = trigger is not None and trigger.tally is not None
        if tally:
            if e.has("choice"):
                e.err("a tally side quest has no encounter: write its rewards as xp and effects, not choices")
            choices: tuple[CardChoice, ...] = ()
        else:
            choices = _choices(e, lines, STEP_OUTCOMES)
            if e.has("xp") or e.has("effects"):
                e.err("the rewards of a side quest with an encounter are on its choices (remove xp and effects)")
        xp = e.int("xp", 0, 20, 0)
        effects = _day_effects(e, "effects")
        encounter = e.opt_text("encounter")
        first = _battle_first(e, choices, encounter)
        if tally and not (xp or effects):
            e.err("a tally side quest needs its rewards: xp and/or effects, gained at the next town encounter")
        if tally and any(eff.get("who") == "chosen" for eff in _walk(effects)):
            e.err('a tally side quest\'s rewards come at a town encounter, where nobody is asked whom they go to: '
                  'write who = "each" or a party effect, not who = "chosen"')
        sq = SideQuest(sid, number, e.text("name"), e.text("story"), e.text("text"), trigger or QuestTrigger(),
                       choices, encounter, xp, effects, first)
        if e.ok and trigger is not None:
            out[sid] = sq
    return out


def _load_quests(folder: Path, rel_dir: str, prov, errors: list[str], lines: dict, known: dict) -> dict:
    rel = _in(rel_dir, "quests.toml")
    out: dict[str, GuildQuest] = {}
    codes: dict[str, str] = {}
    for qid, e in _entries(_read_toml(folder / rel, rel, errors), "quest", rel, errors, "quest"):
        e.unknown_keys(["id", "guild", "name", "complexity", "snapshot", "start", "step", "epilogue"])
        if qid in known:
            e.err("duplicate id (a quest of another province already uses it)")
            continue
        guild = e.text("guild")
        name = e.text("name")
        start = e.text("start")
        if start and start not in prov.towns:
            e.err(f'start names town "{start}", which the gazetteer of {prov.name} does not define')
        raw = e.get("step", [])
        if not isinstance(raw, list) or not 1 <= len(raw) <= 8:
            e.err("needs from 1 to 8 [[quest.step]] tables (the rulebook's quests have 4 to 6 steps)")
            raw = raw if isinstance(raw, list) else []
        steps: list[Step] = []
        for i, rs in enumerate(raw, 1):
            se = e.sub("", f"step #{i}" if not isinstance(rs, dict) or "id" not in rs else f'step "{rs["id"]}"', rs)
            step = _step(se, qid, name, guild, prov, lines)
            if step is None or not se.ok:
                e.ok = False
                continue
            if step.code[1:] in codes:
                se.err(f"code {step.code} has the number {step.code[1:]} of {codes[step.code[1:]]} too (a step's "
                       "number is unique in its province)")
            codes[step.code[1:]] = step.code
            steps.append(step)
        _check_order(e, steps)
        epilogue = _epilogue(e.sub("epilogue", "epilogue"), codes)
        if e.ok and epilogue is not None and steps:
            out[qid] = GuildQuest(qid, guild, prov.id, name, e.int("complexity", 1, 3), e.text("snapshot"), start,
                                  tuple(steps), epilogue)
    return out


def _check_order(e: _Entry, steps: list[Step]) -> None:
    if not steps:
        return
    if steps[0].letter != "A":
        e.err(f"its first step's code must begin with A (got {steps[0].code})")
    letters = sorted({s.letter for s in steps})
    for a, b in zip(letters, letters[1:]):
        if ord(b) != ord(a) + 1:
            e.err(f"its steps skip from letter {a} to {b}")
    for a, b in zip(steps, steps[1:]):
        if b.letter < a.letter:
            e.err(f"step {b.code} comes after {a.code}: write the steps in the order of their letters")
    ids = {s.id for s in steps}
    for s in steps:
        if s.fail not in FAIL and s.fail not in ids:
            e.err(f'step {s.code}: fail names step "{s.fail}", which is not a step of this quest')
        for ch in s.choices:
            if ch.next and ch.next not in ids and ch.next != "epilogue":
                e.err(f'step {s.code}, choice {ch.number}: next names step "{ch.next}", which is not a step of this '
                      'quest (or "epilogue")')
    if steps[0].trigger.linked:
        e.err("its first step cannot be linked to a step before it")
    if not any(s.final for s in steps):
        e.err("no step has final = true: a guild quest's climactic step is a battle at End of Session EP")
    for s in steps:
        if s.final and not s.battle_first and not any(ch.outcome in BATTLES for ch in s.choices):
            e.err(f"step {s.code} is final but has no battle choice (its battle uses End of Session EP)")


def _step(se: _Entry, qid: str, title: str, guild: str, prov, lines: dict) -> Step | None:
    se.unknown_keys(["id", "code", "story", "objective", "trigger", "choice", "encounter", "battle_first", "final",
                     "fail", "recommended", "setup_text", "setup", "ongoing", "rewards"])
    sid = se.text("id")
    if sid and not ID_RE.match(sid):
        se.err(f"id must be lower-case letters, digits and dashes, got {_show(sid)}")
    code = se.text("code")
    if code and not CODE_RE.match(code):
        se.err(f'code must be a capital letter and two digits, like "A01", got {_show(code)}')
    trigger = _trigger(se)
    if trigger is not None and trigger.tally:
        se.err("a guild quest step triggers an encounter (town, hex, token, landmark or linked), not a tally")
    if trigger is not None and trigger.town and trigger.town != "any" and trigger.town not in prov.towns:
        se.err(f'trigger names town "{trigger.town}", which the gazetteer of {prov.name} does not define')
    if trigger is not None and trigger.hex and trigger.hex not in prov.hexes:
        se.err(f"trigger hex {list(trigger.hex)} is not on the map of {prov.name}")
    choices = _choices(se, lines, STEP_OUTCOMES, steps=True)
    encounter = se.opt_text("encounter")
    first = _battle_first(se, choices, encounter)
    fail = se.text("fail", "quest")
    step = Step(sid, code, qid, title, guild, se.text("story"), se.text("objective"), trigger or QuestTrigger(),
                choices, encounter, se.bool("final", False), fail, se.int("recommended", 0, 12, 0),
                se.text("setup_text", "", allow_empty=True), _day_effects(se, "setup"), _ongoing(se),
                se.text("rewards", "", allow_empty=True), first)
    return step if se.ok and trigger is not None else None


def _epilogue(ee: _Entry, codes: dict) -> Epilogue | None:
    if not ee.data:
        ee.err("is missing: every guild quest ends with its epilogue ([quest.epilogue])")
        return None
    ee.unknown_keys(["id", "code", "story", "keyword", "next", "lore"])
    eid = ee.text("id")
    if eid and not ID_RE.match(eid):
        ee.err(f"id must be lower-case letters, digits and dashes, got {_show(eid)}")
    code = ee.text("code")
    if code and not CODE_RE.match(code):
        ee.err(f'code must be a capital letter and two digits, like "E05", got {_show(code)}')
    elif code[1:] in codes:
        ee.err(f"code {code} has the number {code[1:]} of step {codes[code[1:]]} too")
    nxt = []
    raw = ee.get("next", [])
    for i, rn in enumerate(raw if isinstance(raw, list) else [], 1):
        ne = ee.sub("", f"next #{i}", rn)
        ne.unknown_keys(["province", "quest"])
        item = NextQuest(ne.text("province"), ne.text("quest"))
        if ne.ok:
            nxt.append(item)
        else:
            ee.ok = False
    if not isinstance(raw, list):
        ee.err("next must be a list of { province = \"...\", quest = \"...\" }")
    lore = ee.text("lore", "", allow_empty=True)
    if not nxt or not lore:
        ee.err("names the next session both ways: next (the guild quests offered when this is session 1) and "
               "lore (the words that lead into the endgame when this is session 2)")
    epi = Epilogue(eid, code, ee.text("story"), ee.text("keyword"), tuple(nxt), lore)
    return epi if ee.ok else None


def _load_endgame(folder: Path, rel_dir: str, prov, errors: list[str], lines: dict) -> Endgame | None:
    rel = _in(rel_dir, "endgame.toml")
    doc = _read_toml(folder / rel, rel, errors)
    if doc is None:
        return None
    e = _Entry(errors, rel, f"endgame of {prov.id}", doc)
    e.unknown_keys(["name", "text", "days", "province_effect", "setup", "victory", "defeat", "day"])
    days = e.int("days", 1, 12)
    raw = e.get("day", [])
    out: list[EndgameDay] = []
    seen: set[int] = set()
    ids: set[str] = set()
    for i, rd in enumerate(raw if isinstance(raw, list) else [], 1):
        de = e.sub("", f"day #{i}", rd)
        de.unknown_keys(["id", "day", "name", "story", "encounter", "battle_first", "final", "keyword", "choice"])
        did = de.text("id")
        if did and not ID_RE.match(did):
            de.err(f"id must be lower-case letters, digits and dashes, got {_show(did)}")
        if did in ids:
            de.err(f'duplicate id "{did}"')
        ids.add(did)
        day = de.int("day", 1, 12)
        if day in seen:
            de.err(f"day {day} has two encounters")
        seen.add(day)
        if days and day > days:
            de.err(f"day {day} is after the endgame's last day ({days})")
        rules = []
        for j, rk in enumerate(de.get("keyword", []) if isinstance(de.get("keyword", []), list) else [], 1):
            ke = de.sub("", f"keyword #{j}", rk)
            ke.unknown_keys(["keyword", "text", "effects", "manual"])
            effects = _day_effects(ke, "effects")
            rule = KeywordRule(ke.text("keyword"), ke.text("text"), effects, ke.bool("manual", False) or not effects)
            if ke.ok:
                rules.append(rule)
            else:
                de.ok = False
        choices = _choices(de, lines, STEP_OUTCOMES)
        encounter = de.opt_text("encounter")
        first = _battle_first(de, choices, encounter)
        final = de.bool("final", False)
        if final and not first and not any(ch.outcome in BATTLES for ch in choices):
            de.err("is final but has no battle (a clash, delve or dungeon choice, or battle_first)")
        d = EndgameDay(did, day, de.text("name"), de.text("story"), choices, encounter, final, tuple(rules), first)
        if de.ok:
            out.append(d)
        else:
            e.ok = False
    if not out:
        e.err("needs at least one [[day]] (its encounters, one a day)")
    if days and sorted(seen) != list(range(1, days + 1)):
        e.err(f"needs one [[day]] for each day from 1 to {days}")
    if out and not out[-1].final and not any(d.final for d in out):
        e.err("its last day's encounter should be final = true (the battle at End of Session EP)")
    eg = Endgame(prov.id, e.text("name"), e.text("text"), days, e.bool("province_effect", False),
                 _day_effects(e, "setup"), tuple(sorted(out, key=lambda d: d.day)), e.text("victory"),
                 e.text("defeat"))
    return eg if e.ok else None


def _walk(effects) -> Iterable[dict]:
    for eff in effects or ():
        yield eff
        if eff.get("type") == "choose":
            for o in eff.get("options") or ():
                yield from _walk(o.get("effects"))


def _cross_check(camp: Campaign, errors: list[str], provinces: dict, items: dict, encounters: dict,
                 overland_cards: dict) -> None:
    """Every name a quest gives: guilds, keywords, encounters, towns, tokens, items, the next sessions."""
    prov_of = {q.id: provinces[q.province] for q in camp.quests.values()}
    for q in camp.quests.values():
        prov = prov_of[q.id]
        where = f'{_in("provinces", prov.folder, "quests.toml")}, quest "{q.id}"'
        if q.guild not in camp.guilds:
            errors.append(f'{where}: guild "{q.guild}" is not a guild card of guilds.toml')
        others = [o.id for o in camp.quests.values() if o.guild == q.guild and o.province == q.province and o.id != q.id]
        if others:
            errors.append(f'{where}: the guild "{q.guild}" has another quest in {prov.name} ("{others[0]}"); a guild '
                          "has one quest in each province")
        kw = camp.keywords.get(q.epilogue.keyword)
        if kw is None or kw.kind != "major":
            errors.append(f'{where}, epilogue: keyword "{q.epilogue.keyword}" is not a major keyword of keywords.toml')
        for n in q.epilogue.next:
            other = camp.quests.get(n.quest)
            if n.province not in provinces:
                errors.append(f'{where}, epilogue: next names province "{n.province}", which the pack does not have')
            elif other is None or other.province != n.province:
                errors.append(f'{where}, epilogue: next names quest "{n.quest}", which is not a guild quest of '
                              f'{provinces[n.province].name}')
            elif n.province not in camp.endgames:
                errors.append(f'{where}, epilogue: next names {provinces[n.province].name}, which has no endgame '
                              "(session 3 is played in session 2's province)")
        tokens: set[str] = set(t.id for t in prov.tokens)
        for s in q.steps:
            here = f"{where}, step {s.code}"
            tokens |= {eff.get("token") for eff in _walk(s.setup) if eff.get("type") == "place-token"}
            _check_card(s, here, errors, camp, provinces, items, encounters, prov)
            if s.trigger.token and s.trigger.token not in tokens:
                errors.append(f'{here}: trigger names token "{s.trigger.token}", which no earlier step places and the '
                              "province does not have")
            for o in s.ongoing:
                if o.token and o.token not in tokens:
                    errors.append(f'{here}: an ongoing effect moves token "{o.token}", which is not on the map then')
                if o.toward.startswith("town:") and o.toward[5:] not in prov.towns:
                    errors.append(f'{here}: an ongoing effect moves toward town "{o.toward[5:]}", which '
                                  f"{prov.name} does not have")
                _check_effects(o.effects, f"{here}, ongoing", errors, camp, items, prov)
            _check_effects(s.setup, f"{here}, setup", errors, camp, items, prov)
            for ch in s.choices:  # tokens a choice places are on the map for the steps after it
                tokens |= {eff.get("token") for eff in _walk(tuple(ch.effects) + tuple(ch.failed))
                           if eff.get("type") == "place-token"}
    for sq in camp.side_quests.values():
        where = f'side_quests.toml, side quest "{sq.id}"'
        _check_card(sq, where, errors, camp, provinces, items, encounters, None)
        _check_effects(sq.effects, where, errors, camp, items, None)
        if sq.trigger.town not in (None, "any"):
            errors.append(f'{where}: a side quest is not tied to one province: trigger = {{ town = "any" }}, not a '
                          "town's id")
    for pid, eg in camp.endgames.items():
        prov = provinces[pid]
        where = _in("provinces", prov.folder, "endgame.toml")
        _check_effects(eg.setup, f"{where}, setup", errors, camp, items, prov)
        for d in eg.encounters:
            _check_card(d, f"{where}, day {d.day}", errors, camp, provinces, items, encounters, prov)
            for k in d.keywords:
                if k.keyword not in camp.keywords:
                    errors.append(f'{where}, day {d.day}: keyword "{k.keyword}" is not in keywords.toml')
                _check_effects(k.effects, f"{where}, day {d.day}", errors, camp, items, prov)
    for card in overland_cards.values():
        for ch in card.choices:
            _check_requires(ch, f'overland card "{card.id}", choice {ch.number}', errors, camp)
            _check_effects(tuple(ch.effects) + tuple(ch.failed), f'overland card "{card.id}", choice {ch.number}',
                           errors, camp, items, None, province_free=card.code == "GE")


def _check_card(card, where: str, errors: list[str], camp: Campaign, provinces: dict, items: dict, encounters: dict,
                prov) -> None:
    if card.encounter and card.encounter not in encounters:
        errors.append(f'{where}: names encounter "{card.encounter}", which no encounters file defines')
    elif card.encounter:
        # the battle's mode is the encounter's; a battle choice names it (clash, delve or dungeon), so the words
        # the party sees name the battle it fights. A delve plays in the session's province (its delve deck and
        # enemy bags); a dungeon is in one province's gazetteer, which a side quest is not tied to.
        mode = encounters[card.encounter].mode
        if card.kind == "side" and mode == "dungeon":
            errors.append(f'{where}: encounter "{card.encounter}" is a dungeon battle; a dungeon is in one '
                          "province's gazetteer and a side quest is not tied to one province: give it a clash or "
                          "a delve")
        for ch in card.choices:
            if ch.outcome in BATTLES and ch.outcome != mode:
                errors.append(f'{where}, choice {ch.number}: outcome {ch.outcome}, but its encounter '
                              f'"{card.encounter}" is {a_or_an(mode)} battle: write outcome = "{mode}"')
    for ch in card.choices:
        _check_requires(ch, f"{where}, choice {ch.number}", errors, camp)
        effects = tuple(ch.effects) + tuple(ch.failed) + (tuple(ch.check.effects) if ch.check else ())
        _check_effects(effects, f"{where}, choice {ch.number}", errors, camp, items, prov,
                       province_free=prov is None)


def _check_requires(ch: CardChoice, where: str, errors: list[str], camp: Campaign) -> None:
    kw = ch.requires.get("keyword")
    if kw and kw not in camp.keywords:
        errors.append(f'{where}: requires keyword "{kw}", which is not in keywords.toml')


def _check_effects(effects, where: str, errors: list[str], camp: Campaign, items: dict, prov,
                   province_free: bool = False) -> None:
    for eff in _walk(effects):
        kind = eff.get("type")
        if kind == "keyword":
            kw = camp.keywords.get(eff.get("keyword"))
            if kw is None:
                errors.append(f'{where}: keyword "{eff.get("keyword")}" is not in keywords.toml')
            elif kw.kind != "minor":
                errors.append(f'{where}: keyword "{kw.id}" is a major keyword; major keywords come only from a guild '
                              "quest's epilogue")
        elif kind == "side-quest" and eff.get("card") and eff["card"] not in camp.side_quests:
            errors.append(f'{where}: side quest "{eff["card"]}" is not in side_quests.toml')
        elif kind == "gain-item" and eff.get("item") not in items:
            errors.append(f'{where}: item "{eff.get("item")}" is not in items.toml')
        elif kind in ("place-token", "close-town", "open-town", "move-token", "remove-token", "gauge"):
            if province_free:
                errors.append(f"{where}: {kind} belongs to one province; a side quest or general card cannot use it")
                continue
            if prov is None:
                continue
            town = eff.get("town") or (eff.get("toward", "")[5:] if str(eff.get("toward", "")).startswith("town:")
                                       else None)
            if town and town not in prov.towns:
                errors.append(f'{where}: {kind} names town "{town}", which {prov.name} does not have')
            if kind == "place-token" and eff.get("hex") is not None and tuple(eff["hex"]) not in prov.hexes:
                errors.append(f"{where}: place-token hex {list(eff['hex'])} is not on the map of {prov.name}")


__all__ = ["Campaign", "Endgame", "EndgameDay", "Epilogue", "GuildCard", "GuildQuest", "Keyword", "KeywordRule",
           "Kiosk", "NextQuest", "Ongoing", "QuestTrigger", "SideQuest", "Step", "load_campaign"]
