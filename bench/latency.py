"""Interaction → first response latency of the real bot, per game, through the fake Discord.

For each game, one process runs a FakeDiscord and a real ParlourBot (temporary SQLite
database, `bot_move_delay=0`). Fake members open a lobby, join (with bot seats where a game
needs them to finish) and start, then play by clicking, back to back with no think time:
whoever the bot's own database says is to act picks a random component the newest board
offers them — a button or an option of a select menu (or, when all their moves are secret,
one in their private panel). For every interaction the fake times from dispatching
INTERACTION_CREATE to the bot's first callback having fully arrived: for a board move that
is the board edit with the saved move and the rendered picture; for a deferred click (a
Horse Collar shot) it is the deferral.

Run: .venv/bin/python -m bench.latency [--game NAME ...] [--moves N] [--seconds S]
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import tempfile
import time
from collections import defaultdict
from collections.abc import Awaitable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from random import Random
from typing import Any

from bench.common import add_game_option, print_load, print_table, selected_games, spread
from bot.client import ParlourBot
from bot.settings import Settings
from bot.storage import ACTIVE
from bot.ui.custom_ids import ButtonId, TableVerb, parse_choice
from rules.cock_and_bull import actions as cock_and_bull
from rules.core import Action
from rules.hold_your_horses import actions as hold_your_horses
from rules.horse_collar import actions as horse_collar
from rules.risk import actions as risk
from rules.winners_circle import actions as winners_circle
from tests.e2e.driver import is_board, move_number
from tests.e2e.fake_discord import (
    BUTTON,
    CB_DEFERRED_MESSAGE,
    CB_DEFERRED_UPDATE,
    CB_MESSAGE,
    STRING_SELECT,
    FakeDiscord,
    FakeMessage,
    Interaction,
    walk_components,
)

JSON = dict[str, Any]
DEADLINE_S = 3.0
RESPONSE_TIMEOUT_S = 10.0
WATCHED_LOGGERS = ("discord", "bot", "cogs")
OTHER = "other moves"
PANEL = "🔒 private panel"
REFUSED = "refused (out of date...)"


@dataclass(frozen=True)
class Setup:
    """How a game is played here: the verbs of its main move (by report kind), the options
    of `/<game> new`, how many humans and bot seats sit down, and the verbs a player always
    takes when offered (else every click is a random component)."""

    main: Mapping[str, str] = field(default_factory=dict)
    options: Mapping[str, Any] = field(default_factory=dict)
    humans: int = 2
    bots: int = 0
    prefer: frozenset[str] = frozenset()


SETUPS: dict[str, Setup] = {
    "cock_and_bull": Setup({cock_and_bull.Verb.ROLL: "Roll"}),
    "hold_your_horses": Setup({hold_your_horses.Verb.ROLL: "Roll"}),
    "winners_circle": Setup({winners_circle.Verb.MOVE: "Move"}),
    # Random aiming would hardly ever reach the target: an AI opponent's side does.
    "horse_collar": Setup({horse_collar.Verb.SHOOT: "Shoot"}, humans=1, bots=1),
    # Random clicks alone roll an attack about once in 40 clicks (menus, Back, End attacks):
    # a player attacks whenever they can, and rolls the attack they have picked.
    "risk": Setup(
        {risk.Verb.ROLL: "Attack (roll)", risk.Verb.BLITZ: "Attack (blitz)"},
        {"turn_limit": 10},
        prefer=frozenset(
            {risk.Verb.ATTACK_FROM, risk.Verb.ATTACK_TO, risk.Verb.ROLL, risk.Verb.BLITZ}
        ),
    ),
}


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

    def _callback(self, call: Any, interaction_id: str, token: str) -> JSON | None:
        self.answered_at.setdefault(token, time.perf_counter())
        return super()._callback(call, interaction_id, token)


@dataclass
class Log:
    """Latencies in ms per kind of interaction, responses that never came, refusals."""

    latencies: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    missing: int = 0
    refusals: list[str] = field(default_factory=list)
    games: int = 0
    notes: list[str] = field(default_factory=list)


@dataclass
class Run:
    """One game's bench: the fake, the bot, the players and what was logged."""

    game: str
    setup: Setup
    fake: TimedFake
    bot: ParlourBot
    players: list[JSON]
    rng: Random
    log: Log
    until: float  # perf_counter time to stop at
    moves: int  # main moves to collect
    deferred: tuple[str, str] | None = None  # (kind, token): the last click was deferred

    def done(self) -> bool:
        main = sum(len(self.log.latencies[k]) for k in set(self.setup.main.values()))
        return main >= self.moves or time.perf_counter() >= self.until

    async def interact(
        self, kind: str, sending: Awaitable[Interaction], *, panel: bool = False
    ) -> FakeMessage | None:
        """Send one interaction, wait for its first callback, log it; the reply message."""
        rec = await sending
        try:
            callback = await rec.response(timeout=RESPONSE_TIMEOUT_S)
        except TimeoutError:
            self.log.missing += 1
            return None
        elapsed = self.fake.answered_at[rec.token] - self.fake.sent_at[rec.token]
        reply = callback.message
        if callback.type in (CB_DEFERRED_MESSAGE, CB_DEFERRED_UPDATE):
            self.deferred = (kind, rec.token)
        if callback.type == CB_MESSAGE and reply is not None and reply.ephemeral and not panel:
            self.log.refusals.append(f"{kind}: {reply.content}")
            kind = REFUSED
        self.log.latencies[kind].append(elapsed * 1000)
        return reply

    def preferred(self, component: list[tuple[str, str | None]]) -> bool:
        return any(button_id(*choice).verb in self.setup.prefer for choice in component)

    def kind(self, custom_id: str, value: str | None) -> str:
        verb = button_id(custom_id, value).verb
        return self.setup.main.get(verb, OTHER)


