"""The replay viewer: one step's redraw over a long Risk game, and each title's animated
summary.

A seeded AI game is played through the engine and turned into the viewer's `Replay` (as
`bot.table.replay.Replays` builds it from the log). A viewer step is what a click on ⏮ ◀ ▶ ⏭ or a
chapter jump costs the bot before Discord: the picture at that step drawn and encoded, the
move list narrated, the embed and buttons built (`cogs.replay_viewer`). The summary is one
frame per chapter, written as GIF and as lossless WebP; the smaller is sent.

Run: .venv/bin/python -m bench.replay [--game NAME ...] [--steps N] [--save PATH]
"""

from __future__ import annotations

import argparse
import time
from random import Random
from typing import Any

from bench.common import (
    add_game_option,
    names,
    option_items,
    playout,
    print_load,
    print_table,
    seats,
    selected_games,
    spread,
)
from bot.service import LoadedGame
from bot.storage import FINISHED, GameRow, LoggedAction, SeatRow
from bot.table.presenter import Presenter
from bot.table.replay import Replay, assemble
from cogs.replay_viewer import picture_at, summary, viewer_message
from rules.core import Step
from rules.registry import ENGINES

SEED = "bench-replay"
# A long game per title: Risk with six AI generals and no turn limit is the longest there is.
TABLES: dict[str, tuple[int, dict[str, Any]]] = {
    "risk": (6, {}),
    "hold_your_horses": (4, {}),
    "winners_circle": (4, {}),
}


def replay_of(
    game: str, presenter: Presenter[Any], players: int, options: dict[str, Any]
) -> Replay:
    """A seeded AI game of `game`, as the viewer holds it."""
    engine = ENGINES[game]
    plies = list(playout(engine, SEED, players, options))
    table_seats = seats(players)
    seat_names = names(table_seats)
    row = GameRow(
        id=1,
        game=game,
        guild_id=1,
        channel_id=1,
        host_id=table_seats[0],
        status=FINISHED,
        options=options,
        seed=SEED,
        step=len(plies) - 1,
        state=engine.dump(plies[-1].state),
        lobby_message_id=None,
        thread_id=None,
        board_message_id=None,
        ping_message_id=None,
        deadline=None,
        reminded=False,
    )
    seat_rows = [SeatRow(n, p, seat_names[p], False) for n, p in enumerate(table_seats)]
    table = LoadedGame(row, seat_rows, plies[-1].state)
    steps = [
        (LoggedAction(n, ply.player, ply.action, True), Step(ply.state, ply.events))
        for n, ply in enumerate(plies[1:])
        if ply.player is not None and ply.action is not None
    ]
    return assemble(table, presenter, plies[0].state, steps)


def viewer_steps(replay: Replay, presenter: Presenter[Any], count: int) -> list[float]:
    """Milliseconds per viewer step, at `count` random steps."""
    engine = ENGINES[replay.table.row.game]
    rng = Random(1)
    viewer_message(replay, engine, presenter, 0, 1, picture_at(replay, presenter, 0))  # warm
    times = []
    for _ in range(count):
        step = rng.randint(0, replay.last)
        start = time.perf_counter()
        picture = picture_at(replay, presenter, step)
        viewer_message(replay, engine, presenter, step, 1, picture)
        times.append((time.perf_counter() - start) * 1000)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_game_option(parser)
    parser.add_argument("--steps", type=int, default=300, help="viewer steps timed (Risk)")
    parser.add_argument("--save", help="write the Risk viewer's picture mid-game to this path")
    args = parser.parse_args()
    print_load("before")
    rows = []
    for game, presenter in selected_games(args.game, need_presenter=True):
        assert presenter is not None
        players, options = TABLES.get(game, (ENGINES[game].min_players, {}))
        start = time.perf_counter()
        replay = replay_of(game, presenter, players, options)
        built = time.perf_counter() - start
        if game == "risk":
            times = viewer_steps(replay, presenter, args.steps)
            print(
                f"risk viewer step ({players} AI, {replay.last} steps, "
                f"{len(replay.chapter_starts)} turns; {args.steps} random steps), ms: "
                f"p50 / p99 / max {' / '.join(spread(times))}"
            )
            if args.save:
                with open(args.save, "wb") as out:
                    out.write(picture_at(replay, presenter, replay.last // 2))
        start = time.perf_counter()
        animation = summary(replay, presenter)
        seconds = time.perf_counter() - start
        kind = animation.filename.rsplit(".", 1)[-1]
        rows.append(
            (
                game,
                f"{players}, {option_items(options)}",
                replay.last,
                f"{built:.2f}",
                animation.frames,
                f"{seconds:.2f}",
                f"{len(animation.data) // 1024} {kind}",
                f"{animation.other_size // 1024}",
            )
        )
    print()
    print_table(
        (
            "game",
            "table",
            "steps",
            "game played s",
            "frames",
            "summary s",
            "KB sent",
            "KB other format",
        ),
        rows,
    )
    print_load("after")


if __name__ == "__main__":
    main()
