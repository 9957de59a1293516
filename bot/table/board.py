"""A game's board message and a player's private panel, built from the engine and presenter.

The board is an embed (what happened, whose turn), the picture, and components for the legal
actions of everyone to act: buttons, or select menus when the presenter groups actions into
one. Actions that would reveal a secret are left off the board and offered in the player's
private panel, opened with the presenter's `private_label` button.
"""

from __future__ import annotations

import io
import logging
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import discord

from bot.language.i18n import COMMAND_NAME, _, game_language, pgettext, speaking
from bot.language.speech import spoken
from bot.language.wording import mention, split_seat_events
from bot.service import LoadedGame
from bot.storage import ABANDONED
from bot.table.alt_text import board_alt
from bot.table.lobby_card import rematch_button
from bot.table.pictures import PictureWorkers
from bot.table.presenter import ButtonLook, NumberBox, Picture, Presenter, Zoom
from bot.ui.components import GameButton, GameSelect, view_of
from bot.ui.custom_ids import ButtonId, TableVerb
from rules.core import Action, Engine, Event, PlayerId

log = logging.getLogger(__name__)

NARRATION_LINES = 8  # what the board embed shows of the last action: enough, never a wall
MAX_ROWS = 5  # Discord's limits: 5 rows of 5 buttons, or one select menu a row
BUTTONS_PER_ROW = 5
OPTIONS_PER_MENU = 25


@dataclass(frozen=True)
class Board:
    """A board message: its embed, its picture (as a file and as drawn), its components."""

    embed: discord.Embed
    file: discord.File
    view: discord.ui.View
    picture: Picture


def components(
    table: LoadedGame, offers: Sequence[tuple[Action, ButtonLook]], extra: Sequence[GameButton] = ()
) -> list[discord.ui.Item[Any]]:
    """Buttons and select menus for `offers` at the table's current step, within Discord's
    limits: a menu of more than 25 options is split, buttons fill the rows menus leave."""
    game, game_id, step = table.row.game, table.row.id, table.row.step
    menus: dict[str, list[discord.SelectOption]] = {}
    buttons: list[GameButton] = []
    for action, look in offers:
        bid = ButtonId(game, game_id, step, action.verb, action.arg)
        if look.menu is None:
            buttons.append(GameButton(bid, label=look.label, style=look.style, emoji=look.emoji))
        else:
            option = discord.SelectOption(
                label=look.label, value=bid.value(), emoji=look.emoji, description=look.description
            )
            menus.setdefault(look.menu, []).append(option)
    selects: list[discord.ui.Item[Any]] = []
    for placeholder, options in menus.items():
        chunks = [
            options[i : i + OPTIONS_PER_MENU] for i in range(0, len(options), OPTIONS_PER_MENU)
        ]
        for part, chunk in enumerate(chunks, 1):
            label = placeholder if len(chunks) == 1 else f"{placeholder} ({part}/{len(chunks)})"
            menu_id = ButtonId(game, game_id, step, TableVerb.MENU).menu_id(len(selects))
            selects.append(GameSelect(menu_id, chunk, label))
    buttons.extend(extra)
    if len(buttons) > (MAX_ROWS - len(selects)) * BUTTONS_PER_ROW:
        # A presenter bug, not a player's: show what fits and say so in the log.
        log.error("game %s step %s: too many components for one message", game_id, step)
        selects = selects[:MAX_ROWS]
        buttons = buttons[: (MAX_ROWS - len(selects)) * BUTTONS_PER_ROW]
    return [*selects, *buttons]


def offers_for(
    engine: Engine[Any], presenter: Presenter[Any], state: Any, players: Iterable[PlayerId]
) -> list[tuple[Action, ButtonLook]]:
    """Each distinct legal action of `players`, with its look, in the engine's order."""
    offers: list[tuple[Action, ButtonLook]] = []
    seen: set[Action] = set()
    for player in sorted(players):
        for action in engine.legal_actions(state, player):
            if action not in seen:
                seen.add(action)
                offers.append((action, presenter.button(action, state)))
    return offers


def public_offers(
    engine: Engine[Any], presenter: Presenter[Any], state: Any, players: Iterable[PlayerId]
) -> tuple[list[tuple[Action, ButtonLook]], list[NumberBox]]:
    """What the public board offers `players`: every legal action but the secret ones, and
    the number boxes that stand for the numbers too many to list (their menu options)."""
    boxes = [box for p in sorted(players) if (box := presenter.number_box(state, p))]
    typed = {box.verb for box in boxes}
    offers = [
        (action, look)
        for action, look in offers_for(engine, presenter, state, players)
        if not presenter.is_private(action, state)
        and not (action.verb in typed and look.menu is not None)
    ]
    return offers, boxes


