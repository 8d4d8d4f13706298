-- A member's own settings on a server: the daily digest of the campaigns that wait for them (`/me digest:`).
-- The reminder sweep sends a digest when next_at is due and moves next_at on by a day (engine/digests.py).
CREATE TABLE member_settings (
    guild_id  TEXT NOT NULL,
    user_id   TEXT NOT NULL,
    digest    TEXT NOT NULL DEFAULT 'off',   -- 'daily' or 'off'
    next_at   REAL,                          -- when the next digest is due (NULL: none)
    PRIMARY KEY (guild_id, user_id)
);
CREATE INDEX member_settings_due ON member_settings(next_at);