def button_id(custom_id: str, value: str | None) -> ButtonId:
    """The ButtonId of a button, or of a select menu's option."""
    return ButtonId.parse(custom_id) if value is None else parse_choice(custom_id, value)


def choices(
    message: FakeMessage, step: int, legal: set[Action]
) -> list[list[tuple[str, str | None]]]:
    """Per component of `message` (a button, a select menu), its choices for one of the
    `legal` actions at `step`: (custom_id, option value or None for a button)."""
    found: list[list[tuple[str, str | None]]] = []
    for c in walk_components(message.components):
        if c.get("disabled") or "custom_id" not in c:
            continue
        if c["type"] == BUTTON:
            options: list[tuple[str, str | None]] = [(c["custom_id"], None)]
        elif c["type"] == STRING_SELECT:
            options = [(c["custom_id"], o["value"]) for o in c.get("options", [])]
        else:
            continue
        options = [
            (cid, value)
            for cid, value in options
            if (bid := button_id(cid, value)).step == step and Action(bid.verb, bid.arg) in legal
        ]
        if options:
            found.append(options)
    return found


def peek_id(message: FakeMessage) -> str | None:
    """The custom id of the board's private-panel button (🔒), if it has one."""
    for c in walk_components(message.components):
        if (
            c["type"] == BUTTON
            and "custom_id" in c
            and ButtonId.parse(c["custom_id"]).verb == TableVerb.PEEK
        ):
            return str(c["custom_id"])
    return None


def newest_board(fake: FakeDiscord, thread_id: int) -> FakeMessage | None:
    """The newest board in the game's thread: games post a new one per chapter."""
    return fake.latest_message(thread_id, is_board)


async def pick(
    run: Run, user: JSON, message: FakeMessage, component: list[list[tuple[str, str | None]]]
) -> bool:
    """Click a random one of the components, or select a random option of it if it is a
    select menu; True if it was answered."""
    cid, value = run.rng.choice(run.rng.choice(component))  # a component, then an option
    if value is None:
        sending = run.fake.click(user, message, custom_id=cid)
    else:
        sending = run.fake.select(user, message, values=[value], custom_id=cid)
    return await run.interact(run.kind(cid, value), sending) is not None


