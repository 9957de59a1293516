-- As sqlite/004: who ended a started game before its end (NULL when its players voted to
-- end it, or its thread was deleted), and who has voted to end it so far (a JSON list).
ALTER TABLE games ADD COLUMN ended_by BIGINT;
ALTER TABLE games ADD COLUMN end_votes TEXT NOT NULL DEFAULT '[]';
