"""What players read in ordinary play, rendered by the games' presenters in Spanish and in
English: the review of the Spanish catalog (issue 44) found these reading wrong ("quitó una
ficha de el Campo", "1 partida ganadas", "Leo: cada uno tira un dado")."""

from __future__ import annotations

from dataclasses import replace

from bot.language.i18n import speaking
from cogs.cock_and_bull import CockAndBullPresenter
from cogs.risk import RiskPresenter
from cogs.risk.words import my_mission
from rules.cock_and_bull import ENGINE as COCK_AND_BULL
from rules.cock_and_bull.state import (
    ChipRemoved,
    CockAndBullState,
    Face,
    GameResult,
    GameWon,
    WinKind,
)
from rules.core import Outcome, setup_rng
from rules.risk.state import OCCUPY_24, Elimination
from rules.risk.state import WinKind as RiskWin
from tests.rules.risk.scenario import ANA as RISK_ANA
from tests.rules.risk.scenario import BOB, CY, position

ANA, LEO = 1001, 1002
NAMES = {ANA: "Ana", LEO: "Leo"}
CB = CockAndBullPresenter()


def cock_and_bull(**options: object) -> CockAndBullState:
    return COCK_AND_BULL.initial_state((ANA, LEO), dict(options), setup_rng("wording"))


def test_a_chip_removed_from_the_field_reads_without_de_el() -> None:
    removed = (ChipRemoved(player=ANA, spot=3),)  # spot 3: the Field
    with speaking("es"):
        (line,) = CB.narrate(removed, NAMES)
    assert line == "**Ana** quitó una ficha del rival en el Campo."
    (line,) = CB.narrate(removed, NAMES)
    assert line == "**Ana** removed a chip from the Field."


def test_one_game_won_agrees_in_the_standings() -> None:
    state = replace(cock_and_bull(best_of=3), wins=(1, 2))
    with speaking("es"):
        ana, leo = CB.standings(state, NAMES)[:2]
    assert ana.endswith(", ha ganado 1 partida") and leo.endswith(", ha ganado 2 partidas")
    ana, leo = CB.standings(state, NAMES)[:2]
    assert ana.endswith(", 1 game won") and leo.endswith(", 2 games won")


def test_the_first_turn_roll_prompt_reads_for_one_player_left_or_both() -> None:
    state = cock_and_bull()
    one_left = replace(state, start_rolls=(Face.BULL, None))
    with speaking("es"):
        assert CB.prompt(state, NAMES) == "Tirada de un dado por el primer turno: Ana y Leo"
        assert CB.prompt(one_left, NAMES) == "Tirada de un dado por el primer turno: Leo"
    assert CB.prompt(one_left, NAMES) == "Leo: roll one die for the first turn"


def _won(*, flying_monkey: bool, le_pew: bool) -> str:
    result = GameResult(1, 0, WinKind.PEG_OUT, (36, 0 if le_pew else 20), flying_monkey, le_pew)
    (line,) = CB.narrate((GameWon(winner=ANA, loser=LEO, result=result),), NAMES)
    return line


def test_a_game_won_ends_its_sentence_before_the_le_pew() -> None:
    assert _won(flying_monkey=False, le_pew=True) == (
        "🏆 **Ana** pegs out and wins game 1 (36–0). The loser scores 0: a **Le Pew**."
    )
    assert _won(flying_monkey=False, le_pew=False) == "🏆 **Ana** pegs out and wins game 1 (36–20)."
    assert _won(flying_monkey=True, le_pew=True).endswith(
        "(36–0) — a **Flying Monkey**! The loser scores 0: a **Le Pew**."
    )
    with speaking("es"):
        assert _won(flying_monkey=False, le_pew=True) == (
            "🏆 **Ana** llega al 36 y gana la partida 1 (36–0). El perdedor suma 0: un **Le Pew**."
        )


RISK_NAMES = {RISK_ANA: "Ana", BOB: "Bob", CY: "Cy"}


def test_a_mission_counts_one_territory_held_in_the_singular() -> None:
    state = position({"ukraine": (RISK_ANA, 3)}, missions=(OCCUPY_24,) * 3)
    mine = my_mission(state, RISK_ANA, RISK_NAMES)
    assert mine.endswith("You hold 1 territory.")
    with speaking("es"):
        assert my_mission(state, RISK_ANA, RISK_NAMES).endswith("Tienes 1 territorio.")


def test_a_player_out_and_the_last_in_the_game_read_naturally() -> None:
    gone = Elimination(victim=CY, victor=RISK_ANA, turn=3)
    state = replace(
        position({}, rest=RISK_ANA), eliminated=(gone,), win=RiskWin.RESIGNATION, turn=5
    )
    won = Outcome(places={RISK_ANA: 1, BOB: 2, CY: 3}, scores={})
    with speaking("es"):
        assert "Cy: fuera de la partida" in RiskPresenter().standings(state, RISK_NAMES)
        assert RiskPresenter().result(state, won, RISK_NAMES) == (
            "Solo queda en pie <@1001> tras 5 turnos"
        )
