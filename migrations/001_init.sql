-- Campaigns: one active campaign per channel; ended ones stay for history.
CREATE TABLE campaigns (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    channel_id  TEXT    NOT NULL,
    guild_id    TEXT,
    active      INTEGER NOT NULL DEFAULT 1,
    state       TEXT    NOT NULL,          -- JSON of engine.state.Campaign
    version     INTEGER NOT NULL,          -- bumped by every write; stale writes are refused
    created_at  REAL    NOT NULL,
    updated_at  REAL    NOT NULL
);
CREATE UNIQUE INDEX campaigns_one_active_per_channel ON campaigns(channel_id) WHERE active = 1;

-- The append-only action log: the campaign's history.
CREATE TABLE action_log (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    campaign_id   INTEGER NOT NULL REFERENCES campaigns(id),
    seq           INTEGER NOT NULL,        -- 1, 2, 3 ... within the campaign
    at            REAL    NOT NULL,        -- unix time
    actor         TEXT    NOT NULL,
    on_behalf     TEXT,                    -- the player the leader acted for
    type          TEXT    NOT NULL,
    action        TEXT    NOT NULL,        -- JSON of engine.core.Action
    dice          TEXT    NOT NULL,        -- JSON list of every die result the action used
    events        TEXT    NOT NULL,        -- JSON list of engine.core.Event
    state_before  TEXT,                    -- JSON snapshot, kept while the action can be undone
    undoable      INTEGER NOT NULL DEFAULT 0,
    undone_by     INTEGER,                 -- seq of the undo that took it back
    UNIQUE (campaign_id, seq)
);
CREATE INDEX action_log_by_campaign ON action_log(campaign_id, seq);

-- Turn reminders, scheduled in the database so they survive restarts.
CREATE TABLE reminders (
    campaign_id  INTEGER NOT NULL REFERENCES campaigns(id),
    turn_key     TEXT    NOT NULL,         -- identifies one turn; a new turn gets a new key
    user_id      TEXT    NOT NULL,
    channel_id   TEXT    NOT NULL,
    due_at       REAL    NOT NULL,
    sent_at      REAL,
    PRIMARY KEY (campaign_id, turn_key)
);
CREATE INDEX reminders_due ON reminders(sent_at, due_at);
