"""rules/frozen.py: a frozen dataclass built through one `__dict__`, the same to its users."""

from __future__ import annotations

import dataclasses
import pickle

import pytest

from rules.core import Event
from rules.frozen import frozen


@frozen
class Moved(Event):
    player: int
    territory: str
    armies: int = 1


def test_fields_defaults_and_keyword_only_fields_are_the_dataclasses() -> None:
    moved = Moved(7, "siam", visible_to=frozenset({7}))
    assert (moved.player, moved.territory, moved.armies, moved.visible_to) == (
        7,
        "siam",
        1,
        frozenset({7}),
    )
    assert [f.name for f in dataclasses.fields(moved)] == [
        "visible_to",
        "player",
        "territory",
        "armies",
    ]
    assert list(vars(moved)) == ["visible_to", "player", "territory", "armies"]
    with pytest.raises(TypeError):
        Moved(7, "siam", 2, frozenset({7}))  # type: ignore[misc]  # visible_to is keyword-only
    with pytest.raises(TypeError):
        Moved(7)  # type: ignore[call-arg]


def test_instances_stay_frozen_equal_hashable_and_copyable() -> None:
    moved = Moved(7, "siam", 3)
    with pytest.raises(dataclasses.FrozenInstanceError):
        moved.armies = 4  # type: ignore[misc]
    assert moved == Moved(7, "siam", 3) != Moved(7, "siam", 4)
    assert hash(moved) == hash(Moved(7, "siam", 3))
    assert repr(moved) == "Moved(visible_to=None, player=7, territory='siam', armies=3)"
    assert dataclasses.replace(moved, armies=5) == Moved(7, "siam", 5)
    assert pickle.loads(pickle.dumps(moved)) == moved


def test_what_the_quick_init_cannot_do_is_refused() -> None:
    with pytest.raises(TypeError, match="default_factory"):

        @frozen
        class Listed:
            items: list[int] = dataclasses.field(default_factory=list)

    with pytest.raises(TypeError, match="__post_init__"):

        @frozen
        class Checked:
            n: int

            def __post_init__(self) -> None:
                pass
