-- Parlour in other languages (issue 14): the language a server chose with
-- `/settings language` for its games' public messages; NULL: each game speaks its host's.
ALTER TABLE guild_settings ADD COLUMN language TEXT;
