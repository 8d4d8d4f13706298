"""Example view models of every picture kind: used by the tests, the benchmark and the sample pictures.

``samples()`` lists one (name, kind, view) for each picture kind and the map's variants;
``python -m render.samples OUTDIR`` writes them as OUTDIR/<name>.png.  (docs/images holds these and the
pictures of real battles that ``tests/picture_views.py`` draws.)
"""
from __future__ import annotations

import copy
import os
import sys

COSTS = {"left": [1, 1, 2, 2, 3, 4], "right": [1, 1, 2, 2, 3, 4]}
FORMS = [["light", "Light weapon"], ["heavy", "Heavy weapon"], ["defensive", "Defensive"], ["ranged", "Ranged"],
         ["magic", "Magic"]]


def _die(line, label, short, level, constellation, where="row"):
    return {"kind": "die", "line": line, "label": label, "short": short, "level": level,
            "constellation": constellation, "where": where}


def example_overland_view() -> dict:
    """An overland map of 9 x 8 hexes (the size of the starter pack's province), mid-day: towns, landmarks of
    every kind, a route, a proposed one, an NPC token and the gauge (the benchmark and the render tests)."""
    terrain = [("m", "Marsh", "#7e9a5c"), ("s", "Salt flats", "#ddd3b4"), ("h", "Dunes", "#c2a56a"),
               ("f", "Fen-wood", "#4f7a48"), ("w", "Shallows", "#86b3c4")]
    features = {(3, 6): ("town", "Brinehold"), (3, 2): ("town", "Reedwick"), (1, 1): ("town", "Cairn Tollan"),
                (0, 5): ("town", "Ossmere"), (3, 3): ("unstable", ""), (4, 3): ("peaceful", ""),
                (4, 5): ("conflict", ""), (1, 2): ("conflict", ""), (0, 2): ("peaceful", ""), (5, 4): ("unstable", "")}
    hexes = []
    for r in range(8):
        for col in range(9):
            if (r, col) in ((0, 0), (0, 7), (0, 8), (1, 8), (5, 0), (6, 0), (7, 0), (7, 1), (7, 8)):
                continue
            q = col - (r - (r & 1)) // 2
            t = terrain[(q * 3 + r * 5) % len(terrain)]
            h = {"q": q, "r": r, "terrain": t[0], "color": t[2]}
            f = features.get((q, r))
            if f:
                h["feature"] = f[0]
                if f[0] == "town":
                    h["town"] = f[1].lower().replace(" ", "-")
                    h["name"] = f[1]
            hexes.append(h)
    return {"title": "The Saltmire (SM)", "version": "sample-overland", "hexes": hexes,
            "terrain": [{"letter": a, "name": b, "color": c} for a, b, c in terrain], "closed": [],
            "party": {"q": 3, "r": 3}, "route": [[3, 6], [3, 5], [3, 4], [3, 3]], "proposal": [],
            "tokens": [{"kind": "npc", "name": "Marsh Lantern", "q": 2, "r": 3, "path": [[1, 3], [2, 3]]}],
            "day": 2, "day_limit": 12, "status": "Encounter Phase · The Broken Weir",
            "gauge": {"name": "Tide", "at": "high", "steps": [{"id": "low", "name": "Low Tide", "movement": 3},
                                                             {"id": "high", "name": "High Tide", "movement": 2},
                                                             {"id": "flood", "name": "Spring Flood", "movement": 1}]},
            "compass": {"corner": "top-right", "faces": ["ne", "e", "se", "sw", "w", "nw"]},
            "log": ["Fatigue movement to 3,3: each adventurer gains 1 light fatigue.",
                    "The party moves 3 hexes: 3,6 → 3,5 → 3,4 → 3,3.",
                    "The party stops at the unstable landmark (3,3) and rolls the unstable die: 6, peaceful."]}


