"""The loader: reads a pack folder's TOML files, checks every entry and cross-reference, returns a Pack.

All problems found are reported together in one ContentError.
"""
from __future__ import annotations

import re
from pathlib import Path

from rulesets.tes.content.reader import ID_RE, _Entry, _entries, _quoted, _read_toml, _show, parse_face
from rulesets.tes.content.records import (
    Ability, Achievement, ClassAbility, ClassDef, ClassReward, ClassSide, Companion, ContentError, DieType, Encounter,
    Enemy, EnemySkill, Face, Hex, IconAbility, Item, MatSpec, Pack, Quest, QuestStep, Race, SkillLine, Supply, Tile,
    TilePlacement, Trigger,
)
from rulesets.tes.content.schema import (
    ABILITY_CODES, BAG_OF_LEVEL, BATTLE_FORMS, CLASS_KEYWORDS, CONSTELLATIONS, ENCOUNTER_MODES, ENEMY_LEVELS,
    ENEMY_PRIORITIES, ENEMY_TYPES, ITEM_KEYWORDS, ITEM_RARITIES, ITEM_SUBTYPES, OBJECTIVES, STATS, TILE_KINDS,
    TIMINGS, TRIGGER_TIMINGS,
)
from rulesets.tes.content.tiles import ENTRANCE_HEXES, assemble_map, entrance_problem, parse_hex_map, place_hex

# -- pack.toml -------------------------------------------------------------

def _load_meta(folder: Path, errors: list[str]):
    doc = _read_toml(folder / "pack.toml", "pack.toml", errors)
    if doc is None:
        return None
    e = _Entry(errors, "pack.toml", "pack", doc)
    e.unknown_keys(["id", "name", "version", "description", "mat", "enemy_combat_die", "supply"])
    ident = e.text("id")
    if ident and not ID_RE.match(ident):
        e.err(f"id must be lower-case letters, digits and dashes, got {_show(ident)}")
    name = e.text("name")
    version = e.get("version", "1")
    if not isinstance(version, (str, int, float)) or isinstance(version, bool):
        e.err(f"version must be a text like \"1.0\", got {_show(version)}")
    description = e.text("description", "", allow_empty=True)

    m = e.sub("mat", "mat", doc.get("mat", {}))
    m.unknown_keys(["rows", "squares_per_row", "left_costs", "right_costs", "cooldown_track_size",
                    "cooldown_stat_costs", "tenacity_max", "saved_xp_max", "active_slots", "ready_slots",
                    "inventory_max"])
    d = MatSpec()
    rows = m.int("rows", 1, 8, d.rows)
    squares = m.int("squares_per_row", 1, 10, d.squares_per_row)

    def costs(key: str) -> tuple[int, ...]:
        v = m.get(key, list(getattr(d, key)))
        if (not isinstance(v, list) or len(v) != squares
                or not all(isinstance(x, int) and not isinstance(x, bool) and 0 <= x <= 50 for x in v)):
            m.err(f"{key} must be a list of {squares} whole numbers from 0 to 50 (XP per square), got {_show(v) if not isinstance(v, list) else v}")
            return tuple(getattr(d, key))
        return tuple(v)

    left = costs("left_costs")
    right = costs("right_costs")
    cd_raw = m.get("cooldown_stat_costs", {str(k): v for k, v in d.cooldown_stat_costs.items()})
    cd: dict[int, int] = {}
    if not isinstance(cd_raw, dict):
        m.err("cooldown_stat_costs must be a table of stat value = XP cost")
    else:
        for k, v in cd_raw.items():
            if not str(k).isdigit() or isinstance(v, bool) or not isinstance(v, int) or v < 0:
                m.err(f'cooldown_stat_costs entry "{k}" must map a stat value to a whole XP cost, got {_show(v)}')
                continue
            cd[int(k)] = v
        if cd and sorted(cd) != list(range(1, max(cd) + 1)):
            m.err(f"cooldown_stat_costs must list every stat value from 1 to {max(cd)}, got {sorted(cd)}")
    mat = MatSpec(
        rows=rows,
        squares_per_row=squares,
        left_costs=left,
        right_costs=right,
        cooldown_track_size=m.int("cooldown_track_size", 1, 30, d.cooldown_track_size),
        cooldown_stat_costs=dict(sorted(cd.items())) or d.cooldown_stat_costs,
        tenacity_max=m.int("tenacity_max", 1, 20, d.tenacity_max),
        saved_xp_max=m.int("saved_xp_max", 0, 20, d.saved_xp_max),
        active_slots=m.int("active_slots", 1, 10, d.active_slots),
        ready_slots=m.int("ready_slots", 0, 10, d.ready_slots),
        inventory_max=m.int("inventory_max", 0, 30, d.inventory_max),
    )
    if mat.ready_slots > mat.inventory_max:
        m.err("ready_slots cannot be more than inventory_max")

    faces_raw = e.get("enemy_combat_die")
    faces: list[Face] = []
    if faces_raw is not None:
        if not isinstance(faces_raw, list) or len(faces_raw) != 6:
            e.err(f"enemy_combat_die must list exactly 6 faces, got {len(faces_raw) if isinstance(faces_raw, list) else _show(faces_raw)}")
        else:
            for i, f in enumerate(faces_raw, 1):
                try:
                    face = parse_face(f, ["damage"])
                    if any(r.value is None for r in face.results):
                        raise ValueError(f'face "{f}" needs a number, like "1 damage"')
                    faces.append(face)
                except ValueError as ex:
                    e.err(f"enemy_combat_die face {i}: {ex}")
    su = e.sub("supply", "supply", doc.get("supply", {}))
    su.unknown_keys(["light_fatigue", "overfatigue", "status_dice", "enemy_combat_dice", "cache_chips"])
    base = Supply()
    counts = {k: su.int(k, 0, 200, getattr(base, k)) for k in
              ("light_fatigue", "overfatigue", "status_dice", "enemy_combat_dice", "cache_chips")}
    supply = Supply(**counts)
    return ident, name, str(version), description, mat, tuple(faces), supply


