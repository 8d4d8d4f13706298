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
    TilePlacement, Trigger, CardText, CardTrap, DelveCard, Dungeon, PromotionCheck,
)
from rulesets.tes.content.schema import (
    ABILITY_CODES, BAG_OF_LEVEL, BATTLE_FORMS, CLASS_KEYWORDS, CONSTELLATIONS, ENCOUNTER_MODES, ENEMY_LEVELS,
    ENEMY_PRIORITIES, ENEMY_TYPES, ITEM_KEYWORDS, ITEM_RARITIES, ITEM_SUBTYPES, OBJECTIVES, STATS, TILE_KINDS,
    TIMINGS, TRIGGER_TIMINGS, DELVE_SHAPES, ENVIRONMENT_TIMINGS, TRAP_ON,
)
from rulesets.tes.content.tiles import (ENTRANCE_HEXES, assemble_map, dungeon_map, entrance_problem, parse_hex_map,
                                       place_hex)

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
        e.unknown_keys(["id", "name", "description", "promotion", "promotion_check", "novice", "master",
                        "expansion_only"])
        name = e.text("name")
        description = e.text("description", "", allow_empty=True)
        promotion = e.text("promotion")
        expansion_only = e.bool("expansion_only", False)
        novice = _class_side(e, "novice", None)
        master = _class_side(e, "master", novice) if novice else None
        check = _promotion_check(e) if e.has("promotion_check") else None
        if e.ok and novice and master:
            out[cid] = ClassDef(cid, name, description, promotion, novice, master, expansion_only, check)
    return out


#: Promotion check kinds -> (the scopes each allows, its default scope, the keys it takes beside kind and scope).
PROMOTION_KINDS: dict[str, tuple[tuple[str, ...], str, tuple[str, ...]]] = {
    "defeat-enemy": (("battle",), "battle", ("min_level", "form", "stealth", "min_distance")),
    "enemies-defeated": (("turn", "round", "battle"), "turn", ("amount", "by")),
    "heal-allies": (("battle",), "battle", ("amount",)),
    "damage-prevented-for-allies": (("battle",), "battle", ("amount",)),
    "revive-ally": (("battle",), "battle", ("amount",)),
    "lockpick-successes": (("session",), "session", ("amount",)),
    "tenacity-given-to-allies": (("battle",), "battle", ("amount",)),
    "engaged-by-enemies": (("round", "battle"), "round", ("amount",)),
    "no-damage-when-engaged": (("battle",), "battle", ("amount",)),
    "first-to-engage": (("session",), "session", ("amount",)),
    "session-without-defeat": (("session",), "session", ()),
    "magic-and-weapon-dice": (("battle",), "battle", ("amount",)),
}


def _promotion_check(ce: _Entry) -> PromotionCheck | None:
    pe = ce.sub("promotion_check", "promotion check")
    kind = pe.choice("kind", tuple(PROMOTION_KINDS)) if pe.ok else None
    if kind is None:
        ce.ok = False
        return None
    scopes, scope0, keys = PROMOTION_KINDS[kind]
    pe.unknown_keys(("kind", "scope") + keys)
    check = PromotionCheck(
        kind=kind,
        amount=pe.int("amount", 1, 99, 1),
        scope=pe.choice("scope", scopes, scope0),
        by=pe.choice("by", ("you", "anyone"), "you"),
        min_level=pe.int("min_level", 1, 20, 0) if pe.has("min_level") else 0,
        form=pe.choice("form", BATTLE_FORMS, None),
        stealth=pe.bool("stealth", False),
        min_distance=pe.int("min_distance", 1, 20, 0) if pe.has("min_distance") else 0,
    )
    if not pe.ok:
        ce.ok = False
        return None
    return check


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

def _distance(a: Hex, b: Hex) -> int:
    from engine.hexes import Hex as AxialHex, distance

    return distance(AxialHex(*a), AxialHex(*b))


DELVE_MARKS = {"d": ("door",), "k": ("cache",), "e": ("enemy",), "ke": ("cache", "enemy"), "ek": ("cache", "enemy")}


