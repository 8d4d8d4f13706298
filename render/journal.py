"""The campaign journal: ``render_journal(view) -> PNG bytes``.

A page read on a phone: the campaign and how it stands, the party (adventurers and players), the guild, one panel
per session (its province, its quest or the endgame, done, failed or under way, its major keyword, days and the
XP Dial, side quests), the keywords held and the guild assist.  Every text at least ``min_text(width)`` pixels.

View keys (``rulesets.tes.present.quest.journal_view``): ``campaign``, ``difficulty``, ``party`` [{adventurer,
player}], ``guild``, ``sessions`` [{number, province, quest, result, why, major, days, xp, sides_done,
sides_failed}], ``keywords`` [names], ``minor`` [names], ``assist`` (words), ``result`` ("" | won | lost),
``next`` (the next session's quest in words, or "").
"""
from __future__ import annotations

from engine.text import count
from PIL import Image, ImageDraw

from render.common import (
    BG, GOLD, INK, INK_SOFT, PANEL, WHITE, draw_text, encode_png, font, min_text, printable_view, rounded, wrap,
)

W = 640
U = min_text(W)
M = 22
HEADER_BG = (44, 40, 52)
DONE = (40, 130, 60)
FAILED = (180, 50, 40)
RUNNING = (150, 100, 0)
RESULT_COLOUR = {"done": DONE, "failed": FAILED, "under way": RUNNING}


def _first_up(text: str) -> str:
    return text[:1].upper() + text[1:]


def render_journal(view: dict) -> bytes:
    return encode_png(draw_journal(view))


def _lines(text: str, f, width: float, max_lines: int = 3) -> list[str]:
    return wrap(str(text or ""), f, width, max_lines=max_lines) if text else []


def draw_journal(view: dict) -> Image.Image:
    v = printable_view(view or {})
    ftitle, fhead, fbody, fbold = font(28, True), font(U + 4, True), font(U + 2), font(U + 2, True)
    line_h = U + 10
    inner = W - 2 * M
    # ---- what is drawn, first measured ----
    title = f"Campaign journal — {v.get('campaign') or 'the campaign'}"
    tlines = _lines(title, ftitle, inner, 2)
    status = {"won": "The campaign is won", "lost": "The campaign is lost"}.get(str(v.get("result") or ""),
                                                                              "The campaign goes on")
    sub = f"{status} · {str(v.get('difficulty') or 'adept').title()}"
    party = [f"{p.get('adventurer')}" + (f" ({p.get('player')})" if p.get("player") else "")
             for p in v.get("party") or []]
    party_lines = _lines(", ".join(party) or "nobody yet", fbody, inner, 3)
    guild = str(v.get("guild") or "not chosen yet")
    sessions = []
    for s in v.get("sessions") or []:
        rows: list[tuple[str, object, tuple]] = []
        rows += [(ln, fbold, INK) for ln in _lines(str(s.get("quest") or "—"), fbold, inner - 24, 2)]
        if s.get("why"):
            rows += [(ln, fbody, INK_SOFT) for ln in _lines(_first_up(str(s["why"])), fbody, inner - 24, 2)]
        if s.get("major"):
            rows.append((f"Major keyword: {s['major']}", fbody, INK))
        if s.get("days"):
            rows.append((f"{count(int(s['days']), 'day')} · XP Dial {s.get('xp', 0)}", fbody, INK_SOFT))
        if s.get("sides_done"):
            rows += [(ln, fbody, INK) for ln in _lines("Side quests done: " + ", ".join(s["sides_done"]), fbody,
                                                      inner - 24, 2)]
        if s.get("sides_failed"):
            rows += [(ln, fbody, INK_SOFT) for ln in _lines("Side quests not done: " + ", ".join(s["sides_failed"]),
                                                           fbody, inner - 24, 2)]
        sessions.append((s, rows))
    next_lines = _lines(str(v.get("next") or ""), fbody, inner, 3)
    kws = list(v.get("keywords") or []) + list(v.get("minor") or [])
    kw_lines = _lines(", ".join(kws) or "none yet", fbody, inner, 4)
    assist = str(v.get("assist") or "not used yet")
    head_h = 16 + len(tlines) * 36 + line_h + 8
    H = head_h + 16
    H += (line_h + 4) + len(party_lines) * line_h + 12  # party
    H += (line_h + 4) + line_h + 12  # guild
    H += line_h + 4  # sessions heading
    for _s, rows in sessions:
        H += line_h + len(rows) * line_h + 24
    if not sessions:
        H += line_h + 12
    if next_lines:
        H += (line_h + 4) + len(next_lines) * line_h + 12  # the next session (p.49)
    H += (line_h + 4) + len(kw_lines) * line_h + 12  # keywords
    H += (line_h + 4) + line_h + 16  # assist
    img = Image.new("RGB", (W, H), BG)
    d = ImageDraw.Draw(img)
    # ---- the header ----
    d.rectangle([0, 0, W, head_h], fill=HEADER_BG)
    y = 12
    for ln in tlines:
        draw_text(d, (M, y), ln, ftitle, WHITE, "la")
        y += 36
    draw_text(d, (M, y + 2), sub, fbold, GOLD, "la")
    y = head_h + 16

    def heading(text: str) -> None:
        nonlocal y
        draw_text(d, (M, y), text, fhead, INK_SOFT, "la")
        y += line_h + 4

    heading("PARTY")
    for ln in party_lines:
        draw_text(d, (M, y), ln, fbody, INK, "la")
        y += line_h
    y += 12
    heading("GUILD")
    draw_text(d, (M, y), guild, fbold, INK, "la")
    y += line_h + 12
    heading("SESSIONS")
    if not sessions:
        draw_text(d, (M, y), "No session played yet", fbody, INK_SOFT, "la")
        y += line_h + 12
    for s, rows in sessions:
        box_h = line_h + len(rows) * line_h + 14
        rounded(d, [M, y, W - M, y + box_h], radius=10, fill=PANEL, outline=INK_SOFT, width=2)
        result = str(s.get("result") or "under way")
        draw_text(d, (M + 12, y + 6), f"Session {s.get('number')} · {s.get('province')}", fbold, INK, "la")
        draw_text(d, (W - M - 12, y + 6), result.upper(), fbold, RESULT_COLOUR.get(result, INK), "ra")
        ry = y + 6 + line_h
        for text, f, colour in rows:
            draw_text(d, (M + 12, ry), text, f, colour, "la")
            ry += line_h
        y += box_h + 10
    if next_lines:
        heading("NEXT SESSION")
        for ln in next_lines:
            draw_text(d, (M, y), ln, fbody, INK, "la")
            y += line_h
        y += 12
    heading("KEYWORDS")
    for ln in kw_lines:
        draw_text(d, (M, y), ln, fbody, INK, "la")
        y += line_h
    y += 12
    heading("GUILD ASSIST")
    draw_text(d, (M, y), _first_up(assist), fbody, INK, "la")
    return img


__all__ = ["draw_journal", "render_journal"]
