"""The duel picture: ``render_duel(view) -> PNG bytes``, posted after every resolved action of a fight.

From the top: the title; the round, what is going on and what just happened; the Priority track (every token
of the round, highest first: resolved ones faded with what they did, the one just resolved highlighted, the
ones still waiting); each fighter with its Grit bar, Fame, the Priority token, worn gear, Ailments, ongoing
effects and how many cards it holds and has face-down (never which); and the dice of the last roll, each die's
face and its value with the bonuses and penalties, rerolled dice ringed and marked, dice that grant Accuracy
starred.  Every label a player needs is drawn at least ``MIN_LABEL`` pixels tall on a ``W``-pixel-wide picture,
so at least 10 pixels once a phone shows it 400 pixels wide.
"""
from __future__ import annotations

from PIL import Image, ImageDraw

from render.common import BG, GOLD, INK, INK_FAINT, INK_SOFT, PANEL, WHITE, ellipsize, encode_png, font, mix, printable, wrap

W = 720  # picture width: a phone shows it about 400 px wide (scale 0.56)
M = 20
MIN_LABEL = 20  # the smallest text a player needs (11 px at 400 px wide)
SIDES = [(47, 127, 191), (192, 72, 42), (60, 157, 93), (142, 92, 184)]
AILMENT = {"burn": (200, 70, 20), "dazzle": (150, 110, 0), "slow": (50, 105, 185), "weak": (120, 80, 150)}
HIGHLIGHT = (255, 236, 150)  # the action just resolved
ACTING = (206, 228, 250)  # the action whose roll waits for Fame rerolls
REROLL = (226, 110, 20)
DIE = 66


def _side(n: int):
    return SIDES[int(n) % len(SIDES)]


def _title(d: ImageDraw.ImageDraw, text: str) -> int:
    d.rectangle([0, 0, W, 56], fill=(44, 40, 52))
    f = font(28, True)
    d.text((M, 28), ellipsize(printable(text), f, W - 2 * M), font=f, fill=WHITE, anchor="lm")
    return 56


def _lines(d, x: float, y: float, text: str, f, width: float, fill, max_lines: int = 3, gap: int = 4) -> float:
    for line in wrap(printable(text), f, width, max_lines):
        d.text((x, y), line, font=f, fill=fill)
        y += f.size + gap
    return y


def _chip(d, x: float, y: float, text: str, fill, ink=WHITE, f=None) -> float:
    f = f or font(MIN_LABEL, True)
    w = f.getlength(text) + 16
    d.rounded_rectangle([x, y, x + w, y + f.size + 10], radius=8, fill=fill)
    d.text((x + 8, y + 5), text, font=f, fill=ink)
    return w


def _track(d, y: float, track: list[dict], step: str = "") -> float:
    head = font(22, True)
    d.text((M, y), "Priority track (highest acts first)", font=head, fill=INK)
    y += 34
    if not track:
        empty = "Empty: the fight has not begun." if "join" in step else "Empty: cards are being placed."
        return _lines(d, M + 8, y, empty, font(MIN_LABEL), W - 2 * M, INK_SOFT) + 8
    row = 40
    body, bold = font(MIN_LABEL + 2), font(MIN_LABEL + 2, True)
    for t in track:
        state = t.get("state")
        colour = _side(t.get("side", 0))
        if state in ("last", "now"):
            d.rounded_rectangle([M - 6, y - 3, W - M + 6, y + row - 5], radius=8,
                                fill=HIGHLIGHT if state == "last" else ACTING)
        faded = state == "done"
        badge = mix(colour, WHITE, 0.55) if faded else colour
        d.rounded_rectangle([M, y, M + 58, y + row - 8], radius=8, fill=badge)
        d.text((M + 29, y + (row - 8) / 2), str(t.get("priority")), font=font(24, True), fill=WHITE, anchor="mm")
        ink = INK_FAINT if faded else INK
        text = f"{t.get('who', '?')}: {t.get('label', '')}"
        mark = ""
        if state in ("done", "last"):
            mark = "done" + (f": {t['outcome']}" if t.get("outcome") else "")
        elif state == "pending":
            mark = "waiting"
        elif state == "now":
            mark = t.get("outcome") or "acting"
        x = M + 72
        strong = state in ("last", "now")
        d.text((x, y + (row - 8) / 2), ellipsize(printable(text), bold if strong else body, 380),
               font=bold if strong else body, fill=ink, anchor="lm")
        d.text((W - M, y + (row - 8) / 2), ellipsize(printable(mark), font(MIN_LABEL), 240), font=font(MIN_LABEL),
               fill=INK if strong else INK_SOFT, anchor="rm")
        y += row
    return y + 6


