-- As sqlite/003: which step (and chapter) the game's board shows, and why a game could not
-- be loaded or shown (NULL: healthy).
ALTER TABLE games ADD COLUMN shown_step INTEGER;
ALTER TABLE games ADD COLUMN shown_chapter INTEGER;
ALTER TABLE games ADD COLUMN broken TEXT;
UPDATE games SET shown_step = CASE WHEN status = 'active' THEN -1 ELSE step END
    WHERE state IS NOT NULL;
CREATE INDEX games_by_status ON games (status);
CREATE INDEX games_by_thread ON games (thread_id);
CREATE INDEX games_by_board ON games (board_message_id);