def box_buttons(table: LoadedGame, boxes: Sequence[NumberBox]) -> list[GameButton]:
    """A "Type a number…" button for each of `boxes`, at the table's step."""
    row = table.row
    return [
        GameButton(
            ButtonId(row.game, row.id, row.step, TableVerb.ASK, box.verb), label=_("Type a number…")
        )
        for box in boxes
    ]


def peek_button(table: LoadedGame, presenter: Presenter[Any]) -> list[GameButton]:
    """The button that opens a player's private panel, if the game has one."""
    if presenter.private_label is None:
        return []
    bid = ButtonId(table.row.game, table.row.id, None, TableVerb.PEEK)
    return [
        GameButton(
            bid, label=_(presenter.private_label), style=discord.ButtonStyle.secondary, emoji="🔒"
        )
    ]


REPLAY_COMMAND = "replay"  # cogs/community.py's command, named in the catalog with it


def prompt_of(table: LoadedGame, engine: Engine[Any], presenter: Presenter[Any]) -> str:
    """The board's last line: whose turn and what to do, or how the game ended, in the
    game's language."""
    with speaking(game_language(table.row.options)):
        return prompt_here(table, engine, presenter)


def prompt_here(table: LoadedGame, engine: Engine[Any], presenter: Presenter[Any]) -> str:
    """The board's last line in the language being spoken: for a private reply (`/history`,
    the replay viewer), the reader's. A game ended before its end says so, and who ended it."""
    if table.row.status == ABANDONED:
        ended = [_("This game was abandoned.")]
        if table.row.ended_by is not None:
            by = mention(table.row.ended_by, table.names)
            ended.append(_("Ended by {player}.").format(player=by))
        return " ".join(ended)
    outcome = engine.outcome(table.state)
    if outcome is not None:
        return presenter.result(table.state, outcome, table.names)
    return presenter.prompt(table.state, table.names)


def narration(
    presenter: Presenter[Any], events: Sequence[Event], names: Mapping[PlayerId, str]
) -> tuple[list[str], list[Event]]:
    """What `events` did, as everyone may read it (seats left or taken, then the game's own
    lines; private events are left out), and the public events that are the game's own."""
    public = [e for e in events if e.visible_to is None]
    seat_lines, game_events = split_seat_events(public, names)
    return [*seat_lines, *presenter.narrate(game_events, names)], game_events


async def build_board(
    pictures: PictureWorkers,
    table: LoadedGame,
    engine: Engine[Any],
    presenter: Presenter[Any],
    prompt: str | None,
    events: Sequence[Event] = (),
    picture: Picture | None = None,
) -> Board:
    """The board message: what happened, whose turn, the picture, the public moves. Without
    a prompt it is a closing board: how a chapter (a race, a turn) ended, with no moves.
    Everyone reads it, so it speaks the game's language, and so does its picture (`picture`
    when it was drawn already: the same state on the board that closes a chapter; else drawn
    by `pictures`)."""
    with speaking(game_language(table.row.options)):
        return await _build_board(pictures, table, engine, presenter, prompt, events, picture)


