-- Your turn reaches you, across restarts: what the notifier must not forget (issue 45).
-- `notify_dms`: per game and member who chose DMs, the last turn announced to them
-- (`step`, and `reminder` 1 for the turn timer's reminder at that step) and its DM's text
-- (`line`; `fallback`: the thread ping sent instead should Discord refuse the DM).
-- `status`: 'waiting' (folded into the member's next DM, or not sent yet), 'sent' (claimed
-- at `sent_at`, unix seconds, just before it was sent: at most one DM per turn, even across
-- a kill) or 'dropped' (the member was back at the table first). The newest `sent_at` of a
-- member paces their next DM.
CREATE TABLE notify_dms (
    game_id  INTEGER NOT NULL,
    user_id  INTEGER NOT NULL,
    guild_id INTEGER NOT NULL,
    thread_id INTEGER NOT NULL,
    step     INTEGER NOT NULL,
    reminder INTEGER NOT NULL,
    line     TEXT    NOT NULL,
    fallback TEXT    NOT NULL,
    status   TEXT    NOT NULL CHECK (status IN ('waiting', 'sent', 'dropped')),
    sent_at  REAL,
    PRIMARY KEY (game_id, user_id)
);
CREATE INDEX notify_dms_by_user ON notify_dms (user_id);
CREATE INDEX notify_dms_by_status ON notify_dms (status);

-- A member whose DM Discord refused (50007) at `refused_at` (unix seconds), in a game of
-- `guild_id`: pinged in the thread instead for a while, and told why once, privately, at
-- their next click (`told` 0 until then).
CREATE TABLE notify_refusals (
    user_id    INTEGER PRIMARY KEY,
    guild_id   INTEGER NOT NULL,
    refused_at REAL    NOT NULL,
    told       INTEGER NOT NULL DEFAULT 0
);
