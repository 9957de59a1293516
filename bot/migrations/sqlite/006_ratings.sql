-- Ratings (issue 13): one OpenSkill rating per player, per game, per server (player 0 is the
-- AI, which every bot seat plays as), kept in step with the results it was computed from.
-- Games finished before this migration are not rated until a server manager runs
-- /recompute-ratings, which rates the server's results again from the first.
CREATE TABLE ratings (
    guild_id  INTEGER NOT NULL,
    game      TEXT    NOT NULL,
    player_id INTEGER NOT NULL,
    mu        REAL    NOT NULL,
    sigma     REAL    NOT NULL,
    played    INTEGER NOT NULL,                 -- rated games
    wins      INTEGER NOT NULL,
    PRIMARY KEY (guild_id, game, player_id)
);
-- Per result: the team it played on (a side in a game played by sides, else its own seat)
-- and the player's conservative rating (μ − 3σ) before and after the game (NULL: not rated).
ALTER TABLE results ADD COLUMN team INTEGER NOT NULL DEFAULT 0;
ALTER TABLE results ADD COLUMN rating_before REAL;
ALTER TABLE results ADD COLUMN rating_after REAL;
-- Results of earlier versions: a game whose seats had sides played by sides.
UPDATE results SET team = COALESCE((
    SELECT CASE
        WHEN (SELECT COUNT(DISTINCT side) FROM seats AS t WHERE t.game_id = s.game_id) > 1
        THEN s.side ELSE s.seat END
    FROM seats AS s WHERE s.game_id = results.game_id AND s.player_id = results.player_id
), 0);
