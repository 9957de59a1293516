"""Settings: every bad value is refused with one line naming the setting and what it may be."""

from __future__ import annotations

import pytest

from bot.settings import Settings, SettingsError


def test_defaults_and_values() -> None:
    settings = Settings.from_env(
        {"DISCORD_TOKEN": "t", "BOT_MOVE_DELAY": "0.5", "DEV_GUILD_ID": "42", "HOME": "/h"}
    )
    assert settings.bot_move_delay == 0.5 and settings.dev_guild_id == 42
    assert settings.autoplay_pace == 1.2 and settings.database_url == "sqlite:///parlour.sqlite3"
    assert settings.cache_dir and settings.cache_dir.endswith("parlour")
    assert Settings.from_env({"XDG_CACHE_HOME": "/c"}).cache_dir == "/c/parlour"
    assert Settings.from_env({"CACHE_DIR": "/here"}).cache_dir == "/here"


@pytest.mark.parametrize(
    ("name", "value", "says"),
    [
        ("BOT_MOVE_DELAY", "abc", "BOT_MOVE_DELAY='abc' is not valid: seconds, 0 or more"),
        ("BOT_MOVE_DELAY", "-1", "BOT_MOVE_DELAY='-1' is not valid"),
        ("AUTOPLAY_PACE", "fast", "AUTOPLAY_PACE='fast' is not valid"),
        ("DEV_GUILD_ID", "my server", "DEV_GUILD_ID='my server' is not valid: a server id"),
        ("LOG_LEVEL", "loud", "LOG_LEVEL='LOUD' is not valid: DEBUG, INFO, WARNING or ERROR"),
    ],
)
def test_a_bad_value_is_one_line_naming_it(name: str, value: str, says: str) -> None:
    with pytest.raises(SettingsError) as caught:
        Settings.from_env({name: value})
    assert str(caught.value).startswith(says) and "\n" not in str(caught.value)