# -- races -----------------------------------------------------------------

def _ability(parent: _Entry, key: str, label: str, required: bool = True) -> Ability | None:
    if not parent.has(key):
        if required:
            parent.err(f'is missing the table "{key}"')
        return None
    a = parent.sub(key, label)
    a.unknown_keys(["name", "timing", "text", "effects", "manual"])
    name = a.text("name")
    timing = a.choice("timing", TIMINGS)
    text, effects, manual = a.ability()
    return Ability(name, timing or "", text, effects, manual)


def _load_races(folder: Path, errors: list[str]) -> dict[str, Race]:
    doc = _read_toml(folder / "races.toml", "races.toml", errors)
    out: dict[str, Race] = {}
    for rid, e in _entries(doc, "race", "races.toml", errors, "race"):
        e.unknown_keys(["id", "name", "health", "stamina", "magicka", "combat", "cooldown", "ability", "description"])
        race = Race(
            id=rid,
            name=e.text("name"),
            health=e.int("health", 1, 10),
            stamina=e.int("stamina", 0, 6),
            magicka=e.int("magicka", 0, 6),
            combat=e.int("combat", 0, 6),
            cooldown=e.int("cooldown", 1, 6),
            ability=_ability(e, "ability", "ability") or Ability("", "", ""),
            description=e.text("description", "", allow_empty=True),
        )
        if e.ok:
            out[rid] = race
    return out


# -- skill lines -----------------------------------------------------------

def _load_lines(folder: Path, errors: list[str]) -> dict[str, SkillLine]:
    out: dict[str, SkillLine] = {}
    sub = folder / "skill_lines"
    if not sub.is_dir():
        errors.append("skill_lines/: folder is missing (one .toml file per skill line)")
        return out
    die_ids: dict[str, str] = {}
    for path in sorted(sub.glob("*.toml")):
        rel = f"skill_lines/{path.name}"
        doc = _read_toml(path, rel, errors)
        if doc is None:
            continue
        lid = doc.get("id")
        if not isinstance(lid, str) or not ID_RE.match(lid):
            errors.append(f"{rel}: id must be lower-case letters, digits and dashes, got {_show(lid) if lid is not None else 'nothing'}")
            continue
        e = _Entry(errors, rel, f'line "{lid}"', doc)
        if lid in out:
            e.err("duplicate id (another file in skill_lines/ already defines it)")
            continue
        e.unknown_keys(["id", "name", "constellation", "stat", "form", "description", "icons", "die"])
        is_combat = lid == "combat"
        name = e.text("name")
        constellation = e.choice("constellation", CONSTELLATIONS, None)
        if is_combat and constellation:
            e.err("the Combat line has no constellation")
        if not is_combat and constellation is None and "constellation" not in doc:
            e.err(f'is missing the field "constellation" (one of {_quoted(CONSTELLATIONS)})')
        stat = e.choice("stat", STATS)
        form = e.choice("form", BATTLE_FORMS, None)
        description = e.text("description", "", allow_empty=True)

        abilities: dict[str, IconAbility] = {
            "tenacity": IconAbility("tenacity", "I", "Exhaust this die and gain 1 tenacity.",
                                    ({"type": "tenacity", "amount": 1, "target": "self"},), False)
        }
        icons = doc.get("icons", {})
        if not isinstance(icons, dict) or not icons:
            e.err('must define its icons in [icons.<name>] tables')
            icons = {}
        for icon, raw in icons.items():
            ie = _Entry(errors, rel, f'line "{lid}", icon "{icon}"', raw)
            if not ID_RE.match(icon):
                ie.err("icon names must be lower-case letters, digits and dashes")
                continue
            ie.unknown_keys(["code", "text", "effects", "manual", "form_codes"])
            code = ie.choice("code", ABILITY_CODES)
            fc_raw = ie.get("form_codes", {})
            form_codes: dict[str, str] = {}
            if not isinstance(fc_raw, dict):
                ie.err("form_codes must be a table of battle form = code")
            else:
                for f, c in fc_raw.items():
                    if f not in BATTLE_FORMS or c not in ABILITY_CODES:
                        ie.err(f'form_codes entry {f} = {_show(c)} must pair a battle form ({_quoted(BATTLE_FORMS)}) with a code ({_quoted(ABILITY_CODES)})')
                    else:
                        form_codes[f] = c
            text, effects, manual = ie.ability(die=True)
            if ie.ok:
                abilities[icon] = IconAbility(icon, code, text, effects, manual, form_codes)
            else:
                e.ok = False

        dice: list[DieType] = []
        raw_dice = doc.get("die", [])
        if not isinstance(raw_dice, list) or not raw_dice:
            e.err("must define its skill dice as [[die]] tables")
            raw_dice = []
        for i, raw in enumerate(raw_dice, 1):
            did = raw.get("id") if isinstance(raw, dict) else None
            if not isinstance(did, str) or not ID_RE.match(did):
                e.err(f"die #{i}: id must be lower-case letters, digits and dashes, got {_show(did) if did is not None else 'nothing'}")
                continue
            de = _Entry(errors, rel, f'line "{lid}", die "{did}"', raw)
            if did in die_ids:
                de.err(f"duplicate die id (already used in {die_ids[did]})")
                continue
            die_ids[did] = rel
            de.unknown_keys(["id", "name", "level", "count", "faces", "note"])
            level = de.int("level", 1, 1 if is_combat else 4)
            dname = de.text("name")
            count = de.int("count", 1, 50)
            faces_raw = de.get("faces")
            faces: list[Face] = []
            if faces_raw is not None:
                if not isinstance(faces_raw, list) or len(faces_raw) != 6:
                    n = len(faces_raw) if isinstance(faces_raw, list) else _show(faces_raw)
                    de.err(f"faces must list exactly 6 faces, got {n}")
                else:
                    for j, f in enumerate(faces_raw, 1):
                        try:
                            faces.append(parse_face(f, abilities))
                        except ValueError as ex:
                            de.err(f"face {j}: {ex}")
            note = de.text("note", "", allow_empty=True)
            if de.ok:
                dice.append(DieType(did, lid, level, dname, count, tuple(faces), note))
            else:
                e.ok = False
        if is_combat and len(raw_dice) != 1:
            e.err(f"the Combat line must have exactly one die type, got {len(raw_dice)}")
        if not is_combat and dice:
            levels = {d.level for d in dice}
            missing = [lv for lv in (1, 2, 3, 4) if lv not in levels]
            if missing:
                e.err(f"has no die of level {', '.join(map(str, missing))} (each line needs levels 1 to 4)")
        if e.ok:
            out[lid] = SkillLine(lid, name, constellation, stat, form, description, abilities, tuple(dice))
    if "combat" not in out and not any('line "combat"' in x for x in errors):
        errors.append('skill_lines/: the special line "combat" is missing (skill_lines/combat.toml)')
    return out


