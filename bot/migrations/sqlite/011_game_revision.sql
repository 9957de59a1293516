-- Forgetting a member rewrites a game's saved state and seats without a new step:
-- `revision` counts those rewrites, so a process holding an earlier copy of the game at the
-- same step reads it afresh instead of writing the member's id back at its next move.
ALTER TABLE games ADD COLUMN revision INTEGER NOT NULL DEFAULT 0;
