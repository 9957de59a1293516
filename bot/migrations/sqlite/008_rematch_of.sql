-- Rematches: the finished game a lobby was opened from by its Rematch button, so a second
-- click while that lobby is open leads to it instead of opening another.
ALTER TABLE games ADD COLUMN rematch_of INTEGER;
CREATE INDEX games_rematch_of ON games (rematch_of);