async def _build_board(
    pictures: PictureWorkers,
    table: LoadedGame,
    engine: Engine[Any],
    presenter: Presenter[Any],
    prompt: str | None,
    events: Sequence[Event],
    picture: Picture | None,
) -> Board:
    said, game_events = narration(presenter, events, table.names)
    lines = said[-NARRATION_LINES:]
    if prompt is not None:
        lines.append(f"**{prompt}**")  # no "▶": a screen reader says "play button"
    embed = discord.Embed(
        title=spoken(f"{presenter.title} · #{table.row.id}"),
        description="\n".join(lines),
        colour=presenter.colour,
    )
    timer = int(table.row.options.get("turn_timer", 0))
    if table.row.deadline is not None and timer:
        deadline = f"<t:{int(table.row.deadline)}:R>"
        embed.add_field(name=_("Turn timer"), value=_("AI plays {when}").format(when=deadline))
    move = _("Move {step}").format(step=table.row.step)
    embed.set_footer(text=move)
    outcome = engine.outcome(table.state)
    final = prompt is not None and outcome is not None
    if final:  # where players find the game's id afterwards
        replay = pgettext(COMMAND_NAME, REPLAY_COMMAND)  # as the members' Discord names it
        embed.add_field(name=_("Replay"), value=f"`/{replay} id:{table.row.id}`")
    if picture is None:
        picture = await pictures.draw(presenter, table.state, table.names, game_events)
    embed.set_image(url=f"attachment://{picture.filename}")
    heading = f"{presenter.title} #{table.row.id}, {move}"
    alt = board_alt(presenter, table.state, table.names, heading, prompt, said, game_events)
    file = discord.File(io.BytesIO(picture.data), filename=picture.filename, description=alt)
    if final:
        return Board(embed, file, view_of([rematch_button(table)]), picture)
    if prompt is None or outcome is not None:
        return Board(embed, file, view_of([]), picture)  # a closed chapter: nothing live
    # Under autoplay the table plays every seat: the board is to watch, not to click.
    clickers = engine.to_act(table.state) - (table.autoplayed - table.bots)
    offers, boxes = public_offers(engine, presenter, table.state, clickers)
    extra = board_buttons(table, presenter, boxes, engine.to_act(table.state))
    return Board(embed, file, view_of(components(table, offers, extra)), picture)


def board_buttons(
    table: LoadedGame,
    presenter: Presenter[Any],
    boxes: Sequence[NumberBox],
    to_act: frozenset[PlayerId],
) -> list[GameButton]:
    """The buttons every live board has after its moves: number boxes, the private panel,
    📝 Text board (and 🔍 Zoom), the table's menu."""
    return [
        *box_buttons(table, boxes),
        *peek_button(table, presenter),
        *reading_buttons(table, presenter),
        *table_buttons(table, to_act),
    ]


def reading_buttons(table: LoadedGame, presenter: Presenter[Any]) -> list[GameButton]:
    """📝 Text board: the position as text for a screen reader, with the moves; 🔍 Zoom:
    a part of a big board at full size. Both answer the clicker alone."""
    row = table.row
    text = ButtonId(row.game, row.id, None, TableVerb.TEXT)
    buttons = [GameButton(text, label=_("Text board"), emoji="📝")]
    if presenter.zoomable:
        zoom = ButtonId(row.game, row.id, None, TableVerb.ZOOM)
        buttons.append(GameButton(zoom, label=_("Zoom"), emoji="🔍"))
    return buttons


def zoom_menu(table: LoadedGame, zooms: Sequence[Zoom], chosen: str) -> GameSelect:
    """The 🔍 Zoom message's menu: each part of the board, the one shown picked."""
    row = table.row
    options = [
        discord.SelectOption(
            label=z.label,
            value=ButtonId(row.game, row.id, None, TableVerb.ZOOM, z.key).value(),
            default=z.key == chosen,
        )
        for z in zooms[:OPTIONS_PER_MENU]
    ]
    menu_id = ButtonId(row.game, row.id, None, TableVerb.MENU).menu_id(0)
    return GameSelect(menu_id, options, _("Show another part…"))


def table_buttons(table: LoadedGame, to_act: frozenset[PlayerId]) -> list[GameButton]:
    """Every live board's way to resign, end or hand a seat over (`bot.table.table_menu`), and
    "Take my seat back" while the AI plays an absent player's turn."""
    row = table.row
    menu = ButtonId(row.game, row.id, None, TableVerb.SEATS)
    buttons = [GameButton(menu, label=_("Resign or end…"))]
    if to_act & table.away:
        bid = ButtonId(row.game, row.id, None, TableVerb.TAKE_SEAT)
        buttons.append(GameButton(bid, label=_("Take my seat back"), emoji="🪑"))
    return buttons


def private_panel(
    table: LoadedGame,
    engine: Engine[Any],
    presenter: Presenter[Any],
    player: PlayerId,
    news: Sequence[str] = (),
) -> tuple[str, discord.ui.View]:
    """`player`'s private panel: what only they may see, and their secret choices."""
    text = presenter.private(table.state, player, table.names) or _("Nothing private to show.")
    if news:
        text = "\n".join(news) + "\n\n" + text
    offers = [
        (action, look)
        for action, look in offers_for(engine, presenter, table.state, {player})
        if presenter.is_private(action, table.state)
    ]
    return text, view_of(components(table, offers))
