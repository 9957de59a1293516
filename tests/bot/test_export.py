"""`python -m bot export-user`, run as an admin runs it: the member's copy of their data,
the same JSON as their `/my-data`, on stdout or in a new file only its owner reads."""

from __future__ import annotations

import json
import stat
from pathlib import Path

from bot.ops.export import member_data
from bot.service import GameService
from bot.storage import open_storage
from rules.registry import ENGINES
from tests.bot.test_admin import chore

ANA, LEO, GUILD = 733241950187002113, 733241950187003227, 1100000000000000001


async def test_export_user_writes_what_my_data_gives(tmp_path: Path) -> None:
    database = tmp_path / "parlour.sqlite3"
    storage = await open_storage(f"sqlite:///{database}")
    service = GameService(storage, ENGINES)
    table = await service.create_lobby(
        "risk", guild_id=GUILD, channel_id=2, host_id=ANA, host_name="Ana", options={}
    )
    for other in (LEO, 733241950187004331):
        await service.join(table.row.id, other, f"Player {other % 1000}")
    await service.start(table.row.id, ANA)
    expected = await member_data(storage, ANA)
    await storage.close()
    env = {"DATABASE_PATH": str(database)}

    printed = chore("export-user", str(ANA), cwd=tmp_path, **env)
    # The database is named on stderr: standard output is the JSON alone.
    assert (printed.returncode, printed.stderr) == (0, f"Database: {database}\n")
    assert json.loads(printed.stdout) == expected
    assert expected["games"][0]["game"] == "risk" and str(LEO) not in printed.stdout

    out = tmp_path / "ana.json"
    written = chore("export-user", str(ANA), "--out", str(out), cwd=tmp_path, **env)
    assert written.returncode == 0 and json.loads(out.read_text()) == expected
    assert stat.S_IMODE(out.stat().st_mode) == 0o600
    again = chore("export-user", str(ANA), "--out", str(out), cwd=tmp_path, **env)
    assert again.returncode == 2 and "can't be written: File exists." in again.stderr


def test_export_user_without_a_database_creates_none(tmp_path: Path) -> None:
    database = tmp_path / "parlour.sqlite3"
    done = chore("export-user", str(ANA), cwd=tmp_path, DATABASE_PATH=str(database))
    assert done.returncode == 2 and f"There is no database at {database}" in done.stderr
    assert not database.exists()
