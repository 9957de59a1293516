"""Playing a started game: a click on its board or in a private panel, and commands that
stand for several clicks (`/risk attack from: to:`)."""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot.errors import UserError
from bot.language.i18n import _
from bot.service import GameService, LoadedGame, Played
from bot.storage import Storage
from bot.table.autopilot import Autopilot
from bot.table.board import private_panel
from bot.table.notifier import Notifier, notify_line
from bot.table.presenters import Presenters
from bot.table.publisher import BoardPublisher
from bot.table.reading import Reading
from bot.ui.custom_ids import ButtonId
from bot.ui.replies import Reply
from rules.core import Action

NUMBER_FIELD = "n"  # the custom id of a number box's text input
BOX_OPEN = 600.0  # seconds discord.py keeps an open box in memory (its submit is ours anyway)


class Play:
    """Moves made by clicks, typed numbers and commands, each shown on the board once saved."""

    def __init__(
        self,
        service: GameService,
        storage: Storage,
        presenters: Presenters,
        publisher: BoardPublisher,
        autopilot: Autopilot,
        notifier: Notifier,
    ) -> None:
        """Play through `service`, showing each move with `publisher` and arming what follows it
        with `autopilot`; a private panel says how the member's turn reaches them
        (`notifier`)."""
        self._service = service
        self._notifier = notifier
        self._presenters = presenters
        self._publisher = publisher
        self._autopilot = autopilot
        self.reading = Reading(service, storage, presenters)  # 📝 and 🔍

    async def click(self, reply: Reply, game: str, game_id: int, step: int, action: Action) -> None:
        """A move clicked on a board (or in a private panel) made at `step`."""
        presenter = self._presenters.get(game)
        if presenter.slow_action(action):
            await reply.defer()  # a replay to draw: answer at once, show it when ready
        on_board = None if reply.in_private_panel else reply.message_id
        played = await self._service.act(game_id, reply.user_id, action, step, on_board=on_board)
        news = presenter.narrate_private(played.events, reply.user_id, played.table.names)
        if reply.in_private_panel:
            await self._refresh_panel(reply, played, news)  # the board is edited directly
            await self.show(played, reply)  # a ping or a new board: the click's follow-ups
            return
        await self.show(played, reply)
        if not await self.reading.after_move(reply, played, news) and news:
            await reply.private("\n".join(news))

    async def show(self, played: Played, reply: Reply | None = None) -> None:
        """Bring the board up to `played` and arm what its state needs (bots, timer)."""
        await self._publisher.publish(played.table.row.id, played=played, reply=reply)
        self._autopilot.after(played.table)

    async def _refresh_panel(self, reply: Reply, played: Played, news: Sequence[str]) -> None:
        """Answer a click made in a private panel (or a text board) with it as it is now."""
        if await self.reading.redraw(reply, played, news):
            return
        table = played.table
        engine = self._service.engine(table.row.game)
        presenter = self._presenters.get(table.row.game)
        text, view = private_panel(table, engine, presenter, reply.user_id, news)
        await reply.update(content=await self._with_setting(table, reply.user_id, text), view=view)

    async def ask(self, reply: Reply, bid: ButtonId) -> None:
        """Open the box for the number the player is asked for now ("Type a number…")."""
        table = await self._service.table(bid.game_id)
        if table.state is None or bid.step != table.row.step:
            raise UserError(_("That button is out of date: the game has moved on."))
        box = self._presenters.get(table.row.game).number_box(table.state, reply.user_id)
        if box is None or box.verb != bid.arg:
            raise UserError(_("There is no number for you to type right now."))
        text = discord.ui.TextInput[discord.ui.Modal](
            label=_("A number from {low} to {high}").format(low=box.low, high=box.high)[:45],
            custom_id=NUMBER_FIELD,
            placeholder=str(box.low),
            min_length=1,
            max_length=len(str(box.high)),
        )
        modal = discord.ui.Modal(title=box.title[:45], custom_id=bid.encode(), timeout=BOX_OPEN)
        modal.add_item(text)
        await reply.modal(modal)

    async def typed(self, reply: Reply, bid: ButtonId, value: str) -> None:
        """The number typed in a box: played as the click on that number would be."""
        if len(value) > BOX_LENGTH:  # a forged box: `int` refuses over 4,300 digits
            too_long = _(
                "“{value}…” is longer than any box takes: type a number from the box's range."
            )
            raise UserError(too_long.format(value=value[:20]))
        number = typed_number(value)
        if number is None:
            wrong = _("“{value}” is not a number: type digits only, e.g. 12.")
            raise UserError(wrong.format(value=value[:20]))
        if bid.step is None:
            raise UserError(_("That box is not available."))
        await self.click(reply, bid.game, bid.game_id, bid.step, Action(bid.arg, str(number)))

    async def peek(self, reply: Reply, game_id: int) -> None:
        """Open the clicker's private panel: their hand, mission or secret choices."""
        table = await self._service.table(game_id)
        if reply.user_id not in table.names:
            raise UserError(_("You are not playing in this game."))
        if table.state is None:
            raise UserError(_("The game has not started yet."))
        engine = self._service.engine(table.row.game)
        if engine.outcome(table.state) is not None:
            raise UserError(_("This game is over."))
        presenter = self._presenters.get(table.row.game)
        text, view = private_panel(table, engine, presenter, reply.user_id)
        await reply.private(await self._with_setting(table, reply.user_id, text), view=view)

    async def _with_setting(self, table: LoadedGame, user_id: int, text: str) -> str:
        """A private panel's text, ending with how the member's turn reaches them."""
        chosen = await self._notifier.setting(table.row.guild_id, user_id)
        return f"{text}\n\n{notify_line(chosen)}"

    async def command(self, reply: Reply, game_id: int, actions: Sequence[Action]) -> None:
        """A slash command that stands for several clicks: apply `actions` in order, each
        shown on the board as a click's would be."""
        self._notifier.clicked(game_id, reply.user_id, reply.interaction.locale)  # playing
        await reply.defer()
        for action in actions:
            table = await self._service.table(game_id)
            played = await self._service.act(game_id, reply.user_id, action, table.row.step)
            await self.show(played)


BOX_LENGTH = 4000  # characters: Discord's longest text input


def typed_number(text: str) -> int | None:
    """A whole number as a person types it, in any script's decimal digits (`42`, `٤٢`,
    `４２`), or None. Not `str.isdigit`: it also takes `²` and `①`, which `int` refuses."""
    number = text.strip()
    return int(number) if number.isdecimal() else None
