-- The board publisher's memory: which step (and chapter) the game's board shows, so a board
-- left behind by a crash or a failed edit is noticed and brought up to date; and why a game
-- could not be loaded or shown (NULL: healthy).
ALTER TABLE games ADD COLUMN shown_step INTEGER;
ALTER TABLE games ADD COLUMN shown_chapter INTEGER;
ALTER TABLE games ADD COLUMN broken TEXT;
-- Games of earlier versions: a finished or closed game was shown as far as it goes; an active
-- one is marked -1, "not known", and its board is refreshed once at the first start.
UPDATE games SET shown_step = CASE WHEN status = 'active' THEN -1 ELSE step END
    WHERE state IS NOT NULL;
-- Recovery and the reconciler look games up by status; commands typed in a game's thread
-- find it by thread.
CREATE INDEX games_by_status ON games (status);
CREATE INDEX games_by_thread ON games (thread_id);
CREATE INDEX games_by_board ON games (board_message_id);
