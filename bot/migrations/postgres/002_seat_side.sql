-- As sqlite/002: the side a player joined (Horse Collar); 0 for every other game.
ALTER TABLE seats ADD COLUMN side INTEGER NOT NULL DEFAULT 0;
