-- Boards for everyone: a member's own settings, whatever the server. `text_board` 1: the
-- member gets the 📝 text board privately after each of their moves.
CREATE TABLE member_settings (
    user_id BIGINT PRIMARY KEY,
    text_board INTEGER NOT NULL DEFAULT 0
);