# -- classes ---------------------------------------------------------------

def _class_ability(e: _Entry, default_id: str | None = None) -> ClassAbility | None:
    e.unknown_keys(["id", "name", "cost", "timing", "keyword", "form", "text", "effects", "manual", "improved"])
    aid = e.get("id", default_id)
    if not isinstance(aid, str) or not ID_RE.match(aid):
        e.err(f"id must be lower-case letters, digits and dashes, got {_show(aid)}")
        return None
    ab = ClassAbility(
        id=aid,
        name=e.text("name"),
        cost=e.int("cost", 1, 5),
        timing=e.choice("timing", TIMINGS) or "",
        keyword=e.choice("keyword", CLASS_KEYWORDS, None),
        form=e.choice("form", BATTLE_FORMS, None),
        text="",
        improved=e.bool("improved", False),
    )
    text, effects, manual = e.ability()
    if not e.ok:
        return None
    return ClassAbility(ab.id, ab.name, ab.cost, ab.timing, ab.keyword, ab.form, text, effects, manual, ab.improved)


def _class_side(ce: _Entry, side: str, base: ClassSide | None) -> ClassSide | None:
    if not ce.has(side):
        ce.err(f'is missing the table "{side}"')
        return None
    se = ce.sub(side, f"{side} side")
    se.unknown_keys(["innate", "ability"])
    innate = _ability(se, "innate", "innate", required=base is None)
    if innate is None and base is not None:
        innate = base.innate
    raw = se.data.get("ability", [])
    if not isinstance(raw, list):
        se.err("abilities must be written as [[class.<side>.ability]] tables")
        raw = []
    abilities: list[ClassAbility] = []
    seen: set[str] = set()
    for i, a in enumerate(raw, 1):
        aid = a.get("id") if isinstance(a, dict) else None
        ae = se.sub("", f'ability "{aid}"' if isinstance(aid, str) else f"ability #{i}", a)
        ab = _class_ability(ae)
        if ab is None:
            se.ok = False
            continue
        if ab.id in seen:
            ae.err("duplicate ability id on this side")
            continue
        seen.add(ab.id)
        abilities.append(ab)
    if base is not None:
        # The master side lists only what changes; the rest is copied from the novice side.
        merged = []
        by_id = {a.id: a for a in abilities}
        for a in base.abilities:
            merged.append(by_id.pop(a.id, a))
        merged.extend(by_id.values())
        abilities = merged
    elif not 3 <= len(abilities) <= 5:
        se.err(f"must have 3 to 5 tenacity abilities, got {len(abilities)}")
    if not se.ok or innate is None:
        ce.ok = False
        return None
    return ClassSide(innate, tuple(abilities))


