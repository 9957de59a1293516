"""What a screen reader hears: `bot.language.speech.spoken` on the misreadings the
accessibility review heard through espeak-ng, then every alt text, 📝 text board and 🔍 zoom
text of whole AI games of every title in English and Spanish, checked for the symbols a
screen reader misreads (and, where espeak-ng is installed, for the misread words in what it
says); Risk's text board plans; alt text that sums up a turn."""

from __future__ import annotations

import re
import shutil
import subprocess
from collections.abc import Iterator
from functools import cache
from random import Random
from types import SimpleNamespace
from typing import Any

import pytest

from bot.language.i18n import speaking
from bot.language.speech import spoken
from bot.language.wording import split_seat_events
from bot.table.alt_text import SUMMED_MAX, board_alt, joined, plain
from bot.table.board import prompt_here
from bot.table.text_board import text_board
from cogs.cock_and_bull import CockAndBullPresenter
from cogs.hold_your_horses import HoldYourHorsesPresenter
from cogs.horse_collar import HorseCollarPresenter
from cogs.risk import RiskPresenter
from cogs.risk.view import continent_lines, plan_lines
from cogs.risk.words import name_of
from cogs.winners_circle import WinnersCirclePresenter
from rules.core import Event, PlayerId, setup_rng, step_rng
from rules.registry import ENGINES
from rules.risk.map import TERRITORIES, neighbours
from tests.bot.test_reading import GAMES, NAMES, Game, alt_of, playout

SIX = {1: "Ana", 2: "Leo", 3: "Mia", 4: "Noa", 5: "Eva", 6: "Teo"}
WORDS_A_MINUTE = 175  # espeak-ng's default rate

# (language, as written, as it must be heard): each of the review's misreadings.
HEARD = [
    ("en", "🐂 Bull, 🐓 Cock + 🐒 Monkey", "Bull, Cock and Monkey"),
    ("es", "Última tirada: 🐂 Toro + 🐓 Gallo", "Última tirada: Toro y Gallo"),
    ("en", "worth 3 + 2 + 1; +2 on Ural", "worth 3 + 2 + 1; +2 on Ural"),
    ("en", "8 ×2 · 10 · J ×3", "8 (2 cards), 10, J (3 cards)"),
    ("es", "8 ×2 · 10", "8 (2 cartas), 10"),
    ("en", "Leo moves 🟡 horse 3 (Head 5): 13 → 16.", "Leo moves horse 3 (Head 5): from 13 to 16."),
    (
        "es",
        "Leo mueve 🟡 caballo 3 (Cabeza 5): 13 → 16.",
        "Leo mueve caballo 3 (Cabeza 5): de 13 a 16.",
    ),
    ("en", "Ana pegs +3 → 12/36.", "Ana pegs +3 to 12 of 36."),
    ("es", "Ana avanza +3 → 12/36.", "Ana avanza +3 a 12 de 36."),
    ("en", "chips: Mia ?, Leo 2", "chips: Mia (hidden), Leo 2"),
    ("es", "fichas: Mia ?, Leo 2", "fichas: Mia (oculta), Leo 2"),
    ("en", "Risk · #42", "Risk, game 42"),
    ("es", "Risk #42, Jugada 9", "Risk, partida 42, Jugada 9"),
    ("en", "Ana traded set #3 (x)", "Ana traded set number 3 (x)"),
    ("es", "Ana canjeó el trío n.º 3 (x)", "Ana canjeó el trío número 3 (x)"),
    (
        "es",
        "caballo 5 retirado (2.ª, 2 por carta); 1.º caballo 3",
        "caballo 5 retirado (segunda, 2 por carta); primero caballo 3",
    ),
    (
        "es",
        "a 4,2 pulg. del fondo; Zona 3, 1½ pulg.; Zona 3, 2 pulgadas",
        "a 4,2 pulgadas del fondo; Zona 3, 1 y media pulgadas; Zona 3, 2 pulgadas",
    ),
    (
        "en",
        "2 ft 3 in from the end; 3 zone, 1½ in",
        "2 feet 3 inches from the end; 3 zone, 1 and a half inches",
    ),
    ("en", "▶ Ana to roll", "Ana to roll"),
    ("en", "⚔️ Brazil 4-2-1 vs 4-4 (5 v 3)", "Brazil 4, 2, 1 against 4, 4 (5 against 3)"),
    ("en", "Ana wins by Chip-In, 18–5", "Ana wins by Chip-In, 18 to 5"),
    ("es", "Cock & Bull · #7", "Cock y Bull, partida 7"),
    ("en", "• 🪖 Alaska (infantry)", "Alaska (infantry)"),
]