def example_mat_view() -> dict:
    """Ryan's Dark Elf at creation, with the Sorcerer class sheet (novice side)."""
    stamina = {"kind": "stat", "stat": "stamina"}
    magicka = {"kind": "stat", "stat": "magicka"}
    combat = _die("combat", "Combat", "CB", 1, None)
    force = _die("destruction-staff", "Force Shock", "FS", 1, "mage")
    rows = [
        {"left": {"kind": "stat", "id": "health", "label": "Health", "value": 4}, "right": None,
         "squares": [None] * 6},
        {"left": {"kind": "stat", "id": "stamina", "label": "Stamina"},
         "right": {"kind": "line", "id": "combat", "label": "Combat", "constellation": None, "form": None},
         "squares": [stamina, stamina, None, None, dict(combat), dict(combat)]},
        {"left": {"kind": "stat", "id": "magicka", "label": "Magicka"}, "right": None,
         "squares": [magicka, magicka, magicka, None, None, None]},
        {"left": {"kind": "line", "id": "destruction-staff", "label": "Destruction Staff", "constellation": "mage",
                  "form": "magic"}, "right": None,
         "squares": [dict(force), dict(force), None, None, None, None]},
        {"left": None, "right": None, "squares": [None] * 6},
    ]
    for r in rows:
        r["costs"] = copy.deepcopy(COSTS)
    return {
        "name": "Vilya", "player": "Ryan",
        "race": {"name": "Dark Elf", "ability_name": "Ashen Resolve",
                 "ability_text": "Once per battle on your turn: take up to 4 skill dice back from your cooldown "
                                 "track. Each die you take back leaves a light fatigue die in its place.",
                 "used": False},
        "hp": 4, "max_hp": 4, "bonus_hp": 0,
        "stats": {"health": 4, "stamina": 2, "magicka": 3, "cooldown": 2, "combat": 2},
        "rows": rows,
        "cooldown": {"size": 13, "stat": 2, "stat_slots": [1, 2, 3, 4, 5, 6], "dice": []},
        "active": [],
        "tenacity": 0, "tenacity_max": 5, "saved_xp": 0, "saved_xp_max": 3,
        "battle_form": "magic",
        "forms": copy.deepcopy(FORMS),
        "class": {
            "name": "Sorcerer", "side": "novice",
            "promotion": "Master side unlocks after the party finishes its second guild quest.",
            "innate": {"name": "Arcane Spark",
                       "text": "When you roll two or more tenacity results in one engage, deal 1 extra damage "
                               "to the target."},
            "abilities": [
                {"name": "Crackling Ward", "cost": 2, "keyword": "interrupt", "form": "magic",
                 "text": "When an enemy engages you, prevent 2 damage and daze that enemy.", "used_this_turn": False},
                {"name": "Bound Familiar", "cost": 3, "keyword": "enduring", "form": None,
                 "text": "Place a familiar die in an active slot. While it stays there, each of your engages "
                         "deals 1 extra damage to one adjacent enemy.", "used_this_turn": False},
                {"name": "Overload", "cost": 4, "keyword": None, "form": "magic",
                 "text": "Roll every magic skill die in your rows at once; afterwards move all of them to the "
                         "cooldown track and gain one heavy fatigue die.", "used_this_turn": False},
            ],
        },
        "class_note": "",
        "ready": [
            {"name": "Apprentice Staff", "subtype": "weapon", "text": "Magic form. +1 damage on your first engage "
                                                                       "each battle.", "expended": False},
            {"name": "Minor Magicka Potion", "subtype": "potion", "text": "Take 1 skill die back from your "
                                                                          "cooldown track.", "expended": False},
        ],
        "pack": [{"name": "Lockpick", "subtype": "tool"}, {"name": "Bread Loaf", "subtype": "food"}],
        "drained": [],
        "in_battle": False,
    }