def _load_classes(folder: Path, errors: list[str]) -> dict[str, ClassDef]:
    doc = _read_toml(folder / "classes.toml", "classes.toml", errors)
    out: dict[str, ClassDef] = {}
    for cid, e in _entries(doc, "class", "classes.toml", errors, "class"):
        e.unknown_keys(["id", "name", "description", "promotion", "novice", "master", "expansion_only"])
        name = e.text("name")
        description = e.text("description", "", allow_empty=True)
        promotion = e.text("promotion")
        expansion_only = e.bool("expansion_only", False)
        novice = _class_side(e, "novice", None)
        master = _class_side(e, "master", novice) if novice else None
        if e.ok and novice and master:
            out[cid] = ClassDef(cid, name, description, promotion, novice, master, expansion_only)
    return out


# -- enemies ---------------------------------------------------------------

_SKILL_REF_RE = re.compile(r"^([a-z0-9][a-z0-9-]*)(?:\s+(\d+))?$")


def _load_enemies(folder: Path, errors: list[str]) -> tuple[dict[str, Enemy], dict[str, EnemySkill]]:
    rel = "enemies.toml"
    doc = _read_toml(folder / rel, rel, errors)
    skills: dict[str, EnemySkill] = {}
    enemies: dict[str, Enemy] = {}
    if doc is None:
        return enemies, skills
    skill_doc = {"skill": doc.get("skill", [])}
    enemy_doc = {"enemy": doc.get("enemy", [])}
    for k in doc:
        if k not in ("skill", "enemy"):
            errors.append(f'{rel}: unknown top-level key "{k}" (use [[skill]] and [[enemy]] tables)')
    for sid, e in _entries(skill_doc, "skill", rel, errors, "skill"):
        e.unknown_keys(["id", "name", "timing", "text", "effects", "manual", "numbered"])
        name = e.text("name")
        timing = e.choice("timing", TIMINGS) or ""
        numbered = e.bool("numbered", False)
        text, effects, manual = e.ability(die=True)
        if e.ok:
            skills[sid] = EnemySkill(sid, name, 0 if numbered else None, timing, text, effects, manual)
    chips: dict[str, list[tuple[str, int]]] = {}
    for eid, e in _entries(enemy_doc, "enemy", rel, errors, "enemy"):
        e.unknown_keys(["id", "name", "level", "chip", "type", "province", "health", "defense", "combat", "range",
                        "targets", "priority", "movement", "skills", "traits", "quest_unit", "xp", "description"])
        quest_unit = e.bool("quest_unit", False)
        level = 0
        if quest_unit:
            if e.has("level"):
                e.err("a quest unit has no level; remove the level field")
        else:
            level = e.choice("level", ENEMY_LEVELS) or 0
        chip = e.text("chip", eid)
        province = e.opt_text("province")
        if province is not None and not re.match(r"^[A-Z]{2}$", province):
            e.err(f"province must be a two-letter code like \"VW\", got {_show(province)}")
        targets = _targets(e)
        enemy_skills: list[EnemySkill] = []
        for ref in e.str_list("skills"):
            m = _SKILL_REF_RE.match(ref.strip().lower())
            if not m or m.group(1) not in skills:
                if m and not any(f'skill "{m.group(1)}"' in x for x in errors):
                    e.err(f'skills names "{ref}", but enemies.toml defines no skill "{m.group(1)}"')
                elif not m:
                    e.err(f'skills entry "{ref}" should look like "dodge" or "enfeeble 1"')
                continue
            base = skills[m.group(1)]
            value = int(m.group(2)) if m.group(2) else None
            if base.value is not None and value is None:
                e.err(f'skill "{base.id}" needs a number, like "{base.id} 1"')
                continue
            if base.value is None and value is not None:
                e.err(f'skill "{base.id}" takes no number, got "{ref}"')
                continue
            enemy_skills.append(EnemySkill(base.id, base.name, value, base.timing, base.text, base.effects, base.manual))
        enemy = Enemy(
            id=eid,
            name=e.text("name"),
            level=level,
            chip=chip,
            bag="quest" if quest_unit else BAG_OF_LEVEL.get(level, ""),
            type=e.choice("type", ENEMY_TYPES) or "",
            province=province,
            health=e.int("health", 1, 60),
            defense=e.int("defense", 0, 10, 0),
            combat=e.int("combat", 0, 10),
            range=e.int("range", 1, 10),
            targets=targets,
            priority=e.choice("priority", ENEMY_PRIORITIES) or "",
            movement=e.int("movement", 0, 10, 2),
            skills=tuple(enemy_skills),
            traits=e.str_list("traits"),
            quest_unit=quest_unit,
            xp=e.int("xp", 0, 100, None) if e.has("xp") else None,
            description=e.text("description", "", allow_empty=True),
        )
        if e.ok:
            enemies[eid] = enemy
            chips.setdefault(chip, []).append((eid, level))
    for chip, sides in chips.items():
        if any(enemies[s[0]].quest_unit for s in sides):
            if len(sides) > 2:
                errors.append(f'{rel}, chip "{chip}": a chip has at most 2 sides, got {len(sides)}')
            continue
        levels = sorted(lv for _, lv in sides)
        label = f'{rel}, chip "{chip}"'
        if len(sides) != 2:
            errors.append(f"{label}: a chip needs exactly 2 sides (level 1 with 5, or 10 with 20), got "
                          + ", ".join(f'"{s}" (level {lv})' for s, lv in sides))
        elif levels not in ([1, 5], [10, 20]):
            errors.append(f"{label}: its sides must be levels 1 and 5, or 10 and 20, got {levels[0]} and {levels[1]}")
    return enemies, skills


