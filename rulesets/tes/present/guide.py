"""/adventurer guide: create an adventurer step by step with menus.

The draft lives in the campaign (``rulesets.tes.rules.guide``), so a prompt keeps
working after restarts and days later.  Each prompt names its draft and
revision in its ids (``hx:guide:<channel>:<owner>.<draft>.<rev>.<verb>``), and
each choice edits the same message.  The last button creates the adventurer
and posts it for the party, like ``/adventurer create``.
"""
from __future__ import annotations

import secrets

from engine.components import make_id, on_click
from engine.commands import Invocation, Opt, command
from rulesets.tes.present.common import PLAYER, _pack
from rulesets.tes.present.handlers import adventurer_show
from rulesets.tes.present.presenter import FORM_NAMES, events_text
from engine.reply import COLOR_OK, Button, Embed, Reply, Select, clip
from engine.core import RuleError
from engine.present import error_text
from rulesets.tes.rules.guide import (
    LATER, OUT_OF_DATE, STEP_NAMES, check_line, check_race, current_step, describe_layout, layouts, parse_layout,
)

STEP_ORDER = ("race", "line", "form", "layout", "class")
PICKS = set(STEP_ORDER)
BUTTONS = {"create", "restart", "cancel"}

HELP = {
    "race": "Choose your race. Each race sets your starting Health, Stamina, Magicka, Combat dice and Cooldown.",
    "line": "Choose your starting skill line: it gives you 2 level-1 dice. Most lines also set your battle form.",
    "form": "This skill line has no battle form of its own: choose the form you start in.",
    "layout": "Choose where your circular tokens go on the mat (row and side). "
              "For any other placement, use `/adventurer create` with `health:` `stamina:` ... instead.",
    "class": "Choose your class by open choice, or decide after the Jailbreak Introduction "
             "(then `/adventurer class`).",
    "summary": "Check your adventurer, then press **Create**.",
}


@command("adventurer guide", "Create your adventurer step by step with menus (race, line, placement, class).",
         Opt("name", str, "Your adventurer's name", required=True), PLAYER)
async def adventurer_guide(inv: Invocation, name, player=None) -> Reply:
    owner = str(player) if player else inv.user_id
    out = await inv.do("adventurer.draft", {"op": "start", "draft": secrets.token_hex(4), "name": name},
                       player=player)
    return prompt(inv, out.state, owner)


# ------------------------------------------------------------------- prompt --
def prompt(inv: Invocation, state, owner: str, note: str = "") -> Reply:
    """The message for the draft's current step: what is chosen so far, one menu, the buttons."""
    draft = state.drafts[owner]
    pack = _pack(state)
    step = current_step(draft)
    number = f"step {STEP_ORDER.index(step) + 1} of {len(STEP_ORDER)}: " if step in STEP_ORDER else ""
    title = f"New adventurer: {draft['name']} — {number}{STEP_NAMES[step]}"
    emb = Embed(title=clip(title, 256), description=HELP[step], color=COLOR_OK if step == "summary" else 0x4B6CB7)
    _so_far(emb, state, pack, draft)
    if owner != inv.user_id:
        emb.footer = f"For {inv.name_of(owner)}"

    def cid(verb: str) -> str:
        return make_id("guide", inv.channel_id, f"{owner}.{draft['id']}.{draft['rev']}.{verb}",
                       campaign=inv.campaign_id)

    selects: list[Select] = []
    lines = [note] if note else []
    if step in PICKS:
        options, left_out = _options(state, pack, draft, step, owner)
        selects.append(Select(cid(step), clip(f"Choose your {STEP_NAMES[step]}", 150), options))
        if left_out:
            lines.append(clip("Not offered: " + "; ".join(left_out) + ".", 600))
        if inv.local:
            lines.append(f"(local table: `/click {cid(step)} values:<one of the values below>`)")
    buttons = []
    if step == "summary":
        buttons.append(Button(cid("create"), "Create", "success"))
    if step != "race":
        buttons.append(Button(cid("restart"), "Start over", "secondary"))
    buttons.append(Button(cid("cancel"), "Cancel", "danger"))
    return Reply(content=clip("\n".join(lines), 1900), embeds=[emb], selects=selects, buttons=buttons,
                 ephemeral=True)


def _so_far(emb: Embed, state, pack, draft) -> None:
    if draft.get("race"):
        r = pack.races[draft["race"]]
        emb.add("Race", f"{r.name}: {_race_stats(r)}", False)
    if draft.get("line"):
        ln = pack.lines[draft["line"]]
        emb.add("Starting skill line", f"{ln.name} ({_line_text(ln, chosen=True)})", False)
    if draft.get("form"):
        emb.add("Battle form", FORM_NAMES.get(draft["form"], draft["form"]), True)
    if draft.get("layout"):
        slots = parse_layout(draft["layout"], pack.mat.rows)
        emb.add("Placement", describe_layout(pack, draft["line"], slots), False)
    if draft.get("class_done"):
        k = draft.get("klass")
        emb.add("Class", pack.classes[k].name if k in pack.classes else "decide after the Jailbreak Introduction",
                True)


def _race_stats(r) -> str:
    return (f"Health {r.health} · Stamina {r.stamina} · Magicka {r.magicka} · Combat {r.combat} · "
            f"Cooldown {r.cooldown}")