def battle_mat_view() -> dict:
    """The same adventurer mid-battle: dice on cooldown, active slots, drained dice, bonus HP."""
    v = example_mat_view()
    v["hp"], v["bonus_hp"], v["in_battle"] = 2, 1, True
    v["tenacity"], v["saved_xp"] = 3, 1
    v["race"]["used"] = True
    rows = v["rows"]
    rows[1]["squares"][4]["where"] = "cooldown"
    rows[3]["squares"][0]["where"] = "active"
    rows[3]["squares"][1]["where"] = "drained"
    rows[4]["right"] = {"kind": "line", "id": "restoring-light", "label": "Restoring Light",
                        "constellation": "mage", "form": "magic"}
    rows[4]["squares"][5] = _die("restoring-light", "Mending Glow", "MG", 2, "mage")
    rows[0]["right"] = {"kind": "line", "id": "shadow", "label": "Shadow", "constellation": "thief", "form": "light"}
    rows[0]["squares"][5] = _die("shadow", "Veiled Strike", "VS", 1, "thief", "cooldown")
    v["cooldown"]["dice"] = [
        {"kind": "skill", "label": "Combat", "short": "CB", "line": "combat", "constellation": None, "level": 1},
        {"kind": "fatigue"},
        {"kind": "skill", "label": "Veiled Strike", "short": "VS", "line": "shadow", "constellation": "thief",
         "level": 1},
        {"kind": "status", "status": "bane"},
        {"kind": "overfatigue"},
    ]
    v["active"] = [
        {"label": "Force Shock", "short": "FS", "icon": "damage", "value": 2, "owner": "Ryan"},
        {"label": "Shield Discipline", "short": "SD", "icon": "prevent", "value": 2, "owner": "Shannon"},
    ]
    v["drained"] = [{"label": "Force Shock", "short": "FS"}]
    v["class"]["abilities"][0]["used_this_turn"] = True
    v["ready"].append({"name": "Iron Sword", "subtype": "weapon", "text": "Light form.", "expended": True})
    v["ready"].append({"name": "Leather Jerkin", "subtype": "armor", "text": "Prevent 1 damage once per round.",
                       "expended": False})
    v["pack"] += [{"name": "Torch", "subtype": "tool"}, {"name": "Healing Draught", "subtype": "potion"}]
    return v


def escaped_mat_view() -> dict:
    """The mid-battle adventurer after escaping by a green hex: the battle goes on without her."""
    v = battle_mat_view()
    v["battle_status"] = "escaped"
    return v


def example_map_view() -> dict:
    """A jailbreak-style clash map, mid-battle, in a fatigue round, with 10 units."""
    hexes = []
    for r in range(-3, 4):
        for q in range(-3 - min(0, r), 5 - max(0, r)):
            if abs(q + r / 2) > 5:
                continue
            tile = "jail-cells" if q + r < 0 else ("jail-clash" if q < 3 else "guard-room")
            hexes.append({"q": q, "r": r, "tile": tile, "impassable": False, "entrance": False, "escape": False,
                          "enemy_slot": None})
    byqr = {(h["q"], h["r"]): h for h in hexes}
    for qr in [(-1, -1), (0, -1), (2, 1), (1, 2)]:
        if qr in byqr:
            byqr[qr]["impassable"] = True
    for qr in [(-2, 3), (-1, 3)]:
        if qr in byqr:
            byqr[qr]["entrance"] = True
    for qr in [(4, -3), (5, -3)]:
        if qr in byqr:
            byqr[qr]["escape"] = True
    for n, qr in enumerate([(3, -1), (4, -1), (3, 0), (4, -2)], start=1):
        if qr in byqr:
            byqr[qr]["enemy_slot"] = n
    units = [
        {"id": "a1", "label": "Vilya", "short": "VIL", "side": "adventurer", "q": 2, "r": 0, "hp": 3, "max_hp": 4,
         "bonus_hp": 1, "statuses": ["bane", "daze"], "acting": True, "defeated": False, "level": None,
         "player": "Ryan"},
        {"id": "a2", "label": "Shannon", "short": "SHA", "side": "adventurer", "q": 1, "r": 0, "hp": 5, "max_hp": 5,
         "bonus_hp": 0, "statuses": [], "acting": False, "defeated": False, "level": None,
         "player": "Shannon"},
        {"id": "a3", "label": "Marcus", "short": "MAR", "side": "adventurer", "q": 0, "r": 1, "hp": 1, "max_hp": 4,
         "bonus_hp": 0, "statuses": ["maim"], "acting": False, "defeated": False, "level": None,
         "player": "Theo"},
        {"id": "a4", "label": "Dar-Jee", "short": "DAR", "side": "adventurer", "q": -1, "r": 2, "hp": 4, "max_hp": 4,
         "bonus_hp": 0, "statuses": ["stealth"], "acting": False, "defeated": False, "level": None,
         "player": "Priya"},
        {"id": "c1", "label": "Lyris", "short": "LYR", "side": "companion", "q": -2, "r": 1, "hp": 3, "max_hp": 3,
         "bonus_hp": 0, "statuses": [], "acting": False, "defeated": False, "level": None,
         "player": "Shannon"},
        {"id": "e1", "label": "Skeleton", "short": "SKE", "side": "enemy", "q": 3, "r": 0, "hp": 2, "max_hp": 5,
         "bonus_hp": 0, "statuses": ["fear"], "acting": False, "defeated": False, "level": 1},
        {"id": "e2", "label": "Skeleton Archer", "short": "SKA", "side": "enemy", "q": 4, "r": -1, "hp": 3,
         "max_hp": 3, "bonus_hp": 0, "statuses": ["blind"], "acting": False, "defeated": False, "level": 1},
        {"id": "e3", "label": "Jailer", "short": "JAI", "side": "enemy", "q": 3, "r": -2, "hp": 6, "max_hp": 6,
         "bonus_hp": 2, "statuses": [], "acting": False, "defeated": False, "level": 2},
        {"id": "e4", "label": "Rat", "short": "RAT", "side": "enemy", "q": 0, "r": -2, "hp": 0, "max_hp": 2,
         "bonus_hp": 0, "statuses": [], "acting": False, "defeated": True, "level": 1},
        {"id": "e5", "label": "Guard", "short": "GUA", "side": "enemy", "q": 4, "r": 0, "hp": 4, "max_hp": 4,
         "bonus_hp": 0, "statuses": ["bane"], "acting": False, "defeated": False, "level": 1},
    ]
    return {
        "title": "Jailbreak Introduction", "round": 4, "fatigue_round": True, "version": "jailbreak-1",
        "hexes": hexes,
        "caches": [{"q": -3, "r": 0}, {"q": 2, "r": -3}],
        "units": units,
        "path": [[0, 0], [1, -1], [2, -1], [2, 0]],
        "engage": {"from": [2, 0], "to": [3, 0]},
        "log": [
            "Round 4 begins: fatigue round, every adventurer gains 1 fatigue die.",
            "Shannon moves 1 hex and readies Shield Discipline.",
            "Vilya moves 3 hexes to 2,0.",
            "Vilya engages Skeleton with Force Shock: 3 damage, Skeleton is at 2/5.",
        ],
    }