# -- companions ------------------------------------------------------------

def _load_companions(folder: Path, errors: list[str], skills: dict[str, EnemySkill]) -> dict[str, Companion]:
    """companions.toml is optional: [[companion]] stat blocks using the enemy skills of enemies.toml."""
    rel = "companions.toml"
    doc = _read_toml(folder / rel, rel, errors, required=False)
    out: dict[str, Companion] = {}
    if doc is None:
        return out
    for cid, e in _entries(doc, "companion", rel, errors, "companion"):
        e.unknown_keys(["id", "name", "health", "defense", "combat", "range", "targets", "skills", "traits",
                        "description"])
        targets = _targets(e)
        own: list[EnemySkill] = []
        for ref in e.str_list("skills"):
            m = _SKILL_REF_RE.match(ref.strip().lower())
            base = skills.get(m.group(1)) if m else None
            if base is None:
                e.err(f'skills names "{ref}", but enemies.toml defines no such skill (write "dodge" or "enfeeble 1")')
                continue
            value = int(m.group(2)) if m.group(2) else None
            if (base.value is not None) != (value is not None):
                e.err(f'skill "{base.id}" ' + ("needs a number" if value is None else "takes no number"))
                continue
            own.append(EnemySkill(base.id, base.name, value, base.timing, base.text, base.effects, base.manual))
        comp = Companion(cid, e.text("name"), e.int("health", 1, 60), e.int("defense", 0, 10, 0),
                         e.int("combat", 0, 10), e.int("range", 1, 10), targets, tuple(own), e.str_list("traits"),
                         e.text("description", "", allow_empty=True))
        if e.ok:
            out[cid] = comp
    return out


def _check_companion_refs(errors: list[str], companions: dict[str, Companion], items: dict[str, Item],
                          encounters: dict[str, Encounter]) -> None:
    def refs(effects) -> list[str]:
        return [e.get("companion") for e in effects if e.get("type") == "companion"]

    for it in items.values():
        for cid in refs(it.effects) + refs(it.overtax_effects):
            if cid not in companions:
                errors.append(f'items.toml, item "{it.id}": names companion "{cid}", which companions.toml '
                              "does not define")
    for enc in encounters.values():
        named = list(enc.companions) + [x for t in enc.triggers for x in refs(t.effects)]
        for cid in named:
            if cid not in companions:
                errors.append(f'encounters.toml, encounter "{enc.id}": names companion "{cid}", which '
                              "companions.toml does not define")


# -- items -----------------------------------------------------------------

def _load_items(folder: Path, errors: list[str]) -> dict[str, Item]:
    rel = "items.toml"
    doc = _read_toml(folder / rel, rel, errors)
    out: dict[str, Item] = {}
    for iid, e in _entries(doc, "item", rel, errors, "item"):
        e.unknown_keys(["id", "name", "rarity", "subtype", "forms", "traits", "keyword", "text", "effects",
                        "manual", "overtax_text", "overtax_effects", "lockpick", "timing"])
        rarity = e.choice("rarity", ITEM_RARITIES)
        subtype = e.choice("subtype", ITEM_SUBTYPES)
        forms = e.str_list("forms", BATTLE_FORMS)
        traits = e.str_list("traits")
        keyword = e.choice("keyword", ITEM_KEYWORDS, None)
        timing = e.choice("timing", TIMINGS, "your turn")
        text, effects, manual = e.ability()
        overtax_text = e.text("overtax_text", "", allow_empty=True)
        overtax_effects = e.effects("overtax_effects")
        if keyword == "overtax" and not overtax_text:
            e.err('has keyword "overtax" but no overtax_text')
        if overtax_text and keyword != "overtax":
            e.err('has overtax_text but its keyword is not "overtax"')
        if subtype == "armor" and len(traits) < 1:
            e.err("armor needs a trait naming its body area (for example \"head\" or \"chest\")")
        if subtype == "weapon" and not forms:
            e.err("a weapon needs at least one battle form in forms")
        if subtype == "potion" and keyword != "expend":
            e.err('a potion must have keyword "expend"')
        lock = e.text("lockpick")
        attempts, code, keys = 0, (), ()
        m = re.match(r"^(\d+)\s*:\s*([1-6]\*?(?:-[1-6]\*?){2,})$", lock.replace(" ", "")) if lock else None
        if lock and not m:
            e.err(f'lockpick must look like "3: 5-2-2" (attempts: digits 1-6, a * after a key digit), got {_show(lock)}')
        elif m:
            attempts = int(m.group(1))
            parts = m.group(2).split("-")
            code = tuple(int(p[0]) for p in parts)
            keys = tuple(i for i, p in enumerate(parts) if p.endswith("*"))
            if not 1 <= attempts <= 9:
                e.err(f"lockpick attempts must be from 1 to 9, got {attempts}")
        if e.ok:
            out[iid] = Item(iid, e.text("name"), rarity, subtype, forms, traits, keyword, text, overtax_text,
                            effects, overtax_effects, manual, attempts, code, keys, timing or "your turn")
    return out


