-- Per-member nudge settings (/me): a time zone, quiet hours in it, and an away date.
-- Reminders wait out a member's quiet hours and skip them while they are away.
CREATE TABLE member_prefs (
    user_id      TEXT PRIMARY KEY,
    timezone     TEXT,                     -- an IANA name, e.g. "Europe/Berlin" (NULL: UTC)
    quiet_start  INTEGER,                  -- local hour quiet hours begin (0-23), NULL: none
    quiet_end    INTEGER,                  -- local hour they end (0-23)
    away_until   REAL,                     -- unix time the member is back (NULL: not away)
    updated_at   REAL    NOT NULL
);
-- A reminder repeats every this many seconds until the player acts (NULL: once, as reminders
-- scheduled before this version did); sends counts the posts made.
ALTER TABLE reminders ADD COLUMN every REAL;
ALTER TABLE reminders ADD COLUMN sends INTEGER NOT NULL DEFAULT 0;
