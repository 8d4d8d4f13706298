"""The adventurer mat picture: ``render_mat(view) -> PNG bytes``.

Drawn top to bottom in sections sized for a phone preview: header with HP, stat chips,
race and battle form, the five attribute rows, the cooldown track, active slots with
tenacity / saved XP / drained dice, the class sheet and the inventory.
"""
from __future__ import annotations

from typing import Any

from PIL import Image, ImageDraw

from render.common import (
    BG, GOLD, INK, INK_FAINT, INK_SOFT, LINE, PANEL, PANEL_DARK, STAT_COLOURS, WHITE,
    constellation_colour, draw_icon, ellipsize, encode_png, fit_font, font, mix, pips, printable_view, rounded,
    status_colour, text_on, triangle, wrap,
)
from engine.text import count

W = 1100
M = 20                      # outer margin
CW = W - 2 * M              # content width
MAX_H = 4000
PAD = 14                    # inner panel padding

# the header's tag for an adventurer's place in the battle (optional view key "battle_status")
BATTLE_TAGS = {"in battle": ("IN BATTLE", (200, 60, 40)), "escaped": ("ESCAPED", (40, 130, 60)),
               "defeated": ("DEFEATED", (110, 30, 30)), "retreated": ("RETREATED", (110, 110, 110))}
WHERE_TAGS = {"cooldown": "COOL", "active": "ACTIVE", "drained": "DRAIN"}
FORM_TAGS = {"light": "Light", "heavy": "Heavy", "defensive": "Defensive", "ranged": "Ranged", "magic": "Magic"}


def _initials(label: str) -> str:
    words = [w for w in str(label or "").replace("-", " ").split() if w]
    if len(words) >= 2:
        return "".join(w[0] for w in words[:3]).upper()
    return (words[0][:3] if words else "?").upper()


def _int(v, default: int = 0) -> int:
    try:
        return int(v)
    except (TypeError, ValueError):
        return default