# -- tiles -----------------------------------------------------------------

def _load_tiles(folder: Path, errors: list[str], kept: bool = False) -> dict[str, Tile]:
    rel = "tiles.toml"
    doc = _read_toml(folder / rel, rel, errors)
    out: dict[str, Tile] = {}
    for tid, e in _entries(doc, "tile", rel, errors, "tile"):
        e.unknown_keys(["id", "name", "kind", "map", "description"])
        name = e.text("name")
        kind = e.choice("kind", TILE_KINDS)
        drawing = e.text("map")
        cells = parse_hex_map(drawing) if drawing else {}
        if drawing and not cells:
            e.err("map draws no hexes")
        hexes, imp, esc = [], [], []
        slots: dict[int, Hex] = {}
        caches: dict[Hex, str] = {}
        labels: dict[str, Hex] = {}
        for h, tok in cells.items():
            hexes.append(h)
            if tok == ".":
                continue
            if tok == "#":
                imp.append(h)
            elif tok == "c":
                caches[h] = "common"
            elif tok == "l":
                caches[h] = "legendary"
            elif tok == "x":
                esc.append(h)
            elif tok.isdigit():
                n = int(tok)
                if n in slots:
                    e.err(f"map marks enemy hex {n} twice")
                slots[n] = h
            elif re.match(r"^[A-Z]$", tok):
                if tok in labels:
                    e.err(f"map marks hex {tok} twice")
                labels[tok] = h
            else:
                e.err(f'map has an unknown mark "{tok}" in row {h[1] + 1} (use . # c l x _ digits or A-Z)')
        if slots and sorted(slots) != list(range(1, len(slots) + 1)):
            e.err(f"enemy hexes must be numbered 1 to {len(slots)} without gaps, got {sorted(slots)}")
        if kind == "entrance" and (slots or caches):
            e.err("an entrance tile cannot hold enemy hexes or caches")
        if kind == "entrance" and cells and len(cells) != ENTRANCE_HEXES and not kept:
            e.err(f"an entrance tile has {ENTRANCE_HEXES} hexes (the rulebook's entrance tile), got {len(cells)}")
        if e.ok:
            out[tid] = Tile(tid, name, kind, tuple(sorted(hexes, key=lambda h: (h[1], h[0]))), tuple(sorted(imp)),
                            dict(sorted(slots.items())), caches, tuple(sorted(esc)), labels,
                            e.text("description", "", allow_empty=True))
    return out


# -- encounters ------------------------------------------------------------

def _trigger(e: _Entry, default_timing: str | None = None) -> Trigger | None:
    e.unknown_keys(["timing", "text", "effects", "manual"])
    timing = e.choice("timing", TRIGGER_TIMINGS, default_timing) if default_timing else e.choice("timing", TRIGGER_TIMINGS)
    text, effects, manual = e.ability()
    return Trigger(timing or "", text, effects, manual) if e.ok else None


_ENTRANCES: dict[tuple, str | None] = {}


def _entrance_problem(tiles: dict[str, Tile], placements: list[TilePlacement], kept: bool) -> str | None:
    """``entrance_problem`` of an encounter's layout, worked out once per layout (overland cards' battles often
    share their tiles and placements, and the check walks every hex)."""
    key = (kept, tuple((p.tile, p.offset, p.rotation, repr(tiles[p.tile])) for p in placements))
    if key not in _ENTRANCES:
        if len(_ENTRANCES) > 256:
            _ENTRANCES.clear()
        _ENTRANCES[key] = entrance_problem(assemble_map(tiles, placements), touch_only=kept)
    return _ENTRANCES[key]


