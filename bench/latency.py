"""Interaction → first response latency of the real bot, played through the fake Discord.

One process runs a FakeDiscord and a real ParlourBot (temporary SQLite database). Two fake
members play Cock & Bull games by clicking, back to back with no think time, until enough
Roll clicks are collected. For every interaction the fake times from dispatching
INTERACTION_CREATE to the bot's callback POST having fully arrived (the board edit with
the saved move and the rendered PNG).

Run: .venv/bin/python -m bench.latency [--rolls N]
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import tempfile
import time
from collections import defaultdict
from collections.abc import Awaitable
from dataclasses import dataclass, field
from pathlib import Path
from random import Random
from typing import Any

from bench.common import percentile, print_table
from bot.client import ParlourBot
from bot.settings import Settings
from tests.e2e.driver import move_number, player_to_act
from tests.e2e.fake_discord import FakeDiscord, FakeMessage, Interaction, RestCall

JSON = dict[str, Any]
GAME = "cock-and-bull"
DEADLINE_S = 3.0
RESPONSE_TIMEOUT_S = 10.0
WATCHED_LOGGERS = ("discord", "bot", "cogs")
KINDS = ("/cock-and-bull new", "Join", "Start", "Roll one die", "Roll", "other choices")


class TimedFake(FakeDiscord):
    """A FakeDiscord that stamps when each interaction is sent and when its callback lands."""

    def __init__(self) -> None:
        super().__init__()
        self.sent_at: dict[str, float] = {}
        self.answered_at: dict[str, float] = {}

    async def __aenter__(self) -> TimedFake:
        await self.start()
        return self

    def _dispatch(self, event: str, data: JSON, intent: int | None = None) -> None:
        if event == "INTERACTION_CREATE":
            self.sent_at[data["token"]] = time.perf_counter()
        super()._dispatch(event, data, intent)

    def _callback(self, call: RestCall, interaction_id: str, token: str) -> JSON | None:
        self.answered_at.setdefault(token, time.perf_counter())
        return super()._callback(call, interaction_id, token)


@dataclass
class Log:
    """Latencies in ms per kind of action, plus responses that never came."""

    latencies: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    missing: int = 0

    def count(self, kind: str) -> int:
        return len(self.latencies[kind])


class _ErrorCount(logging.Handler):
    """Counts errors logged by the client or the bot."""

    def __init__(self) -> None:
        super().__init__(level=logging.ERROR)
        self.errors = 0

    def emit(self, record: logging.LogRecord) -> None:
        self.errors += 1


async def interact(
    fake: TimedFake, log: Log, kind: str, sending: Awaitable[Interaction]
) -> FakeMessage | None:
    """Send one interaction (an awaitable from the fake), wait for its callback, log it."""
    rec = await sending
    try:
        callback = await rec.response(timeout=RESPONSE_TIMEOUT_S)
    except TimeoutError:
        log.missing += 1
        return None
    elapsed = fake.answered_at[rec.token] - fake.sent_at[rec.token]
    log.latencies[kind].append(elapsed * 1000)
    if callback.message is not None and callback.message.ephemeral:
        raise RuntimeError(f"{kind}: the bot refused: {callback.message.content}")
    return callback.message


async def start_game(fake: TimedFake, log: Log, host: JSON, guest: JSON) -> FakeMessage:
    """Open a lobby, join, start; return the board posted in the new thread."""
    threads_before = len(fake.threads)
    lobby = await interact(fake, log, "/cock-and-bull new", fake.slash(host, GAME, "new"))
    if lobby is None:
        raise RuntimeError("no lobby was posted")
    await interact(fake, log, "Join", fake.click(guest, lobby, label="Join"))
    await interact(fake, log, "Start", fake.click(host, lobby, label="Start"))
    return await fake.wait_for(lambda: new_board(fake, threads_before))


def new_board(fake: TimedFake, threads_before: int) -> FakeMessage | None:
    """The board message of the newest thread, once there is a thread newer than before."""
    threads = fake.threads
    if len(threads) <= threads_before:
        return None
    thread_id = int(threads[-1]["id"])
    return fake.latest_message(thread_id, lambda m: bool(m.embeds and m.attachments))


async def play_game(fake: TimedFake, log: Log, players: list[JSON], rng: Random) -> None:
    """Play one game to the end, each move a random one of the offered buttons."""
    board = await start_game(fake, log, players[0], players[1])
    while board.buttons:
        actor = player_to_act(board, players)
        if actor is None:
            raise RuntimeError("nobody to act, yet the board has buttons")
        label = rng.choice([b["label"] for b in board.buttons])
        kind = label if label.startswith("Roll") else "other choices"
        step = move_number(board)
        await interact(fake, log, kind, fake.click(actor, board, label=label))
        await moved_past(fake, board, step)
    await fake.wait_for(
        lambda: fake.latest_message(board.channel_id, lambda m: m.content.startswith("🏁"))
    )


async def moved_past(fake: TimedFake, board: FakeMessage, step: int) -> None:
    """Wait until the board shows a move after `step`."""
    await fake.wait_for(lambda: move_number(board) > step or None)


async def run_bot(fake: TimedFake, database: Path) -> tuple[ParlourBot, asyncio.Task[None]]:
    """Start the real bot against the fake, as `python -m bot` would."""
    settings = Settings(
        token=fake.token,
        database_path=str(database),
        api_base=fake.api_base,
        gateway_url=fake.gateway_url,
        bot_move_delay=0.0,
    )
    bot = ParlourBot(settings, guild_ready_timeout=0.1)
    await bot.login(fake.token)
    task = asyncio.create_task(bot.connect())
    await asyncio.wait_for(bot.wait_until_ready(), 10)
    return bot, task


async def measure(rolls: int, seed: str) -> tuple[Log, int, float]:
    """Play games until `rolls` Roll clicks are logged; return (log, games, seconds)."""
    log, rng, games = Log(), Random(seed), 0
    start = time.perf_counter()
    async with TimedFake() as fake:
        with tempfile.TemporaryDirectory() as tmp:
            bot, task = await run_bot(fake, Path(tmp) / "parlour.sqlite3")
            try:
                players = [fake.make_user("Ana"), fake.make_user("Leo")]
                while log.count("Roll") < rolls:
                    await play_game(fake, log, players, rng)
                    players.reverse()  # alternate the host
                    games += 1
            finally:
                await bot.close()
                await task
        if fake.faults:
            print("fake discord faults:", *fake.faults, sep="\n  ")
    return log, games, time.perf_counter() - start


def report(log: Log, games: int, seconds: float, errors: int) -> None:
    """Print the latency table."""
    rows = []
    everything = [v for values in log.latencies.values() for v in values]
    ordered = [(kind, log.latencies[kind]) for kind in KINDS if log.latencies[kind]]
    for kind, values in [*ordered, ("all interactions", everything)]:
        over = sum(v > DEADLINE_S * 1000 for v in values)
        stats = (percentile(values, p) for p in (50, 90, 99))
        rows.append((kind, len(values), *(f"{s:.1f}" for s in stats), f"{max(values):.1f}", over))
    print(f"interaction → first response (ms), {games} games in {seconds:.0f} s")
    print_table(("action", "count", "p50", "p90", "p99", "max", "> 3 s"), rows)
    print(f"no response within {RESPONSE_TIMEOUT_S:.0f} s: {log.missing}; errors logged: {errors}")


def main() -> None:
    """Parse arguments, play, report."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rolls", type=int, default=1000, help="Roll clicks to collect")
    parser.add_argument("--seed", default="bench-latency", help="seed of the players' choices")
    args = parser.parse_args()
    counter = _ErrorCount()
    for name in WATCHED_LOGGERS:
        logging.getLogger(name).addHandler(counter)
    log, games, seconds = asyncio.run(measure(args.rolls, args.seed))
    report(log, games, seconds, counter.errors)


if __name__ == "__main__":
    main()