def _load_tiles(folder: Path, errors: list[str], kept: bool = False, rel: str = "tiles.toml",
                required: bool = True, known: dict[str, Tile] | None = None) -> dict[str, Tile]:
    doc = _read_toml(folder / rel, rel, errors, required=required)
    out: dict[str, Tile] = {}
    for tid, e in _entries(doc, "tile", rel, errors, "tile"):
        if known and tid in known:
            e.err("duplicate id (tiles.toml already defines it)")
            continue
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
        delve: dict[str, list[Hex]] = {"door": [], "cache": [], "enemy": []}
        for h, tok in cells.items():
            hexes.append(h)
            if tok == ".":
                continue
            if tok in DELVE_MARKS:
                if kind not in ("delve", "entrance") or (kind == "entrance" and tok != "d"):
                    e.err(f'map mark "{tok}" in row {h[1] + 1} belongs on a delve tile (kind = "delve"; '
                          'an entrance tile may only mark its door hexes d)')
                for what in DELVE_MARKS[tok]:
                    delve[what].append(h)
            elif tok == "#":
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
                e.err(f'map has an unknown mark "{tok}" in row {h[1] + 1} (use . # c l x _ digits or A-Z; on '
                      'delve tiles d, k, e and ke)')
        if slots and sorted(slots) != list(range(1, len(slots) + 1)):
            e.err(f"enemy hexes must be numbered 1 to {len(slots)} without gaps, got {sorted(slots)}")
        if kind == "entrance" and (slots or caches):
            e.err("an entrance tile cannot hold enemy hexes or caches")
        if kind == "entrance" and cells and len(cells) != ENTRANCE_HEXES and not kept:
            e.err(f"an entrance tile has {ENTRANCE_HEXES} hexes (the rulebook's entrance tile), got {len(cells)}")
        if kind == "entrance" and delve["door"] and len(delve["door"]) != 2:
            e.err(f"a delve entrance marks 2 door hexes (d) side by side, got {len(delve['door'])}")
        elif kind == "entrance" and delve["door"] and _distance(*delve["door"]) != 1:
            e.err("a delve entrance's 2 door hexes (d) must be next to each other")
        if kind == "delve":
            if len(cells) not in DELVE_SHAPES:
                e.err(f"a delve tile's shape is its number of hexes, one of {', '.join(map(str, DELVE_SHAPES))}; "
                      f"this one has {len(cells)}")
            if not delve["door"]:
                e.err("a delve tile needs at least one door hex (d) to connect it")
            if slots or caches or esc:
                e.err("a delve tile marks its cache hexes k and enemy hexes e (delve cards say what goes there), "
                      "not numbered hexes, c, l or x")
        if e.ok:
            out[tid] = Tile(tid, name, kind, tuple(sorted(hexes, key=lambda h: (h[1], h[0]))), tuple(sorted(imp)),
                            dict(sorted(slots.items())), caches, tuple(sorted(esc)), labels,
                            e.text("description", "", allow_empty=True),
                            *(tuple(sorted(delve[k], key=lambda h: (h[1], h[0]))) for k in ("door", "cache", "enemy")))
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
                     kept: bool = False, rel: str = "encounters.toml", dungeons: dict[str, Dungeon] | None = None,
                     dungeons_ok: bool = True) -> dict[str, Encounter]:
    doc = _read_toml(folder / rel, rel, errors)
    out: dict[str, Encounter] = {}
    for xid, e in _entries(doc, "encounter", rel, errors, "encounter"):
        e.unknown_keys(["id", "name", "mode", "description", "tiles", "enemies", "objective", "challenge",
                        "triggers", "special_rules", "achievements", "rewards", "xp_dial", "companions",
                        "skyshards", "province", "dungeon"])
        name = e.text("name")
        mode = e.choice("mode", ENCOUNTER_MODES)
        description = e.text("description", "", allow_empty=True)
        xp_dial = e.int("xp_dial", 1, 99, None) if e.has("xp_dial") else None
        skyshards = e.int("skyshards", 1, 9, 3)
        province = e.opt_text("province")
        if province is not None and not re.match(r"^[A-Z]{2}$", province):
            e.err(f"province must be a two-letter code like \"SM\", got {_show(province)}")
        dungeon_id = e.opt_text("dungeon")
        if (e.has("skyshards") or province) and mode != "delve":
            e.err("skyshards and province belong to a delve encounter (mode = \"delve\")")
        if mode == "dungeon" and not dungeon_id:
            e.err('a dungeon encounter names its dungeon: dungeon = "<id>" (a file in dungeons/)')
        elif dungeon_id and mode != "dungeon":
            e.err('dungeon belongs to a dungeon encounter (mode = "dungeon")')
        elif dungeon_id and dungeons is not None and dungeon_id not in dungeons:
            if dungeons_ok:
                e.err(f'names dungeon "{dungeon_id}", which dungeons/ does not define')
            else:
                e.ok = False
        if mode == "dungeon" and e.has("tiles"):
            e.err("a dungeon encounter takes its tiles from its dungeon's setup diagram; remove tiles")
        # tiles
        placements: list[TilePlacement] = []
        raw_tiles = e.get("tiles", None) if mode == "dungeon" else e.get("tiles")
        if mode == "dungeon" and dungeon_id and dungeons and dungeon_id in dungeons:
            raw_tiles = None
            placements = list(dungeons[dungeon_id].tiles)
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
            if mode == "delve" and (kinds != ["entrance"] or len(tiles[placements[0].tile].doors) != 2):
                e.err("a delve starts with its entrance tile only: tiles = [{ tile = <an entrance tile with "
                      "2 door hexes d> }]")
            elif e.ok and mode == "clash":  # a dungeon's entrance is checked once, with the dungeon
                problem = _entrance_problem(tiles, placements, kept)
                if problem:
                    e.err(problem)
        if mode == "delve" and not placements and e.ok:
            e.err("a delve names its entrance tile: tiles = [{ tile = \"delve-entrance\" }]")
        # enemies
        ee = e.sub("enemies", "enemies", e.data.get("enemies", {"rule": "pool"} if mode == "delve" else None))
        ee.unknown_keys(["rule", "bag", "per_adventurer", "named", "required", "fill", "star_pool", "allies",
                         "caged"])
        rule = ee.choice("rule", ("pool", "bag"))
        bag = ee.str_list("bag")
        per_adv = ee.int("per_adventurer", 1, 6, None) if ee.has("per_adventurer") else None
        named = ee.str_list("named")
        required = ee.str_list("required")
        fill = ee.int("fill", 1, 30, None) if ee.has("fill") else None
        star_pool = ee.bool("star_pool", False)
        allies = ee.str_list("allies")
        caged = ee.str_list("caged")
        for x in caged:
            if x not in named:
                ee.err(f'caged names "{x}", which is not one of the named units (caged units are named ones '
                       'deployed without HP chips)')
        if caged and (mode != "dungeon" or not (dungeons and dungeon_id in dungeons and dungeons[dungeon_id].caged)):
            ee.err("caged units belong to a dungeon with cages (caged = true in its file)")
        if (fill or star_pool) and mode != "dungeon":
            ee.err("fill and star_pool are dungeon setup instructions (mode = \"dungeon\")")
        if mode == "delve" and (bag or named or required or rule != "pool"):
            ee.err("a delve draws its enemies tile by tile from the pool (rule = \"pool\"); bag, named and "
                   "required are for clashes and dungeons")
        if rule == "bag" and not bag:
            ee.err('rule "bag" needs a bag list of enemy ids')
        if rule == "pool" and bag:
            ee.err('rule "pool" draws from the whole bag; remove the bag list or use rule = "bag"')
        for field_name, ids in (("bag", bag), ("named", named), ("required", required), ("allies", allies)):
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
        if otype in ("survey", "uncover") and mode != "delve":
            oe.err(f'"{otype}" is a delve objective (gain the skyshards); this encounter\'s mode is "{mode}"')
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
                                 special, tuple(achievements), rewards, companions, skyshards, province,
                                 dungeon_id, fill, star_pool, allies, caged)
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


