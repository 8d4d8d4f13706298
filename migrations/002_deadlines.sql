-- Deadlines: things the bot does by itself when a player does not answer in time
-- (e.g. the prevention time-out: the automatic choice applies).  Kept in the
-- database so they survive restarts; each fires at most once (fired_at).
CREATE TABLE deadlines (
    campaign_id  INTEGER NOT NULL REFERENCES campaigns(id),
    key          TEXT    NOT NULL,         -- what it is about, e.g. "prevent:b1.r2.e1.h0"; one row per key
    kind         TEXT    NOT NULL,         -- "prevent"
    channel_id   TEXT    NOT NULL,
    user_id      TEXT,                     -- the player who was asked
    due_at       REAL    NOT NULL,
    created_at   REAL    NOT NULL,
    fired_at     REAL,                     -- set once it fired (or was found out of date)
    PRIMARY KEY (campaign_id, key)
);
CREATE INDEX deadlines_due ON deadlines(fired_at, due_at);
