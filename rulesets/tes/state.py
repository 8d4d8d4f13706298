"""Campaign state: plain dataclasses that round-trip through JSON.

``SCHEMA`` is the version of this shape.  ``Campaign.from_dict`` upgrades older
saved shapes as they load (see ``_upgrade``), so a campaign saved by an older
bot keeps working after an update.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.party import seats_from_dict, seats_to_dict
from rulesets.tes.battle_state import Battle, BattleSummary, CompanionEntry, ItemDeck
from rulesets.tes.day_state import Session
from rulesets.tes.quest_state import Journal, QuestRun

# 1: before rulesets (no ruleset/pack_version); 2: records its ruleset and pack version;
# 3: the battle is typed (every key written) and the game's records left ``settings``
#    (item decks, lasting companions, class rewards, battle count, last battle are fields)
# 4: a session's days (``days``: province, decks, party token, phase, what waits; None = no session running)
# 5: the campaign: the session's quests (``quests``: guild quest step, side quests) and the campaign journal
#    (``journal``); None for both = no quest has begun
SCHEMA = 5

#: The rules revision a new campaign plays by (``Campaign.rules``).  A campaign keeps the revision it began on,
#: so its log replays exactly; its leader moves it to the newest with ``/campaign update`` between battles.
#: 0 and 1 were never recorded: a campaign saved without a revision is 0 when the pack version it began on is one
#:    of ``FIRST_RELEASES_PACKS`` (the bot of 2026-11-22 and of 2026-11-23 until 09:40), else 1 (``unrecorded_rules``).
#: 0: a bare ``/engage`` rolls nothing and spends the turn's engage; class innates, enduring abilities and race
#:    abilities never work by themselves (only with /ability, a class ability with no target).  Before the encounter
#:    rules (all of revision 0 but its last build, ``encounter_rules``): a pool encounter's named enemies stand in
#:    the numbered hexes 1, 2, ... (the pool fills the rest); a battle records nothing the adventurers brought, no
#:    enemy moves for the map and no hex where a unit fell; automatic prevention spends as it did.
#: 1: every other campaign before revisions were recorded; a bare ``/engage`` is accepted as in revision 0 (the
#:    first of these logs hold accepted ones; the later ones none, as it was refused).
#: 2: an interrupt's free move during an enemy's turn is made (the player is asked where); "after an enemy
#:    engages you" interrupts are offered; a prevention question comes for damage on your own turn and from
#:    enemy skills too, and never for no damage; an ally's guard interrupt answers damage to an ally.
#: 3: an engage with no dice (a bare ``/engage``, or ``dice:"0 ..."``) asks first and goes ahead only on yes; so do
#:    a second move that would give up the turn's engage and an ability that would change nothing; a roll resolved
#:    in part names the dice left out; the pool never draws the chip of a named enemy already on the map.
#:    The Adventurers Rest is the End of Day Phase's (each player chooses which cooldown dice it removes;
#:    Expert discards an item): ``/adventurer rest`` no longer rests the party between battles (``party.rest``
#:    is refused; its old logs replay as they played).
#:    An adventurer's name may not read like a hex ("2,1") or a map label (a few letters and a number, "HEB1"),
#:    and a unit named in a command matches one unit or is refused as ambiguous (no name shadows another unit's
#:    id, label or hex); an adventurer made with /adventurer guide takes its draft's id.
#:    The battle's words: a count is worded right in the picture log ("1 hex", "1 minute", "1 cooldown die"), and
#:    damage that bonus HP soaks up reads as a right sum ("1 on bonus HP, loses 1 HP").
#:    Promotion detected by the bot (the Knight, the Acrobat and the rest) came to revision 3 after campaigns had
#:    played on it: a revision-3 campaign detects promotions only when its pack version has the promotion checks
#:    (``promotions_detected``), so the campaigns begun before keep playing as they did.
#: 4: every change of behaviour from the release of 2026-11-28 on (each is listed in docs/rules-notes.md,
#:    "Revision 4"); from now on a change of behaviour always gets a revision of its own.
#:    /undo never takes back an action that revealed something (a delve card and its tile, an item, overland or
#:    side quest card, a trainer token, a quest step read); a replayed log is held to it, and to the live undo's
#:    other refusals (a roll, an action that can't be taken back, the party leader only).
#:    The Adventurers Rest recovers drained dice (p.23), and a rest in which nobody has anything to choose is taken
#:    at once; the Reward Phase waits only for players whose XP buys something; a social check rolls no more dice
#:    of a stat's lines than that stat (pp.59, 61); during a session items move between pack and ready slots only
#:    in the rest or when deploying (p.28); a full party defeat at an unstable landmark gives no tenacity (p.67);
#:    a called retreat does not wait for an interrupt's free move.
#:    Towns: a town action that would give nothing (the inn with nothing to heal or recover, a town square or a
#:    guild kiosk whose effects change nothing) is refused and spends no action; a group square needs one of each
#:    adventurer's own town actions (refused while someone has none left; it keeps the last action of whoever it
#:    waits for; /town done gives the others theirs back; a time-out ends the visit for everyone).
#:    The session's log keeps new words: one guild card drawn, an empty day's single line, fatigue movement naming
#:    the defeated who gain none, the day-12 warning that the guild quest fails at the end of that day.
#:    Promotion is detected on every pack version (on revision 3 only on ``PROMOTION_PACKS``).
RULES = 4

#: The starter pack's versions before 2026-11-23 09:40 (the first releases): their campaigns are rules revision 0.
#: "" is every campaign saved before pack versions were recorded; "sha256:..." the first way they were recorded.
FIRST_RELEASES_PACKS = ("", "sha256:85944c771a9b67bf", "1c17d07d6cb0092e", "de4f5e1189276a64")
#: The last build of revision 0 (2026-11-23 09:37 to 09:40) already played the encounter rules.
ENCOUNTER_RULES_PACK = "de4f5e1189276a64"


def encounter_rules(state) -> bool:
    """Whether the campaign plays the encounter rules of 2026-11-23 09:37: named enemies in lettered hexes, what the
    adventurers brought and the enemies' moves recorded, automatic prevention cheapest first."""
    return state.rules >= 1 or state.pack_version == ENCOUNTER_RULES_PACK


