"""Settings: every bad value is refused with one line naming the setting and what it may be."""

from __future__ import annotations

import os

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
    assert settings.metrics_port is None  # metrics are off unless asked for
    assert Settings.from_env({"METRICS_PORT": "9100"}).metrics_port == 9100
    assert Settings.from_env({"PICTURE_WORKERS": "0"}).picture_workers == 0
    assert Settings.from_env({"PICTURE_WORKERS": "2"}).picture_workers == 2
    assert (settings.notify_watching, settings.notify_dm_every) == (120.0, 60.0)
    quick = Settings.from_env({"NOTIFY_WATCHING": "3", "NOTIFY_DM_EVERY": "0"})
    assert (quick.notify_watching, quick.notify_dm_every) == (3.0, 0.0)


@pytest.mark.parametrize(("cores", "workers"), [(None, 0), (1, 0), (2, 1), (4, 3), (16, 4)])
def test_pictures_are_drawn_on_the_cores_the_event_loop_leaves(
    monkeypatch: pytest.MonkeyPatch, cores: int | None, workers: int
) -> None:
    """A worker for every core but the event loop's, up to 4; none on a single core."""
    monkeypatch.setattr(os, "cpu_count", lambda: cores)
    assert Settings.from_env({}).picture_workers == workers


@pytest.mark.parametrize(
    ("name", "value", "says"),
    [
        ("BOT_MOVE_DELAY", "abc", "BOT_MOVE_DELAY='abc' is not valid: seconds, 0 or more"),
        ("BOT_MOVE_DELAY", "-1", "BOT_MOVE_DELAY='-1' is not valid"),
        ("AUTOPLAY_PACE", "fast", "AUTOPLAY_PACE='fast' is not valid"),
        ("NOTIFY_WATCHING", "2m", "NOTIFY_WATCHING='2m' is not valid: seconds, 0 or more"),
        ("NOTIFY_DM_EVERY", "-60", "NOTIFY_DM_EVERY='-60' is not valid: seconds, 0 or more"),
        ("DEV_GUILD_ID", "my server", "DEV_GUILD_ID='my server' is not valid: a server id"),
        ("LOG_LEVEL", "loud", "LOG_LEVEL='LOUD' is not valid: DEBUG, INFO, WARNING or ERROR"),
        ("METRICS_PORT", "http", "METRICS_PORT='http' is not valid: a TCP port, 1 to 65535"),
        ("METRICS_PORT", "70000", "METRICS_PORT='70000' is not valid"),
        ("DATABASE_URL", "mysql://h/db", "DATABASE_URL='mysql://h/db' is not valid: sqlite:///"),
        ("DATABASE_URL", "sqlite:///", "DATABASE_URL='sqlite:///' is not valid"),
        ("DATABASE_URL", "postgresql://u:pw@h", "DATABASE_URL='postgresql://u:***@h' is not"),
        ("SHARD_COUNT", "0", "SHARD_COUNT='0' is not valid: a number of shards, 1 or more"),
        ("SHARD_IDS", "0", "SHARD_IDS='0' needs SHARD_COUNT"),
        ("PICTURE_WORKERS", "9", "PICTURE_WORKERS='9' is not valid: a number of processes"),
        ("PICTURE_WORKERS", "some", "PICTURE_WORKERS='some' is not valid"),
    ],
)
def test_a_bad_value_is_one_line_naming_it(name: str, value: str, says: str) -> None:
    with pytest.raises(SettingsError) as caught:
        Settings.from_env({name: value})
    assert str(caught.value).startswith(says) and "\n" not in str(caught.value)


def test_database_url_and_path() -> None:
    assert Settings.from_env({"DATABASE_PATH": "/d/p.db"}).sqlite_path == "/d/p.db"
    assert Settings.from_env({"DATABASE_URL": "sqlite:///rel.db"}).sqlite_path == "rel.db"
    pg = Settings.from_env({"DATABASE_URL": "postgresql://u@h:5432/db"})
    assert pg.sqlite_path is None and pg.database_url == "postgresql://u@h:5432/db"
    with pytest.raises(SettingsError, match=r"^DATABASE_URL and DATABASE_PATH are both set"):
        Settings.from_env({"DATABASE_URL": "sqlite:///a", "DATABASE_PATH": "b"})


def test_shards() -> None:
    assert Settings.from_env({}).shards is None
    every = Settings.from_env({"SHARD_COUNT": "3"}).shards
    assert every is not None and every.ids == (0, 1, 2) and every.syncs_commands
    some = Settings.from_env({"SHARD_COUNT": "4", "SHARD_IDS": "3, 1"}).shards
    assert some is not None and some.ids == (1, 3) and not some.syncs_commands
    assert some.owns(1 << 22) and not some.owns(2 << 22) and some.owns((7 << 22) + 12345)


@pytest.mark.parametrize("ids", ["2", "0,2", "1,1", "a", "-1", ""])
def test_shard_ids_outside_shard_count_are_refused(ids: str) -> None:
    with pytest.raises(SettingsError) as caught:
        Settings.from_env({"SHARD_COUNT": "2", "SHARD_IDS": ids or ","})
    assert str(caught.value).endswith(
        "is not valid: shard numbers from 0 to 1 (SHARD_COUNT=2), separated by commas (e.g. 0,1)."
    )