def enemy_phase_map_view() -> dict:
    """The same battle right after the enemy phase: what each enemy did is drawn (moves and
    engages), the Rat stays where it fell marked defeated, and the opened cache is gone."""
    v = example_map_view()
    v["version"] = "jailbreak-1"
    by_id = {u["id"]: u for u in v["units"]}
    for u in v["units"]:
        u["acting"] = False
    by_id["e5"]["q"], by_id["e5"]["r"] = 2, -1     # Guard: 4,0 -> 3,-1 -> 2,-1, then engages Vilya
    by_id["e3"]["q"], by_id["e3"]["r"] = 2, -2     # Jailer: 3,-2 -> 2,-2
    by_id["a1"]["hp"] = 1
    by_id["a1"]["statuses"] = ["bane", "daze", "fear"]
    by_id["e4"].update({"q": None, "r": None, "defeated_at": [0, -2]})
    by_id["a3"].update({"q": None, "r": None, "hp": 0, "defeated": True, "defeated_at": [0, 1]})
    v["caches"] = [{"q": -3, "r": 0, "opened": True}, {"q": 2, "r": -3}]
    v["path"], v["engage"] = [], None
    v["moves"] = [{"unit": "e5", "path": [[4, 0], [3, -1], [2, -1]]},
                  {"unit": "e3", "path": [[3, -2], [2, -2]]}]
    v["engages"] = [{"unit": "e5", "from": [2, -1], "to": [2, 0]},
                    {"unit": "e1", "from": [3, 0], "to": [2, 0]},
                    {"unit": "e2", "from": [4, -1], "to": [1, 0]}]
    v["title"] = "Jailbreak Introduction: the enemies' turn"
    v["fatigue_round"] = False
    v["log"] = [
        "Enemy phase: Guard moves 2 hexes to 2,-1 and engages Vilya: 2 damage → Vilya is at 1/4.",
        "💀 Marcus is defeated and leaves the map.",
        "Skeleton engages **Vilya**: `fear`.",
        "Skeleton Archer engages Shannon: Shannon prevents 2.",
        "Jailer moves 1 hex to 2,-2.",
    ]
    return v