# -- delve cards -----------------------------------------------------------

def _code(e: _Entry, key: str, attempts_default: int | None = None) -> tuple[tuple[int, ...], tuple[int, ...], int]:
    """A lockpick code written "2: 4-5-2" (attempts: digits 1-6, a * after a key digit)."""
    raw = e.text(key)
    m = re.match(r"^(\d+)\s*:\s*([1-6]\*?(?:-[1-6]\*?){2,})$", raw.replace(" ", "")) if raw else None
    if not m:
        if raw:
            e.err(f'{key} must look like "2: 4-5-2" (attempts: digits 1-6, a * after a key digit), got {_show(raw)}')
        return (), (), 1
    attempts = int(m.group(1))
    if not 1 <= attempts <= 9:
        e.err(f"{key} attempts must be from 1 to 9, got {attempts}")
    parts = m.group(2).split("-")
    return tuple(int(p[0]) for p in parts), tuple(i for i, p in enumerate(parts) if p.endswith("*")), attempts


def _card_text(e: _Entry, key: str, label: str) -> tuple[CardText | None, _Entry | None]:
    if not e.has(key):
        return None, None
    ce = e.sub(key, label)
    text, effects, manual = ce.ability()
    return CardText(text, effects, manual), ce


def _load_delve_cards(folder: Path, errors: list[str]) -> dict[str, DelveCard]:
    rel = "delve/cards.toml"
    doc = _read_toml(folder / rel, rel, errors, required=False)
    out: dict[str, DelveCard] = {}
    numbers: dict[tuple[str, int], str] = {}
    for cid, e in _entries(doc, "card", rel, errors, "card"):
        e.unknown_keys(["id", "name", "province", "number", "special", "shape", "scale", "caches", "skyshards",
                        "revealed", "trap", "skyshard", "environment"])
        name = e.text("name")
        prov_raw = e.text("province", "general")
        province = None if prov_raw.lower() in ("general", "ge", "") else prov_raw
        if province is not None and not re.match(r"^[A-Z]{2}$", province):
            e.err(f'province must be "general" or a two-letter province code like "SM", got {_show(prov_raw)}')
        number = e.int("number", 1, 99)
        key = (province or "GE", number)
        if key in numbers and e.ok:
            e.err(f'number {number} is already card "{numbers[key]}" of the same set')
        numbers[key] = cid
        shape = e.choice("shape", DELVE_SHAPES)
        scale: dict[int, tuple[int, ...]] = {}
        raw_scale = e.get("scale")
        if not isinstance(raw_scale, dict) or sorted(raw_scale) != ["1", "2", "3", "4"]:
            e.err("scale must give a row for 1, 2, 3 and 4 adventurers: { 1 = [1], 2 = [1, 1], 3 = [5, 1], 4 = [5, 5] }")
        else:
            for k, row in raw_scale.items():
                if not isinstance(row, list) or len(row) > 6 or not all(
                        isinstance(x, int) and not isinstance(x, bool) and x in ENEMY_LEVELS for x in row):
                    e.err(f"scale row {k} must list up to 6 enemy levels (1, 5, 10 or 20), got {_show(row)}")
                    continue
                scale[int(k)] = tuple(row)
        ca = e.sub("caches", "caches", e.data.get("caches", {}))
        ca.unknown_keys(["common", "legendary"])
        caches = {"common": ca.int("common", 0, 6, 0), "legendary": ca.int("legendary", 0, 6, 0)}
        if not ca.ok:
            e.ok = False
        skyshards = e.int("skyshards", 0, 3, 0)
        special = e.bool("special", False)
        revealed, re_ = _card_text(e, "revealed", "revealed")
        after = False
        if re_ is not None:
            re_.unknown_keys(["text", "effects", "manual", "after_populate"])
            after = re_.bool("after_populate", False)
            e.ok = e.ok and re_.ok
        trap = None
        if e.has("trap"):
            te = e.sub("trap", "trap")
            te.unknown_keys(["name", "code", "on", "text", "effects", "manual"])
            tname = te.text("name")
            code, keys, attempts = _code(te, "code")
            on = te.choice("on", TRAP_ON, "fail")
            text, effects, manual = te.ability()
            if te.ok:
                trap = CardTrap(tname, code, keys, attempts, on, CardText(text, effects, manual))
            else:
                e.ok = False
        shard: dict[int, CardText] = {}
        if e.has("skyshard"):
            raw_sh = e.get("skyshard")
            if not isinstance(raw_sh, dict) or not raw_sh or any(k not in ("1", "2", "3") for k in raw_sh):
                e.err('skyshard must give the effect for each number of skyshards gained: { 1 = { text = "...", '
                      'effects = [...] }, 2 = ..., 3 = ... }')
            else:
                for k, raw in raw_sh.items():
                    se = e.sub("", f"skyshard {k}", raw)
                    se.unknown_keys(["text", "effects", "manual"])
                    text, effects, manual = se.ability()
                    if se.ok:
                        shard[int(k)] = CardText(text, effects, manual)
                    else:
                        e.ok = False
            if not skyshards and e.ok:
                e.err("a skyshard effect needs skyshards = 1 (or more): it works when the tile's skyshards are gained")
        env, ee = _card_text(e, "environment", "environment")
        timing = ""
        if ee is not None:
            ee.unknown_keys(["timing", "text", "effects", "manual"])
            timing = ee.choice("timing", ENVIRONMENT_TIMINGS) or ""
            e.ok = e.ok and ee.ok
        boxes = [k for k, v in (("trap", trap), ("skyshard", shard), ("environment", env)) if v]
        if len(boxes) > 1:
            e.err(f"a delve card has a When Revealed effect and at most one other box; this one has {' and '.join(boxes)}")
        if e.ok and shape is not None:
            out[cid] = DelveCard(cid, name, province, number, shape, scale, caches, skyshards, special, revealed,
                                 after, trap, shard, env, timing)
    return out


