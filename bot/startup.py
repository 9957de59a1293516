"""Why a start of the bot failed: Discord out of reach (worth trying again) or something else.

discord.py's first gateway connection has a bug (Rapptz/discord.py#10520, open in 2.7.1): when
Discord accepts the login but the gateway can't be reached, `Client.connect` logs the failure
with its traceback, sleeps, then fails on `self.ws.sequence` with `self.ws` still None, an
`AttributeError` whose context is the real error. `unreached` reads that as what it is, the
gateway out of reach, and `FirstConnectLog` drops discord.py's traceback of it: the start-up
says it in one line (`bot/__main__.py`).
"""

from __future__ import annotations

import logging

import aiohttp
import discord

# What a Discord that can't be reached raises (aiohttp's connection errors are OSErrors; a
# Discord outage answers 5xx; a gateway that closes or is not found, its own errors).
NOT_REACHED = (OSError, aiohttp.ClientError, TimeoutError, discord.DiscordServerError)
GATEWAY_NOT_REACHED = (*NOT_REACHED, discord.GatewayNotFound, discord.ConnectionClosed)


def reason(e: BaseException) -> str:
    """One line for why Discord wasn't reached."""
    if isinstance(e, discord.HTTPException):
        return f"HTTP {e.status}"
    text = getattr(e, "strerror", None) or str(e) or type(e).__name__
    return text.splitlines()[0] if text else type(e).__name__


def unreached(bot: discord.Client, e: BaseException) -> str | None:
    """Why Discord could not be reached, if that is what `e` (raised by `bot`'s start) says;
    None for any other failure."""
    if bot.user is None:  # not logged in: the API itself was out of reach
        return reason(e) if isinstance(e, NOT_REACHED) else None
    # Logged in, but no gateway connection yet (#10520 hides the real error as the context).
    bug = isinstance(e, AttributeError) and e.name == "sequence"  # `self.ws.sequence`
    cause = e.__context__ if bug else e
    if bot.ws is None and isinstance(cause, GATEWAY_NOT_REACHED):
        return reason(cause)
    return None


class FirstConnectLog(logging.Filter):
    """Drops discord.py's "Attempting a reconnect" record while `bot` has never connected
    to the gateway: #10520 makes it no reconnect at all, and the start-up says why in one
    line instead of its traceback."""

    def __init__(self, bot: discord.Client) -> None:
        """A filter for `bot`'s first connection (add it to the `discord.client` logger)."""
        super().__init__()
        self._bot = bot

    def filter(self, record: logging.LogRecord) -> bool:
        """False for the record to drop."""
        return not (self._bot.ws is None and str(record.msg).startswith("Attempting a reconnect"))
