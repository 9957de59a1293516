"""Settings kept between games: a server's (turn timer, language, season games to be
ranked), a member's (the text board after each move; per server, how their turn reaches
them), and the bot's own small memory (`bot_state`, key → value)."""

from __future__ import annotations

from bot.seasons import MIN_SEASON_GAMES
from bot.storage.conn import Conn, Connected


async def forget_member_notify(db: Conn, user_id: int) -> None:
    """Within a forgetting transaction: a member's notification settings, in every server."""
    await db.execute("DELETE FROM member_notify WHERE user_id = ?", user_id)


class Guilds(Connected):
    """Server and member settings, and the bot's state."""

    async def _put(self, table: str, key: str, column: str, at: int | str, value: object) -> None:
        """Set one column of the row `key = at` of a settings table, adding the row if new."""
        async with self._transaction() as db:
            await db.execute(
                f"INSERT INTO {table} ({key}, {column}) VALUES (?, ?)"
                f" ON CONFLICT ({key}) DO UPDATE SET {column} = excluded.{column}",
                at,
                value,
            )

    async def guild_turn_timer(self, guild_id: int) -> int:
        """The server's turn timer, in seconds (0: none)."""
        row = await self._read.fetchone(
            "SELECT turn_timer FROM guild_settings WHERE guild_id = ?", guild_id
        )
        return int(row[0]) if row else 0

    async def set_guild_turn_timer(self, guild_id: int, seconds: int) -> None:
        """Set the server's turn timer, in seconds (0: none)."""
        await self._put("guild_settings", "guild_id", "turn_timer", guild_id, seconds)

    async def guild_language(self, guild_id: int) -> str | None:
        """The language the server chose for its games, if it chose one."""
        row = await self._read.fetchone(
            "SELECT language FROM guild_settings WHERE guild_id = ?", guild_id
        )
        return None if row is None or row[0] is None else str(row[0])

    async def set_guild_language(self, guild_id: int, language: str | None) -> None:
        """Set the language of the server's new games (None: each its host's)."""
        await self._put("guild_settings", "guild_id", "language", guild_id, language)

    async def season_min_games(self, guild_id: int) -> int:
        """Season games a player of the server needs to be ranked."""
        row = await self._read.fetchone(
            "SELECT season_min_games FROM guild_settings WHERE guild_id = ?", guild_id
        )
        return int(row[0]) if row else MIN_SEASON_GAMES

    async def set_season_min_games(self, guild_id: int, games: int) -> None:
        """Set the season games a player of the server needs to be ranked."""
        await self._put("guild_settings", "guild_id", "season_min_games", guild_id, games)

    # --- member settings ---------------------------------------------------------------------

    async def text_board_members(self) -> set[int]:
        """Every member who asked for the text board after each of their moves."""
        rows = await self._read.fetch("SELECT user_id FROM member_settings WHERE text_board = 1")
        return {int(r[0]) for r in rows}

    async def set_text_board_default(self, user_id: int, on: bool) -> None:
        """Whether a member gets the text board after each of their moves."""
        await self._put("member_settings", "user_id", "text_board", user_id, int(on))

    async def notify_settings(self, guild_id: int) -> dict[int, str]:
        """How each member of a server who chose it hears of their turn (`member_notify`,
        migration 013: `ping`, `dm`, `quiet` or `none`); members not listed chose nothing."""
        rows = await self._read.fetch(
            "SELECT user_id, notify FROM member_notify WHERE guild_id = ?", guild_id
        )
        return {int(r[0]): str(r[1]) for r in rows}

    async def set_notify(self, guild_id: int, user_id: int, notify: str) -> None:
        """Set how a member hears of their turn in a server's games."""
        async with self._transaction() as db:
            await db.execute(
                "INSERT INTO member_notify (guild_id, user_id, notify) VALUES (?, ?, ?)"
                " ON CONFLICT (guild_id, user_id) DO UPDATE SET notify = excluded.notify",
                guild_id,
                user_id,
                notify,
            )

    # --- the bot's own memory ------------------------------------------------------------------

    async def bot_state(self, key: str) -> str | None:
        """The value the bot kept under `key`, if any."""
        row = await self._read.fetchone("SELECT value FROM bot_state WHERE key = ?", key)
        return None if row is None else str(row[0])

    async def set_bot_state(self, key: str, value: str) -> None:
        """Keep `value` under `key`, replacing what was there."""
        await self._put("bot_state", "key", "value", key, value)
