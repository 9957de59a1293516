"""Two Risk games saved by an older engine, which every later one must still play.

`fixtures/old_games_v1.json` holds two games played with the state-v1 engine (main at
642fdb2: a 3-player claim game with missions, half AI and half random-legal choices, and a
2-player connected-fortify duel), each with its seed, seats, options, log and its dumped
states every 150 steps and at the end. Their logs hold what that engine offered: the five
move-in totals, the fortify and place amounts, trades of the best five sets (one showing two
territories the player held, the +2 going to the first), and Auto; and, being played partly
at random, the sub-steps the AI leaves to Auto (`place_on`, `place`, `neutral_on`).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

OLD_GAMES: list[dict[str, Any]] = json.loads(
    (Path(__file__).parent / "fixtures" / "old_games_v1.json").read_text()
)["games"]
"""Each game: `seed`, `seats`, `options`, `log` (player, verb, arg per step) and `states`
(the dumped state after step n, by n)."""