# What a screen reader misreads, in a text already spoken: any of these is a failure.
FORBIDDEN = {
    "a pictograph or emoji": re.compile(
        "[\U0001f000-\U0001faff\u2600-\u27bf\u2b00-\u2bff\u23e9-\u23fa\u25b6\ufe0f]"
    ),
    "× (read 'times' or dropped)": re.compile("×"),
    "→ (read 'right arrow' or dropped)": re.compile("→"),
    "# ('hash', 'almohadilla')": re.compile("#"),
    "n.º ('eneo')": re.compile(r"n\.º"),
    "an ordinal with a dot ('dos punto a')": re.compile(r"\d\.?[ºª]"),
    "pulg. ('pulg')": re.compile(r"pulg\b"),
    "ft ('eff tee')": re.compile(r"\d ft\b"),
    "an inch as 'in'": re.compile(r"\d in from\b"),
    "a hidden chip '?' (not read)": re.compile(r"\w \?(?=[\s,;.)]|$)"),
    "a slash ('barra')": re.compile(r"\d/\d"),
    "· ('punto medio')": re.compile("·"),
    "& ('ampersand')": re.compile("&"),
    "½ ('one one half')": re.compile("½"),
}
# The same misreadings as espeak-ng says them (the review's table 2).
MISHEARD = {
    "en": ["hash", "play button", "ox", "rooster", "right arrow", "slash", "ampersand"],
    "es": ["almohadilla", "reproducir", "buey", "eneo", "barra", "punto medio", "ampersand"],
}


def misread(text: str) -> list[str]:
    """The forbidden forms found in `text`, with what they match."""
    return [f"{why}: {m[0]!r}" for why, form in FORBIDDEN.items() if (m := form.search(text))]


@pytest.mark.parametrize(("language", "written", "heard"), HEARD)
def test_each_misreading_is_written_as_its_word(language: str, written: str, heard: str) -> None:
    with speaking(language):
        assert spoken(written) == heard
        assert not misread(spoken(written))


def test_lines_and_their_breaks_are_kept() -> None:
    assert spoken("**Ana**: 3\n\nLeo · 2") == "**Ana**: 3\n\nLeo, 2"


def heard_texts(game: Game, language: str) -> Iterator[str]:
    """Everything read out in a whole AI game of `game`: each step's alt text and, for the
    players to act (or a watcher), the text board's title and text."""
    engine, presenter = ENGINES[game.presenter.game], game.presenter
    with speaking(language):
        for table, state, events in playout(game):
            yield alt_of(game, table, events)
            for viewer in sorted(p for p in engine.to_act(state) if p > 0) or [99]:
                embed, _view = text_board(table, engine, presenter, viewer, default=False)
                yield embed.title or ""
                yield embed.description or ""


# Full tables too (their players beyond `NAMES` are "Someone"): six at Risk and Winner's
# Circle, twelve at Hold Your Horses, four sides at Horse Collar.
FULL = (
    Game(RiskPresenter(), tuple(SIX), {"turn_limit": 1}),
    Game(HoldYourHorsesPresenter(), tuple(range(1, 13)), {"races": 1}),
    Game(WinnersCirclePresenter(), tuple(range(1, 7)), {}),
    Game(HorseCollarPresenter(), (1, 2, 3, 4), {"frames": 1, "sides": 4}),
)


@cache
def heard(game: str, language: str) -> tuple[str, ...]:
    """Every text read out of `game`'s games in `language`: worked out once a worker, and
    only for what that worker's tests ask (they are spread over the workers)."""
    return tuple(
        text
        for table in (GAMES, FULL)
        for g in table
        if g.presenter.game == game
        for text in heard_texts(g, language)
    )


@pytest.mark.parametrize("language", ["en", "es"])
@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.presenter.game)
def test_nothing_read_out_in_a_whole_game_is_misread(game: Game, language: str) -> None:
    texts = heard(game.presenter.game, language)
    assert len(texts) > 30
    for text in texts:
        assert not misread(text), text


@pytest.mark.parametrize("language", ["en", "es"])
def test_the_risk_zoom_is_not_misread(language: str) -> None:
    presenter, engine = RiskPresenter(), ENGINES["risk"]
    game = Game(presenter, tuple(SIX), {"turn_limit": 3})
    with speaking(language):
        for step, (table, state, _events) in enumerate(playout(game)):
            if step % 40:
                continue
            prompt = plain(prompt_here(table, engine, presenter), SIX)
            for zoom in presenter.zooms(state):
                lines = continent_lines(state, SIX, zoom.key)  # the zoom's text
                text = spoken("\n".join([prompt, *lines]))
                title = spoken(f"{presenter.title} #{table.row.id} · {zoom.label}")
                for said in (text, title):
                    assert not misread(said), said