#: Campaigns on rules revision 2 begun before 2026-11-25 01:05 (these pack versions; 82fc84b4cf862aa3 with revision 2)
#: logged a heal of a unit at full HP as "heals 0 HP" and a Challenge that reached no enemy as "no enemy must target",
#: as the revisions before did.  The pack f47ce0e8ce4b1ccb was shipped from 00:59 to 01:47, across the change (at
#: 01:05:57): its campaigns are read with the new words, those of most of its builds.
REVISION_2_BEFORE_0105 = ("82fc84b4cf862aa3", "827d7d8bae8920a5", "2bc30eb0eb870599", "fd307eb32454ee04")


def first_words(state) -> bool:
    """Whether the campaign's battles word a heal at full HP and an empty Challenge as before 2026-11-25 01:05."""
    return state.rules < 2 or (state.rules == 2 and state.pack_version in REVISION_2_BEFORE_0105)


#: The starter pack's versions that came with promotion detected by the bot (2026-11-28 12:54 to the release):
#: revision-3 campaigns begun on them detect promotions; those begun on revision 3 before did not, and keep not.
PROMOTION_PACKS = ("909a1f3631f323a7", "3d544fdf32b46745", "13f217e66b812892", "07a128c21365195c",
                   "90e539bf6d7d76b1", "3bf61f5293ce9f6b", "0d2b32a28039b471")


def promotions_detected(state) -> bool:
    """Whether the bot watches the class promotion requirements (rulesets.tes.battle.promotion) in this campaign:
    from revision 4, and on revision 3 only for the pack versions that brought it (``PROMOTION_PACKS``)."""
    return state.rules >= 4 or (state.rules == 3 and str(state.pack_version or "") in PROMOTION_PACKS)


