"""Where the pictures keep their static layers (the settings' cache directory, so a new
process loads them instead of drawing them again: see `images.layer_cache`), how they get
their words (the bot's catalogs, in the language being spoken: see `images.words`), and
where they are drawn: `PICTURE_WORKERS` processes, each prepared the same way, or a thread
(see `bot.table.pictures`)."""

from __future__ import annotations

import functools
import logging

from bot.client import ParlourBot
from bot.language import i18n
from bot.log_format import setup_logging
from bot.table import pictures
from images.layer_cache import prune, use_directory
from images.words import Translations, use_translations

log = logging.getLogger(__name__)

TRANSLATIONS = Translations(i18n._, i18n.ngettext, i18n.pgettext, i18n.current, i18n.speaking)


async def setup(bot: ParlourBot) -> None:
    """Prepare this process's pictures and plan the picture workers, before the game cogs load
    (discord.py's extension entry point)."""
    prepare(bot.settings.cache_dir)
    if deleted := prune():  # the bot's process alone: workers start with the same code
        log.info("picture cache: %d layers of other versions deleted", deleted)
    settings = bot.settings
    in_workers = functools.partial(
        prepare_worker, settings.cache_dir, settings.log_level, settings.log_format
    )
    pictures.use_workers(settings.picture_workers, bot.presenters, in_workers)


def prepare_worker(cache_dir: str | None, log_level: str, log_format: str) -> None:
    """Set a picture worker up: its log as the bot's (JSON lines in JSON mode), then its
    pictures."""
    setup_logging(log_level, log_format)
    prepare(cache_dir)


def prepare(cache_dir: str | None) -> None:
    """Set this process up to draw pictures (the bot's, or a picture worker)."""
    use_directory(cache_dir)
    use_translations(TRANSLATIONS)
