"""Leaving a game before its end, the same in every game (issue 17): the "Resign or end…"
panel a board offers, its confirm steps, and what they do.

- Resign (a player; confirmed): the seat action `rules.seats.RESIGN`, logged and replayed like
  any move; what it means is the game's rule.
- End game (the host, or a member who can manage threads; confirmed), or a vote to end of
  every member still playing: the game is abandoned, no winner, no results.
- Hand a seat to the AI (the host or a manager), and "Take my seat back" (its player).

The panel and its confirms are private; their buttons carry no step (`-`), so a move made
by someone else meanwhile does not stale them: a seat action applies at the game's current
step, whoever is to act.
"""

from __future__ import annotations

from typing import Any

import discord

from bot.errors import UserError
from bot.language.i18n import N_, _, game_language, speaking
from bot.language.wording import mention, who
from bot.service import GameService, LoadedGame
from bot.table.play import Play
from bot.table.publisher import BoardPublisher
from bot.ui.components import GameButton, GameSelect, view_of
from bot.ui.custom_ids import ButtonId, TableVerb
from bot.ui.replies import Reply
from rules.core import Action

# The panel's verbs: the board's button that opens it, its confirms, the seat actions.
TABLE_MENU_VERBS = frozenset(
    {
        TableVerb.SEATS,
        TableVerb.RESIGN_ASK,
        TableVerb.END_ASK,
        TableVerb.END,
        TableVerb.VOTE_END,
        TableVerb.KEEP,
        TableVerb.RESIGN,
        TableVerb.HAND_TO_AI,
        TableVerb.TAKE_SEAT,
    }
)


