-- As sqlite/012. Seasons (issue 41): a server's competition in chapters. One row per season, numbered per
-- server from 1; at most one running at a time (the partial unique index). Times are unix
-- seconds, UTC. `games` is one game's name, or NULL for every game; `recur` is 'none',
-- 'weekly', 'monthly' or 'quarterly'. The end flips `status` from 'running' to 'ended' in
-- the one transaction that freezes its final tables and opens the next season, so it
-- happens once; the card posted after it is remembered by `card_message_id` (`card_claimed_at`:
-- a process is posting it, so another waits before trying).
CREATE TABLE seasons (
    guild_id        BIGINT  NOT NULL,
    number          INTEGER NOT NULL,
    name            TEXT    NOT NULL,
    starts_at       DOUBLE PRECISION NOT NULL,
    ends_at         DOUBLE PRECISION NOT NULL,
    games           TEXT,
    recur           TEXT    NOT NULL DEFAULT 'none',
    channel_id      BIGINT  NOT NULL,
    status          TEXT    NOT NULL CHECK (status IN ('running', 'ended')),
    ended_at        DOUBLE PRECISION,
    card_claimed_at DOUBLE PRECISION,
    card_message_id BIGINT,
    card_done       INTEGER NOT NULL DEFAULT 0,   -- posted, logged, or nowhere to post
    PRIMARY KEY (guild_id, number)
);
CREATE UNIQUE INDEX seasons_one_running ON seasons (guild_id) WHERE status = 'running';
CREATE INDEX seasons_by_status ON seasons (status, ends_at);

-- A player's season rating (soft reset from the all-time one at their first season game)
-- and season points, per server, season and game (player 0: the AI, rated, never ranked).
CREATE TABLE season_ratings (
    guild_id  BIGINT  NOT NULL,
    season    INTEGER NOT NULL,
    game      TEXT    NOT NULL,
    player_id BIGINT  NOT NULL,
    mu        DOUBLE PRECISION NOT NULL,
    sigma     DOUBLE PRECISION NOT NULL,
    played    INTEGER NOT NULL,
    wins      INTEGER NOT NULL,
    points    DOUBLE PRECISION NOT NULL DEFAULT 0,
    PRIMARY KEY (guild_id, season, game, player_id)
);
CREATE INDEX season_ratings_board ON season_ratings (guild_id, season, game, points);

-- One row per human seat of a game finished in a season: the points it earned and whether
-- they counted (the anti-farming rule reads `tablemates` and `day`, a UTC day number).
CREATE TABLE season_results (
    game_id    BIGINT  NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    player_id  BIGINT  NOT NULL,
    guild_id   BIGINT  NOT NULL,
    season     INTEGER NOT NULL,
    game       TEXT    NOT NULL,
    tablemates TEXT    NOT NULL,                  -- the humans at the table, sorted ids
    day        INTEGER NOT NULL,
    points     DOUBLE PRECISION NOT NULL,
    counted    INTEGER NOT NULL,
    PRIMARY KEY (game_id, player_id)
);
CREATE INDEX season_results_farming ON season_results (guild_id, season, game, tablemates, day);
-- A player's last game of a season (the name their frozen line keeps).
CREATE INDEX season_results_by_player ON season_results (guild_id, season, player_id, game_id);

-- A season's final tables, frozen at its end: stored rows, never recomputed. A forgotten
-- member's row keeps its place with `player_id` and `name` NULL ("Former player").
-- Ranked rows first, by points, then rating (`position`): the board reads the top by it.
CREATE TABLE season_finals (
    guild_id  BIGINT  NOT NULL,
    season    INTEGER NOT NULL,
    game      TEXT    NOT NULL,
    position  INTEGER NOT NULL,                   -- 1, 2, ... in the board's order
    player_id BIGINT,
    name      TEXT,
    ranked    INTEGER NOT NULL,                   -- had the server's minimum of games
    ordinal   DOUBLE PRECISION NOT NULL,                      -- the rating, μ − 3σ
    points    DOUBLE PRECISION NOT NULL,
    played    INTEGER NOT NULL,
    wins      INTEGER NOT NULL,
    PRIMARY KEY (guild_id, season, game, position)
);

-- `/settings season-min-games`: season games a player needs to be ranked.
ALTER TABLE guild_settings ADD COLUMN season_min_games INTEGER NOT NULL DEFAULT 3;
