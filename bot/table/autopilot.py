"""Moves nobody clicks: bot seats' moves, and the AI's move when a turn timer runs out.

After every change of a game, `after` arms what its new state needs: the turn timer (a
reminder halfway, then the AI plays for the absent player) and the bots' next move after a
short pause, so players can follow them. Both are scheduler jobs keyed by game, so a game
never has two of either, and both re-check the game's step before they act.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import replace

from bot.language.i18n import _, game_language, speaking
from bot.language.wording import without_mentions
from bot.scheduler import Scheduler
from bot.service import GameService, LoadedGame, Played
from bot.storage import ACTIVE
from bot.table.presenters import Presenters
from bot.table.publisher import BoardPublisher

log = logging.getLogger(__name__)

MAX_AI_BATCH = 500  # a guard: no AI turn is anywhere near this many actions


class Autopilot:
    """Plays the moves nobody clicks: bots', and an absent player's once their time runs out."""

    def __init__(
        self,
        service: GameService,
        presenters: Presenters,
        publisher: BoardPublisher,
        scheduler: Scheduler,
        *,
        bot_move_delay: float,
        autoplay_pace: float,
        clock: Callable[[], float] = time.time,
    ) -> None:
        """`bot_move_delay`: seconds before a bot's move; `autoplay_pace`: seconds between moves
        under the `autoplay` option; `clock` dates the turn timers."""
        self._service = service
        self._presenters = presenters
        self._publisher = publisher
        self._scheduler = scheduler
        self.bot_move_delay = bot_move_delay
        # Under autoplay every roll edits the board: at most about one edit a second per
        # message keeps clear of Discord's rate limits and lets the table follow the race.
        self._autoplay_pace = autoplay_pace
        self._clock = clock

    def after(self, table: LoadedGame, *, background: bool = False) -> None:
        """Arm `table`'s turn timer and its bots' next move, as its saved state needs.
        `background`: work found at start-up, done a few games at a time."""
        game_id = table.row.id
        if table.row.status != ACTIVE or table.state is None:
            self._scheduler.cancel_game(game_id)
            return
        self._arm_timer(table, background)
        if self._service.engine(table.row.game).to_act(table.state) & table.autoplayed:
            self._scheduler.ensure(
                (game_id, "bots"),
                self._pause(table),
                lambda: self._bot_move(game_id),
                background=background,
            )

    # --- bots ------------------------------------------------------------------------------

    def _pause(self, table: LoadedGame) -> float:
        """A pause before a bot's move, so players can follow it — unless a human must act
        at the same time (a simultaneous phase): then the bot gets out of their way at once,
        and their click is not refused as out of date."""
        if table.row.options.get("autoplay"):
            return max(self.bot_move_delay, self._autoplay_pace)
        to_act = self._service.engine(table.row.game).to_act(table.state)
        return 0.0 if to_act - table.autoplayed else self.bot_move_delay

    async def _bot_move(self, game_id: int) -> None:
        played = await self._service.play_bot(game_id)
        if played is None:
            return
        await self._show(await self._play_on(played))

    async def _show(self, played: Played) -> None:
        await self._publisher.publish(played.table.row.id, played=played)
        self.after(played.table)

    async def _play_on(self, played: Played) -> Played:
        """In a game whose turns are many small actions, let the AI play the rest of this
        player's turn (while they alone are to act, in the same chapter), so the board is
        edited once with the whole turn instead of once per sub-step."""
        table = played.table
        presenter = self._presenters.get(table.row.game)
        if not presenter.batch_ai_moves:
            return played
        engine = self._service.engine(table.row.game)
        chapter = presenter.chapter(played.before)
        plays = [played]
        while len(plays) < MAX_AI_BATCH:
            last = plays[-1]
            state = last.table.state
            if (
                last.outcome is not None
                or engine.to_act(state) != {played.player}
                or presenter.chapter(state) != chapter
            ):
                break
            more = await self._service.play_ai_for(table.row.id, played.player, last.table.row.step)
            if more is None:
                break
            plays.append(more)
        return replace(
            plays[-1],
            events=tuple(e for p in plays for e in p.events),
            was_to_act=played.was_to_act,
            before=played.before,
            from_step=played.from_step,
        )

    # --- turn timers -------------------------------------------------------------------------

    def _arm_timer(self, table: LoadedGame, background: bool) -> None:
        row = table.row
        key = (row.id, "timer")
        if row.deadline is None:
            self._scheduler.cancel(key)
            return
        now = self._clock()
        remind_at = row.deadline - int(row.options.get("turn_timer", 0)) / 2
        if not row.reminded and row.deadline > now:
            delay, job = remind_at - now, lambda: self._remind(row.id, row.step)
        else:  # reminded already, or overdue: no point reminding now
            delay, job = row.deadline - now, lambda: self._time_out(row.id, row.step)
        self._scheduler.at(key, delay, job, background=background and delay <= 0)

    async def _remind(self, game_id: int, step: int) -> None:
        """Halfway through the turn: remind the player the AI will play for them."""
        table = await self._service.table(game_id)
        row = table.row
        if row.status != ACTIVE or row.step != step or row.deadline is None:
            return
        engine = self._service.engine(row.game)
        humans = engine.to_act(table.state) - table.autoplayed
        with speaking(game_language(row.options)):  # a public message
            prompt = self._presenters.get(row.game).prompt(table.state, table.names)
            text = _("⏰ still your turn: {prompt} — the AI plays for you {when}.").format(
                prompt=without_mentions(prompt, table.names), when=f"<t:{int(row.deadline)}:R>"
            )
        await self._publisher.ping(table, humans, text, reminder=True)
        await self._service.mark_reminded(game_id)
        self._scheduler.at(
            (game_id, "timer"),
            row.deadline - self._clock(),
            lambda: self._time_out(game_id, step),
        )

    async def _time_out(self, game_id: int, step: int) -> None:
        played = await self._service.time_out(game_id, step)
        if played is not None:
            await self._show(await self._play_on(played))