class TableMenu:
    """The "Resign or end…" panel of every live board, its confirms, and what they do."""

    def __init__(self, service: GameService, publisher: BoardPublisher, play: Play) -> None:
        """A panel that shows the moves it makes with `play`, and endings with `publisher`."""
        self._service = service
        self._publisher = publisher
        self._play = play

    async def click(self, reply: Reply, bid: ButtonId) -> None:
        """A click of the panel's (one of `TABLE_MENU_VERBS`)."""
        handler = {
            TableVerb.SEATS: self._menu,
            TableVerb.RESIGN_ASK: self._resign_ask,
            TableVerb.END_ASK: self._end_ask,
            TableVerb.KEEP: self._keep,
            TableVerb.END: self._end,
            TableVerb.VOTE_END: self._vote,
            TableVerb.RESIGN: self._seat_action,
            TableVerb.TAKE_SEAT: self._seat_action,
            TableVerb.HAND_TO_AI: self._seat_action,
        }[TableVerb(bid.verb)]
        await handler(reply, bid)

    # --- the panel and its confirms ----------------------------------------------------------

    async def _menu(self, reply: Reply, bid: ButtonId) -> None:
        table = await self._active(bid.game_id)
        me = reply.user_id
        manager = self._can_manage(reply, table)
        if me not in table.names and not manager:
            raise UserError(_("You are not playing in this game."))
        items: list[discord.ui.Item[Any]] = []
        lines: list[str] = []
        if me in table.away:
            items.append(_button(bid, TableVerb.TAKE_SEAT, _("Take my seat back"), emoji="🪑"))
        if me in table.names and me not in table.resigned:
            items.append(_button(bid, TableVerb.RESIGN_ASK, _("Resign…"), emoji="🏳️"))
        if me in table.voters:
            tally = f"{len(table.row.end_votes)}/{len(table.voters)}"
            lines.append(_("Votes to end: {votes}.").format(votes=tally))
            items.append(
                _button(bid, TableVerb.VOTE_END, _("Vote to end ({votes})").format(votes=tally))
            )
        if manager:
            items.append(
                _button(bid, TableVerb.END_ASK, _("End game…"), style=discord.ButtonStyle.danger)
            )
            if table.voters:
                options = [
                    discord.SelectOption(
                        label=table.names[p][:100], value=f"{TableVerb.HAND_TO_AI}:{p}"
                    )
                    for p in table.voters
                ]
                menu_id = ButtonId(bid.game, bid.game_id, None, TableVerb.MENU).menu_id(0)
                items.insert(0, GameSelect(menu_id, options, _("Hand a seat to the AI…")))
        if not items:
            raise UserError(_("There is nothing you can change in this game."))
        text = "\n".join(lines) or _("Leave or end this game:")
        await reply.private(text, view=view_of(items))

    async def _resign_ask(self, reply: Reply, bid: ButtonId) -> None:
        table = await self._active(bid.game_id)
        # Refused as the resignation itself would be, before anyone is asked to confirm it.
        if reply.user_id not in table.names:
            raise UserError(_("You are not playing in this game."))
        if reply.user_id in table.resigned:
            raise UserError(_("You have resigned from this game."))
        await self._confirm(
            reply,
            bid,
            _("Are you sure? Resigning counts as a loss, and you cannot come back."),
            _button(bid, TableVerb.RESIGN, _("Resign"), style=discord.ButtonStyle.danger),
        )

    async def _end_ask(self, reply: Reply, bid: ButtonId) -> None:
        table = await self._active(bid.game_id)
        if not self._can_manage(reply, table):
            only = _("Only the host, {host}, or a member who can manage threads can {what}.")
            host = mention(table.row.host_id, table.names)
            raise UserError(only.format(host=host, what=_("end this game")))
        await self._confirm(
            reply,
            bid,
            _("End this game for everyone? Nobody wins and the scoreboard does not change."),
            _button(bid, TableVerb.END, _("End game"), style=discord.ButtonStyle.danger),
        )

    async def _confirm(self, reply: Reply, bid: ButtonId, text: str, yes: GameButton) -> None:
        no = _button(bid, TableVerb.KEEP, _("Keep playing"), style=discord.ButtonStyle.secondary)
        await self._private(reply, text, view_of([yes, no]))

    async def _keep(self, reply: Reply, bid: ButtonId) -> None:
        await self._private(reply, _("Carry on!"), None)

    # --- what they do ------------------------------------------------------------------------

    async def _seat_action(self, reply: Reply, bid: ButtonId) -> None:
        table = await self._active(bid.game_id)
        seat = int(bid.arg) if bid.arg.lstrip("-").isdigit() else None
        played = await self._service.seat_action(
            bid.game_id,
            reply.user_id,
            Action(bid.verb),
            manager=self._can_manage(reply, table),
            seat=seat,
        )
        done = {
            TableVerb.RESIGN: N_("You resigned."),
            TableVerb.TAKE_SEAT: N_("Your seat is yours again."),
            TableVerb.HAND_TO_AI: N_("The AI plays that seat now."),
        }[TableVerb(bid.verb)]
        await self._private(reply, _(done), None)
        await self._play.show(played)

    async def _end(self, reply: Reply, bid: ButtonId) -> None:
        table = await self._active(bid.game_id)
        ended = await self._service.end(
            bid.game_id, reply.user_id, manager=self._can_manage(reply, table)
        )
        await self._private(reply, _("You ended the game."), None)
        with speaking(game_language(ended.row.options)):  # a public note
            note = _("Ended by {player}.").format(player=mention(reply.user_id, ended.names))
        await self._publisher.ended(ended, note)

    async def _vote(self, reply: Reply, bid: ButtonId) -> None:
        table = await self._service.vote_to_end(bid.game_id, reply.user_id)
        votes, needed = table.row.end_votes, len(table.voters) or len(table.row.end_votes)
        if table.row.status == "active":
            voted = _("You voted to end the game ({votes}).").format(votes=f"{len(votes)}/{needed}")
            await self._private(reply, voted, None)
            return
        await self._private(reply, _("Your vote ended the game."), None)
        with speaking(game_language(table.row.options)):  # a public note
            note = _("Ended by a vote of {players}.").format(players=who(list(votes), table.names))
        await self._publisher.ended(table, note)

    # --- helpers -----------------------------------------------------------------------------

    async def _active(self, game_id: int) -> LoadedGame:
        table = await self._service.table(game_id)
        if table.row.status != "active":
            raise UserError(_("This game is over."))
        return table

    @staticmethod
    def _can_manage(reply: Reply, table: LoadedGame) -> bool:
        """The host, or a member who can manage threads (a moderator)."""
        return reply.user_id == table.row.host_id or reply.interaction.permissions.manage_threads

    @staticmethod
    async def _private(reply: Reply, text: str, view: discord.ui.View | None) -> None:
        """Answer within the private panel when clicked there, else privately."""
        if reply.in_private_panel and await reply.update(content=text, view=view):
            return
        await reply.private(text, **({"view": view} if view is not None else {}))


def _button(
    bid: ButtonId,
    verb: TableVerb,
    label: str,
    *,
    style: discord.ButtonStyle = discord.ButtonStyle.secondary,
    emoji: str | None = None,
) -> GameButton:
    return GameButton(
        ButtonId(bid.game, bid.game_id, None, verb), label=label, style=style, emoji=emoji
    )