def _load_encounters(folder: Path, errors: list[str], tiles: dict[str, Tile], enemies: dict[str, Enemy],
                     classes: dict[str, ClassDef], tiles_ok: bool, enemies_ok: bool, classes_ok: bool,
                     kept: bool = False, rel: str = "encounters.toml") -> dict[str, Encounter]:
    doc = _read_toml(folder / rel, rel, errors)
    out: dict[str, Encounter] = {}
    for xid, e in _entries(doc, "encounter", rel, errors, "encounter"):
        e.unknown_keys(["id", "name", "mode", "description", "tiles", "enemies", "objective", "challenge",
                        "triggers", "special_rules", "achievements", "rewards", "xp_dial", "companions"])
        name = e.text("name")
        mode = e.choice("mode", ENCOUNTER_MODES)
        description = e.text("description", "", allow_empty=True)
        xp_dial = e.int("xp_dial", 1, 99, None) if e.has("xp_dial") else None
        # tiles
        placements: list[TilePlacement] = []
        raw_tiles = e.get("tiles")
        if raw_tiles is not None and (not isinstance(raw_tiles, list) or not raw_tiles):
            e.err("tiles must be a list of { tile = ..., offset = [q, r], rotation = 0-5 }")
            raw_tiles = []
        for i, rt in enumerate(raw_tiles or [], 1):
            te = e.sub("", f"tiles #{i}", rt)
            te.unknown_keys(["tile", "offset", "rotation"])
            tid = te.text("tile")
            off = te.hex("offset", te.get("offset", [0, 0]))
            rot = te.int("rotation", 0, 5, 0)
            if tid and tid not in tiles:
                if tiles_ok:
                    te.err(f'names tile "{tid}", which tiles.toml does not define')
                else:
                    te.ok = False
            if te.ok and off is not None:
                placements.append(TilePlacement(tid, off, rot))
            else:
                e.ok = False
        if e.ok and placements:
            seen: dict[Hex, str] = {}
            for p in placements:
                for h in tiles[p.tile].hexes:
                    w = place_hex(h, p)
                    if w in seen:
                        e.err(f'tiles "{seen[w]}" and "{p.tile}" overlap at hex {list(w)}')
                        break
                    seen[w] = p.tile
            kinds = [tiles[p.tile].kind for p in placements]
            if mode == "clash" and ("clash" not in kinds or "entrance" not in kinds):
                e.err("a clash needs one clash tile and one entrance tile")
            if e.ok:
                problem = _entrance_problem(tiles, placements, kept)
                if problem:
                    e.err(problem)
        # enemies
        ee = e.sub("enemies", "enemies")
        ee.unknown_keys(["rule", "bag", "per_adventurer", "named", "required"])
        rule = ee.choice("rule", ("pool", "bag"))
        bag = ee.str_list("bag")
        per_adv = ee.int("per_adventurer", 1, 6, None) if ee.has("per_adventurer") else None
        named = ee.str_list("named")
        required = ee.str_list("required")
        if rule == "bag" and not bag:
            ee.err('rule "bag" needs a bag list of enemy ids')
        if rule == "pool" and bag:
            ee.err('rule "pool" draws from the whole bag; remove the bag list or use rule = "bag"')
        for field_name, ids in (("bag", bag), ("named", named), ("required", required)):
            for x in ids:
                if x not in enemies and enemies_ok:
                    ee.err(f'{field_name} names enemy "{x}", which enemies.toml does not define')
        if not ee.ok:
            e.ok = False
        # objective
        oe = e.sub("objective", "objective")
        otype = oe.choice("type", OBJECTIVES)
        oparams = {k: v for k, v in oe.data.items() if k != "type"}
        if otype == "eliminate":
            units = oparams.get("units")
            if not isinstance(units, list) or not units:
                oe.err('"eliminate" needs units = [enemy ids]')
            else:
                for u in units:
                    if u not in enemies and enemies_ok:
                        oe.err(f'units names enemy "{u}", which enemies.toml does not define')
        for k in oparams:
            if k not in ("units", "text", "escape_at"):
                oe.err(f'has an unknown field "{k}" (allowed: "type", "units", "text", "escape_at")')
        if otype == "escape-or-eliminate-all" and e.ok and placements:
            if not assemble_map(tiles, placements).escape:
                oe.err("an escape objective needs escape hexes (x) on a tile")
        if not oe.ok:
            e.ok = False
        challenge = _trigger(e.sub("challenge", "challenge"), "start of battle") if e.has("challenge") else None
        triggers = []
        raw_tr = e.get("triggers", [])
        for i, tr in enumerate(raw_tr if isinstance(raw_tr, list) else [], 1):
            t = _trigger(e.sub("", f"triggers #{i}", tr))
            if t:
                triggers.append(t)
            else:
                e.ok = False
        special = e.text("special_rules", "", allow_empty=True)
        # achievements and class rewards
        achievements: list[Achievement] = []
        raw_ach = e.get("achievements", [])
        ach_ids: set[str] = set()
        for i, a in enumerate(raw_ach if isinstance(raw_ach, list) else [], 1):
            ae = e.sub("", f"achievements #{i}", a)
            ae.unknown_keys(["id", "label"])
            aid, label = ae.text("id"), ae.text("label")
            if aid in ach_ids:
                ae.err(f'duplicate achievement id "{aid}"')
            ach_ids.add(aid)
            if ae.ok:
                achievements.append(Achievement(aid, label))
            else:
                e.ok = False
        rewards: dict[str, tuple[ClassReward, ...]] = {}
        raw_rw = e.get("rewards", {})
        if not isinstance(raw_rw, dict):
            e.err("rewards must be a table of achievement id = { classes = [...], expansion = [...] }")
            raw_rw = {}
        for aid, rw in raw_rw.items():
            re_ = e.sub("", f'rewards "{aid}"', rw)
            re_.unknown_keys(["classes", "expansion"])
            if aid not in ach_ids:
                re_.err("is not one of this encounter's achievements")
            cls = re_.str_list("classes")
            exp = re_.str_list("expansion")
            lst: list[ClassReward] = []
            for c in cls:
                if c not in classes:
                    if classes_ok:
                        re_.err(f'names class "{c}", which classes.toml does not define')
                    else:
                        re_.ok = False
                else:
                    lst.append(ClassReward(classes[c].name, c, classes[c].expansion_only))
            lst.extend(ClassReward(n, None, True) for n in exp)
            if re_.ok:
                rewards[aid] = tuple(lst)
            else:
                e.ok = False
        if e.ok:
            companions = e.str_list("companions")
            out[xid] = Encounter(xid, name, mode, description, tuple(placements), rule or "pool", bag, per_adv,
                                 xp_dial, named, required, challenge, otype or "conquer", oparams, tuple(triggers),
                                 special, tuple(achievements), rewards, companions)
    return out


