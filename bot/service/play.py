"""Play: a move applied and saved, the AI's moves (bots, absent players, the turn timer),
seat actions, a game ended early or by vote, and the marks that say where the game shows.
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass, replace
from typing import Any

from bot.errors import UserError, refused
from bot.language.i18n import N_, _
from bot.service.core import LoadedGames
from bot.service.loaded import LoadedGame
from bot.storage import ABANDONED, ACTIVE, FINISHED, ResultRow, StaleStep
from rules.core import Action, Event, IllegalAction, Outcome, PlayerId, step_rng
from rules.seats import HAND_TO_AI


@dataclass(frozen=True)
class Played:
    """The result of one applied action."""

    table: LoadedGame
    player: PlayerId
    action: Action
    events: tuple[Event, ...]
    outcome: Outcome | None
    by_ai: bool
    was_to_act: frozenset[PlayerId]  # who could act before this action
    before: Any  # the state the action was applied to
    from_step: int  # the step `before` was at (several actions, for an AI's batched turn)


class PlayService(LoadedGames):
    """A started game: each move checked against the step its player saw, applied by the
    engine and saved with its log entry in one transaction, under the game's lock."""

    async def act(
        self,
        game_id: int,
        player: PlayerId,
        action: Action,
        expected_step: int,
        *,
        by_ai: bool = False,
        on_board: int | None = None,
    ) -> Played:
        """Apply `action` for `player` if the game is still at `expected_step` — and, for a
        click on a board message (`on_board`), if that message is not older than the game's
        current board: an older one that kept its buttons (Discord refused to edit it) takes
        no moves. A newer one is a board just posted whose id is not saved yet — ids grow
        with time, and a quick player may click it in that moment."""
        async with self.lock(game_id):
            table = await self.table(game_id)
            current = table.row.board_message_id
            if on_board is not None and current is not None and on_board < current:
                raise UserError(_("That board is out of date: use the latest one in the thread."))
            return await self._apply(table, player, action, expected_step, by_ai=by_ai)

    async def _apply(
        self,
        table: LoadedGame,
        player: PlayerId,
        action: Action,
        expected_step: int,
        *,
        by_ai: bool,
    ) -> Played:
        row = table.row
        if row.status != ACTIVE:
            raise UserError(
                _("This game is over.") if row.state else _("This game has not started.")
            )
        if player not in table.names:
            raise UserError(_("You are not playing in this game."))
        if expected_step != row.step:
            raise UserError(_("That button is out of date: the game has moved on."))
        engine = self.engine(row.game)
        rng = step_rng(row.seed, row.step)
        try:
            # On the loop: every engine's move takes at most a few ms (a shot's physics
            # included, `bench.engine`), less than a hop to a thread and back costs a busy loop.
            step = engine.apply(table.state, player, action, rng)
        except IllegalAction as e:
            raise refused(e) from e
        outcome = engine.outcome(step.state)
        results = None if outcome is None else _results(replace(table, state=step.state), outcome)
        dumped = engine.dump(step.state)
        deadline = self._deadline(table, step.state)
        try:
            await self.storage.record_action(
                row.id,
                step=row.step,
                revision=row.revision,
                player_id=player,
                action=action,
                by_ai=by_ai,
                state=dumped,
                deadline=deadline,
                results=results,
                now=self._clock(),
            )
        except StaleStep as e:
            raise UserError(_("That button is out of date: the game has moved on.")) from e
        # The row as just written, without reading it back.
        after = replace(
            row,
            step=row.step + 1,
            state=dumped,
            deadline=deadline,
            reminded=False,
            status=FINISHED if results is not None else ACTIVE,
        )
        saved = LoadedGame(after, table.seats, step.state, engine.ai_seats(step.state))
        if results is None:
            self._latest[row.id] = saved
        else:
            self._latest.pop(row.id, None)  # finished: not played again
        return Played(
            table=saved,
            player=player,
            action=action,
            events=step.events,
            outcome=outcome,
            by_ai=by_ai,
            was_to_act=engine.to_act(table.state),
            before=table.state,
            from_step=row.step,
        )

    async def play_bot(self, game_id: int) -> Played | None:
        """Let one bot seat that is to act play one action; None if no bot is to act."""
        async with self.lock(game_id):
            table = await self.table(game_id)
            if table.row.status != ACTIVE:
                return None
            engine = self.engine(table.row.game)
            bots = sorted(engine.to_act(table.state) & table.autoplayed)
            if not bots:
                return None
            return await self._ai_move(table, bots[0])

    async def time_out(self, game_id: int, expected_step: int) -> Played | None:
        """The turn timer ran out at `expected_step`: the AI acts for the absent player."""
        async with self.lock(game_id):
            table = await self.table(game_id)
            if table.row.status != ACTIVE or table.row.step != expected_step:
                return None  # they played in time
            engine = self.engine(table.row.game)
            absent = sorted(engine.to_act(table.state) - table.autoplayed)
            if not absent:
                return None
            return await self._ai_move(table, absent[0])

    async def play_ai_for(
        self, game_id: int, player: PlayerId, expected_step: int
    ) -> Played | None:
        """The AI's next action for `player` if the game is still at `expected_step` with
        `player` to act (the rest of a bot's or an absent player's turn); else None."""
        async with self.lock(game_id):
            table = await self.table(game_id)
            if table.row.status != ACTIVE or table.row.step != expected_step:
                return None
            if player not in self.engine(table.row.game).to_act(table.state):
                return None
            return await self._ai_move(table, player)

    async def _ai_move(self, table: LoadedGame, player: PlayerId) -> Played:
        engine = self.engine(table.row.game)
        # A separate stream from the step's own rng, so the AI's choice cannot shift the dice.
        rng = step_rng(f"{table.row.seed}:ai", table.row.step)
        action = await asyncio.to_thread(engine.choose, table.state, player, rng)
        return await self._apply(table, player, action, table.row.step, by_ai=True)

    async def mark_reminded(self, game_id: int) -> None:
        """Note that this turn's halfway reminder was sent, so a restart does not send it again."""
        await self.storage.update_game(game_id, self._clock(), reminded=1)

    async def set_ids(self, game_id: int, **ids: int | None) -> None:
        """Remember where the game lives in Discord (lobby, thread, board, ping messages)."""
        await self.storage.update_game(game_id, self._clock(), **ids)

    # --- leaving a game before its end (issue 17) --------------------------------------------

    async def seat_action(
        self,
        game_id: int,
        by: PlayerId,
        action: Action,
        *,
        manager: bool = False,
        seat: PlayerId | None = None,
    ) -> Played:
        """A seat action (`rules.seats`) at the game's current step, whoever is to act: `by`
        resigns or takes their seat back; the host (or `manager`) hands `seat` to the AI."""
        async with self.lock(game_id):
            table = await self.table(game_id)
            player = by
            if action == HAND_TO_AI:
                self._check_manager(table, by, manager, N_("hand a seat to the AI"))
                if seat is None or seat not in table.names or seat in table.bots:
                    raise UserError(_("Choose a member playing in this game."))
                player = seat
            return await self._apply(table, player, action, table.row.step, by_ai=False)

    async def end(self, game_id: int, by: PlayerId, *, manager: bool) -> LoadedGame:
        """The host (or `manager`) ends a started game: abandoned, no winner, no results."""
        async with self.lock(game_id):
            table = await self._active(game_id)
            self._check_manager(table, by, manager, N_("end this game"))
            await self.storage.update_game(
                game_id, self._clock(), status=ABANDONED, deadline=None, ended_by=by
            )
            self._latest.pop(game_id, None)
            return await self.table(game_id)

    async def vote_to_end(self, game_id: int, by: PlayerId) -> LoadedGame:
        """`by` votes to end the game; the last vote needed ends it as `end` does."""
        async with self.lock(game_id):
            table = await self._active(game_id)
            if by not in table.voters:
                raise UserError(_("Only the members still playing this game can vote to end it."))
            if by in table.row.end_votes:
                raise UserError(_("You have already voted to end this game."))
            votes = (*table.row.end_votes, by)
            ended = set(table.voters) <= set(votes)
            extra: dict[str, Any] = {"status": ABANDONED, "deadline": None} if ended else {}
            await self.storage.update_game(
                game_id, self._clock(), end_votes=json.dumps(votes), **extra
            )
            if ended:
                self._latest.pop(game_id, None)
            return await self.table(game_id)

    async def _active(self, game_id: int) -> LoadedGame:
        table = await self.table(game_id)
        if table.row.status != ACTIVE:
            raise UserError(
                _("This game is over.") if table.row.state else _("This game has not started.")
            )
        return table

    def _check_manager(self, table: LoadedGame, by: PlayerId, manager: bool, what: str) -> None:
        if by != table.row.host_id and not manager:
            only = _("Only the host, {host}, or a member who can manage threads can {what}.")
            raise UserError(only.format(host=f"<@{table.row.host_id}>", what=_(what)))

    async def abandon(self, game_id: int) -> None:
        """The game's thread is gone: stop its timers and hide it from /games."""
        await self.storage.update_game(game_id, self._clock(), status=ABANDONED, deadline=None)
        self._latest.pop(game_id, None)

    async def mark_shown(
        self,
        game_id: int,
        step: int,
        chapter: int,
        board_message_id: int | None,
        **ping: int | None,
    ) -> None:
        """The board message `board_message_id` now shows `step` (in `chapter`); with
        `ping_message_id`, the ping that went with it (one write for both)."""
        await self.storage.update_game(
            game_id,
            self._clock(),
            shown_step=step,
            shown_chapter=chapter,
            board_message_id=board_message_id,
            **ping,
        )

    async def mark_broken(self, game_id: int, reason: str) -> None:
        """Set a game aside that this version cannot load or show; the others play on."""
        await self.storage.update_game(game_id, self._clock(), broken=reason[:500])


def _results(table: LoadedGame, outcome: Outcome) -> list[ResultRow]:
    """Scoreboard rows; a resigner's is a loss whatever their place (a table where everyone
    resigned still places someone first). A game played by sides is rated side against
    side; any other, seat against seat."""
    bots = table.bots
    by_sides = table.side_count > 1
    resigned = frozenset(table.resigned)
    return [
        ResultRow(
            player_id=seat.player_id,
            is_bot=seat.player_id in bots,
            place=outcome.places[seat.player_id],
            score=outcome.scores.get(seat.player_id, 0),
            won=outcome.places[seat.player_id] == 1 and seat.player_id not in resigned,
            stats=outcome.stats.get(seat.player_id, {}),
            team=seat.side if by_sides else seat.seat,
        )
        for seat in table.seats
    ]