def _fighter(d, y: float, f: dict) -> float:
    colour = _side(f.get("side", 0))
    top = y
    name_f = font(26, True)
    d.rectangle([M, y + 4, M + 22, y + 26], fill=colour)
    name = f.get("name", "?") + (f" ({f['player']})" if f.get("player") else "")
    right = W - M
    if f.get("token"):
        d.ellipse([right - 40, y, right, y + 40], fill=GOLD, outline=INK, width=2)
        d.text((right - 20, y + 20), "P", font=font(24, True), fill=INK, anchor="mm")
        d.text((right - 48, y + 20), "Priority token", font=font(MIN_LABEL, True), fill=INK, anchor="rm")
        right -= 210
    d.text((M + 32, y + 15), ellipsize(printable(name), name_f, right - M - 40), font=name_f, fill=INK, anchor="lm")
    y += 40
    grit, top_grit = int(f.get("grit", 0)), max(1, int(f.get("max", 1)))
    bar_w = 300
    d.rounded_rectangle([M, y, M + bar_w, y + 30], radius=6, fill=(70, 62, 58))
    if grit > 0:
        d.rounded_rectangle([M, y, M + bar_w * min(1.0, grit / top_grit), y + 30], radius=6, fill=(60, 170, 80))
    d.text((M + bar_w / 2, y + 15), f"Grit {grit}/{top_grit}", font=font(22, True), fill=WHITE, anchor="mm")
    info = f"Fame {f.get('fame', 0)}"
    if f.get("gear"):
        info += f" · {f['gear']}"
    d.text((M + bar_w + 16, y + 15), ellipsize(printable(info), font(MIN_LABEL + 2), W - 2 * M - bar_w - 16),
           font=font(MIN_LABEL + 2), fill=INK, anchor="lm")
    y += 40
    x = M
    chips = [(f"{a['name'].capitalize()} {a['amount']}", AILMENT.get(a["name"], (120, 120, 120)))
             for a in f.get("ailments") or []]
    chips += [(e, (88, 104, 120)) for e in f.get("effects") or []]
    if f.get("lure"):
        chips.append(("Lure: the enemy's attacks come here", (150, 60, 110)))
    cf = font(MIN_LABEL, True)
    for text, fill in chips:
        text = ellipsize(printable(text), cf, W - 2 * M - 20)
        w = cf.getlength(text) + 16
        if x + w > W - M:
            x, y = M, y + cf.size + 16
        _chip(d, x, y, text, fill, f=cf)
        x += w + 8
    if chips:
        y += cf.size + 18
    if not f.get("monster") and f.get("hand") is not None:
        held = f"Cards in hand: {f.get('hand', 0)}"
        if f.get("facedown"):
            held += f" · face-down: {f['facedown']}"
        d.text((M, y), held, font=font(MIN_LABEL), fill=INK_SOFT)
        y += MIN_LABEL + 10
    if f.get("recalled"):
        d.rectangle([M - 8, top - 4, W - M + 8, y], fill=None, outline=(150, 30, 30), width=3)
        word = "RECALLED" if not f.get("monster") else "FALLEN"
        d.text((W - M - 10, y - 14), word, font=font(26, True), fill=(160, 30, 30), anchor="rb")
    return y + 12


def _die(d, x: float, y: float, die: dict, size: int = DIE) -> None:
    rerolled = bool(die.get("rerolled"))
    if rerolled:
        d.rounded_rectangle([x - 6, y - 6, x + size + 6, y + size + 6], radius=14, outline=REROLL, width=5)
    fill = (255, 244, 200) if die.get("accuracy") else WHITE
    d.rounded_rectangle([x, y, x + size, y + size], radius=10, fill=fill, outline=INK, width=3)
    d.text((x + size / 2, y + size / 2), str(die.get("face")), font=font(int(size * 0.5), True), fill=INK, anchor="mm")
    if die.get("accuracy"):
        d.text((x + size - 4, y + 3), "*", font=font(26, True), fill=(200, 140, 0), anchor="ra")


