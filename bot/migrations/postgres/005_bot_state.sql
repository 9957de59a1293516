-- What the bot remembers about itself between starts, by key: e.g. the hash of the slash
-- commands last synced to Discord, so that an unchanged set is not sent again.
CREATE TABLE bot_state (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