def _phonemes(texts: list[str], language: str) -> list[str]:
    """What espeak-ng says for `texts` (one a line), as its phoneme words, stress marks off."""
    said = subprocess.run(
        ["espeak-ng", "-q", "-x", "-v", language, "--stdin"],
        input="\n".join(texts),
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return re.sub(r"[',%=_:]", "", said).split()


@pytest.mark.skipif(shutil.which("espeak-ng") is None, reason="espeak-ng is not installed")
@pytest.mark.parametrize("language", ["en", "es"])
def test_espeak_ng_says_none_of_the_misheard_words(language: str) -> None:
    # Each distinct sentence once: a game repeats most of its lines at every step.
    texts = sorted(
        {
            sentence
            for game in GAMES
            for text in heard(game.presenter.game, language)
            for line in text.replace("**", "").splitlines()
            for sentence in line.split(". ")
        }
    )
    words = " ".join(_phonemes(texts, language))
    for misheard in MISHEARD[language]:
        phonemes = " ".join(_phonemes([misheard], language))
        assert f" {phonemes} " not in f" {words} ", misheard
    # The check can fail: the symbols themselves are heard as these words.
    raw = " ".join(_phonemes(["🐂 Toro #42 ▶ 13 → 16"], language))
    assert any(" ".join(_phonemes([w], language)) in raw for w in MISHEARD[language])


# --- Risk: the text board plans ---------------------------------------------------------------


def risk_at(turn: int, seed: str = "plans") -> Any:
    """A six-player Risk game played by the AI to the start of `turn`."""
    engine = ENGINES["risk"]
    state = engine.initial_state(list(SIX), {}, setup_rng(seed))
    step = 0
    while state.turn < turn:
        player = sorted(engine.to_act(state))[0]
        action = engine.choose(state, player, Random(step))
        state = engine.apply(state, player, action, step_rng(seed, step)).state
        step += 1
    return state


@pytest.mark.parametrize("language", ["en", "es"])
@pytest.mark.parametrize("seed", ["plans", "borders", "continents"])
def test_risk_plans_are_heard_within_a_minute_of_the_prompt(language: str, seed: str) -> None:
    """Mid-game, six players: the prompt, the standings and the plans together are at most
    175 words (a minute at espeak-ng's rate), for every player."""
    presenter, state = RiskPresenter(), risk_at(12, seed)
    with speaking(language):
        for viewer in SIX:
            if state.is_out(viewer):
                continue
            plans = plan_lines(state, SIX, viewer)
            assert plans
            head = [plain(presenter.prompt(state, SIX), SIX), *presenter.standings(state, SIX)]
            words = len(spoken("\n".join([*head, *plans])).split())
            assert words <= WORDS_A_MINUTE, (viewer, words)


def test_risk_borders_name_each_front_and_the_enemy_beside_it() -> None:
    state = risk_at(12)
    by_name = {name_of(slug): slug for slug in TERRITORIES}
    with speaking("en"):
        for viewer in SIX:
            lines = plan_lines(state, SIX, viewer)
            fronts = [line for line in lines if " faces " in line]
            for line in fronts:
                mine, enemies = line.split(" faces ")
                slug = by_name[mine.rsplit(" (", 1)[0]]
                assert state.owner(slug) == viewer
                named = re.findall(r"([A-Z][\w. ]+?) \((\w+), (\d+)\)", enemies)
                assert named
                for territory, owner, armies in named:
                    enemy = by_name[territory.removeprefix("and ").strip()]
                    assert enemy in neighbours(slug) and state.owner(enemy) != viewer
                    assert SIX.get(state.owner(enemy), "Neutral") == owner
                    assert state.armies_on(enemy) == int(armies)
            touching = [
                s
                for s in TERRITORIES
                if state.owner(s) == viewer and any(state.owner(n) != viewer for n in neighbours(s))
            ]
            counted = re.search(r"and (\d+) more", " ".join(lines))
            assert len(fronts) + (int(counted[1]) if counted else 0) == len(touching)


def test_risk_continent_progress_names_what_is_lacking() -> None:
    state = risk_at(12)
    with speaking("en"):
        lines = [line for v in SIX for line in plan_lines(state, SIX, v) if "you lack" in line]
    assert lines  # someone is close to a continent mid-game
    assert all(re.match(r"[A-Z][\w ]+: you lack .+ \(\w+, \d+\)", line) for line in lines)


def test_the_text_board_plans_for_its_reader_only() -> None:
    presenter, engine, state = RiskPresenter(), ENGINES["risk"], risk_at(12)
    row = SimpleNamespace(game="risk", id=7, step=300, options={}, status="active")
    table = SimpleNamespace(
        row=row, state=state, names=SIX, away=frozenset(), autoplayed=frozenset(), bots=frozenset()
    )
    with speaking("es"):
        mine, _view = text_board(table, engine, presenter, 1, default=False)
        watcher, _view = text_board(table, engine, presenter, 99, default=False)
    text = mine.description or ""
    assert "**Tus fronteras**" in text and " limita con " in text
    assert text.index("Tus fronteras") < text.index("América del Norte, bonificación")
    assert "Tus fronteras" not in (watcher.description or "")


# --- alt text that sums up a turn ------------------------------------------------------------


def runs(
    game: Game, human: PlayerId = 1, seed: str = "summary"
) -> Iterator[tuple[Any, list[Event]]]:
    """(the table, the public events since the human's last board) each time the human is
    to act again after others played: what the board shown to them narrates."""
    events: list[Event] = []
    for table, state, step_events in playout(game, seed=seed):
        events += [e for e in step_events if e.visible_to is None]
        engine = ENGINES[game.presenter.game]
        if human in engine.to_act(state) or engine.outcome(state) is not None:
            yield table, events
            events = []


def alt_after(game: Game, table: Any, events: list[Event], *, summed: bool = True) -> str:
    """The alt text after `events`; without `summed`, as it was before turns were summed."""
    engine, presenter = ENGINES[game.presenter.game], game.presenter
    said, game_events = split_seat_events(events, NAMES)
    said += presenter.narrate(game_events, NAMES)
    prompt = prompt_here(table, engine, presenter)
    heading = f"{presenter.title} #7, {table.row.step}"
    if summed:
        return board_alt(presenter, table.state, NAMES, heading, prompt, said, game_events)
    first = [heading, prompt, *presenter.standings(table.state, NAMES)]
    return joined([plain(s, NAMES) for s in first], [plain(s, NAMES) for s in said])


@pytest.mark.parametrize("language", ["en", "es"])
def test_an_ai_run_of_rolls_is_one_sentence_then_details_within_400(language: str) -> None:
    game = Game(CockAndBullPresenter(), (1, -1), {"best_of": 3})
    longest = ""
    with speaking(language):
        for table, events in runs(game, seed="s0"):
            old, new = alt_after(game, table, events, summed=False), alt_after(game, table, events)
            summary = game.presenter.summary(table.state, events, NAMES)
            if summary:
                assert len(new) <= SUMMED_MAX, new
                assert new.split(". ")[1] == plain(summary, NAMES)  # after the heading
            if len(old) > len(longest):
                longest, shown = old, new
    assert len(longest) > 900  # the review's ~1,000-character run, found again
    rolled = "Bot 1 rolled" if language == "en" else "Bot 1 tiró"
    assert rolled in shown and len(shown) <= SUMMED_MAX


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.presenter.game)
def test_every_title_sums_up_the_others_turns(game: Game) -> None:
    summed = 0
    with speaking("es"):
        for table, events in runs(game):
            said = alt_after(game, table, events)
            summary = game.presenter.summary(table.state, events, NAMES)
            if summary:
                summed += 1
                prompt = prompt_here(table, ENGINES[game.presenter.game], game.presenter)
                heading = f"{game.presenter.title} #7, {table.row.step}"
                first = [heading, summary, prompt, *game.presenter.standings(table.state, NAMES)]
                # Within 400, unless whose turn and the standings alone are longer.
                assert len(said) <= max(SUMMED_MAX, len(joined([plain(s, NAMES) for s in first])))
    assert summed


def test_hold_your_horses_in_front_are_the_horses_nearest_the_finish() -> None:
    game = Game(HoldYourHorsesPresenter(), (1, 2, 3), {"races": 1})
    seen = 0
    with speaking("en"):
        for _table, state, _events in playout(game):
            if state.phase.value != "race":
                continue
            (line,) = [
                s for s in game.presenter.standings(state, NAMES) if "finish" in s or "moved" in s
            ]
            if line == "No horse has moved yet":
                assert not any(state.race.position(h) for h in range(2, 13))
                continue
            found = re.findall(r"horse (\d+) \((\d+) steps? to go\)", line)
            named, steps = [int(h) for h, _n in found], [int(n) for _h, n in found]
            assert named and all(state.race.position(h) > 0 for h in named)
            assert steps == sorted(steps)
            seen += 1
    assert seen > 10
