-- Tournaments (issue 42): Swiss events at tables. One row per event; its id numbers it for
-- `/tournament standings id:`. Times are unix seconds, UTC: `starts_at` the start,
-- `checkin_at` when check-in opens (NULL: none), `ready_window` the seconds a seated member
-- has to make a first move. `state` goes 'signup' → 'running' → 'finished', or 'cancelled',
-- each change a conditional UPDATE that only one caller wins. `round` is the round dealt last
-- (0: none yet). `revision` counts every change the card shows; `card_revision` the one it
-- shows (behind: the card is redrawn). The final post is claimed, then marked done.
CREATE TABLE tournaments (
    id               INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id         INTEGER NOT NULL,
    channel_id       INTEGER NOT NULL,
    host_id          INTEGER NOT NULL,
    game             TEXT    NOT NULL,
    options          TEXT    NOT NULL,                -- JSON: the game's house rules
    rounds           INTEGER NOT NULL,
    table_size       INTEGER NOT NULL,
    starts_at        REAL    NOT NULL,
    checkin_at       REAL,
    ready_window     REAL    NOT NULL,
    rated            INTEGER NOT NULL,
    seed             INTEGER NOT NULL,
    state            TEXT    NOT NULL CHECK (state IN ('signup', 'running', 'finished', 'cancelled')),
    round            INTEGER NOT NULL DEFAULT 0,
    paused           INTEGER NOT NULL DEFAULT 0,
    checkin_pinged   INTEGER NOT NULL DEFAULT 0,
    card_message_id  INTEGER,
    revision         INTEGER NOT NULL DEFAULT 0,
    card_revision    INTEGER NOT NULL DEFAULT -1,
    created_at       REAL    NOT NULL,
    ended_at         REAL,
    final_claimed_at REAL,
    final_message_id INTEGER,
    final_done       INTEGER NOT NULL DEFAULT 0
);
-- One open event (signing up or running) per channel.
CREATE UNIQUE INDEX tournaments_one_per_channel ON tournaments (channel_id)
    WHERE state IN ('signup', 'running');
CREATE INDEX tournaments_by_state ON tournaments (state, starts_at);
CREATE INDEX tournaments_by_guild ON tournaments (guild_id, id);

-- An event's entrants. `status`: 'in', 'left' (before the start), 'dropped' (not checked
-- in at the start, or by an organiser) or 'withdrawn' (two missed rounds in a row; Join
-- brings them back). `first_round`: the first round they could play (late joiners score
-- nothing for the rounds before). `missed`: rounds in a row the AI played for them.
CREATE TABLE tournament_entrants (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    member_id     INTEGER NOT NULL,
    name          TEXT    NOT NULL,
    joined_at     REAL    NOT NULL,
    first_round   INTEGER NOT NULL,
    checked_in    INTEGER NOT NULL DEFAULT 0,
    status        TEXT    NOT NULL CHECK (status IN ('in', 'left', 'dropped', 'withdrawn')),
    missed        INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (tournament_id, member_id)
);
CREATE INDEX tournament_entrants_by_member ON tournament_entrants (member_id);

-- A round's tables, stored when the round is dealt and before any game is made: `members`
-- a JSON list of member ids in seat order. `game_id` is set once (a conditional UPDATE), so
-- a table is never seated twice; `ready_at` the end of its ready window, `ready_done` once
-- it was looked at; `result_done` once its places are stored.
CREATE TABLE tournament_tables (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    round         INTEGER NOT NULL,
    table_no      INTEGER NOT NULL,
    members       TEXT    NOT NULL,
    game_id       INTEGER,
    ready_at      REAL,
    ready_done    INTEGER NOT NULL DEFAULT 0,
    result_done   INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (tournament_id, round, table_no)
);
CREATE INDEX tournament_tables_by_game ON tournament_tables (game_id);

-- Entrants given a bye in a round.
CREATE TABLE tournament_byes (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    round         INTEGER NOT NULL,
    member_id     INTEGER NOT NULL,
    PRIMARY KEY (tournament_id, round, member_id)
);

-- Each seated entrant's place at their table (1 best; one the AI stood in for: last).
CREATE TABLE tournament_results (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    round         INTEGER NOT NULL,
    table_no      INTEGER NOT NULL,
    member_id     INTEGER NOT NULL,
    place         INTEGER NOT NULL,
    replaced      INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (tournament_id, round, member_id)
);
