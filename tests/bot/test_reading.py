"""Boards for everyone, over whole AI games of every title (fixed seeds): the picture's alt
text at every step (present, at most 1,024 characters, naming whoever is to act, in the
game's language), the 📝 text board's moves (the board's own, with the same custom ids), and
every live board still within Discord's 5 rows with 📝 and 🔍 added."""

from __future__ import annotations

import logging
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from random import Random
from types import SimpleNamespace
from typing import Any

import discord
import pytest

from bot.language.i18n import speaking
from bot.language.wording import split_seat_events
from bot.table.alt_text import ALT_MAX, board_alt, joined, plain
from bot.table.board import board_buttons, components, prompt_here, public_offers
from bot.table.presenter import Presenter
from bot.table.text_board import TEXT_MAX, is_text_board, text_board
from bot.ui.components import GameButton, GameSelect
from bot.ui.custom_ids import TableVerb, parse_choice
from cogs.games import GAMES as GAME_SPECS
from rules.core import Event, PlayerId, setup_rng, step_rng
from rules.registry import ENGINES
from tests.games import TEST_SPECS

NAMES = {1: "Ana", 2: "Leo", 3: "Mia", -1: "Bot 1"}


@dataclass(frozen=True)
class Game:
    presenter: Presenter
    seats: tuple[PlayerId, ...]
    options: Mapping[str, Any]


# Each game as its test spec's `reading` plays it (tests/games.py).
PRESENTERS = {game.name: game.presenter for game in GAME_SPECS}
GAMES = tuple(
    Game(PRESENTERS[name](), spec.reading.seats, spec.reading.options)
    for name, spec in TEST_SPECS.items()
)


def playout(game: Game, seed: str = "reading") -> Iterator[tuple[Any, Any, tuple[Event, ...]]]:
    """(table, state, the last move's events) at every step of an AI game, the last
    included; `table` stands for the bot's (`bot.service.LoadedGame`) where the board reads it."""
    engine = ENGINES[game.presenter.game]
    state = engine.initial_state(list(game.seats), dict(game.options), setup_rng(seed))
    events: tuple[Event, ...] = ()
    for step in range(5000):
        row = SimpleNamespace(
            game=game.presenter.game, id=7, step=step, options={}, status="active"
        )
        table = SimpleNamespace(
            row=row,
            state=state,
            names=NAMES,
            away=frozenset(),
            autoplayed=frozenset(),
            bots=frozenset(p for p in game.seats if p < 0),
        )
        yield table, state, events
        to_act = sorted(engine.to_act(state))
        if not to_act:
            return
        player = to_act[0]
        action = engine.choose(state, player, Random(step))
        played = engine.apply(state, player, action, step_rng(seed, step))
        state, events = played.state, played.events
    raise AssertionError("the game did not end")


def alt_of(game: Game, table: Any, events: tuple[Event, ...]) -> str:
    """The alt text `bot.table.board.build_board` gives the picture after `events`."""
    engine = ENGINES[game.presenter.game]
    public = [e for e in events if e.visible_to is None]
    said, game_events = split_seat_events(public, NAMES)
    said += game.presenter.narrate(game_events, NAMES)
    prompt = prompt_here(table, engine, game.presenter)
    heading = f"{game.presenter.title} #7, {table.row.step}"
    return board_alt(game.presenter, table.state, NAMES, heading, prompt, said)


