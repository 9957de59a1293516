"""The lobby: a game opened, joined, left, filled with bots, cancelled or started."""

from __future__ import annotations

import secrets
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from bot.errors import UserError, refused
from bot.language.i18n import GAME_LANGUAGE, N_, _, current
from bot.language.wording import count
from bot.service.core import LoadedGames
from bot.service.loaded import LoadedGame
from bot.storage import ACTIVE, CANCELLED, LOBBY, NewGame, SeatRow, StaleStep
from rules.core import Engine, IllegalAction, PlayerId

MAX_BOTS = 11


class LobbyService(LoadedGames):
    """A game before its start: every change under the game's lock, refused once it started."""

    async def create_lobby(
        self,
        game: str,
        *,
        guild_id: int,
        channel_id: int,
        host_id: PlayerId,
        host_name: str,
        options: Mapping[str, Any],
        rematch_of: int | None = None,
        store: Callable[[NewGame], Awaitable[int]] | None = None,
    ) -> LoadedGame:
        """Open a lobby for `game`, hosted by `host_id`, with the server's turn timer and language
        unless `options` set them. `store` stores it and gives its game's id (by default on its
        own; a tournament table stores it in the transaction that claims the table, and gets
        the game another caller made if it lost)."""
        engine = self.engine(game)
        self._check_options(engine, options)
        options = dict(options)
        if "turn_timer" not in options:
            options["turn_timer"] = await self.storage.guild_turn_timer(guild_id)
        if GAME_LANGUAGE not in options:  # the server's choice, else the host's language
            options[GAME_LANGUAGE] = await self.storage.guild_language(guild_id) or current()
        new = NewGame(
            game=game,
            guild_id=guild_id,
            channel_id=channel_id,
            host=SeatRow(0, host_id, host_name, False),
            options=options,
            seed=self._fixed_seed or secrets.token_hex(8),
            now=self._clock(),
            rematch_of=rematch_of,
        )
        return await self.table(await (store or self.storage.create_game)(new))

    @staticmethod
    def _check_options(engine: Engine[Any], options: Mapping[str, Any]) -> None:
        """Refuse bad options now, not when the host clicks Start: they are fine if some
        table size accepts them (missions need 3 players, sides one player each...)."""
        try:
            engine.validate_options(options)
        except IllegalAction as e:
            raise refused(e) from e

    async def _lobby(self, game_id: int) -> LoadedGame:
        table = await self.table(game_id)
        if table.row.status != LOBBY:
            raise UserError(
                _("This game has already started.")
                if table.row.status == ACTIVE
                else _("This lobby is closed.")
            )
        return table

    async def join(self, game_id: int, player: PlayerId, name: str, side: int = 0) -> LoadedGame:
        """Seat `player` in the lobby, on `side`; a UserError if they are in or it is full."""
        async with self.lock(game_id):
            table = await self._lobby(game_id)
            if player in table.names:
                raise UserError(_("You are already in this game."))
            if not 0 <= side < table.side_count:
                raise UserError(_("That side is not in this game."))
            self._check_room(table)
            seat = SeatRow(len(table.seats), player, name, False, side)
            await self.storage.add_seat(game_id, seat)
            return await self.table(game_id)

    async def add_bot(self, game_id: int, by: PlayerId) -> LoadedGame:
        """The host adds a bot seat, on the smallest side."""
        async with self.lock(game_id):
            table = await self._lobby(game_id)
            self._check_host(table, by, N_("add a bot"))
            self._check_room(table)
            taken = {p for p in table.bots}
            bot_id = next(-n for n in range(1, MAX_BOTS + 2) if -n not in taken)
            name = f"Bot {-bot_id}"
            sizes = [sum(s.side == side for s in table.seats) for side in range(table.side_count)]
            side = sizes.index(min(sizes))  # a bot fills the smallest side
            seat = SeatRow(len(table.seats), bot_id, name, True, side)
            await self.storage.add_seat(game_id, seat)
            return await self.table(game_id)

    async def leave(self, game_id: int, player: PlayerId) -> LoadedGame:
        """`player` leaves the lobby (the host cancels it instead)."""
        async with self.lock(game_id):
            table = await self._lobby(game_id)
            if player not in table.names:
                raise UserError(_("You are not in this game."))
            if player == table.row.host_id:
                raise UserError(_("You are hosting: use Cancel to close the lobby."))
            await self.storage.remove_seat(game_id, player)
            return await self.table(game_id)

    async def cancel(self, game_id: int, by: PlayerId) -> LoadedGame:
        """The host closes the lobby: the game never starts."""
        async with self.lock(game_id):
            table = await self._lobby(game_id)
            self._check_host(table, by, N_("cancel it"))
            await self.storage.update_game(game_id, self._clock(), status=CANCELLED)
            return await self.table(game_id)

    def check_can_start(self, table: LoadedGame, by: PlayerId) -> None:
        """Raise UserError unless `by` may start `table` now (cheap: no writes)."""
        if table.row.status != LOBBY:
            raise UserError(_("This game has already started."))
        self._check_host(table, by, N_("start it"))
        engine = self.engine(table.row.game)
        if len(table.seats) < engine.min_players:
            needs = _("{game} needs at least {players} ({joined} joined).")
            raise UserError(
                needs.format(
                    game=engine.title,
                    players=count(engine.min_players, "player", "players"),
                    joined=len(table.seats),
                )
            )
        sizes = [sum(s.side == side for s in table.seats) for side in range(table.side_count)]
        if len(set(sizes)) > 1:  # a game by sides: seats are grouped by side at the start
            unequal = _(
                "The sides are not equal ({sizes} players): join the smaller side, or "
                "**Add bot** fills it."
            )
            raise UserError(unequal.format(sizes=" v ".join(map(str, sizes))))

    async def start(self, game_id: int, by: PlayerId) -> LoadedGame:
        """The host starts the game: its first state saved and its turn timer's deadline set (see
        `check_can_start` for what may refuse it)."""
        async with self.lock(game_id):
            table = await self.table(game_id)
            self.check_can_start(table, by)
            engine = self.engine(table.row.game)
            try:
                state = self.initial_of(table)
            except IllegalAction as e:  # e.g. sides of unequal size
                raise refused(e) from e
            try:
                await self.storage.start_game(
                    game_id, engine.dump(state), self._deadline(table, state), self._clock()
                )
            except StaleStep as e:
                raise UserError(_("This game has already started.")) from e
            return await self.table(game_id)

    def _check_host(self, table: LoadedGame, by: PlayerId, what: str) -> None:
        if by != table.row.host_id:
            only = _("Only the host, {host}, can {what}.")
            raise UserError(only.format(host=f"<@{table.row.host_id}>", what=_(what)))

    def _check_room(self, table: LoadedGame) -> None:
        engine = self.engine(table.row.game)
        if len(table.seats) >= engine.max_players:
            full = _("The game is full ({players}).")
            raise UserError(full.format(players=count(engine.max_players, "player", "players")))