def example_roll_view() -> dict:
    return {
        "title": "Vilya engages Skeleton Archer of the Lower Cells with Force Shock",
        "dice": [
            {"label": "Force Shock", "short": "FS", "constellation": "mage", "level": 1,
             "results": [{"icon": "damage", "value": 2}], "resolved": True},
            {"label": "Force Shock", "short": "FS", "constellation": "mage", "level": 1,
             "results": [{"icon": "tenacity", "value": None}], "resolved": True},
            {"label": "Combat", "short": "CB", "constellation": None, "level": 1,
             "results": [{"icon": "damage", "value": 1}, {"icon": "tenacity", "value": None}], "resolved": True},
            {"label": "Shield Discipline", "short": "SD", "constellation": "warrior", "level": 2,
             "results": [{"icon": "prevent", "value": 2}], "resolved": None},
            {"label": "Veiled Strike", "short": "VS", "constellation": "thief", "level": 1,
             "results": [{"icon": "move", "value": 1}, {"icon": "status", "value": None}], "resolved": False},
            {"label": "Ember Rune", "short": "ER", "constellation": "mage", "level": 2,
             "results": [{"icon": "shock", "value": 1}, {"icon": "heal", "value": 1}], "resolved": False},
        ],
    }


def lockpick_view() -> dict:
    """Sil's second attempt at a common cache: the key digit 3 matched, the 5 not yet."""
    return {"title": "Sil picks the lock of a common cache", "code": [3, 5, 2], "keys": [0], "dice": [3, 6, 2],
            "matched": {"0": 0, "2": 2}, "locked": [0], "attempt": 2, "attempts": 3, "fatigue": 1,
            "deck": "common item deck"}


def result_map_view() -> dict:
    """The battle's end: the last enemy fell; the header says VICTORY."""
    v = enemy_phase_map_view()
    for u in v["units"]:
        if u["side"] == "enemy":
            u.update({"defeated": True, "defeated_at": [u["q"], u["r"]] if u["q"] is not None else
                      u.get("defeated_at"), "q": None, "r": None})
    v.update({"title": "Jailbreak Introduction: victory in round 6", "round": None, "result": "victory",
              "moves": [], "engages": [], "path": [], "engage": None})
    v["log"] = ["Vilya engages Guard with Force Shock: 3 damage, Guard is defeated.",
                "Victory! The party achieves the objective. The battle ends after round 6."]
    return v


