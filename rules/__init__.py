"""Pure, deterministic rules engines: one package per game, standard library only."""