# -- quests ----------------------------------------------------------------

def _load_quests(folder: Path, errors: list[str], encounters: dict[str, Encounter], enc_ok: bool) -> dict[str, Quest]:
    rel = "quests.toml"
    doc = _read_toml(folder / rel, rel, errors)
    out: dict[str, Quest] = {}
    for qid, e in _entries(doc, "quest", rel, errors, "quest"):
        e.unknown_keys(["id", "name", "text", "step"])
        name, text = e.text("name"), e.text("text")
        steps: list[QuestStep] = []
        raw = e.get("step", [])
        if not isinstance(raw, list) or not raw:
            e.err("needs at least one [[quest.step]]")
            raw = []
        for i, s in enumerate(raw, 1):
            se = e.sub("", f"step #{i}", s)
            se.unknown_keys(["id", "text", "encounter", "reward"])
            sid = se.text("id", f"step-{i}")
            enc = se.opt_text("encounter")
            if enc and enc not in encounters and enc_ok:
                se.err(f'names encounter "{enc}", which encounters.toml does not define')
            steps.append(QuestStep(sid, se.text("text"), enc, se.text("reward", "", allow_empty=True)))
            if not se.ok:
                e.ok = False
        if e.ok:
            out[qid] = Quest(qid, name, text, tuple(steps))
    return out


# -- the whole pack --------------------------------------------------------

def _count_errors(errors: list[str], prefix: str, start: int) -> bool:
    return not any(x.startswith(prefix) for x in errors[start:])


def _load_folder(folder: Path, *, kept: bool = False) -> Pack:
    """Read and check a pack folder.  ``kept``: an earlier version kept for the campaigns begun on it,
    checked as it was then (the entrance rules came later)."""
    errors: list[str] = []
    if not folder.is_dir():
        raise ContentError([f"{folder.name}: not a folder"])
    meta = _load_meta(folder, errors)
    races = _load_races(folder, errors)
    lines = _load_lines(folder, errors)
    n = len(errors)
    classes = _load_classes(folder, errors)
    classes_ok = _count_errors(errors, "classes.toml", n)
    n = len(errors)
    enemies, enemy_skills = _load_enemies(folder, errors)
    enemies_ok = _count_errors(errors, "enemies.toml", n)
    companions = _load_companions(folder, errors, enemy_skills)
    items = _load_items(folder, errors)
    n = len(errors)
    tiles = _load_tiles(folder, errors, kept)
    tiles_ok = _count_errors(errors, "tiles.toml", n)
    n = len(errors)
    encounters = _load_encounters(folder, errors, tiles, enemies, classes, tiles_ok, enemies_ok, classes_ok, kept)
    enc_ok = _count_errors(errors, "encounters.toml", n)
    quests = _load_quests(folder, errors, encounters, enc_ok)
    # the campaign's day: overland cards, provinces and their gazetteers (rulesets.tes.content.overland)
    from rulesets.tes.content.overland import load_overland

    icons, cards, provinces, card_battles = load_overland(
        folder, errors, lines=lines, items=items, encounters=encounters,
        load_encounters=lambda rel: _load_encounters(folder, errors, tiles, enemies, classes, tiles_ok, enemies_ok,
                                                     classes_ok, kept, rel=rel))
    encounters = {**encounters, **card_battles}
    # the campaign: guild cards, keywords, side quests, guild quests and endgames (rulesets.tes.content.quests)
    from rulesets.tes.content.quests import load_campaign

    campaign = load_campaign(folder, errors, lines=lines, items=items, encounters=encounters, provinces=provinces,
                             overland_cards=cards)
    _check_companion_refs(errors, companions, items, encounters)
    if meta is not None and not meta[5] and not any(x.startswith("pack.toml") for x in errors):
        errors.append('pack.toml, pack: is missing the field "enemy_combat_die"')
    if errors or meta is None:
        raise ContentError(errors or ["pack.toml: could not be read"])
    ident, name, version, description, mat, enemy_die, supply = meta
    return Pack(ident, name, version, description, folder, races, lines, classes, enemies, items, tiles,
                encounters, quests, mat, enemy_die, enemy_skills, companions, supply,
                overland_icons=icons, overland_cards=cards, provinces=provinces, campaign=campaign)



def _targets(e) -> int | None:
    """An enemy's or companion's ``targets``: 1 to 6, or "all" (None)."""
    raw = e.get("targets", 1)
    if raw == "all":
        return None
    if isinstance(raw, int) and not isinstance(raw, bool) and 1 <= raw <= 6:
        return raw
    e.err(f'targets must be a whole number from 1 to 6 or "all", got {_show(raw)}')
    return 1

