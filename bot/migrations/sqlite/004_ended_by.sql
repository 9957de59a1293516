-- Ending a started game before its end (issue 17): who ended it (NULL when its players
-- voted to end it, or its thread was deleted), and who has voted to end it so far (a JSON
-- list of player ids).
ALTER TABLE games ADD COLUMN ended_by INTEGER;
ALTER TABLE games ADD COLUMN end_votes TEXT NOT NULL DEFAULT '[]';
