"""The replay viewer: a finished game's board at any step, privately, with the moves around it.

The message is rebuilt from the replay (see `bot.table.replay`) at each click: the picture at that
step, a few moves before and after it, and buttons whose custom ids carry the game and the
step they lead to, so a viewer keeps working after a restart. The game is over, so what was
hidden during play (hands, hidden bets, cards drawn) is narrated too.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import discord

from bot.language.i18n import _, pgettext
from bot.language.wording import seat_move
from bot.service import LoadedGame
from bot.table.alt_text import board_alt, joined, plain
from bot.table.board import narration, prompt_here
from bot.table.presenter import Presenter
from bot.table.replay import Replay
from bot.ui.components import ParlourButton
from bot.ui.custom_ids import ViewerId
from images.animation import Animation, animate
from rules.core import Engine

CONTEXT = 3  # moves narrated before and after the current one
LINE_CHARS = 220  # one move's line at most: the move list stays readable
MAX_FRAMES = 60  # an animated summary of a very long game samples its chapters
SUMMARY = "summary"  # the tag of the animated summary's button


@dataclass(frozen=True)
class ViewerMessage:
    """The viewer at one step: its embed, the board's picture, and its buttons."""

    embed: discord.Embed
    file: discord.File
    view: discord.ui.View


class ReplayButton(ParlourButton[ViewerId], kind=ViewerId):
    """A replay viewer's button: its click goes to the `ViewerId` route (`/replay`'s cog)."""


def picture_at(replay: Replay, presenter: Presenter[Any], step: int) -> bytes:
    """The board's picture at `step` (slow: call it off the event loop)."""
    return presenter.render_png(replay.states[step], replay.table.names)


def viewer_message(
    replay: Replay,
    engine: Engine[Any],
    presenter: Presenter[Any],
    step: int,
    owner: int,
    picture: bytes,
) -> ViewerMessage:
    """The viewer at `step` for `owner`, showing `picture` (`picture_at(step)`)."""
    table, state = replay.table, replay.states[step]
    here = LoadedGame(table.row, table.seats, state)
    lines = move_list(replay, presenter, step)
    prompt = prompt_here(here, engine, presenter)
    lines.append(f"**▶ {prompt}**")
    title = _("Replay · {game} #{id}").format(game=presenter.title, id=table.row.id)
    embed = discord.Embed(
        title=title,
        description="\n".join(lines),
        colour=presenter.colour,
    )
    footer = _("Move {step} of {last} · {chapter} {number} of {chapters}")
    embed.set_footer(
        text=footer.format(
            step=step,
            last=replay.last,
            chapter=presenter.chapter_word(),
            number=replay.chapter_index(step) + 1,
            chapters=len(replay.chapter_starts),
        )
    )
    embed.set_image(url="attachment://replay.png")
    heading = f"{title}, {_('Move {step}').format(step=step)}"
    alt = board_alt(presenter, state, table.names, heading, prompt, _said(replay, presenter, step))
    file = discord.File(io.BytesIO(picture), filename="replay.png", description=alt)
    view = discord.ui.View(timeout=None)
    for button in buttons(replay, presenter, step, owner):
        view.add_item(button)
    return ViewerMessage(embed, file, view)


def move_list(replay: Replay, presenter: Presenter[Any], step: int) -> list[str]:
    """The moves from `CONTEXT` before `step` to `CONTEXT` after it, the current one marked."""
    first = max(1, step - CONTEXT)
    last = min(replay.last, step + CONTEXT)
    lines = [_move_line(replay, presenter, n, current=n == step) for n in range(first, last + 1)]
    if step == 0:
        start = _("The start.")
        lines.insert(0, f"▶ **{start}**")
    return lines


def _said(replay: Replay, presenter: Presenter[Any], step: int) -> list[str]:
    """What the move that led to `step` did, as the board said it then (public events)."""
    return narration(presenter, replay.events[step], replay.table.names)[0] if step else []


def _move_line(replay: Replay, presenter: Presenter[Any], n: int, *, current: bool) -> str:
    move = replay.moves[n]
    assert move is not None  # every step after the first was a move
    player, action = move
    names = replay.table.names
    events = replay.events[n]
    said = _said(replay, presenter, n)
    # The game is over: what only one player saw then may be told now.
    for seat in replay.table.seats:
        said += [
            f"🔒 {seat.name}: {line}"
            for line in presenter.narrate_private(events, seat.player_id, names)
        ]
    label = seat_move(action) or presenter.button(action, replay.states[n - 1]).label
    text = f"{names.get(player, '?')} · {label}" + (f" — {' '.join(said)}" if said else "")
    if len(text) > LINE_CHARS:
        text = text[: LINE_CHARS - 1] + "…"
    return f"▶ **{n}.** {text}" if current else f"`{n}.` {text}"


def buttons(replay: Replay, presenter: Presenter[Any], step: int, owner: int) -> list[ReplayButton]:
    """⏮ ◀ ▶ ⏭ by move (first row); by chapter back and on, the animated summary (second)."""
    game_id, last = replay.table.row.id, replay.last
    chapter = presenter.chapter_word()

    def to(target: int, tag: str, label: str, emoji: str, off: bool, row: int) -> ReplayButton:
        vid = ViewerId(owner, game_id, replay.clamp(target), tag)
        return ReplayButton(vid, label=label, emoji=emoji, disabled=off, row=row)

    return [
        to(0, "first", _("First"), "⏮", step == 0, 0),
        to(step - 1, "back", _("Back"), "◀", step == 0, 0),
        to(step + 1, "on", _("Next"), "▶", step == last, 0),
        to(last, "last", pgettext("move", "Last"), "⏭", step == last, 0),
        to(
            replay.chapter_back(step),
            "ch_back",
            _capital(_("{chapter} back").format(chapter=chapter)),
            "⏪",
            step == 0,
            1,
        ),
        to(
            replay.chapter_on(step),
            "ch_on",
            _capital(_("Next {chapter}").format(chapter=chapter)),
            "⏩",
            step == last,
            1,
        ),
        to(step, SUMMARY, _("Animated summary"), "🎞", False, 1),
    ]


def _capital(label: str) -> str:
    """A label starting with a capital, wherever the language put the chapter's name."""
    return label[:1].upper() + label[1:]


def summary_alt(replay: Replay, engine: Engine[Any], presenter: Presenter[Any], frames: str) -> str:
    """The animated summary's alt text: what it is (`frames`: how many, worded), and how
    the game ended."""
    line = _("{game} #{id}: an animated summary, one frame per {chapter} ({frames}).")
    what = line.format(
        game=presenter.title,
        id=replay.table.row.id,
        chapter=presenter.chapter_word(),
        frames=frames,
    )
    last = LoadedGame(replay.table.row, replay.table.seats, replay.states[replay.last])
    names = replay.table.names
    ended = plain(prompt_here(last, engine, presenter), names)
    return joined([what, ended, *(plain(s, names) for s in presenter.standings(last.state, names))])


def summary(replay: Replay, presenter: Presenter[Any]) -> Animation:
    """One frame per chapter, at its end (at most `MAX_FRAMES`, the last always included)."""
    ends = replay.chapter_ends()
    picked = _sample(ends, MAX_FRAMES)
    names = replay.table.names
    return animate([presenter.render_png(replay.states[n], names) for n in picked])


def _sample(items: Sequence[int], most: int) -> list[int]:
    if len(items) <= most:
        return list(items)
    return [items[round(i * (len(items) - 1) / (most - 1))] for i in range(most)]