def _roll(d, y: float, roll: dict | None, rolloff: list[dict]) -> float:
    if rolloff:
        d.text((M, y), "Priority roll-off (Finesse)", font=font(22, True), fill=INK)
        y += 34
        for r in rolloff:
            d.text((M, y + 22), ellipsize(printable(r.get("who", "")), font(MIN_LABEL + 2, True), 200),
                   font=font(MIN_LABEL + 2, True), fill=INK, anchor="lm")
            x = M + 210
            for die in r.get("dice") or []:
                _die(d, x, y, die, 44)
                x += 56
            y += 58
        y += 6
    if not roll:
        return y
    y = _lines(d, M, y, "Last roll: " + str(roll.get("head", "")), font(22, True), W - 2 * M, INK, 2)
    y += 10
    cell = (W - 2 * M) / 4  # four dice a row, each with its labels under it
    lab = font(MIN_LABEL, True)
    dice = list(roll.get("dice") or [])

    def lines_under(row: list[dict]) -> int:
        return max([(die.get("value") != die.get("face")) + 2 * bool(die.get("rerolled")) for die in row] + [0])

    for i, die in enumerate(dice):
        if i and i % 4 == 0:
            y += DIE + 20 + (MIN_LABEL + 6) * lines_under(dice[i - 4:i])
        cx = M + cell * (i % 4) + cell / 2
        _die(d, cx - DIE / 2, y, die)
        under = y + DIE + 10
        if die.get("value") != die.get("face"):
            d.text((cx, under), f"= {die['value']}", font=lab, fill=INK, anchor="ma")
            under += MIN_LABEL + 6
        if die.get("rerolled"):
            d.text((cx, under), "rerolled", font=lab, fill=REROLL, anchor="ma")
            d.text((cx, under + MIN_LABEL + 4), f"was {die.get('was')}", font=lab, fill=REROLL, anchor="ma")
    last_row = dice[(len(dice) - 1) // 4 * 4:] if dice else []
    y += DIE + 20 + (MIN_LABEL + 6) * lines_under(last_row)
    notes = " · ".join(roll.get("notes") or [])
    if notes:
        y = _lines(d, M, y, notes, font(MIN_LABEL), W - 2 * M, INK_SOFT, 2)
    if roll.get("result"):
        y = _lines(d, M, y + 2, f"Result: {roll['result']}", font(22, True), W - 2 * M, INK, 2)
    legend = "orange ring: rerolled (never again) · gold star: grants Accuracy" if not roll.get("plain") else ""
    if legend:
        y = _lines(d, M, y + 2, legend, font(MIN_LABEL), W - 2 * M, INK_SOFT, 2)
    return y + 8


def render_duel(view: dict) -> bytes:
    view = view or {}
    fighters = [f for f in view.get("fighters") or [] if isinstance(f, dict)]
    track = [t for t in view.get("track") or [] if isinstance(t, dict)]
    chips = sum(len(f.get("ailments") or []) + len(f.get("effects") or []) + 1 for f in fighters)
    dice = len((view.get("roll") or {}).get("dice") or [])
    guess = (56 + 170 + 40 * len(track) + 90 + 170 * max(1, len(fighters)) + 40 * chips + 300 + 140 * (dice // 3 + 1)
             + 70 * len(view.get("rolloff") or []))
    img = Image.new("RGB", (W, guess), BG)
    d = ImageDraw.Draw(img)
    y = _title(d, str(view.get("title") or "Duel")) + 12
    status = (f"Round {view['round']}" if view.get("round") else "Before the first round") + (
        f" · {view['step']}" if view.get("step") else "")
    d.text((M, y), status, font=font(22, True), fill=INK_SOFT)
    y += 32
    if view.get("caption"):
        lines = wrap(printable(str(view["caption"])), font(22, True), W - 2 * M - 20, 3)
        h = len(lines) * 28 + 14
        d.rounded_rectangle([M - 6, y, W - M + 6, y + h], radius=10, fill=PANEL, outline=(200, 190, 170), width=2)
        _lines(d, M + 4, y + 7, str(view["caption"]), font(22, True), W - 2 * M - 20, INK, 3, gap=6)
        y += h + 12
    y = _track(d, y, track, str(view.get("step") or ""))
    d.line([M, y, W - M, y], fill=(200, 190, 170), width=2)
    y += 10
    for f in fighters:
        y = _fighter(d, y, f)
    d.line([M, y, W - M, y], fill=(200, 190, 170), width=2)
    y += 10
    y = _roll(d, y, view.get("roll"), view.get("rolloff") or [])
    return encode_png(img.crop((0, 0, W, min(guess, int(y) + 10))))


__all__ = ["render_duel", "W", "MIN_LABEL"]