def moves_of(items: list[discord.ui.Item[Any]]) -> set[tuple[int | None, str, str]]:
    """The moves `items` offer, as (step, verb, arg) from their custom ids, checked to fit
    one message (discord.py lays a view out in rows and raises if it does not fit)."""
    view = discord.ui.View()
    for item in items:
        view.add_item(item)
    moves = set()
    for item in items:
        if isinstance(item, GameSelect):
            for option in item.item.options:
                bid = parse_choice(item.item.custom_id, option.value)
                moves.add((bid.step, bid.verb, bid.arg))
        elif isinstance(item, GameButton) and item.target.step is not None:
            if item.target.verb == TableVerb.ASK:
                continue  # a number box: its numbers are the menu's the board leaves off
            bid = item.target
            moves.add((bid.step, bid.verb, bid.arg))
    return moves


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.presenter.game)
def test_every_picture_of_a_game_has_alt_text_naming_who_is_to_act(game: Game) -> None:
    engine = ENGINES[game.presenter.game]
    steps = 0
    for table, state, events in playout(game):
        steps += 1
        outcome = engine.outcome(state)
        named = sorted(outcome.winners) if outcome else sorted(engine.to_act(state))
        for language in ("en", "es"):
            with speaking(language):
                alt = alt_of(game, table, events)
            assert 0 < len(alt) <= ALT_MAX, alt
            assert "<@" not in alt and "**" not in alt, alt  # read as names, no markdown
            for player in named:
                assert NAMES[player] in alt, (language, alt)
    assert steps > 10


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.presenter.game)
def test_alt_text_speaks_the_game_language(game: Game) -> None:
    table, _state, events = list(playout(game))[5]
    with speaking("en"):
        english = alt_of(game, table, events)
    with speaking("es"):
        spanish = alt_of(game, table, events)
    assert english != spanish
    for line in game.presenter.standings(table.state, NAMES):
        assert line not in spanish  # each standings line is worded in Spanish


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.presenter.game)
def test_the_text_board_offers_the_boards_moves_with_the_same_ids(
    game: Game, caplog: pytest.LogCaptureFixture
) -> None:
    engine, presenter = ENGINES[game.presenter.game], game.presenter
    for table, state, _events in playout(game):
        to_act = engine.to_act(state)
        offers, boxes = public_offers(engine, presenter, state, to_act - table.bots)
        with caplog.at_level(logging.ERROR, logger="bot.table.board"):
            board = moves_of(
                components(table, offers, board_buttons(table, presenter, boxes, to_act))
            )
        for viewer in sorted(p for p in to_act if p > 0) or [1]:
            embed, view = text_board(table, engine, presenter, viewer, default=False)
            assert 0 < len(embed.description or "") <= TEXT_MAX
            mine, _boxes = public_offers(engine, presenter, state, {viewer} & to_act)
            moves = moves_of(list(view.children))
            assert moves <= board
            assert moves == {(table.row.step, str(a.verb), a.arg) for a, _look in mine}
            ids = [c.item.custom_id for c in view.children if isinstance(c, GameButton)]
            assert is_text_board([i for i in ids if i])
    assert "too many components" not in caplog.text


def test_a_text_board_never_shows_another_players_hidden_chips() -> None:
    (game,) = [g for g in GAMES if g.presenter.game == "winners_circle"]  # hidden bets
    engine, presenter = ENGINES[game.presenter.game], game.presenter
    for table, state, _events in playout(game):
        if len(state.bets) < 3 or state.phase.value != "betting":
            continue
        embed, _view = text_board(table, engine, presenter, 2, default=False)
        text = embed.description or ""
        public, private = text.split("Only you see this:")
        for bet in state.bets:
            assert (
                f"{NAMES[bet.player]} (hidden)" in public
                and f"{NAMES[bet.player]} {bet.chip}" not in public
            )
        assert all(f"chip {b.chip}" in private for b in state.bets if b.player == 2)
        return
    raise AssertionError("no betting round with three bets")


def test_alt_text_keeps_whose_turn_and_the_newest_lines_that_fit() -> None:
    first = ["Risk #1, Move 9", "Ana: attack Ural from Ukraine (4 of 8)"]
    said = [f"Line {n} " + "x" * 300 for n in range(5)]
    alt = joined(first, said)
    assert len(alt) <= ALT_MAX
    assert alt.startswith("Risk #1, Move 9. Ana: attack Ural from Ukraine (4 of 8). Line 2")
    assert alt.endswith("x.") and "Line 4" in alt and "Line 1" not in alt
    assert joined(["y" * 2000]) == "y" * (ALT_MAX - 1) + "…"
    assert plain("**<@5>** rolled · 🎲 10", {5: "Ana"}) == "Ana rolled, 10"