# -- dungeons --------------------------------------------------------------

def _load_dungeons(folder: Path, errors: list[str], tiles: dict[str, Tile], tiles_ok: bool) -> dict[str, Dungeon]:
    out: dict[str, Dungeon] = {}
    sub = folder / "dungeons"
    if not sub.is_dir():
        return out
    for path in sorted(sub.glob("*.toml")):
        rel = f"dungeons/{path.name}"
        doc = _read_toml(path, rel, errors)
        if doc is None:
            continue
        did = doc.get("id")
        if not isinstance(did, str) or not ID_RE.match(did):
            errors.append(f"{rel}: id must be lower-case letters, digits and dashes, got {_show(did)}")
            continue
        e = _Entry(errors, rel, f'dungeon "{did}"', doc)
        if did in out:
            e.err("duplicate id (another file in dungeons/ already defines it)")
            continue
        e.unknown_keys(["id", "name", "province", "description", "special_rules", "tiles", "origin", "diagram",
                        "caged", "lock"])
        name = e.text("name")
        province = e.opt_text("province")
        if province is not None and not re.match(r"^[A-Z]{2}$", province):
            e.err(f"province must be a two-letter code like \"SM\", got {_show(province)}")
        placements: list[TilePlacement] = []
        raw_tiles = e.get("tiles")
        for i, rt in enumerate(raw_tiles if isinstance(raw_tiles, list) else [], 1):
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
        if not isinstance(raw_tiles, list) or not raw_tiles:
            e.err("tiles must be a list of { tile = ..., offset = [q, r], rotation = 0-5 }, the entrance tile included")
        kinds = [tiles[p.tile].kind for p in placements if p.tile in tiles]
        if e.ok and kinds.count("entrance") != 1:
            e.err("a dungeon's tiles include exactly one entrance tile")
        seen: dict[Hex, str] = {}
        for p in placements if e.ok else []:
            for h in tiles[p.tile].hexes:
                w = place_hex(h, p)
                if w in seen:
                    e.err(f'tiles "{seen[w]}" and "{p.tile}" overlap at hex {list(w)}')
                    break
                seen[w] = p.tile
        origin = e.hex("origin", e.get("origin", [0, 0]))
        drawing = e.text("diagram")
        marks: dict[Hex, str] = {}
        if drawing and origin is not None:
            for (q, r), tok in parse_hex_map(drawing).items():
                marks[(q + origin[0], r + origin[1])] = tok
        slots: dict[int, Hex] = {}
        labels: dict[str, Hex] = {}
        stars: list[Hex] = []
        caches: dict[Hex, str] = {}
        imp: set[Hex] = set()
        entrance = {w for p in placements if p.tile in tiles and tiles[p.tile].kind == "entrance"
                    for w in (place_hex(h, p) for h in tiles[p.tile].hexes)}
        for h, tok in sorted(marks.items(), key=lambda kv: (kv[0][1], kv[0][0])):
            if seen and h not in seen:
                e.err(f"the diagram marks hex {h[0]},{h[1]}, which no tile covers (check origin and the tiles)")
                continue
            if tok == ".":
                continue
            if h in entrance:
                e.err(f"the diagram marks entrance hex {h[0]},{h[1]}; the party deploys there")
                continue
            if tok.isdigit():
                n = int(tok)
                if n in slots:
                    e.err(f"the diagram marks enemy hex {n} twice")
                slots[n] = h
            elif re.match(r"^[A-Z]$", tok):
                if tok in labels:
                    e.err(f"the diagram marks hex {tok} twice")
                labels[tok] = h
            elif tok == "*":
                stars.append(h)
            elif tok in ("c", "l"):
                caches[h] = "common" if tok == "c" else "legendary"
            elif tok == "#":
                imp.add(h)
            else:
                e.err(f'the diagram has an unknown mark "{tok}" (use . # c l * digits A-Z and _)')
        if slots and sorted(slots) != list(range(1, len(slots) + 1)):
            e.err(f"numbered hexes must run from 1 to {len(slots)} without gaps, got {sorted(slots)}")
        caged = e.bool("caged", False)
        lock = None
        if e.has("lock"):
            lock = _code(e, "lock")
        if caged and lock is None:
            e.err('a dungeon with caged units names the cages\' lock: lock = "3: 4-4-2"')
        if e.ok:
            out[did] = Dungeon(did, name, province, e.text("description", "", allow_empty=True),
                               e.text("special_rules", "", allow_empty=True), tuple(placements),
                               dict(sorted(slots.items())), labels, tuple(stars), caches, frozenset(imp), caged,
                               lock, drawing)
            problem = entrance_problem(dungeon_map(tiles, out[did]))
            if problem:
                e.err(problem)
                del out[did]
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
    tiles.update(_load_tiles(folder, errors, kept, "delve/tiles.toml", required=False, known=tiles))
    tiles_ok = _count_errors(errors, "tiles.toml", n) and _count_errors(errors, "delve/tiles.toml", n)
    n = len(errors)
    delve_cards = _load_delve_cards(folder, errors)
    dungeons = _load_dungeons(folder, errors, tiles, tiles_ok)
    dungeons_ok = _count_errors(errors, "dungeons/", n)
    n = len(errors)
    encounters = _load_encounters(folder, errors, tiles, enemies, classes, tiles_ok, enemies_ok, classes_ok, kept,
                                  dungeons=dungeons, dungeons_ok=dungeons_ok)
    enc_ok = _count_errors(errors, "encounters.toml", n)
    quests = _load_quests(folder, errors, encounters, enc_ok)
    # the campaign's day: overland cards, provinces and their gazetteers (rulesets.tes.content.overland)
    from rulesets.tes.content.overland import load_overland

    icons, cards, provinces, card_battles = load_overland(
        folder, errors, lines=lines, items=items, encounters=encounters,
        load_encounters=lambda rel: _load_encounters(folder, errors, tiles, enemies, classes, tiles_ok, enemies_ok,
                                                     classes_ok, kept, rel=rel, dungeons=dungeons,
                                                     dungeons_ok=dungeons_ok), kept=kept)
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
                overland_icons=icons, overland_cards=cards, provinces=provinces, delve_cards=delve_cards,
                dungeons=dungeons, campaign=campaign)



def _targets(e) -> int | None:
    """An enemy's or companion's ``targets``: 1 to 6, or "all" (None)."""
    raw = e.get("targets", 1)
    if raw == "all":
        return None
    if isinstance(raw, int) and not isinstance(raw, bool) and 1 <= raw <= 6:
        return raw
    e.err(f'targets must be a whole number from 1 to 6 or "all", got {_show(raw)}')
    return 1

