"""The party's adjustment action for abilities the bot cannot apply by itself.

Some effects are marked manual in the content pack: the bot shows their text and the
party applies them.  ``battle.adjust`` is how: the leader changes a unit's HP (as true
damage or healing, so defeat and its consequences follow the rules), bonus HP,
tenacity, a status, fatigue, or its hex.  Every adjustment is logged with its reason.
"""
from __future__ import annotations

from rulesets.tes.battle import harm, status, track
from rulesets.tes.battle.model import find_unit, pos, require_battle
from engine.core import RuleError
from engine.hexes import Hex
from engine.bounds import OneHex, Int, Text
from rulesets.tes.rules.table import UNIT, Handler, action
from rulesets.tes.rules.battle import _ctx
from engine.text import echo, plain_words

STATUSES = ("bane", "blind", "daze", "fear", "maim", "stealth")


@action
class Adjust(Handler):
    type = "battle.adjust"
    leader_only = True
    args = {"unit": UNIT, "hp": Int(-99, 99), "bonus_hp": Int(-99, 99), "tenacity": Int(-5, 5), "status": Text(40),
            "fatigue": Int(1, 13), "fatigue_kind": Text(20), "to": OneHex(), "reason": Text()}
    summary = "Apply a manual effect by hand: HP, bonus HP, tenacity, status, fatigue or position (leader)."

    def apply(self, state, action, ctx):
        require_battle(state)
        a = action.args
        c = _ctx(state, ctx)
        u = find_unit(c, a.get("unit") or "")
        adv = c.adv_of(u)
        reason = str(a.get("reason") or "").strip()[:120]
        if state.rules >= 3:  # from revision 3 the log keeps a reason in plain words only (engine.text.plain_words)
            reason = plain_words(reason)
        done: list[str] = []
        hp = a.get("hp")
        if hp:
            n = int(hp)
            if n < 0:
                taken = (harm.damage_adventurer(c, adv.owner, -n, true=True, label="adjustment") if adv
                         else harm.damage_enemy(c, u.id, -n, true=True, label="adjustment"))
                done.append(f"{taken} true damage")
            else:
                done.append(f"healed {harm.heal(c, u, n)}")
        for key, label in (("bonus_hp", "bonus HP"), ("tenacity", "tenacity")):
            if a.get(key):
                if adv is None:
                    raise RuleError(f"Only adventurers have {label}; {u.name} is not one.")
                n = int(a[key])
                if key == "bonus_hp":
                    adv.bonus_hp = max(0, adv.bonus_hp + n)
                    done.append(f"bonus HP now {adv.bonus_hp}")
                else:
                    adv.tenacity = max(0, min(c.pack.mat.tenacity_max, adv.tenacity + n))
                    done.append(f"tenacity now {adv.tenacity}")
        if a.get("status"):
            text = str(a["status"]).strip().lower()
            remove = text.startswith("-")
            name = text.lstrip("+-")
            if name not in STATUSES:
                raise RuleError(f"`{echo(a['status'])}` is not a status. Use one of {', '.join(STATUSES)} "
                                "(prefix with - to remove it).")
            if adv is not None:
                if remove:
                    track.remove_status(adv, name)
                else:
                    track.gain_status(adv, name, c.track_size)
            elif remove:
                status.remove(c, u, name, "adjustment")
            else:
                status.give(c, u, name, "adjustment")
            done.append(("lost " if remove else "gained ") + name)
        if a.get("fatigue"):
            if adv is None:
                raise RuleError(f"Only adventurers gain fatigue; {u.name} is not one.")
            kind = "over" if str(a.get("fatigue_kind") or "light").startswith("over") else "light"
            track.gain_fatigue(adv, kind, int(a["fatigue"]), c.track_size, party=c.state.adventurers.values(),
                               supply=c.pack.supply)
            done.append(f"{int(a['fatigue'])} {kind} fatigue")
        if a.get("to"):
            try:
                to = a["to"]
                h = Hex(int(to[0]), int(to[1])) if isinstance(to, (list, tuple)) else Hex.parse(str(to))
            except ValueError as exc:
                raise RuleError(str(exc)) from None
            if h not in c.map.passable:
                raise RuleError(f"Hex {h} is off the map or impassable.")
            other = c.occupant(h)
            if other and other.id != u.id:
                raise RuleError(f"Hex {h} is occupied by {other['name']}.")
            start = pos(u)
            u.q, u.r = h.q, h.r
            done.append(f"moved {start} → {h}")
        if not done:
            raise RuleError("Say what to adjust: hp (+heal / -true damage), bonus_hp, tenacity, status, fatigue or to.")
        c.say("adjust", f"✋ Adjustment by the leader: {u.name}: {', '.join(done)}"
              + (f" ({reason})" if reason else "") + ".", unit=u.id, member_text=[reason] if reason else [])
        return state, c.events
