"""Where the pictures keep their static layers: the settings' cache directory, so a new
process loads them instead of drawing them again (see `images.layer_cache`)."""

from __future__ import annotations

from bot.client import ParlourBot
from images.layer_cache import use_directory


async def setup(bot: ParlourBot) -> None:
    use_directory(bot.settings.cache_dir)
