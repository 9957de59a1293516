-- Your turn reaches you: how a member hears of their turn in a server's games.
-- `notify`: 'ping' (a mention in the game's thread), 'dm' (a direct message, named in the
-- thread without a mention), 'quiet' (named without a mention) or 'none'. No row: 'ping'.
CREATE TABLE member_notify (
    guild_id BIGINT NOT NULL,
    user_id BIGINT NOT NULL,
    notify TEXT NOT NULL,
    PRIMARY KEY (guild_id, user_id)
);
