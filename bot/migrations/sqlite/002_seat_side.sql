-- The side a player joined in a game played by sides (Horse Collar); 0 for every other game.
ALTER TABLE seats ADD COLUMN side INTEGER NOT NULL DEFAULT 0;