#: Revision 3's battle words (a count agrees with its number; damage that bonus HP soaks up adds up) reached the
#: builds that played revision 3 after some had shipped without them (2026-11-25 06:48 to 08:33): campaigns begun
#: on these pack versions with revision 3 keep the words their battles wrote.
REVISION_3_FIRST_WORDS = ("73b8f2577b783de6", "71f94beb44402a0b", "932c3473894335fd", "ba75106d59654ed5",
                          "f379d8a3b4e1df09", "36382e8880313131", "ed3f60b7aeb46fcb", "728a8972d1f35ef3")


def counted_words(state) -> bool:
    """Whether the battle log words a count by its number ("1 hex") and bonus HP soaking damage as a right sum."""
    return state.rules >= 4 or (state.rules == 3 and str(state.pack_version or "") not in REVISION_3_FIRST_WORDS)


def unrecorded_rules(pack_version: str) -> int:
    """The rules revision of a campaign saved before revisions were recorded, read from its pack version."""
    version = str(pack_version or "")
    return 0 if version in FIRST_RELEASES_PACKS or version.startswith("sha256:") else 1

#: keys that schema 2 kept in ``settings`` and schema 3 keeps in fields of their own
_MOVED_OUT_OF_SETTINGS = ("item_decks", "companions", "class_rewards", "battle_count", "last_battle")

DIFFICULTIES = ("apprentice", "adept", "expert")
STATS = ("health", "stamina", "magicka")
ROW_SIDES = ("L", "R")


@dataclass
class Slot:
    """What stands in a circular attribute slot at one end of a row."""

    kind: str  # "stat" or "line"
    id: str  # "health" / "stamina" / "magicka" or a skill line id ("combat", "bow", ...)
    value: int = 0  # base value printed on the token (only Health has one)

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "id": self.id, "value": self.value}

    @classmethod
    def from_dict(cls, d: dict[str, Any] | None) -> "Slot | None":
        return None if d is None else cls(kind=d["kind"], id=d["id"], value=int(d.get("value", 0)))


