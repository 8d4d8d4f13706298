-- The dashboard post of each campaign: one message in its channel, edited in place after every action and
-- never posted again unless it was deleted.  Kept here so it survives restarts.
CREATE TABLE dashboards (
    campaign_id  INTEGER PRIMARY KEY REFERENCES campaigns(id),
    channel_id   TEXT    NOT NULL,
    message_id   TEXT,                     -- the post (NULL: not posted yet)
    turn_key     TEXT,                     -- whose move it was when the dashboard was last built
    since        REAL,                     -- when that move began (unix time)
    updated_at   REAL    NOT NULL
);
