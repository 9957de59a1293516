"""Every game the bot plays, by its name (the same name in rules/, images/, cogs/, the DB)."""

from __future__ import annotations

from typing import Any

from rules.cock_and_bull import ENGINE as COCK_AND_BULL
from rules.cock_and_bull.options import OPTIONS as COCK_AND_BULL_OPTIONS
from rules.core import Engine
from rules.hold_your_horses import ENGINE as HOLD_YOUR_HORSES
from rules.hold_your_horses.options import OPTIONS as HOLD_YOUR_HORSES_OPTIONS
from rules.horse_collar import ENGINE as HORSE_COLLAR
from rules.horse_collar.options import OPTIONS as HORSE_COLLAR_OPTIONS
from rules.options import OptionSet
from rules.risk import ENGINE as RISK
from rules.risk.options import OPTIONS as RISK_OPTIONS
from rules.winners_circle import ENGINE as WINNERS_CIRCLE
from rules.winners_circle.options import OPTIONS as WINNERS_CIRCLE_OPTIONS

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

HOUSE_RULES: dict[str, OptionSet] = {
    COCK_AND_BULL.name: COCK_AND_BULL_OPTIONS,
    HOLD_YOUR_HORSES.name: HOLD_YOUR_HORSES_OPTIONS,
    HORSE_COLLAR.name: HORSE_COLLAR_OPTIONS,
    WINNERS_CIRCLE.name: WINNERS_CIRCLE_OPTIONS,
    RISK.name: RISK_OPTIONS,
}
"""Every game's declared house rules, by game name."""
