"""The admin's chores take a member's or a server's id only as Discord writes one (a
snowflake: 17 to 19 ASCII digits, below 2**63), so a typo never names someone else's data."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.__main__ import main

REAL = "733241950187002113"


@pytest.mark.parametrize("chore", ["forget-user", "forget-server", "export-user"])
@pytest.mark.parametrize(
    "typed",
    [
        "2",
        "１２３４５６７８９０１２３４５６７８",
        "1234567890123456",
        "9223372036854775808",
        "-7332419501870021",
    ],
)
def test_an_id_that_is_no_snowflake_is_refused_and_nothing_is_opened(
    chore: str,
    typed: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    database = tmp_path / "parlour.sqlite3"
    monkeypatch.setenv("DATABASE_PATH", str(database))
    monkeypatch.setenv("ENV_FILE", "")
    monkeypatch.chdir(tmp_path)

    with pytest.raises(SystemExit) as refused:
        main([chore, typed])

    assert refused.value.code == 2
    said = capsys.readouterr().err.splitlines()[-1]
    assert said.endswith(
        f"{typed!r} is not a Discord id: copy it from Discord (17 to 19 digits, "
        "Developer Mode, then Copy ID)."
    ), said
    assert not database.exists()


@pytest.mark.parametrize("typed", [REAL, "10000000000000000", "9223372036854775807"])
def test_a_snowflake_is_taken(typed: str) -> None:
    from bot.__main__ import discord_id

    assert discord_id(typed) == int(typed)
