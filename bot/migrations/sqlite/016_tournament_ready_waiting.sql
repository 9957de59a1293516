-- `ready_waiting` once a table's ready window ended while some members' turn had not come
-- yet (they could not move): its `ready_at` moves on, and the table is looked at again
-- until each of them has moved or been to act for a whole window.
ALTER TABLE tournament_tables ADD COLUMN ready_waiting INTEGER NOT NULL DEFAULT 0;
