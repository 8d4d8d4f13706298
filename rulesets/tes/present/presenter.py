"""Turns state and events into what players see: embeds, text and picture view models."""
from __future__ import annotations

import re
from typing import Any

from engine.reply import COLOR_INFO, Embed, clip
from engine.present import say
from rulesets.tes.content.schema import BATTLE_FORM_NAMES as FORM_NAMES
from rulesets.tes.state import Adventurer, Campaign

# The unstable die's six faces (`/roll unstable`).  Rolled at an unstable landmark, it picks which overland
# card to draw: from the peaceful deck or the conflict deck, or a traveling caravan (a town encounter)
# instead.  The rulebook shows the faces as icons only; two faces each is our reading, with face 6 peaceful
# as in its overland example (see docs/rules-notes.md).
UNSTABLE_FACES = {
    1: "Conflict (draw a conflict overland card)",
    2: "Conflict (draw a conflict overland card)",
    3: "Traveling caravan (a town encounter)",
    4: "Traveling caravan (a town encounter)",
    5: "Peaceful (draw a peaceful overland card)",
    6: "Peaceful (draw a peaceful overland card)",
}


def short(name: str) -> str:
    words = [w for w in re.split(r"[\s-]+", name) if w]
    if len(words) >= 2:
        return "".join(w[0] for w in words[:3]).upper()
    return name[:3].upper()


def events_text(events, limit: int = 1900) -> str:
    return clip("\n".join(say(e) for e in events), limit)


def whose_move_text(state: Campaign) -> str:
    from rulesets.tes import rules

    found = rules.whose_move(state)
    if found:
        return f"<@{found[0]}>"
    missing = [m for m in state.members if m not in state.adventurers]
    if missing:
        return "Creating adventurers: " + ", ".join(f"<@{m}>" for m in missing) + " still to go"
    if not state.adventurers:
        return "Nobody yet: create adventurers with `/adventurer create`"
    if state.days is not None and state.days.phase != "over":
        return "The day moves on: see `/day status`"
    return "Party's choice: start a session with `/day start`, or a battle"


def status_embed(state: Campaign, pack) -> Embed:
    e = Embed(title=f"{state.name}", color=COLOR_INFO)
    e.description = (
        f"**Difficulty** {state.difficulty.title()} · **Pack** `{state.pack}` · **Session** {state.session}\n"
        f"**XP dial** {state.xp_dial} · **Day dial** {state.day_dial if state.day_dial else 'not started'}"
    )
    lines = []
    for member in state.members:
        adv = state.adventurers.get(member)
        lead = " (leader)" if member == state.leader else ""
        if adv:
            race = pack.races[adv.race].name if adv.race in pack.races else adv.race
            klass = pack.classes[adv.class_id].name if adv.class_id in pack.classes else "no class yet"
            lines.append(f"<@{member}>{lead}: **{adv.name}**, {race} {klass} · HP {adv.hp}/{adv.max_hp}"
                         + (f" (+{adv.bonus_hp})" if adv.bonus_hp else "")
                         + f" · {FORM_NAMES.get(adv.battle_form, adv.battle_form)} form")
        else:
            lines.append(f"<@{member}>{lead}: no adventurer yet")
    e.add(f"Party ({len(state.members)}/4)", "\n".join(lines) or "empty")
    e.add("Whose move", whose_move_text(state))
    if state.battle:
        b = state.battle
        e.add("Battle", f"{b.name or 'battle'} · round {b.round}")
    if state.days is not None:
        from rulesets.tes.day_state import PHASE_NAMES
        from rulesets.tes.present.day_view import waiting_line

        s = state.days
        prov = pack.provinces.get(s.province)
        where = f"{prov.name if prov else s.province}, day {state.day_dial or '—'} of 12"
        line, _owners = waiting_line(state, lambda o: f"<@{o}>")
        e.add("Session", f"{where} · {PHASE_NAMES.get(s.phase, s.phase)} Phase" + (f"\n{line}" if line else "")
              + "\nThe overland map: `/day status`.")
    return e


