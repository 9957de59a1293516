"""Every game the bot plays, by its name (the same name in rules/, images/, cogs/, the DB).

A game is added here with one line (its engine); its house rules are the engine's
`options`. The bot's side of each game (presenter, cog) is listed in `cogs/games.py`.
"""

from __future__ import annotations

from typing import Any

from rules.cock_and_bull import ENGINE as COCK_AND_BULL
from rules.core import Engine
from rules.hold_your_horses import ENGINE as HOLD_YOUR_HORSES
from rules.horse_collar import ENGINE as HORSE_COLLAR
from rules.risk import ENGINE as RISK
from rules.winners_circle import ENGINE as WINNERS_CIRCLE

ENGINES: dict[str, Engine[Any]] = {
    engine.name: engine
    for engine in (
        COCK_AND_BULL,
        HOLD_YOUR_HORSES,
        HORSE_COLLAR,
        WINNERS_CIRCLE,
        RISK,
    )
}