def _line_text(ln, chosen: bool = False) -> str:
    no_form = "no form of its own" if chosen else "no form: choose one next"
    form = f"{FORM_NAMES.get(ln.form, ln.form)} form" if ln.form else no_form
    return f"{(ln.constellation or 'innate').title()} · {ln.stat.title()} · {form}"


def _options(state, pack, draft, step: str, owner: str) -> tuple[list[tuple[str, str, str]], list[str]]:
    """(label, value, description) for the step's menu, and what was left out and why."""
    offered: list[tuple[str, str, str]] = []
    left_out: list[str] = []

    def usable(check) -> str | None:
        try:
            check()
        except RuleError as exc:
            return error_text(exc)
        return None

    if step == "race":
        for rid, r in pack.races.items():
            why = usable(lambda: check_race(state, pack, rid))
            if why:
                left_out.append(f"{r.name} ({'both sheets taken' if 'sheets' in why else 'not enough Combat dice'})")
            else:
                offered.append((r.name, rid, _race_stats(r)))
    elif step == "line":
        for lid, ln in pack.lines.items():
            if lid == "combat":
                continue
            why = usable(lambda: check_line(state, pack, lid))
            if why:
                left_out.append(f"{ln.name} ({'every token taken' if 'token' in why else 'no dice left'})")
            else:
                offered.append((ln.name, lid, _line_text(ln)))
    elif step == "form":
        from rulesets.tes.content import BATTLE_FORMS

        offered = [(FORM_NAMES.get(f, f), f, rule) for f, rule in BATTLE_FORMS.items()]
    elif step == "layout":
        offered = layouts(pack, draft["race"], draft["line"])
    elif step == "class":
        taken = {a.class_id: a.name for o, a in state.adventurers.items() if o != owner and a.class_id}
        for kid, k in pack.classes.items():
            if getattr(k, "expansion_only", False):
                continue
            if kid in taken:
                left_out.append(f"{k.name} ({taken[kid]} has it)")
                continue
            innate = k.novice.innate
            offered.append((k.name, kid, f"{innate.name}: {innate.text}"))
        if len(offered) > 24:
            left_out.append(f"{len(offered) - 24} more classes (use `/adventurer create` for those)")
        offered = offered[:24] + [("Decide after the Jailbreak", LATER,
                                   "Play the Jailbreak Introduction first, then choose with /adventurer class")]
    if len(offered) > 25:
        left_out.append(f"{len(offered) - 25} more (use `/adventurer create` for those)")
        offered = offered[:25]
    if not offered:  # nothing is free: list everything, the rules will say why each is refused
        offered = [(getattr(e, "name", i), i, "") for i, e in {"race": pack.races, "line": pack.lines}
                   .get(step, {}).items() if i != "combat"][:25] or [("—", "_", "")]
    return [(clip(lbl, 100), val[:100], clip(desc, 100)) for lbl, val, desc in offered], left_out


# ------------------------------------------------------------------- clicks --
@on_click("guide", campaign=True, ruleset="tes")
async def _guide_click(inv: Invocation, arg: str, values: list[str]) -> Reply:
    try:
        owner, draft_id, rev, verb = arg.rsplit(".", 3)
    except ValueError:
        return Reply.fail(f"{OUT_OF_DATE}it comes from an older version of the bot. Run `/adventurer guide` again.")
    if verb not in PICKS | BUTTONS or not owner:
        return Reply.fail(f"{OUT_OF_DATE}it comes from an older version of the bot. Run `/adventurer guide` again.")
    state = await inv.service.campaign(inv.channel_id)
    if state is None:
        return Reply.fail(f"{OUT_OF_DATE}this channel's campaign has ended.")
    if inv.user_id != owner and inv.user_id != state.leader:
        return Reply.fail(f"This prompt belongs to <@{owner}>: only they (or the party leader) can use it. "
                          "Make your own with `/adventurer guide`.")
    player = owner if owner != inv.user_id else None
    args = {"draft": draft_id, "rev": int(rev) if rev.isdecimal() else rev}
    if verb in PICKS:
        value = next((v for v in values if str(v).strip()), None)
        if value is None:
            return Reply.fail(f"Choose your {STEP_NAMES[verb]} from the menu.")
        out = await inv.do("adventurer.draft", args | {"op": "pick", "step": verb, "value": value}, player=player)
    elif verb == "restart":
        out = await inv.do("adventurer.draft", args | {"op": "restart"}, player=player)
    elif verb == "cancel":
        out = await inv.do("adventurer.draft", args | {"op": "cancel"}, player=player)
        return Reply(content=events_text(out.events) + " Nothing was created; start again any time with "
                     "`/adventurer guide`, or use `/adventurer create`.", ephemeral=True, update=True)
    else:  # create: one action creates the adventurer and drops the draft; the party sees it like /adventurer create
        out = await inv.do("adventurer.draft", args | {"op": "create"}, player=player)
        reply = await adventurer_show(inv, player=owner, state=out.state)
        reply.content = events_text(out.events)
        return reply
    reply = prompt(inv, out.state, owner, note=_note(out.events))
    reply.update = True
    return reply


def _note(events) -> str:
    return events_text([e for e in events if e.kind == "draft"], 300)
