"""Risk's coarse actions (`place_at`, `assault`) in words: never offered, they show up in the
narration of what was played and in the replay viewer's list of moves, which names each move
by its look. The narration is the sub-steps' for the same dice, the move says what was
attacked from where, and a refusal speaks the player's language."""

from __future__ import annotations

from random import Random
from types import SimpleNamespace
from typing import Any

import pytest

from bot.errors import refused
from bot.language.i18n import speaking
from bot.table.replay import Replay
from cogs.replay_viewer import move_list
from cogs.risk import RiskPresenter
from rules.core import Action, Event, IllegalAction, PlayerId
from rules.risk import ENGINE
from rules.risk.actions import assault, attack_from, attack_to, blitz, move_in, place_at
from rules.risk.state import Phase, RiskState
from tests.rules.risk.scenario import ANA, BOB, CY, position

PRESENTER = RiskPresenter()
NAMES = {ANA: "Ana", BOB: "Bob", CY: "Cy"}
TABLE: Any = SimpleNamespace(
    names=NAMES, seats=[SimpleNamespace(player_id=p, name=n) for p, n in NAMES.items()]
)


def played(state: RiskState, *moves: Action) -> tuple[list[RiskState], list[tuple[Event, ...]]]:
    """Ana's moves in turn, each with the generator seeded by its number."""
    states, events = [state], [()]
    for n, action in enumerate(moves):
        step = ENGINE.apply(states[-1], ANA, action, Random(n))
        states.append(step.state)
        events.append(step.events)
    return states, events


def test_an_assault_is_narrated_as_its_sub_steps_with_the_same_dice() -> None:
    state = position({"ukraine": (ANA, 12), "ural": (BOB, 3)}, rest=BOB)
    coarse = ENGINE.apply(state, ANA, assault("ukraine", "ural", 1, 2), Random(7))
    rng = Random(7)
    chosen = ENGINE.apply(state, ANA, attack_from("ukraine"), rng).state
    chosen = ENGINE.apply(chosen, ANA, attack_to("ural"), rng).state
    blitzed = ENGINE.apply(chosen, ANA, blitz(1), rng)
    assert blitzed.state.phase is Phase.MOVE_IN
    total = blitzed.state.move_min + blitzed.state.armies_on("ukraine") - 2
    moved = ENGINE.apply(blitzed.state, ANA, move_in(total), rng)
    lines = PRESENTER.narrate(coarse.events, NAMES)
    assert lines == PRESENTER.narrate(blitzed.events + moved.events, NAMES)
    assert lines[0].startswith("⚔️ Ukraine ")
    assert "🚩 **Ana** took Ural from **Bob**" in lines[-2]
    assert lines[-1] == f"{total - blitzed.state.move_min} more moved into Ural ({total})."


def test_the_replay_names_a_coarse_move_and_tells_what_it_did() -> None:
    state = position(
        {"ukraine": (ANA, 12), "ural": (BOB, 1)}, rest=BOB, phase=Phase.REINFORCE, to_place=3
    )
    moves = (place_at("ukraine", 3), assault("ukraine", "ural", 3, 1))
    states, events = played(state, *moves)
    who: list[tuple[PlayerId, Action] | None] = [None, *((ANA, m) for m in moves)]
    replay = Replay(TABLE, states, who, events, chapter_starts=[0])
    first, second = move_list(replay, PRESENTER, 2)
    assert first == "`1.` Ana · Place 3 on Ukraine — **Ana** placed 3 on Ukraine (15); 0 left."
    assert second.startswith("▶ **2.** Ana · Attack Ural from Ukraine: blitz to 3, keep 1 — ⚔️")
    assert "🚩 **Ana** took Ural from **Bob** (3 in)." in second
    assert second.endswith(f"more moved into Ural ({states[2].armies_on('ural')}).")
    assert states[2].armies_on("ukraine") == 1  # everything but one moved in


@pytest.mark.parametrize(
    ("armies", "english", "spanish"),
    [
        (
            8,
            "A blitz from there may stop at 1, 3 or 5 armies.",
            "Desde ahí, el ataque relámpago puede parar en 1, 3 o 5 ejércitos.",
        ),
        # One stop left: the noun agrees with it (it read "1 armies", "1 ejércitos").
        (
            2,
            "A blitz from there may stop at 1 army.",
            "Desde ahí, el ataque relámpago solo puede parar en 1 ejército.",
        ),
    ],
)
def test_an_assault_refused_is_worded_in_the_player_s_language(
    armies: int, english: str, spanish: str
) -> None:
    state = position({"ukraine": (ANA, armies), "ural": (BOB, 3)}, rest=BOB)
    with pytest.raises(IllegalAction) as refusal:
        ENGINE.apply(state, ANA, assault("ukraine", "ural", 2), Random(0))
    assert str(refusal.value) == english
    with speaking("es"):
        assert str(refused(refusal.value)) == spanish
