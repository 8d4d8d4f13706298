"""View models of the duel picture (plain dicts ``render/duel.py`` draws) from the moments the rules kept.

A moment (``rulesets.duel.rules.flow.frame``) holds public information only: the Priority track's tokens
(revealed cards), each fighter's Grit, Fame, Ailments, ongoing effects and how many cards it holds or has
face-down (never which), and the last roll with its rerolled dice.  Here names are added.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rulesets.duel.state import AILMENTS

STEP_WORDS = {"join": "players choose whether to join", "place": "placing cards", "reveal": "revealing", "resolve": "resolving",
              "over": "the fight is over"}


def roll_view(roll: dict | None, names: dict[str, str]) -> dict[str, Any] | None:
    if not roll or not roll.get("dice"):
        return None
    mod = sum(int(m[1]) for m in roll.get("mods") or [])
    threshold = int(roll.get("threshold") or 0)
    dice = []
    for i, face in enumerate(roll["dice"]):
        value = int(face) + mod
        dice.append({"face": int(face), "value": value, "rerolled": bool((roll.get("rerolled") or [])[i]),
                     "was": int((roll.get("was") or [0] * len(roll["dice"]))[i]),
                     "accuracy": bool(threshold and value >= threshold)})
    plain = roll.get("purpose") == "procedure"
    who = names.get(roll.get("by") or "", "")
    if plain:
        head = f"{roll.get('label')}: one plain die (no card or Fame touches it)"
    else:
        n = len(roll["dice"])
        head = f"{roll.get('label')}: {who} rolls {str(roll.get('skill') or '').capitalize()}, {n} " + (
            "die" if n == 1 else "dice")
    need = int(roll.get("need") or 0)
    notes = []
    if need:
        notes.append(f"needs {need}+" + (" to hit" if roll.get("purpose") == "attack" else ""))
    if threshold:
        notes.append(f"Accuracy on {threshold}+")
    notes += [f"{int(m[1]):+d} {m[0]}" for m in roll.get("mods") or []]
    return {"head": head, "dice": dice, "notes": notes, "result": roll.get("result") or "", "plain": plain}


def picture_view(state, frame: dict[str, Any], name_of: Callable[[str], str], title: str = "") -> dict[str, Any]:
    fight = state.fight
    names = {f["id"]: f["name"] for f in frame.get("fighters") or []}
    fighters = []
    for f in frame.get("fighters") or []:
        fighters.append({
            "name": f["name"], "player": "" if f["kind"] == "monster" else name_of(f["owner"]),
            "monster": f["kind"] == "monster", "side": int(f["side"]), "grit": int(f["grit"]), "max": int(f["max"]),
            "fame": int(f["fame"]), "token": bool(f["token"]), "recalled": bool(f["recalled"]), "gear": f.get("gear"),
            "ailments": [{"name": a, "amount": int(f["ailments"][a])} for a in AILMENTS if f["ailments"].get(a)],
            "effects": [e["text"] + (" (1 round)" if e.get("rounds") == 1 else "") + f" · {e['label']}"
                        for e in f.get("effects") or []],
            "hand": None if frame.get("step") in ("join", "over") else int(f.get("hand") or 0),
            "facedown": int(f.get("facedown") or 0), "lure": bool(f.get("lure")),
        })
    side_of = {f["id"]: int(f["side"]) for f in frame.get("fighters") or []}
    track = [{"priority": d["priority"], "who": names.get(d["fighter"], "?"), "label": d["label"],
              "side": side_of.get(d["fighter"], 0), "state": "done", "outcome": d.get("outcome") or ""}
             for d in frame.get("done") or []]
    if track:
        track[-1]["state"] = "last"
    now = frame.get("current")
    if now:  # acting now: its roll waits for Fame rerolls
        track.append({"priority": now["priority"], "who": names.get(now["fighter"], "?"), "label": now["label"],
                      "side": side_of.get(now["fighter"], 0), "state": "now", "outcome": "rolled: Fame rerolls?"})
    track += [{"priority": t["priority"], "who": names.get(t["fighter"], "?"), "label": t["label"],
               "side": side_of.get(t["fighter"], 0), "state": "pending", "outcome": ""}
              for t in frame.get("track") or []]
    rolloff = [{"who": r["name"], "dice": [{"face": int(v), "value": int(w), "rerolled": False, "was": 0,
                                             "accuracy": False} for v, w in zip(r["dice"], r["values"])]}
               for r in frame.get("rolloff") or []]
    step = STEP_WORDS.get(frame.get("step") or "", "")
    if not title:
        title = f"{state.name}: fight {frame.get('no', 1)}"
        if fight is not None and fight.kind == "monster":
            title += f" vs {state_monster_name(state)}"
        elif fight is not None:
            a, b = (fight.fighters.get(f"c:{o}") for o in (fight.starter, fight.rival))
            if a is not None and b is not None:
                title += f": {a.name}'s side vs {b.name}'s"
    caption = frame.get("caption") or ""
    if frame.get("step") == "over" and frame.get("result"):
        caption = f"{caption}. The fight is over: {frame['result']}." if caption else f"The fight is over: {frame['result']}."
    return {"title": title, "round": int(frame.get("round") or 0), "step": step, "caption": caption, "track": track, "fighters": fighters,
            "roll": roll_view(frame.get("roll"), names), "rolloff": rolloff}


def state_monster_name(state) -> str:
    for f in state.fight.fighters.values():
        if f.kind == "monster":
            return f.name
    return ""
