-- Privacy: the servers the bot was removed from (kicked or banned, not an outage), since
-- when. A server still listed 30 days later has its data deleted; adding the bot back
-- removes its row.
CREATE TABLE guild_departures (
    guild_id BIGINT PRIMARY KEY,
    left_at  DOUBLE PRECISION NOT NULL      -- unix time
);
