-- As sqlite/006: one OpenSkill rating per player, per game, per server (player 0: the AI);
-- per result its team and the rating before and after. Earlier games are rated by
-- /recompute-ratings.
CREATE TABLE ratings (
    guild_id  BIGINT  NOT NULL,
    game      TEXT    NOT NULL,
    player_id BIGINT  NOT NULL,
    mu        DOUBLE PRECISION NOT NULL,
    sigma     DOUBLE PRECISION NOT NULL,
    played    INTEGER NOT NULL,
    wins      INTEGER NOT NULL,
    PRIMARY KEY (guild_id, game, player_id)
);
ALTER TABLE results ADD COLUMN team INTEGER NOT NULL DEFAULT 0;
ALTER TABLE results ADD COLUMN rating_before DOUBLE PRECISION;
ALTER TABLE results ADD COLUMN rating_after DOUBLE PRECISION;
UPDATE results SET team = COALESCE((
    SELECT CASE
        WHEN (SELECT COUNT(DISTINCT side) FROM seats AS t WHERE t.game_id = s.game_id) > 1
        THEN s.side ELSE s.seat END
    FROM seats AS s WHERE s.game_id = results.game_id AND s.player_id = results.player_id
), 0);