class _Mat:
    def __init__(self, view: dict[str, Any]):
        self.v = printable_view(view or {})
        self.img = Image.new("RGB", (W, MAX_H), BG)
        self.d = ImageDraw.Draw(self.img)
        self.y = 0

    # -- helpers -------------------------------------------------------------
    def panel(self, x0, y0, x1, y1, title: str | None = None, fill=PANEL) -> int:
        """Draw a panel box; returns the y where its content starts."""
        rounded(self.d, (x0, y0, x1, y1), 12, fill=fill, outline=LINE, width=2)
        if title:
            self.d.text((x0 + PAD, y0 + 10), title, font=font(19, True), fill=INK_SOFT)
            return y0 + 40
        return y0 + PAD

    def section_title(self, x, y, title: str, note: str = "") -> None:
        f = font(19, True)
        self.d.text((x, y), title, font=f, fill=INK_SOFT)
        if note:
            nx = x + f.getlength(title) + 14
            self.d.text((nx, y + 2), note, font=font(16), fill=INK_FAINT)

    def text_block(self, x, y, text, width, size=17, bold=False, fill=INK, max_lines=None, spacing=4) -> int:
        f = font(size, bold)
        for line in wrap(text, f, width, max_lines):
            self.d.text((x, y), line, font=f, fill=fill)
            y += size + spacing
        return y

    def tag(self, x, y, text, fill, size=14, fg=None) -> float:
        """A small pill label; returns its right edge."""
        f = font(size, True)
        w = f.getlength(text) + 14
        rounded(self.d, (x, y, x + w, y + size + 10), (size + 10) / 2, fill=fill)
        self.d.text((x + w / 2, y + (size + 10) / 2), text, font=f, fill=fg or text_on(fill), anchor="mm")
        return x + w

    # -- sections ------------------------------------------------------------
    def header(self) -> None:
        v, d = self.v, self.d
        h = 104
        d.rectangle([0, 0, W, h], fill=(44, 40, 52))
        name = str(v.get("name") or "Adventurer")
        race = (v.get("race") or {}).get("name") or ""
        klass = v.get("class") or {}
        sub = " ".join(p for p in [race, klass.get("name", "") if klass else ""] if p)
        if klass:
            sub += f" ({klass.get('side') or 'novice'})"
        player = v.get("player") or ""
        # HP block on the right
        hp, mx, bonus = _int(v.get("hp")), _int(v.get("max_hp")), _int(v.get("bonus_hp"))
        x1 = W - M
        status = str(v.get("battle_status") or ("in battle" if v.get("in_battle") else "")).lower()
        if status:
            label, colour = BATTLE_TAGS.get(status, (status.upper(), (110, 110, 110)))
            tw = font(16, True).getlength(label) + 14
            self.tag(x1 - tw, 8, label, colour, 16)
        hp_txt = f"{hp}/{mx}"
        fbig = font(46, True)
        bw = fbig.getlength(hp_txt) + 86
        bx0 = x1 - bw
        if bonus:
            fb = font(26, True)
            bbw = fb.getlength(f"+{bonus}") + 24
            bx0 -= bbw + 10
            rounded(d, (x1 - bbw, 40, x1, 92), 12, fill=GOLD)
            d.text((x1 - bbw / 2, 58), f"+{bonus}", font=fb, fill=INK, anchor="mm")
            d.text((x1 - bbw / 2, 84), "bonus", font=font(13, True), fill=INK, anchor="mm")
        # the name shrinks to fit the room left of the HP block before it is ever cut
        room = bx0 - M - 24
        fname = fit_font(name, room, 44, True, min_size=22)
        d.text((M, 38), ellipsize(name, fname, room), font=fname, fill=WHITE, anchor="lm")
        line2 = " · ".join(p for p in [sub, f"player {player}" if player else ""] if p)
        f2 = fit_font(line2, room, 22, False, min_size=15)
        d.text((M, 80), ellipsize(line2, f2, room), font=f2, fill=(220, 214, 228), anchor="lm")
        rounded(d, (bx0, 34, bx0 + bw, 96), 14, fill=STAT_COLOURS["health"])
        d.text((bx0 + 14, 65), "HP", font=font(26, True), fill=WHITE, anchor="lm")
        d.text((bx0 + bw - 14, 65), hp_txt, font=fbig, fill=WHITE, anchor="rm")
        self.y = h + 14

    def stat_chips(self) -> None:
        stats = self.v.get("stats") or {}
        items = [("health", "Health", STAT_COLOURS["health"]), ("stamina", "Stamina", STAT_COLOURS["stamina"]),
                 ("magicka", "Magicka", STAT_COLOURS["magicka"]), ("cooldown", "Cooldown", STAT_COLOURS["cooldown"]),
                 ("combat", "Combat", constellation_colour(None))]
        gap = 10
        cw = (CW - gap * 4) / 5
        y0 = self.y
        for i, (key, label, col) in enumerate(items):
            x0 = M + i * (cw + gap)
            rounded(self.d, (x0, y0, x0 + cw, y0 + 52), 10, fill=col)
            self.d.text((x0 + 14, y0 + 26), label, font=font(20, True), fill=WHITE, anchor="lm")
            self.d.text((x0 + cw - 14, y0 + 26), str(stats.get(key, "–")), font=font(32, True), fill=WHITE,
                        anchor="rm")
        self.y = y0 + 52 + 14

    def race_and_form(self) -> None:
        v, d = self.v, self.d
        race = v.get("race") or {}
        y0 = self.y
        rw = 640
        fx0 = M + rw + 14
        # measure race text
        ftxt = font(20)
        lines = wrap(race.get("ability_text") or "", ftxt, rw - 2 * PAD, max_lines=5)
        forms = v.get("forms") or [[k, t] for k, t in FORM_TAGS.items()]
        race_h = 40 + 32 + len(lines) * 26 + PAD
        form_h = 40 + len(forms) * 34 + 8
        h = max(race_h, form_h)
        # race
        cy = self.panel(M, y0, M + rw, y0 + h, None)
        d.text((M + PAD, y0 + 10), "RACE", font=font(19, True), fill=INK_SOFT)
        d.text((M + PAD + 62, y0 + 8), ellipsize(race.get("name") or "—", font(22, True), rw - 100),
               font=font(22, True), fill=INK)
        cy = y0 + 40
        ab = race.get("ability_name") or "Innate ability"
        d.text((M + PAD, cy), ab, font=font(21, True), fill=INK)
        if race.get("used"):
            self.tag(M + PAD + font(21, True).getlength(ab) + 10, cy + 1, "USED", (150, 60, 50), 14)
        cy += 32
        for line in lines:
            d.text((M + PAD, cy), line, font=ftxt, fill=INK if not race.get("used") else INK_SOFT)
            cy += 26
        # battle forms
        self.panel(fx0, y0, W - M, y0 + h, "BATTLE FORM")
        cur = v.get("battle_form")
        fy = y0 + 40
        for key, label in forms:
            on = key == cur
            if on:
                rounded(d, (fx0 + 8, fy - 2, W - M - 8, fy + 30), 8, fill=(44, 40, 52))
            # peg hole / peg
            px, py = fx0 + 28, fy + 14
            if on:
                d.ellipse([px - 9, py - 9, px + 9, py + 9], fill=GOLD, outline=WHITE, width=2)
            else:
                d.ellipse([px - 8, py - 8, px + 8, py + 8], outline=INK_FAINT, width=2)
            d.text((px + 22, py), str(label), font=font(20, on), fill=WHITE if on else INK_SOFT, anchor="lm")
            fy += 34
        self.y = y0 + h + 14

    # attribute rows -----------------------------------------------------------
    LABEL_W = 150
    CIRCLE = 84
    SQ = 80
    SQ_GAP = 10

    def _row_geometry(self):
        inner = self.LABEL_W * 2 + 8 * 2 + self.CIRCLE * 2 + 14 * 2 + self.SQ * 6 + self.SQ_GAP * 5
        x = M + (CW - inner) / 2
        lx0 = x
        lc = x + self.LABEL_W + 8                # left circle x0
        sq0 = lc + self.CIRCLE + 14              # first square x0
        rc = sq0 + self.SQ * 6 + self.SQ_GAP * 5 + 14
        rx0 = rc + self.CIRCLE + 8
        return lx0, lc, sq0, rc, rx0

    def _circle(self, slot, x0, y0, label_x, align) -> None:
        d = self.d
        D = self.CIRCLE
        cx, cy = x0 + D / 2, y0 + D / 2
        stats = self.v.get("stats") or {}
        if not slot:
            d.ellipse([x0 + 4, y0 + 4, x0 + D - 4, y0 + D - 4], outline=INK_FAINT, width=2)
            d.text((cx, cy), "open", font=font(15), fill=INK_FAINT, anchor="mm")
            return
        kind = slot.get("kind")
        label = str(slot.get("label") or slot.get("id") or "")
        if kind == "stat":
            sid = slot.get("id")
            col = STAT_COLOURS.get(sid, (90, 90, 90))
            val = slot.get("value", stats.get(sid, ""))
            d.ellipse([x0, y0, x0 + D, y0 + D], fill=col, outline=INK, width=2)
            d.text((cx, cy), str(val if val is not None else ""), font=font(36, True), fill=WHITE, anchor="mm")
            sub = None
        else:
            col = constellation_colour(slot.get("constellation"))
            d.ellipse([x0, y0, x0 + D, y0 + D], fill=col, outline=INK, width=2)
            d.ellipse([x0 + 7, y0 + 7, x0 + D - 7, y0 + D - 7], outline=mix(col, WHITE, 0.5), width=2)
            ini = "CB" if slot.get("id") == "combat" else _initials(label)
            d.text((cx, cy), ini, font=fit_font(ini, D - 24, 28, True), fill=text_on(col), anchor="mm")
            form = slot.get("form")
            sub = (FORM_TAGS.get(form, str(form).title()) + " form") if form else None
        # side label
        f = font(19, True)
        lines = wrap(label, f, self.LABEL_W, max_lines=2)
        total = len(lines) * 23 + (20 if sub else 0)
        ty = cy - total / 2
        anchor = "ra" if align == "right" else "la"
        for ln in lines:
            d.text((label_x, ty), ln, font=f, fill=INK, anchor=anchor)
            ty += 23
        if sub:
            d.text((label_x, ty + 1), sub, font=font(16), fill=INK_SOFT, anchor=anchor)

    def _die_square(self, die, x0, y0, size, short_size=26, tag=True) -> None:
        d = self.d
        col = constellation_colour(die.get("constellation"))
        where = die.get("where") or "row"
        short = str(die.get("short") or _initials(die.get("label") or ""))
        level = _int(die.get("level"), 1)
        box = (x0 + 3, y0 + 3, x0 + size - 3, y0 + size - 3)
        cx = x0 + size / 2
        if where == "row":
            rounded(d, box, 12, fill=col, outline=mix(col, (0, 0, 0), 0.45), width=3)
            fg = text_on(col)
            d.text((cx, y0 + size * 0.40), short, font=fit_font(short, size - 16, short_size, True), fill=fg,
                   anchor="mm")
            pips(d, cx, y0 + size * 0.76, level, size / 20, fg)
        else:
            light = mix(col, WHITE, 0.82)
            dark = mix(col, (0, 0, 0), 0.3)
            rounded(d, box, 12, fill=light, outline=dark, width=3)
            d.text((cx, y0 + size * 0.34), short, font=fit_font(short, size - 16, short_size - 4, True), fill=dark,
                   anchor="mm")
            pips(d, cx, y0 + size * 0.58, level, size / 24, dark)
            if tag:
                t = WHERE_TAGS.get(where, str(where).upper()[:6])
                ft = fit_font(t, size - 14, 14, True)
                tw = ft.getlength(t) + 10
                rounded(d, (cx - tw / 2, y0 + size - 26, cx + tw / 2, y0 + size - 8), 6, fill=(44, 40, 52))
                d.text((cx, y0 + size - 17), t, font=ft, fill=WHITE, anchor="mm")

    def _square(self, sq, row, x0, y0) -> None:
        d = self.d
        S = self.SQ
        if not sq:
            rounded(d, (x0 + 3, y0 + 3, x0 + S - 3, y0 + S - 3), 6, fill=PANEL_DARK, outline=(200, 190, 172), width=2)
            return
        if sq.get("kind") == "stat":
            stat = sq.get("stat")
            col = STAT_COLOURS.get(stat, (90, 90, 90))
            rounded(d, (x0 + 3, y0 + 3, x0 + S - 3, y0 + S - 3), 6, fill=col, outline=mix(col, (0, 0, 0), 0.4), width=3)
            left, right = row.get("left") or {}, row.get("right") or {}
            if right.get("kind") == "stat" and right.get("id") == stat and not (
                    left.get("kind") == "stat" and left.get("id") == stat):
                direction = "right"
            else:
                direction = "left"
            triangle(d, x0 + S / 2, y0 + S / 2, 30, direction, WHITE)
            return
        self._die_square(sq, x0, y0, S)

    def attribute_rows(self) -> None:
        d = self.d
        rows = list(self.v.get("rows") or [])[:5]
        while len(rows) < 5:
            rows.append({})
        lx0, lc, sq0, rc, rx0 = self._row_geometry()
        y0 = self.y
        row_h = self.CIRCLE + 12
        costs_h = 34
        h = 40 + costs_h + row_h * 5 + 30
        self.panel(M, y0, W - M, y0 + h)
        self.section_title(M + PAD, y0 + 10, "ATTRIBUTE ROWS",
                           "XP cost per column: white = from left, black = from right")
        y = y0 + 42
        first_costs = (rows[0].get("costs") or {}) if rows else {}
        same = all((r.get("costs") or {}) == first_costs for r in rows if r)

        def cost_boxes(costs, yy):
            lc_, rc_ = list(costs.get("left") or []), list(costs.get("right") or [])
            fcost = font(16, True)
            for i in range(6):
                cx = sq0 + i * (self.SQ + self.SQ_GAP) + self.SQ / 2
                if i < len(lc_):
                    d.rectangle([cx - 30, yy, cx - 2, yy + 24], fill=WHITE, outline=INK, width=2)
                    d.text((cx - 16, yy + 12), str(lc_[i]), font=fcost, fill=INK, anchor="mm")
                if i < len(rc_):
                    d.rectangle([cx + 2, yy, cx + 30, yy + 24], fill=INK, outline=INK, width=2)
                    d.text((cx + 16, yy + 12), str(rc_[i]), font=fcost, fill=WHITE, anchor="mm")

        if same and first_costs:
            cost_boxes(first_costs, y)
        y += costs_h
        for idx, row in enumerate(rows):
            if not same and row.get("costs"):
                cost_boxes(row["costs"], y - 28)
            # row number
            d.text((M + PAD - 4, y + self.CIRCLE / 2), str(idx + 1), font=font(15, True), fill=INK_FAINT, anchor="lm")
            self._circle(row.get("left"), lc, y, lc - 10, "right")
            squares = list(row.get("squares") or [])[:6]
            squares += [None] * (6 - len(squares))
            for i, sq in enumerate(squares):
                self._square(sq, row, sq0 + i * (self.SQ + self.SQ_GAP), y + (self.CIRCLE - self.SQ) / 2)
            self._circle(row.get("right"), rc, y, rc + self.CIRCLE + 10, "left")
            if idx < 4:
                d.line([(M + 30, y + row_h - 6), (W - M - 30, y + row_h - 6)], fill=(226, 218, 202), width=1)
            y += row_h
        d.text((M + PAD, y + 2), "Hollow die = not in its row:  COOL cooldown track · ACTIVE active slot · "
               "DRAIN drained", font=font(16), fill=INK_SOFT)
        self.y = y0 + h + 14

    # cooldown -----------------------------------------------------------------
    def cooldown(self) -> None:
        d = self.d
        cd = self.v.get("cooldown") or {}
        size = max(1, _int(cd.get("size"), 13))
        stat = _int(cd.get("stat"), 0)
        slots = set()
        for s in cd.get("stat_slots") or []:
            try:
                slots.add(int(s))
            except (TypeError, ValueError):
                pass
        dice = list(cd.get("dice") or [])
        y0 = self.y
        gap = 8
        sw = min(80, (CW - 2 * PAD - gap * (size - 1)) / size)
        total = sw * size + gap * (size - 1)
        x_start = M + (CW - total) / 2
        h = 40 + 36 + sw + 26 + 8
        self.panel(M, y0, W - M, y0 + h)
        self.section_title(M + PAD, y0 + 10, "COOLDOWN TRACK",
                           f"Cooldown stat {stat} (peg) · {len(dice)}/{size} filled")
        peg_y = y0 + 40 + 14
        slot_y = y0 + 40 + 34
        for i in range(size):
            x0 = x_start + i * (sw + gap)
            cx = x0 + sw / 2
            n = i + 1
            if n in slots:
                if n == stat:
                    d.ellipse([cx - 15, peg_y - 15, cx + 15, peg_y + 15], fill=INK, outline=GOLD, width=3)
                    d.text((cx, peg_y), str(n), font=font(18, True), fill=WHITE, anchor="mm")
                    triangle(d, cx, peg_y + 22, 10, "down", INK)
                else:
                    d.ellipse([cx - 12, peg_y - 12, cx + 12, peg_y + 12], outline=INK_FAINT, width=2)
                    d.text((cx, peg_y), str(n), font=font(14, True), fill=INK_FAINT, anchor="mm")
            entry = dice[i] if i < len(dice) else None
            if entry is None:
                rounded(d, (x0, slot_y, x0 + sw, slot_y + sw), 8, fill=PANEL_DARK, outline=(200, 190, 172), width=2)
            else:
                self._cooldown_entry(entry, x0, slot_y, sw)
            d.text((cx, slot_y + sw + 12), str(n), font=font(14), fill=INK_FAINT, anchor="mm")
        if len(dice) > size:
            d.text((W - M - PAD, y0 + 12), f"+{len(dice) - size} more", font=font(16, True), fill=(180, 40, 40),
                   anchor="ra")
        self.y = y0 + h + 14

    def _cooldown_entry(self, e, x0, y0, s) -> None:
        d = self.d
        kind = e.get("kind")
        box = (x0, y0, x0 + s, y0 + s)
        cx, cy = x0 + s / 2, y0 + s / 2
        if kind in ("skill", "die"):
            col = constellation_colour(e.get("constellation"))
            rounded(d, box, 10, fill=col, outline=mix(col, (0, 0, 0), 0.45), width=3)
            short = str(e.get("short") or _initials(e.get("label") or ""))
            fg = text_on(col)
            d.text((cx, y0 + s * 0.40), short, font=fit_font(short, s - 12, 24, True), fill=fg, anchor="mm")
            pips(d, cx, y0 + s * 0.76, _int(e.get("level"), 1), s / 20, fg)
        elif kind == "fatigue":
            col = (150, 120, 90)
            rounded(d, box, 10, fill=col, outline=(90, 70, 50), width=3)
            d.text((cx, cy), "FAT", font=fit_font("FAT", s - 12, 22, True), fill=WHITE, anchor="mm")
        elif kind == "overfatigue":
            col = (60, 30, 30)
            rounded(d, box, 10, fill=col, outline=(180, 40, 40), width=3)
            d.text((cx, cy - 8), "OVER", font=fit_font("OVER", s - 12, 18, True), fill=WHITE, anchor="mm")
            d.text((cx, cy + 14), "FAT", font=fit_font("FAT", s - 12, 16, True), fill=(255, 180, 180), anchor="mm")
        else:
            st = str(e.get("status") or "?")
            col = status_colour(st)
            rounded(d, box, 10, fill=col, outline=mix(col, (0, 0, 0), 0.45), width=3)
            t = st.upper()
            d.text((cx, cy), t, font=fit_font(t, s - 10, 18, True), fill=WHITE, anchor="mm")

    # active / tenacity / saved xp / drained -------------------------------------
    def active_and_tracks(self) -> None:
        d = self.d
        v = self.v
        active = list(v.get("active") or [])
        y0 = self.y
        gap = 12
        n = 4
        bw = (CW - 2 * PAD - gap * (n - 1)) / n
        bh = 108
        tracks_h = 46
        h = 40 + bh + 16 + tracks_h * 2 + 10
        self.panel(M, y0, W - M, y0 + h)
        self.section_title(M + PAD, y0 + 10, "ACTIVE SLOTS", f"{min(len(active), 4)}/4 in use")
        y = y0 + 40
        for i in range(n):
            x0 = M + PAD + i * (bw + gap)
            e = active[i] if i < len(active) else None
            if not e:
                rounded(d, (x0, y, x0 + bw, y + bh), 10, fill=PANEL_DARK, outline=(200, 190, 172), width=2)
                d.text((x0 + bw / 2, y + bh / 2), "empty", font=font(18), fill=INK_FAINT, anchor="mm")
                continue
            col = (52, 110, 120)
            rounded(d, (x0, y, x0 + bw, y + bh), 10, fill=mix(col, WHITE, 0.85), outline=col, width=3)
            # icon + value
            icon = e.get("icon") or ""
            val = e.get("value")
            draw_icon(d, icon, x0 + 34, y + 34, 36, col, bg=mix(col, WHITE, 0.85))
            if val is not None:
                d.text((x0 + 58, y + 34), str(val), font=font(34, True), fill=INK, anchor="lm")
            short = str(e.get("short") or _initials(e.get("label") or ""))
            rounded(d, (x0 + bw - 64, y + 10, x0 + bw - 10, y + 56), 8, fill=col)
            d.text((x0 + bw - 37, y + 33), short, font=fit_font(short, 46, 20, True), fill=WHITE, anchor="mm")
            label = ellipsize(str(e.get("label") or ""), font(18, True), bw - 20)
            d.text((x0 + 10, y + 60), label, font=font(18, True), fill=INK)
            owner = e.get("owner")
            if owner:
                d.text((x0 + 10, y + 84), ellipsize(f"from {owner}", font(16), bw - 20), font=font(16),
                       fill=INK_SOFT)
        y += bh + 16
        # tenacity and saved XP tracks
        self._track(M + PAD, y, "TENACITY", _int(v.get("tenacity")), _int(v.get("tenacity_max"), 5), GOLD)
        self._drained(M + 560, y)
        y += tracks_h
        self._track(M + PAD, y, "SAVED XP", _int(v.get("saved_xp")), _int(v.get("saved_xp_max"), 3), (90, 160, 90))
        self.y = y0 + h + 14

    def _track(self, x, y, title, value, maximum, col) -> None:
        d = self.d
        d.text((x, y + 18), title, font=font(19, True), fill=INK_SOFT, anchor="lm")
        x += 130
        r = 17
        for n in range(0, max(0, maximum) + 1):
            cx = x + n * 46 + r
            cy = y + 18
            if n == value:
                d.ellipse([cx - r, cy - r, cx + r, cy + r], fill=INK, outline=col, width=4)
                d.text((cx, cy), str(n), font=font(19, True), fill=WHITE, anchor="mm")
            else:
                d.ellipse([cx - r, cy - r, cx + r, cy + r], outline=INK_FAINT, width=2)
                d.text((cx, cy), str(n), font=font(16), fill=INK_FAINT, anchor="mm")
        if value > maximum:
            d.text((x + (maximum + 1) * 46 + 4, y + 18), f"({value})", font=font(18, True), fill=INK, anchor="lm")

    def _drained(self, x, y) -> None:
        d = self.d
        drained = list(self.v.get("drained") or [])
        d.text((x, y + 18), "DRAINED", font=font(19, True), fill=INK_SOFT, anchor="lm")
        x += 104
        if not drained:
            d.text((x, y + 18), "none", font=font(18), fill=INK_FAINT, anchor="lm")
            return
        xmax = W - M - PAD
        yy = y
        for i, e in enumerate(drained):
            short = str(e.get("short") or _initials(e.get("label") or ""))
            label = str(e.get("label") or short)
            txt = f"{short} {label}"
            f = font(16, True)
            w = f.getlength(txt) + 18
            if x + w > xmax:
                if yy > y:  # out of room on the second line
                    d.text((xmax, yy + 18), f"+{len(drained) - i}", font=font(18, True), fill=INK, anchor="rm")
                    break
                x, yy = W - M - PAD - 420, yy + 46  # continue under
            rounded(d, (x, yy + 4, x + w, yy + 32), 8, fill=(230, 226, 236), outline=(120, 90, 150), width=2)
            d.text((x + 9, yy + 18), txt, font=f, fill=(70, 40, 100), anchor="lm")
            x += w + 8

    # class ----------------------------------------------------------------------
    def class_sheet(self) -> None:
        d = self.d
        klass = self.v.get("class")
        y0 = self.y
        tw = CW - 2 * PAD
        if not klass:
            h = 84
            self.panel(M, y0, W - M, y0 + h)
            self.section_title(M + PAD, y0 + 10, "CLASS")
            d.text((M + PAD, y0 + 44), "Not chosen yet", font=font(22, True), fill=INK)
            note = self.v.get("class_note") or ""
            if note:
                d.text((M + PAD + 200, y0 + 48), ellipsize(note, font(18), tw - 200), font=font(18), fill=INK_SOFT)
            self.y = y0 + h + 14
            return
        # measure first, into a list of draw operations
        ops: list = []
        y = y0 + 44
        promo = klass.get("promotion") or ""
        fsmall = font(16)
        if promo:
            lines = wrap("Promotion: " + promo, fsmall, tw, max_lines=2)
            for ln in lines:
                ops.append(("text", M + PAD, y, ln, fsmall, INK_SOFT))
                y += 21
            y += 6
        innate = klass.get("innate") or {}
        if innate.get("name") or innate.get("text"):
            ops.append(("tag", M + PAD, y, "INNATE", (44, 40, 52)))
            ops.append(("text", M + PAD + 84, y + 1, ellipsize(innate.get("name") or "", font(20, True), tw - 90),
                        font(20, True), INK))
            y += 30
            for ln in wrap(innate.get("text") or "", font(17), tw, max_lines=3):
                ops.append(("text", M + PAD, y, ln, font(17), INK))
                y += 22
            y += 8
        abilities = list(klass.get("abilities") or [])
        for ab in abilities[:8]:
            used = bool(ab.get("used_this_turn"))
            fg = INK_FAINT if used else INK
            ops.append(("sep", y - 4))
            x = M + PAD
            cost = ab.get("cost")
            if cost is not None:
                ops.append(("cost", x, y, cost))
                x += 64
            name = str(ab.get("name") or "")
            fname = font(20, True)
            extras = []
            if ab.get("keyword"):
                extras.append((str(ab["keyword"]).upper(), (150, 80, 30)))
            if ab.get("form"):
                extras.append((FORM_TAGS.get(ab["form"], str(ab["form"]).title()).upper() + " FORM", (52, 110, 120)))
            if used:
                extras.append(("USED THIS TURN", (120, 120, 120)))
            extra_w = sum(font(14, True).getlength(t) + 22 for t, _ in extras)
            name = ellipsize(name, fname, max(120, W - M - PAD - x - extra_w))
            ops.append(("text", x, y + 2, name, fname, fg))
            x += fname.getlength(name) + 12
            for t, c in extras:
                ops.append(("tag", x, y + 2, t, c))
                x += font(14, True).getlength(t) + 22
            y += 32
            for ln in wrap(ab.get("text") or "", font(17), tw, max_lines=3):
                ops.append(("text", M + PAD, y, ln, font(17), INK_SOFT if used else INK))
                y += 22
            y += 10
        if len(abilities) > 8:
            ops.append(("text", M + PAD, y, f"+{count(len(abilities) - 8, 'more ability', 'more abilities')}", font(16, True), INK_SOFT))
            y += 24
        h = y - y0 + 4
        self.panel(M, y0, W - M, y0 + h)
        self.section_title(M + PAD, y0 + 10, "CLASS")
        name = str(klass.get("name") or "")
        d.text((M + PAD + 72, y0 + 7), name, font=font(24, True), fill=INK)
        side = str(klass.get("side") or "novice").upper()
        self.tag(M + PAD + 84 + font(24, True).getlength(name), y0 + 10, side,
                 (44, 40, 52) if side == "NOVICE" else GOLD, 15)
        for op in ops:
            if op[0] == "text":
                _, x, yy, t, f, c = op
                d.text((x, yy), t, font=f, fill=c)
            elif op[0] == "tag":
                _, x, yy, t, c = op
                self.tag(x, yy, t, c, 14)
            elif op[0] == "sep":
                d.line([(M + PAD, op[1]), (W - M - PAD, op[1])], fill=(226, 218, 202), width=1)
            elif op[0] == "cost":
                _, x, yy, cost = op
                rounded(d, (x, yy, x + 56, yy + 28), 8, fill=(44, 40, 52))
                draw_icon(d, "tenacity", x + 16, yy + 14, 16, GOLD)
                d.text((x + 40, yy + 14), str(cost), font=font(19, True), fill=WHITE, anchor="mm")
        self.y = y0 + h + 14

    # inventory ------------------------------------------------------------------
    def inventory(self) -> None:
        d = self.d
        ready = list(self.v.get("ready") or [])
        pack = list(self.v.get("pack") or [])
        y0 = self.y
        gap = 12
        bw = (CW - 2 * PAD - gap * 3) / 4
        bh = 150
        # pack chips layout
        fchip = font(17, True)
        chips = []
        x, yy = M + PAD, 0
        for it in pack:
            name = str(it.get("name") or "")
            sub = str(it.get("subtype") or "")
            txt = name + (f" · {sub}" if sub else "")
            txt = ellipsize(txt, fchip, CW - 2 * PAD - 20)
            w = fchip.getlength(txt) + 20
            if x + w > W - M - PAD:
                x, yy = M + PAD, yy + 40
            chips.append((x, yy, w, txt))
            x += w + 8
        pack_h = (yy + 40) if pack else 32
        h = 40 + bh + 16 + 30 + pack_h + 8
        self.panel(M, y0, W - M, y0 + h)
        self.section_title(M + PAD, y0 + 10, "READY ITEMS",
                           f"{min(len(ready), 4)}/4 ready · {len(ready) + len(pack)}/8 items carried")
        y = y0 + 40
        for i in range(4):
            x0 = M + PAD + i * (bw + gap)
            it = ready[i] if i < len(ready) else None
            if not it:
                rounded(d, (x0, y, x0 + bw, y + bh), 10, fill=PANEL_DARK, outline=(200, 190, 172), width=2)
                d.text((x0 + bw / 2, y + bh / 2), "empty", font=font(18), fill=INK_FAINT, anchor="mm")
                continue
            exp = bool(it.get("expended"))
            col = (120, 100, 70) if not exp else (150, 150, 150)
            rounded(d, (x0, y, x0 + bw, y + bh), 10, fill=(250, 240, 220) if not exp else (225, 225, 225),
                    outline=col, width=3)
            fy = y + 8
            for ln in wrap(str(it.get("name") or ""), font(19, True), bw - 20, max_lines=2):
                d.text((x0 + 10, fy), ln, font=font(19, True), fill=INK if not exp else INK_SOFT)
                fy += 23
            sub = str(it.get("subtype") or "").upper()
            if sub:
                d.text((x0 + 10, fy + 2), sub, font=font(14, True), fill=col)
                fy += 20
            fy += 4
            remaining = int((y + bh - 6 - fy) // 20)
            if remaining > 0:
                for ln in wrap(str(it.get("text") or ""), font(16), bw - 20, max_lines=remaining):
                    d.text((x0 + 10, fy), ln, font=font(16), fill=INK_SOFT)
                    fy += 20
            if exp:
                tw = font(15, True).getlength("EXPENDED") + 14
                self.tag(x0 + bw - tw - 8, y + bh - 30, "EXPENDED", (110, 110, 110), 15)
        y += bh + 16
        self.section_title(M + PAD, y, "PACK", count(len(pack), "item"))
        y += 30
        if not pack:
            d.text((M + PAD, y), "empty", font=font(18), fill=INK_FAINT)
        for x, yy, w, txt in chips:
            rounded(d, (x, y + yy, x + w, y + yy + 32), 8, fill=(250, 240, 220), outline=(120, 100, 70), width=2)
            d.text((x + 10, y + yy + 16), txt, font=fchip, fill=INK, anchor="lm")
        self.y = y0 + h + 14

    def render(self) -> bytes:
        self.header()
        self.stat_chips()
        self.race_and_form()
        self.attribute_rows()
        self.cooldown()
        self.active_and_tracks()
        self.class_sheet()
        self.inventory()
        h = min(MAX_H, int(self.y) + 6)
        return encode_png(self.img.crop((0, 0, W, h)))


def render_mat(view: dict) -> bytes:
    """Draw an adventurer mat from its view model; returns PNG bytes."""
    return _Mat(view).render()
