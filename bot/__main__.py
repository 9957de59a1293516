"""`python -m bot`: start Parlour with the settings from the environment or `.env`."""

from __future__ import annotations

import logging
import sys
from pathlib import Path

import discord
from dotenv import load_dotenv

from bot.client import ParlourBot
from bot.instance_lock import DatabaseInUse, InstanceLock
from bot.settings import Settings, SettingsError


def main() -> int:
    load_dotenv(Path.cwd() / ".env")  # the admin's .env, where they run the bot
    try:
        settings = Settings.from_env()
    except SettingsError as e:
        print(e, file=sys.stderr)
        return 2
    if not settings.token:
        print(
            "DISCORD_TOKEN is not set: put your bot's token in a .env file "
            "(copy .env.example) or in the environment, then run `python -m bot` again.",
            file=sys.stderr,
        )
        return 2
    try:
        lock = InstanceLock.acquire(settings.database_path)  # before anything else happens
    except DatabaseInUse as e:
        print(e, file=sys.stderr)
        return 2
    except OSError as e:
        print(
            f"DATABASE_PATH={settings.database_path!r} can't be used: {e.strerror}.",
            file=sys.stderr,
        )
        return 2
    discord.utils.setup_logging(level=getattr(logging, settings.log_level, logging.INFO))
    bot = ParlourBot(settings, lock=lock)
    try:
        bot.run(settings.token, log_handler=None)
    except discord.LoginFailure:
        print("Discord refused DISCORD_TOKEN: check the token in .env.", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
