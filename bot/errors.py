"""Errors whose message is written for the player and shown to them ephemerally."""


class UserError(Exception):
    """Bad input from a player (wrong turn, stale click, full lobby...): nothing changed."""