@dataclass
class Row:
    """An attribute row: a circular slot at each end and square slots between.

    ``squares`` runs left to right.  Each entry is ``None`` (empty), a stat token
    ``{"stat": "stamina"}`` or a skill die ``{"die": "d3"}`` (the die's id in
    ``Adventurer.dice``).  A die keeps its square while it is rolled, exhausted,
    active or drained; whether it is *available* is told by where it is.
    """

    left: Slot | None = None
    right: Slot | None = None
    squares: list[dict[str, str] | None] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {
            "left": self.left.to_dict() if self.left else None,
            "right": self.right.to_dict() if self.right else None,
            "squares": [dict(s) if s else None for s in self.squares],
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "Row":
        return cls(
            left=Slot.from_dict(d.get("left")),
            right=Slot.from_dict(d.get("right")),
            squares=[dict(s) if s else None for s in d.get("squares", [])],
        )

    def slot(self, side: str) -> Slot | None:
        return self.left if side == "L" else self.right


@dataclass
class Adventurer:
    owner: str  # Discord user id of the player
    name: str
    race: str
    rows: list[Row]
    hp: int
    cooldown_stat: int
    battle_form: str
    class_id: str | None = None
    class_side: str = "novice"
    tenacity: int = 0
    saved_xp: int = 0
    bonus_hp: int = 0
    # skill dice owned by this adventurer: id -> {"type": die type id, "line": line id, "level": n}
    dice: dict[str, dict[str, Any]] = field(default_factory=dict)
    # cooldown track, left to right: {"die": id} | {"fatigue": "light"|"over"} | {"status": name}
    cooldown: list[dict[str, Any]] = field(default_factory=list)
    # active slots: {"die": id, "owner": player id whose die it is, "icon": str, "value": int}
    active: list[dict[str, Any]] = field(default_factory=list)
    drained: list[str] = field(default_factory=list)
    # this adventurer's dice sitting in active slots (its own or another adventurer's)
    away: list[str] = field(default_factory=list)
    # this adventurer's status-code (S) dice placed on a unit's chip in battle (rulesets.tes.battle.status)
    placed: list[str] = field(default_factory=list)
    ready: list[str] = field(default_factory=list)  # item ids in ready slots (max 4)
    pack: list[str] = field(default_factory=list)  # item ids in the pack (ready + pack <= 8)
    expended: list[str] = field(default_factory=list)  # held potions turned sideways (expend keyword)
    pet_chips: dict[str, int] = field(default_factory=dict)  # pet item id -> HP chips on it
    armed: list[str] = field(default_factory=list)  # ready armor whose overtax fires on the next enemy engage
    enchants: list[str] = field(default_factory=list)  # enchantment cards tucked under this mat
    holding: str | None = None  # a drawn card waiting for room (the inventory was full)
    race_ability_used: bool = False
    next_die: int = 1  # counter for new die ids
    # who this adventurer is, apart from its owner and name: a short id drawn when it is created (buttons name
    # it, so a button of a retired adventurer never acts on the next one); "" for one created before ids
    id: str = ""

    def to_dict(self, *, copy: bool = True) -> dict[str, Any]:
        c = _plain if copy else _same
        d = {name: c(getattr(self, name)) for name in self.__dataclass_fields__ if name != "rows"}
        d["rows"] = [r.to_dict() for r in self.rows]
        return {name: d[name] for name in self.__dataclass_fields__}  # field order, as asdict gave it

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "Adventurer":
        d = dict(d)
        d["rows"] = [Row.from_dict(r) for r in d.get("rows", [])]
        known = {f for f in cls.__dataclass_fields__}
        kept = {k: v for k, v in d.items() if k in known}
        return cls(**kept)

    # ---- derived values -------------------------------------------------
    def ident(self) -> str:
        """Who this adventurer is in a button: its id, or its name's slug for one created before ids."""
        if self.id:
            return self.id[:12]
        return "-".join("".join(ch if ch.isascii() and ch.isalnum() else " " for ch in self.name.lower()).split())[:12] or "x"

    def find_slot(self, kind: str, ident: str) -> tuple[int, str] | None:
        """(row index, side) of the circular token ``kind``/``ident``, if placed."""
        for i, row in enumerate(self.rows):
            for side in ROW_SIDES:
                s = row.slot(side)
                if s and s.kind == kind and s.id == ident:
                    return i, side
        return None

    def stat(self, name: str) -> int:
        """A stat's total: base value of its token plus its square tokens."""
        where = self.find_slot("stat", name)
        if where is None:
            return 0
        row = self.rows[where[0]]
        token = row.slot(where[1])
        squares = sum(1 for s in row.squares if s and s.get("stat") == name)
        return (token.value if token else 0) + squares

    @property
    def max_hp(self) -> int:
        return self.stat("health")

    def lines(self) -> list[str]:
        """Trained skill lines in row order (Combat included)."""
        out = []
        for row in self.rows:
            for side in ROW_SIDES:
                s = row.slot(side)
                if s and s.kind == "line":
                    out.append(s.id)
        return out

    def die_location(self, die_id: str) -> str:
        """Where a die is: "row" (available), "cooldown", "active" or "drained"."""
        if die_id in self.drained:
            return "drained"
        if any(e.get("die") == die_id for e in self.cooldown):
            return "cooldown"
        if die_id in self.away:
            return "active"
        if die_id in self.placed:
            return "placed"
        return "row"

    def available_dice(self) -> list[str]:
        out_of_row = set(self.drained) | {e["die"] for e in self.cooldown if "die" in e}
        out_of_row |= set(self.away) | set(self.placed)
        return [d for d in self.dice if d not in out_of_row]


@dataclass
class Campaign:
    channel_id: str
    guild_id: str | None
    name: str
    pack: str
    difficulty: str
    leader: str
    members: list[str] = field(default_factory=list)
    adventurers: dict[str, Adventurer] = field(default_factory=dict)  # owner id -> adventurer
    xp_dial: int = 2
    day_dial: int = 0  # 0: not set yet (day 1 starts after the first session's setup)
    session: int = 1
    seed: int = 0
    dice_counter: int = 0
    forced: list[int] = field(default_factory=list)
    settings: dict[str, Any] = field(default_factory=dict)  # the leader's and players' settings only
    battle: Battle | None = None  # rulesets.tes.battle
    battle_count: int = 0  # battles started so far (numbers them)
    last_battle: BattleSummary | None = None
    class_rewards: dict[str, list[str]] = field(default_factory=dict)  # player -> class ids to choose from
    companions: list[CompanionEntry] = field(default_factory=list)  # companions that stay with the party
    item_decks: dict[str, ItemDeck] = field(default_factory=dict)  # rarity -> deck (shuffled on first use)
    # unfinished guided creations (/adventurer guide): owner id -> draft (rulesets.tes.rules.guide)
    drafts: dict[str, dict[str, Any]] = field(default_factory=dict)
    ended: bool = False
    pack_version: str = ""  # content hash of the pack when the campaign began ("" = saved before it was recorded)
    schema: int = SCHEMA
    ruleset: str = "tes"
    names: dict[str, str] = field(default_factory=dict)  # member id -> display name, refreshed when they act
    unaccepted: list[str] = field(default_factory=list)  # seated by an import, not accepting yet (engine.party)
    leaving: list[str] = field(default_factory=list)  # left in a battle: they go when it is over (engine.party)
    rules: int = 1  # the rules revision the campaign plays by (RULES when it began; 0 or 1 before they were recorded)
    days: Session | None = None  # the session of days under way (rulesets.tes.day), None between sessions
    quests: QuestRun | None = None  # the session's guild quest and side quests (rulesets.tes.quest)
    journal: Journal | None = None  # the campaign journal (rulesets.tes.session), from the first quest on

    def to_dict(self, *, copy: bool = True) -> dict[str, Any]:
        c = _plain if copy else _same
        return {
            "schema": SCHEMA,
            "ruleset": "tes",
            "channel_id": self.channel_id,
            "guild_id": self.guild_id,
            "name": self.name,
            "pack": self.pack,
            "difficulty": self.difficulty,
            "leader": self.leader,
            "members": list(self.members),
            "adventurers": {k: a.to_dict(copy=copy) for k, a in self.adventurers.items()},
            "xp_dial": self.xp_dial,
            "day_dial": self.day_dial,
            "session": self.session,
            "seed": self.seed,
            "dice_counter": self.dice_counter,
            "forced": list(self.forced),
            "settings": c(self.settings),
            "battle": self.battle.to_dict() if self.battle is not None else None,
            "battle_count": self.battle_count,
            "last_battle": self.last_battle.to_dict() if self.last_battle is not None else None,
            "class_rewards": {k: list(v) for k, v in self.class_rewards.items()},
            "companions": [c.to_dict() for c in self.companions],
            "item_decks": {k: v.to_dict() for k, v in self.item_decks.items()},
            "drafts": c(self.drafts),
            "ended": self.ended,
            "pack_version": self.pack_version,
            "names": dict(self.names),
            "rules": self.rules,
            "days": self.days.to_dict() if self.days is not None else None,
            "quests": self.quests.to_dict() if self.quests is not None else None,
            "journal": self.journal.to_dict() if self.journal is not None else None,
        } | seats_to_dict(self)

    @classmethod
    def from_dict(cls, d: dict[str, Any], *, copy: bool = True) -> "Campaign":
        d = _upgrade(_plain(d) if copy else d)
        return cls(
            channel_id=str(d["channel_id"]),
            guild_id=d.get("guild_id"),
            name=d["name"],
            pack=d["pack"],
            difficulty=d["difficulty"],
            leader=str(d["leader"]),
            members=[str(m) for m in d.get("members", [])],
            adventurers={str(k): Adventurer.from_dict(a) for k, a in d.get("adventurers", {}).items()},
            xp_dial=int(d.get("xp_dial", 2)),
            day_dial=int(d.get("day_dial", 0)),
            session=int(d.get("session", 1)),
            seed=int(d.get("seed", 0)),
            dice_counter=int(d.get("dice_counter", 0)),
            forced=[int(x) for x in d.get("forced", [])],
            settings=dict(d.get("settings") or {}),
            battle=Battle.from_dict(d.get("battle")),
            battle_count=int(d.get("battle_count") or 0),
            last_battle=BattleSummary.from_dict(d.get("last_battle")),
            class_rewards={str(k): list(v) for k, v in (d.get("class_rewards") or {}).items()},
            companions=[CompanionEntry.from_dict(x) for x in d.get("companions") or []],
            item_decks={str(k): ItemDeck.from_dict(v) for k, v in (d.get("item_decks") or {}).items()},
            drafts={str(k): dict(v) for k, v in (d.get("drafts") or {}).items()},
            ended=bool(d.get("ended", False)),
            pack_version=str(d.get("pack_version") or ""),
            names={str(k): v[:32] for k, v in (d.get("names") or {}).items() if isinstance(v, str)}
            if isinstance(d.get("names"), dict) else {},
            rules=_rules_of(d),
            days=Session.from_dict(d.get("days")),
            quests=QuestRun.from_dict(d.get("quests")),
            journal=Journal.from_dict(d.get("journal")),
            **seats_from_dict(d),
        )

    def clone(self) -> "Campaign":
        """A copy exactly as the state comes back from the store: plain JSON data, keys sorted, nothing shared.

        The live bot loads every action's state from its saved JSON; a replay of the log clones the
        state it just built.  Both must see the same mappings in the same order and no two places
        holding the same list, or the replay could differ from the store.
        """
        return Campaign.from_dict(_as_saved(self.to_dict(copy=False)), copy=False)  # _as_saved made it fresh

    def adventurer_named(self, text: str) -> Adventurer | None:
        t = text.strip().lower()
        for a in self.adventurers.values():
            if a.name.lower() == t:
                return a
        return None


def _rules_of(d: dict[str, Any]) -> int:
    """The rules revision a saved campaign plays by: as recorded, or read from its pack version when it was saved
    before revisions were recorded (those saves say 1 or nothing)."""
    try:
        rules = int(d.get("rules") or 1)
    except (TypeError, ValueError):
        rules = 1
    if rules <= 1:
        return unrecorded_rules(d.get("pack_version") or "")
    return min(RULES, rules)


def _upgrade(d: dict[str, Any]) -> dict[str, Any]:
    """Bring an older saved campaign up to ``SCHEMA``, one version at a time."""
    version = int(d.get("schema", 1))
    if version > SCHEMA:
        raise ValueError(
            f"this campaign was saved by a newer Hexpost (schema {version}, this bot knows {SCHEMA}); update the bot"
        )
    if version == 1:
        # Saved before campaigns recorded their ruleset and pack version: always this game; version unknown.
        d["ruleset"] = "tes"
        d.setdefault("pack_version", "")
        version = 2
    if version == 2:
        # The game's records leave the settings; the battle loads into typed records as it is.
        settings = dict(d.get("settings") or {})
        for key in _MOVED_OUT_OF_SETTINGS:
            if key in settings:
                d[key] = settings.pop(key)
        d["settings"] = settings
        version = 3
    if version == 3:
        # Saved before sessions of days: no session is running; the party plays battles as before.
        d["days"] = None
        version = 4
    if version == 4:
        # Saved before quests: no guild quest has begun and the campaign has no journal yet.
        d["quests"] = None
        d["journal"] = None
        version = 5
    d["schema"] = SCHEMA
    return d


def _as_saved(value: Any) -> Any:
    """``value`` as JSON with sorted keys would give it back (a fresh copy; tuples become lists)."""
    if isinstance(value, dict):
        return {str(k): _as_saved(value[k]) for k in sorted(value, key=str)}
    if isinstance(value, (list, tuple)):
        return [_as_saved(v) for v in value]
    return value


def _same(value: Any) -> Any:
    return value


def _plain(value: Any) -> Any:
    """A fresh copy of JSON-like data (mappings keep their order; tuples become lists)."""
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value
