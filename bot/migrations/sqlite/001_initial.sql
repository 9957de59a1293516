-- Games, their seats, the append-only action log, results and guild settings.
CREATE TABLE games (
    id               INTEGER PRIMARY KEY AUTOINCREMENT,
    game             TEXT    NOT NULL,
    guild_id         INTEGER NOT NULL,
    channel_id       INTEGER NOT NULL,
    host_id          INTEGER NOT NULL,
    status           TEXT    NOT NULL CHECK (status IN ('lobby', 'active', 'finished', 'cancelled', 'abandoned')),
    options          TEXT    NOT NULL,          -- JSON
    seed             TEXT    NOT NULL,
    step             INTEGER NOT NULL DEFAULT 0,
    state            TEXT,                      -- JSON, NULL while in the lobby
    lobby_message_id INTEGER,
    thread_id        INTEGER,
    board_message_id INTEGER,
    ping_message_id  INTEGER,
    deadline         REAL,                      -- unix time the player to act times out
    reminded         INTEGER NOT NULL DEFAULT 0,
    created_at       REAL    NOT NULL,
    updated_at       REAL    NOT NULL
);
CREATE INDEX games_by_guild_status ON games (guild_id, status);

CREATE TABLE seats (
    game_id   INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat      INTEGER NOT NULL,
    player_id INTEGER NOT NULL,
    name      TEXT    NOT NULL,
    is_bot    INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (game_id, seat),
    UNIQUE (game_id, player_id)
);

CREATE TABLE actions (
    game_id    INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    step       INTEGER NOT NULL,
    player_id  INTEGER NOT NULL,
    action     TEXT    NOT NULL,                -- JSON {"verb": ..., "arg": ...}
    by_ai      INTEGER NOT NULL DEFAULT 0,      -- a bot seat, or the AI for an absent player
    created_at REAL    NOT NULL,
    PRIMARY KEY (game_id, step)
);

CREATE TABLE results (
    game_id     INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    player_id   INTEGER NOT NULL,
    guild_id    INTEGER NOT NULL,
    game        TEXT    NOT NULL,
    is_bot      INTEGER NOT NULL,
    place       INTEGER NOT NULL,
    score       INTEGER NOT NULL,
    won         INTEGER NOT NULL,
    stats       TEXT    NOT NULL,               -- JSON {"flying_monkeys": 1, ...}
    finished_at REAL    NOT NULL,
    PRIMARY KEY (game_id, player_id)
);
CREATE INDEX results_by_guild_game ON results (guild_id, game);

CREATE TABLE guild_settings (
    guild_id   INTEGER PRIMARY KEY,
    turn_timer INTEGER NOT NULL DEFAULT 0       -- seconds; 0 = no timer
);