def mat_view(state: Campaign, adv: Adventurer, pack, player_name: str = "") -> dict[str, Any]:
    """The view model ``render.mat.render_mat`` draws."""
    race = pack.races.get(adv.race)

    def slot_view(slot):
        if slot is None:
            return None
        if slot.kind == "stat":
            view = {"kind": "stat", "id": slot.id, "label": slot.id.title()}
            if slot.id == "health":
                view["value"] = slot.value
            return view
        line = pack.lines.get(slot.id)
        return {"kind": "line", "id": slot.id, "label": line.name if line else slot.id,
                "constellation": getattr(line, "constellation", None), "form": getattr(line, "form", None)}

    def die_view(die_id: str) -> dict[str, Any]:
        d = adv.dice[die_id]
        dt = pack.die(d["type"])
        line = pack.lines.get(d["line"])
        return {"kind": "die", "line": d["line"], "label": dt.name, "short": short(dt.name), "level": d["level"],
                "constellation": getattr(line, "constellation", None), "where": adv.die_location(die_id)}

    rows = []
    for row in adv.rows:
        squares = []
        for sq in row.squares:
            if sq is None:
                squares.append(None)
            elif "stat" in sq:
                squares.append({"kind": "stat", "stat": sq["stat"]})
            else:
                squares.append(die_view(sq["die"]))
        rows.append({"left": slot_view(row.left), "right": slot_view(row.right), "squares": squares,
                     # XP cost above each column, left to right (the pack lists right costs from the right circle)
                     "costs": {"left": list(pack.mat.left_costs), "right": list(reversed(pack.mat.right_costs))}})

    track = []
    for entry in adv.cooldown:
        if "die" in entry:
            v = die_view(entry["die"])
            v["kind"] = "skill"
            track.append(v)
        elif entry.get("fatigue") == "over":
            track.append({"kind": "overfatigue"})
        elif "fatigue" in entry:
            track.append({"kind": "fatigue"})
        else:
            track.append({"kind": "status", "status": entry.get("status", "?")})

    active = []
    for entry in adv.active:
        label = entry.get("label") or "die"
        active.append({"label": label, "short": short(label), "icon": entry.get("icon", ""),
                       "value": entry.get("value"), "owner": entry.get("owner_name", "")})

    klass = None
    if adv.class_id and adv.class_id in pack.classes:
        c = pack.classes[adv.class_id]
        side = c.master if adv.class_side == "master" else c.novice
        klass = {
            "name": c.name, "side": adv.class_side, "promotion": c.promotion,
            "innate": {"name": side.innate.name, "text": side.innate.text},
            "abilities": [{"name": ab.name, "cost": ab.cost, "keyword": ab.keyword, "form": ab.form,
                           "text": ab.text, "used_this_turn": False} for ab in side.abilities],
        }

    def item_view(item_id: str) -> dict[str, Any]:
        it = pack.items.get(item_id)
        return {"name": it.name if it else item_id, "subtype": getattr(it, "subtype", ""),
                "text": getattr(it, "text", ""), "expended": False}

    stat_slots = sorted(int(k) for k in dict(pack.mat.cooldown_stat_costs))
    return {
        "name": adv.name,
        "player": player_name,
        "race": {"name": race.name if race else adv.race, "ability_name": race.ability.name if race else "",
                 "ability_text": race.ability.text if race else "", "used": adv.race_ability_used},
        "hp": adv.hp, "max_hp": adv.max_hp, "bonus_hp": adv.bonus_hp,
        "stats": {"health": adv.max_hp, "stamina": adv.stat("stamina"), "magicka": adv.stat("magicka"),
                  "cooldown": adv.cooldown_stat,
                  "combat": sum(1 for d in adv.dice.values() if d["line"] == "combat")},
        "rows": rows,
        "cooldown": {"size": pack.mat.cooldown_track_size, "stat": adv.cooldown_stat, "stat_slots": stat_slots,
                     "dice": track},
        "active": active,
        "tenacity": adv.tenacity, "tenacity_max": pack.mat.tenacity_max,
        "saved_xp": adv.saved_xp, "saved_xp_max": pack.mat.saved_xp_max,
        "battle_form": adv.battle_form,
        "forms": [[k, v] for k, v in FORM_NAMES.items()],
        "class": klass,
        "class_note": "Chosen after the Jailbreak Introduction" if not adv.class_id else "",
        "ready": [item_view(i) for i in adv.ready],
        "pack": [item_view(i) for i in adv.pack],
        "drained": [{"label": pack.die(adv.dice[d]["type"]).name, "short": short(pack.die(adv.dice[d]["type"]).name)}
                    for d in adv.drained if d in adv.dice],
        "in_battle": bool(state.battle),
        "battle_status": battle_status(state, adv),
    }


def battle_status(state: Campaign, adv: Adventurer) -> str:
    """Where the adventurer stands in the battle: "in battle", "escaped", "defeated", "retreated" ("" if none)."""
    b = state.battle
    if b is None:
        return ""
    u = b.units.get(f"a:{adv.owner}")
    if u is None:
        return ""
    if u.escaped:
        return "escaped"
    if u.defeated:
        return "defeated"
    if b.retreat:
        return "retreated"
    return "in battle"


def adventurer_embed(state: Campaign, adv: Adventurer, pack, filename: str) -> Embed:
    race = pack.races.get(adv.race)
    klass = pack.classes.get(adv.class_id) if adv.class_id else None
    e = Embed(title=f"{adv.name} — {race.name if race else adv.race}"
                    + (f" {klass.name} ({adv.class_side})" if klass else ""))
    e.description = (
        f"HP **{adv.hp}/{adv.max_hp}**" + (f" (+{adv.bonus_hp} bonus)" if adv.bonus_hp else "")
        + f" · Stamina **{adv.stat('stamina')}** · Magicka **{adv.stat('magicka')}** · Cooldown **{adv.cooldown_stat}**\n"
        f"Tenacity {adv.tenacity}/5 · Saved XP {adv.saved_xp}/3 · "
        f"{FORM_NAMES.get(adv.battle_form, adv.battle_form)} form"
    )
    e.footer = f"Player: <@{adv.owner}>"
    e.image = filename
    return e