async def move(run: Run, board: FakeMessage, step: int, actor: JSON, legal: set[Action]) -> bool:
    """`actor` makes a random move the board (or else their private panel) offers; False if
    nothing was offered to them."""
    if offered := choices(board, step, legal):
        if preferred := [c for c in offered if run.preferred(c)]:
            offered = preferred
        return await pick(run, actor, board, offered)
    peek = peek_id(board)
    if peek is None:
        return False
    panel = await run.interact(PANEL, run.fake.click(actor, board, custom_id=peek), panel=True)
    if panel is None or not (offered := choices(panel, step, legal)):
        return False
    return await pick(run, actor, panel, offered)


async def start(run: Run) -> tuple[int, int]:
    """Open a lobby, fill it, start; return (game id, thread id)."""
    fake, host = run.fake, run.players[0]
    threads_before = len(fake.threads)
    command = run.game.replace("_", "-")
    lobby = await run.interact(
        f"/{command} new", fake.slash(host, command, "new", options=dict(run.setup.options))
    )
    if lobby is None:
        raise RuntimeError("no lobby was posted")
    game_id = ButtonId.parse(lobby.buttons[0]["custom_id"]).game_id
    for user in run.players[1:]:
        join = next(b["label"] for b in lobby.buttons if b["label"].startswith("Join"))
        await run.interact("Join", fake.click(user, lobby, label=join))
    for _ in range(run.setup.bots):
        await run.interact("Add bot", fake.click(host, lobby, label="Add bot"))
    await run.interact("Start", fake.click(host, lobby, label="Start"))
    await fake.wait_for(lambda: len(fake.threads) > threads_before or None)
    thread_id = int(fake.threads[-1]["id"])
    await fake.wait_for(lambda: newest_board(fake, thread_id))
    return game_id, thread_id


async def play_game(run: Run) -> None:
    """Play one game until it ends or the run is done. Who acts is read from the bot's
    database; bots move on their own."""
    fake, service = run.fake, run.bot.service
    game_id, thread_id = await start(run)
    engine = service.engine(run.game)
    users = {int(p["id"]): p for p in run.players}
    while not run.done():
        table = await service.table(game_id)
        if table.row.status != ACTIVE:
            run.log.games += 1
            return
        board = newest_board(fake, thread_id)
        assert board is not None
        shown, step = move_number(board), table.row.step
        humans = sorted(engine.to_act(table.state) - table.autoplayed)
        moved, run.deferred = False, None
        if humans and shown == step:
            actor = run.rng.choice(humans)
            legal = set(engine.legal_actions(table.state, actor))
            moved = await move(run, board, step, users[actor], legal)
        seen = step if moved else min(shown, step)

        def changed(board: FakeMessage = board, seen: int = seen) -> bool | None:
            newest = newest_board(fake, thread_id)
            return (newest is not board or move_number(board) > seen) or None

        await fake.wait_for(changed, timeout=RESPONSE_TIMEOUT_S)
        if moved and run.deferred is not None:  # a deferred click: when its board came too
            kind, token = run.deferred
            shown_ms = (time.perf_counter() - fake.sent_at[token]) * 1000
            run.log.latencies[f"{kind} → board shown"].append(shown_ms)


async def run_bot(fake: TimedFake, database_url: str) -> tuple[ParlourBot, asyncio.Task[None]]:
    """Start the real bot against the fake, as `python -m bot` would."""
    settings = Settings(
        token=fake.token,
        database_url=database_url,
        api_base=fake.api_base,
        gateway_url=fake.gateway_url,
        bot_move_delay=0.0,
    )
    bot = ParlourBot(settings, guild_ready_timeout=0.1)
    await bot.login(fake.token)
    task = asyncio.create_task(bot.connect())
    await asyncio.wait_for(bot.wait_until_ready(), 10)
    return bot, task


