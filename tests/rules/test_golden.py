"""Golden playthroughs (tests/rules/golden): every recorded game replays exactly.

A failure names the game, the recording and the first step whose events or state differ. If
the change was meant (a rules change), re-record in the same commit with
`python -m tests.rules.golden record <game>` and, if the state's shape changed, bump the
engine's state version with an upgrade for saved games.
"""

from __future__ import annotations

import pytest

from rules.options import Kind
from rules.registry import ENGINES
from tests.games import TEST_SPECS
from tests.rules.golden import Playthrough, read, replay

SAMPLES = {game: spec.samples for game, spec in TEST_SPECS.items()}
RECORDED = [(game, p) for game in SAMPLES for p in read(game)]


@pytest.mark.parametrize(
    ("game", "playthrough"), RECORDED, ids=[f"{g}:{p.name}" for g, p in RECORDED]
)
def test_a_recorded_game_replays_exactly(game: str, playthrough: Playthrough) -> None:
    replay(ENGINES[game], playthrough)


@pytest.mark.parametrize("game", SAMPLES)
def test_the_recordings_are_of_the_current_samples(game: str) -> None:
    """Changing a sample without re-recording would leave its file testing something else."""
    recorded = {(p.name, len(p.seats), tuple(sorted(p.options.items()))) for p in read(game)}
    wanted = {
        (f"{s.name}/{size}p/{i}", size, tuple(sorted(s.options.items())))
        for s in SAMPLES[game]
        for size in s.tables
        for i in range(s.seeds)
    }
    assert recorded == wanted


@pytest.mark.parametrize("game", ENGINES)
def test_every_house_rule_is_recorded_away_from_its_default(game: str) -> None:
    """Each option plays a non-default value in some recording; a flag or a choice every
    value it has."""
    for option in ENGINES[game].options:
        played = {s.options[option.name] for s in SAMPLES[game] if option.name in s.options}
        if option.kind is Kind.NUMBER:
            assert played - {option.default}, option.name
        else:
            values = {c.value for c in option.choices} or {True, False}
            assert values - {option.default} <= played, option.name
