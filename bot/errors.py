"""Errors whose message is written for the player and shown to them ephemerally."""


class UserError(Exception):
    """Bad input from a player (wrong turn, stale click, full lobby...): nothing changed."""


class GameUnreadable(UserError):
    """This version of the bot cannot load the game (a state of another version, a game no
    longer offered). The game is set aside; every other game plays on."""

    def __init__(self, reason: str, *, marked: bool = False) -> None:
        super().__init__(
            "This game can't be continued: it was saved in a form this version of Parlour "
            "can't read. The bot's admin can find the details in its log."
        )
        self.reason = reason
        self.marked = marked  # set aside already (the database says so)