async def measure(
    game: str, moves: int, seconds: float, seed: str, database_url: str | None = None
) -> Log:
    """Play `game` until `moves` main moves are logged or `seconds` have passed, on
    `database_url` (default: a temporary SQLite file)."""
    setup, log = SETUPS.get(game, Setup()), Log()
    async with TimedFake() as fake:
        with tempfile.TemporaryDirectory() as tmp:
            url = database_url or f"sqlite:///{Path(tmp) / 'parlour.sqlite3'}"
            bot, task = await run_bot(fake, url)
            try:
                if game not in bot.presenters:
                    log.notes.append("not loaded by the bot (cogs/games.py): skipped")
                    return log
                names = ("Ana", "Leo", "Mia", "Noa", "Eli", "Ida")
                players = [fake.make_user(names[n % len(names)]) for n in range(setup.humans)]
                until = time.perf_counter() + seconds
                run = Run(game, setup, fake, bot, players, Random(seed), log, until, moves)
                while not run.done():
                    await play_game(run)
                    players.append(players.pop(0))  # take turns hosting
            except Exception as e:  # a game being written may break: note it, go on
                log.notes.append(f"stopped: {type(e).__name__}: {str(e).splitlines()[0][:200]}")
            finally:
                await bot.close()
                await task
        if fake.faults:
            log.notes.extend(f"fake discord fault: {f}" for f in fake.faults)
    return log


def rows(game: str, log: Log) -> list[tuple[object, ...]]:
    """Per kind of interaction (main moves first), then all of them."""
    main = [
        k
        for kind in dict.fromkeys(SETUPS.get(game, Setup()).main.values())
        for k in (kind, f"{kind} → board shown")
    ]
    kinds = [*main, *(k for k in log.latencies if k not in main)]
    everything = [v for k, values in log.latencies.items() if "→" not in k for v in values]
    found = [(k, log.latencies[k]) for k in kinds if log.latencies[k]]
    return [
        (game, kind, len(values), *spread(values, (50, 90, 99)),
         sum(v > DEADLINE_S * 1000 for v in values))
        for kind, values in [*found, ("all interactions", everything)]
        if values
    ]  # fmt: skip


class _ErrorCount(logging.Handler):
    """Counts errors logged by the client or the bot."""

    def __init__(self) -> None:
        super().__init__(level=logging.ERROR)
        self.errors = 0

    def emit(self, record: logging.LogRecord) -> None:
        self.errors += 1


def main() -> None:
    """Parse arguments, play each game, report."""
    parser = argparse.ArgumentParser(description=__doc__)
    add_game_option(parser)
    parser.add_argument("--moves", type=int, default=150, help="main moves per game")
    parser.add_argument("--seconds", type=float, default=20, help="at most, per game")
    parser.add_argument("--seed", default="bench-latency", help="seed of the players' choices")
    args = parser.parse_args()
    counter = _ErrorCount()
    for name in WATCHED_LOGGERS:
        logging.getLogger(name).addHandler(counter)
    print_load("before")
    table, notes = [], []
    for game, _ in selected_games(args.game, need_presenter=True):
        counter.errors = 0
        start = time.perf_counter()
        log = asyncio.run(measure(game, args.moves, args.seconds, f"{args.seed}-{game}"))
        table.extend(rows(game, log))
        notes.append(
            f"{game}: {log.games} games finished in {time.perf_counter() - start:.0f} s; "
            f"no response within {RESPONSE_TIMEOUT_S:.0f} s: {log.missing}; "
            f"refused: {len(log.refusals)}; errors logged: {counter.errors}"
        )
        notes.extend(f"  {n}" for n in [*log.notes, *log.refusals[:3]])
        print_load(f"after {game}")
    print("interaction → first response (ms)")
    print_table(("game", "action", "count", "p50", "p90", "p99", "max", "> 3 s"), table)
    print(*notes, sep="\n")


if __name__ == "__main__":
    main()
