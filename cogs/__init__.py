"""Discord cogs: one per game, plus general commands and the scoreboard."""
