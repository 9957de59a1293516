"""The async game service: lobbies, starting, acting, timers' deadlines, replay.

It loads a game, runs its rules engine (pure, synchronous) and saves the result; it knows
nothing of Discord. Every action runs under a per-game lock, checks the step the player
saw, and saves the new state and the action log in one transaction, so nothing a player
was told is done can be lost, and the seed plus the log replays any game.

It is one class composed of its parts, each with one job: `core` (locks, the cache, loading,
replay), `lobby` (before the start) and `play` (moves, the AI, endings); `loaded` is the game
as loaded.
"""

from __future__ import annotations

from bot.service.core import LoadedGames, Replayed, replay_log
from bot.service.loaded import LoadedGame
from bot.service.lobby import MAX_BOTS, LobbyService
from bot.service.play import Played, PlayService

__all__ = [
    "MAX_BOTS",
    "GameService",
    "LoadedGame",
    "LoadedGames",
    "LobbyService",
    "PlayService",
    "Played",
    "Replayed",
    "replay_log",
]


class GameService(LobbyService, PlayService):
    """Lobbies, moves and endings: a game loaded, run through its engine, saved, under its lock."""
