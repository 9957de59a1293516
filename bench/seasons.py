"""Seasons at scale: a server whose season holds `--results` results of `--players` players
across the five games. Times the season's `/leaderboard` (the board read and its embed
worded, live and, after the end, frozen), the season's end (one transaction: mark, freeze
every game's table, open the next season), and the event loop's lag meanwhile (a ticker
every 5 ms: what a click arriving during the end would wait for the loop).

Run: .venv/bin/python -m bench.seasons [--players N] [--results N] [--database URL]
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from random import Random
from typing import Any

from bench.common import print_load, spread
from bench.results import Run
from bot.storage import Storage, open_storage
from cogs.games import GAMES
from cogs.seasons import BOARD_TOP, season_board_embed
from rules.registry import ENGINES

HOT_PATHS = ("bot/storage", "bot/seasons.py", "cogs/seasons.py", "bot/migrations")
GUILD = 987_654_321 << 22  # not a test's server: the ratings lock is the whole database's
REPEATS = 30
CHUNK = 20_000


def chunks(rows: list[dict[str, Any]]) -> list[list[dict[str, Any]]]:
    return [rows[n : n + CHUNK] for n in range(0, len(rows), CHUNK)]


async def fill(storage: Storage, players: int, results: int, rng: Random) -> list[str]:
    """Two-player games enough for `results` results, all finished in the season."""
    games = [g.name for g in GAMES]
    now = time.time()
    season = await storage.start_season(
        GUILD, name="Bench", ends_at=now + 86400, games=None, recur="none", channel_id=1, now=now
    )
    tables: dict[str, list[dict[str, Any]]] = {
        k: [] for k in ("games", "seats", "results", "season_results")
    }
    rated: dict[tuple[str, int], dict[str, Any]] = {}
    for game_id in range(1, results // 2 + 1):
        game = games[game_id % len(games)]
        pair = rng.sample(range(1, players + 1), 2)
        tables["games"].append(
            {"id": game_id, "game": game, "guild_id": GUILD, "channel_id": 1}
            | {"host_id": pair[0], "status": "finished", "options": "{}", "seed": "s"}
            | {"step": 1, "created_at": now, "updated_at": now}
        )
        for seat, player in enumerate(pair):
            won = seat == 0
            tables["seats"].append(
                {"game_id": game_id, "seat": seat, "player_id": player, "name": f"P{player}"}
            )
            tables["results"].append(
                {"game_id": game_id, "player_id": player, "guild_id": GUILD, "game": game}
                | {"is_bot": 0, "place": seat + 1, "score": 0, "won": int(won), "stats": "{}"}
                | {"finished_at": now, "team": seat}
            )
            tables["season_results"].append(
                {"game_id": game_id, "player_id": player, "guild_id": GUILD}
                | {"season": season.number, "game": game, "tablemates": "x", "day": 0}
                | {"points": 10.0 * won, "counted": 1}
            )
            line = rated.setdefault(
                (game, player),
                {"guild_id": GUILD, "season": season.number, "game": game}
                | {"player_id": player, "mu": 25 + rng.gauss(0, 3), "sigma": 4.2}
                | {"played": 0, "wins": 0, "points": 0.0},
            )
            line["played"] += 1
            line["wins"] += won
            line["points"] += 10.0 * won
    tables["season_ratings"] = list(rated.values())
    for table in ("games", "seats", "results", "season_results", "season_ratings"):
        for part in chunks(tables[table]):
            await storage.insert_rows({table: part})
    return games


async def timed(work: Callable[[], Awaitable[object]], times: int) -> list[float]:
    spent = []
    for _ in range(times):
        start = time.perf_counter()
        await work()
        spent.append((time.perf_counter() - start) * 1000)
    return spent


async def boards(storage: Storage, games: list[str]) -> list[float]:
    """A season's `/leaderboard` for each game, as the command reads and words it."""
    season = await storage.season(GUILD, 1)
    assert season is not None

    async def one(game: str) -> None:
        min_games = await storage.season_min_games(GUILD)
        rows = await storage.season_board(season, game, min_games, top=BOARD_TOP)
        season_board_embed(season, ENGINES[game].title, 0, rows, min_games)

    spent: list[float] = []
    for game in games:
        spent += await timed(lambda game=game: one(game), REPEATS)
    return spent


async def end_with_lag(storage: Storage) -> tuple[float, list[float]]:
    """The season's end, and the event loop's lateness every 5 ms meanwhile."""
    lags: list[float] = []
    running = True

    async def ticker() -> None:
        while running:
            before = time.perf_counter()
            await asyncio.sleep(0.005)
            lags.append(max(0.0, (time.perf_counter() - before - 0.005) * 1000))

    tick = asyncio.create_task(ticker())
    start = time.perf_counter()
    ended = await storage.end_season(GUILD, 1, time.time(), due_only=False)
    spent = time.perf_counter() - start
    running = False
    await tick
    assert ended is not None
    return spent, lags


async def bench(url: str, players: int, results: int, run: Run) -> None:
    storage = await open_storage(url)
    try:
        rng = Random(7)
        start = time.perf_counter()
        games = await fill(storage, players, results, rng)
        print(f"filled in {time.perf_counter() - start:.1f} s")
        live = await boards(storage, games)
        ended, lags = await end_with_lag(storage)
        frozen = await boards(storage, games)
    finally:
        await storage.close()
    backend = url.split(":", 1)[0]
    run.table(
        f"Seasons, {players:,} players, {results:,} results over {len(games)} games ({backend}); "
        "budget: a board ≤ 50 ms, the end ≤ 2 s with the loop's lag p99 ≤ 100 ms",
        ["measure", "n", "p50 ms", "p99 ms", "max ms"],
        [
            [
                "/leaderboard season: (running), read + worded",
                len(live),
                *spread(live),
            ],
            [
                "/leaderboard season:N (frozen), read + worded",
                len(frozen),
                *spread(frozen),
            ],
            ["the season's end (one transaction)", 1, f"{ended * 1000:.0f}", "-", "-"],
            [
                "event loop lag during the end (5 ms ticks)",
                len(lags),
                *spread(lags),
            ],
        ],
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=10_000)
    parser.add_argument("--results", type=int, default=100_000)
    parser.add_argument("--database", help="a database URL (default: a new SQLite file)")
    args = parser.parse_args()
    on_postgres = (args.database or "").startswith("postgres")
    run = Run("seasons_postgres" if on_postgres else "seasons", HOT_PATHS, sys.argv[1:])
    print_load("before")
    with tempfile.TemporaryDirectory() as folder:
        url = args.database or f"sqlite:///{Path(folder) / 'bench.sqlite3'}"
        asyncio.run(bench(url, args.players, args.results, run))
    print_load("after")
    run.save()


if __name__ == "__main__":
    main()