def _field(width: int, height: int) -> list[dict]:
    hexes = []
    for r in range(height):
        for c in range(width):
            zone = 0 if c < 2 else (1 if c >= width - 2 else None)
            hexes.append({"q": c - r // 2, "r": r, "zone": zone})
    return hexes


def skirmish_map_view() -> dict:
    """Round 2 of a skirmish: the Bramble Guard attacked, the Ashcaller waits, dice channelled."""
    return {
        "mode": "map", "title": "Fen Crossing: round 2", "width": 14, "height": 10, "hexes": _field(14, 10),
        "palette": ["#2f7fbf", "#c0482a", "#3c9d5d", "#8e5cb8"],
        "fighters": [
            {"id": "a1", "name": "Thornspeaker", "short": "TH", "side": 0, "q": -2, "r": 5, "damage": 1, "wounds": 12,
             "wizard": True, "out": False, "waiting": False, "activated": False, "active": True},
            {"id": "a2", "name": "Bramble Guard", "short": "BG", "side": 0, "q": 2, "r": 4, "damage": 10,
             "wounds": 16, "wizard": False, "out": False, "waiting": False, "activated": True, "active": False},
            {"id": "b1", "name": "Ashcaller", "short": "AS", "side": 1, "q": 8, "r": 5, "damage": 0, "wounds": 12,
             "wizard": True, "out": False, "waiting": True, "activated": False, "active": False},
            {"id": "b2", "name": "Ember Runner", "short": "ER", "side": 1, "q": 4, "r": 4, "damage": 6, "wounds": 9,
             "wizard": False, "out": False, "waiting": False, "activated": True, "active": False},
        ],
        "trail": [{"kind": "move", "fighter": "b2", "path": [[8, 4], [7, 4], [6, 4], [5, 4], [4, 4]]},
                  {"kind": "attack", "fighter": "b2", "from": [4, 4], "to": [3, 4]},
                  {"kind": "retreat", "fighter": "a2", "path": [[3, 4], [2, 4]]}],
        "warbands": [
            {"name": "Thorn Watch", "player": "lena", "side": 0, "colour": "#2f7fbf", "turn": True, "points": 260,
             "dice": [{"n": 1, "kind": "double", "value": 5, "channelled": False},
                      {"n": 2, "kind": "triple", "value": 3, "channelled": True, "wizard": "Thornspeaker"}],
             "fighters": [{"short": "TH", "name": "Thornspeaker", "wounds": 12, "damage": 1, "out": False},
                          {"short": "BG", "name": "Bramble Guard", "wounds": 16, "damage": 10, "out": False}]},
            {"name": "Cinder Reavers", "player": "bob", "side": 1, "colour": "#c0482a", "turn": False, "points": 210,
             "dice": [{"n": 1, "kind": "double", "value": 1, "channelled": False}],
             "fighters": [{"short": "AS", "name": "Ashcaller", "wounds": 12, "damage": 0, "out": False},
                          {"short": "ER", "name": "Ember Runner", "wounds": 9, "damage": 6, "out": False}]},
        ],
        "log": ["Ember Runner moves 4 hexes to 4,4.", "Ember Runner attacks Bramble Guard: 2 hits, 3 damage.",
                "Bramble Guard retreats 1 hex to 2,4."],
    }


def skirmish_initiative_view() -> dict:
    """Round 2's initiative: a tie on singles settled by a roll-off."""
    return {"mode": "initiative", "title": "Round 2: initiative", "first": "lena",
            "rows": [{"player": "lena", "warband": "Thorn Watch", "colour": "#2f7fbf", "roll": [2, 2, 2, 5, 6, 1],
                      "singles": 3, "dice": [{"kind": "triple", "value": 2, "channelled": False}]},
                     {"player": "bob", "warband": "Cinder Reavers", "colour": "#c0482a", "roll": [4, 4, 3, 1, 6, 5],
                      "singles": 4, "dice": [{"kind": "double", "value": 4, "channelled": False}]}],
            "rolloffs": [[["lena", 3], ["bob", 3]], [["lena", 5], ["bob", 2]]]}


def samples() -> list[tuple[str, str, dict]]:
    """(name, picture kind, view) of one example of every picture kind, and the map's variants."""
    return [
        ("mat-example", "mat", example_mat_view()),
        ("mat-battle", "mat", battle_mat_view()),
        ("mat-escaped", "mat", escaped_mat_view()),
        ("sheet-example", "sheet", battle_mat_view()),
        ("map-example", "map", example_map_view()),
        ("map-enemy-phase", "map", enemy_phase_map_view()),
        ("result-victory", "result", result_map_view()),
        ("roll-example", "roll", example_roll_view()),
        ("lockpick-example", "lockpick", lockpick_view()),
        ("skirmish-map", "skirmish", skirmish_map_view()),
        ("skirmish-initiative", "skirmish", skirmish_initiative_view()),
    ]


def write_examples(outdir: str) -> list[str]:
    from render import render

    os.makedirs(outdir, exist_ok=True)
    out = []
    for name, kind, view in samples():
        path = os.path.join(outdir, f"{name}.png")
        with open(path, "wb") as fh:
            fh.write(render(kind, view))
        out.append(path)
    return out


if __name__ == "__main__":  # pragma: no cover
    for p in write_examples(sys.argv[1] if len(sys.argv) > 1 else "docs/images"):
        print(p)


def journal_example_view() -> dict:
    """The journal as examples/session.txt and session-2.txt leave it: session 1 won, session 2 under way."""
    return {"campaign": "Outer Watch", "difficulty": "adept", "result": "",
            "party": [{"adventurer": "Ryan", "player": "ryan"}, {"adventurer": "Shannon", "player": "shannon"}],
            "guild": "Mages Guild",
            "sessions": [{"number": 1, "province": "The Saltmire", "difficulty": "adept", "quest": "The Salt Road",
                          "result": "done", "why": "the Salt Road completed", "major": "Salt Road Sworn", "xp": 9,
                          "days": 4, "sides_done": ["The Greedy Conjurer"], "sides_failed": ["Marsh Patrol"]},
                         {"number": 2, "province": "The Saltmire", "difficulty": "adept", "quest": "The Sunken Chime",
                          "result": "under way", "why": "", "major": "", "xp": 0, "days": 0, "sides_done": [],
                          "sides_failed": []}],
            "keywords": ["Salt Road Sworn"], "minor": ["Conjurer Caught"], "assist": "not used yet"}
