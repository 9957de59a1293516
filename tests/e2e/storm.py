"""Members clicking whatever the bot shows them, at random, in several games at once.

The storm the table runtime must weather: mostly the player to act picks something the
newest board (or their private panel) offers — often what moves the game on, so that every
game ends — and now and then a player clicks out of turn, an outsider clicks, or someone
clicks an old board. Every click must get an answer in time; the caller may kill and
restart the bot between clicks. Used by the restart-storm test and by `bench.runtime`.
"""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from random import Random
from typing import Any

from tests.e2e.driver import (
    Choice,
    choose,
    first_offered,
    is_board,
    is_result,
    offered,
    open_lobby,
    player_to_act,
)
from tests.e2e.fake_discord import CB_MODAL, JSON, FakeDiscord, FakeMessage, Interaction

HOSTED_BY = re.compile(r"hosted by <@(\d+)>")
RANGE = re.compile(r"from (\d+) to (\d+)")
# Buttons of every board that make no move: the way out, and the board read another way.
NOT_A_MOVE = ("Resign or end…", "Text board", "Zoom")
ANSWER_WAIT = 5.0  # seconds: far past Discord's 3, to tell "late" from "never"
# Seconds a game may show nothing to click (the bot at work, a restart) before a storm gives
# up: far past a restart and its catch-up.
IDLE_LIMIT = 60.0
START_AGAIN_AFTER = 5.0  # seconds with no first board before a host clicks Start again


@dataclass(frozen=True)
class Spec:
    """A game as the storm plays it: `/new` options, seats, and the labels the player to act
    prefers when offered (so that random play still ends in a few hundred clicks). Each
    game's is its test spec's `storm` (`tests/games.py`)."""

    game: str
    options: dict[str, Any] = field(default_factory=dict)
    humans: int = 2
    bots: int = 0
    prefer: tuple[Choice, ...] = ()
    panel: str | None = None  # the private panel's button, for games with secret moves


@dataclass
class Table:
    spec: Spec
    players: list[JSON]
    thread_id: int


@dataclass
class Tally:
    clicks: int = 0
    private: int = 0  # private answers: refusals (out of turn, out of date...) and panels
    unanswered: list[str] = field(default_factory=list)


class Storm:
    def __init__(self, fake: FakeDiscord, seed: int, outsiders: int = 1) -> None:
        self.fake = fake
        self.rng = Random(seed)
        self.outsiders = [fake.make_user(f"Outsider{n}") for n in range(outsiders)]
        self.tally = Tally()
        self._seen: dict[int, FakeMessage] = {}  # each game's board as last clicked
        self._idle_since: dict[int, float] = {}  # since when a game showed nothing to click

    async def open(self, spec: Spec, names: Sequence[str]) -> Table:
        """A lobby filled with `names` and the spec's bots, started: the game's table."""
        players = [self.fake.make_user(name) for name in names[: spec.humans]]
        lobby = await open_lobby(self.fake, players[0], spec.game.replace("_", "-"), spec.options)
        return await self._fill_and_start(spec, players, lobby)

    async def rematch(self, table: Table) -> Table:
        """A player clicks Rematch on the finished game's board; the others join the rematch
        lobby and its host starts it: the next game's table."""
        board = self.board(table)
        assert board is not None, "no final board"
        host = self.rng.choice(table.players)
        channel = int(self.fake.channel(table.thread_id)["parent_id"])
        await self._answered(await self.fake.click(host, board, label="Rematch"))
        # Posted after the final board (maybe by a storm click on it before the result).
        lobby = await self.fake.wait_for(
            lambda: next(
                (
                    m
                    for m in self.fake.messages(channel)
                    if m.id > board.id and m.content.startswith("🔁")
                ),
                None,
            )
        )
        # Its host is whoever clicked Rematch first (maybe a storm click before this one).
        found = HOSTED_BY.search(lobby.content)
        assert found is not None, lobby.content
        first = next(p for p in table.players if p["id"] == found[1])
        return await self._fill_and_start(
            table.spec, [first, *(p for p in table.players if p is not first)], lobby
        )

    async def _fill_and_start(self, spec: Spec, players: list[JSON], lobby: FakeMessage) -> Table:
        host = players[0]
        sides = [label for label in offered(lobby) if label.startswith("Join ")]
        for n, user in enumerate(players[1:], 1):
            # One Join button, or one a side (Horse Collar): the n-th joiner takes side n.
            label = sides[n % len(sides)] if sides else "Join"
            await self._answered(await self.fake.click(user, lobby, label=label))
        for _ in range(spec.bots):
            await self._answered(await self.fake.click(host, lobby, label="Add bot"))
        threads = set(self._thread_ids())
        await self._answered(await self.fake.click(host, lobby, label="Start"))
        thread_id = await self.fake.wait_for(
            lambda: next(
                (int(t["id"]) for t in self.fake.threads if int(t["id"]) not in threads), None
            )
        )
        return Table(spec, players, thread_id)

    def _thread_ids(self) -> list[int]:
        return [int(t["id"]) for t in self.fake.threads]

    def finished(self, table: Table) -> bool:
        return self.fake.latest_message(table.thread_id, is_result) is not None

    def report(self, tables: Sequence[Table]) -> str:
        """Where each unfinished game stands, for a failure message."""
        lines = [f"{self.tally}"]
        for table in tables:
            if not self.finished(table):
                board = self.board(table)
                text = board.embeds[0].get("description", "") if board else "no board"
                lines.append(
                    f"{table.spec.game}: {text[-300:]!r} {offered(board) if board else ''}"
                )
        return "\n".join(lines)

    def board(self, table: Table) -> FakeMessage | None:
        return self.fake.latest_message(table.thread_id, is_board)

    async def click(self, table: Table) -> None:
        """One member clicks one thing this game shows."""
        board = self.board(table)
        if board is None or not board.components:
            # Nothing to click yet: the bot is at work; but not for ever.
            idle = time.monotonic() - self._idle_since.setdefault(table.thread_id, time.monotonic())
            assert idle < IDLE_LIMIT, (
                f"nothing to click for {IDLE_LIMIT} s\n{self.report([table])}\n{self.fake.dump()}"
            )
            # A thread is made from its lobby message, and has its id.
            lobby = self.fake.message(table.thread_id)
            if board is None and idle > START_AGAIN_AFTER and "Start" in offered(lobby):
                # A Start cut short by a restart: its host clicks it again, as the lobby
                # still offers it.
                await self._answered(await self.fake.click(table.players[0], lobby, label="Start"))
                self._idle_since.pop(table.thread_id)
            await asyncio.sleep(0.05)
            return
        self._idle_since.pop(table.thread_id, None)
        clicks = self.tally.clicks
        actor = player_to_act(board, table.players)
        roll = self.rng.random()
        if actor is not None and roll < 0.8:
            await self._play(table, actor, board)
        elif roll < 0.88:
            await self._random_click(self.rng.choice(table.players), board)
        elif roll < 0.95:
            await self._random_click(self.rng.choice(self.outsiders), board)
        elif roll < 0.975:
            old = [m for m in self.fake.messages(table.thread_id) if is_board(m) and m.buttons]
            await self._random_click(self.rng.choice(table.players), self.rng.choice(old))
        elif (seen := self._stale_view(table)) is not None:
            # The board as a member's screen showed it before the last click changed it.
            user, button = self.rng.choice(table.players), self.rng.choice(seen.buttons)
            if self.may_click(user, str(button.get("label"))):
                rec = await self.fake.click(user, seen.id, custom_id=button["custom_id"], seen=seen)
                await self._answered(rec)
        self._seen[table.thread_id] = board.seen()
        if self.tally.clicks == clicks:
            # Nothing this roll may click (only Rematch, say, while the result is being
            # posted): give the bot the loop, or a caller's loop of clicks never ends.
            await asyncio.sleep(0.01)

    def _stale_view(self, table: Table) -> FakeMessage | None:
        """The game's board as it was at the last click, while that message still exists."""
        seen = self._seen.get(table.thread_id)
        if seen is None or self.fake.message(seen.id).deleted:
            return None
        seen.data["components"] = [
            {**row, "components": [c for c in row["components"] if not c.get("disabled")]}
            for row in seen.components
        ]
        return seen if seen.buttons else None

    async def play_turn(self, table: Table) -> bool:
        """The player to act makes one move (opening their panel or a number box first if
        it takes that); False when nobody may (the game is over, or the bot is at work)."""
        board = self.board(table)
        actor = player_to_act(board, table.players) if board and board.components else None
        if board is None or actor is None:
            return False
        await self._play(table, actor, board, leaving=False)
        return True

    async def _play(
        self, table: Table, user: JSON, board: FakeMessage, *, leaving: bool = True
    ) -> None:
        """The player to act: a preferred move half the time, else anything offered — on
        the board or, when the board offers them nothing, in their private panel (never
        the way out of the game unless `leaving`)."""
        target: FakeMessage | None = board
        shunned = {table.spec.panel} if leaving else {table.spec.panel, *NOT_A_MOVE}
        labels = [label for label in offered(board) if label not in shunned]
        if not labels and table.spec.panel:
            target = await self._panel(user, board, table.spec.panel)
            labels = offered(target) if target is not None else []
        if target is None or not labels:
            return
        preferred = first_offered(target, table.spec.prefer) if self.rng.random() < 0.5 else None
        await self._pick(user, target, preferred or self.rng.choice(labels))

    async def _panel(self, user: JSON, board: FakeMessage, label: str) -> FakeMessage | None:
        rec = await self.fake.click(user, board, label=label)
        callback = await self._answered(rec)
        return callback.message if callback is not None else None

    async def _random_click(self, user: JSON, board: FakeMessage) -> None:
        labels = offered(board)
        if labels:
            await self._pick(user, board, self.rng.choice(labels))

    def may_click(self, user: JSON, label: str) -> bool:
        """Whether `user` may click a button labelled so (a storm of a test may rule some
        out): the moves it picks and the stale views it clicks go through here. Rematch is
        `rematch`'s alone: a random one (by an outsider, say) would host the next game."""
        return label != "Rematch"

    async def _pick(self, user: JSON, message: FakeMessage, label: str) -> None:
        if not self.may_click(user, label):
            return
        rec = await choose(self.fake, user, message, label)
        callback = await self._answered(rec)
        if callback is not None and callback.type == CB_MODAL:
            await self._type_a_number(user, rec, callback.data)

    async def _type_a_number(self, user: JSON, opened: Interaction, modal: JSON) -> None:
        """A number box: a number in its range, or now and then one just past it."""
        text = str(modal)
        found = RANGE.search(text)
        low, high = (int(found[1]), int(found[2])) if found else (1, 3)
        field_id = _text_input_id(modal["components"])
        value = str(self.rng.randint(low, high + (1 if self.rng.random() < 0.2 else 0)))
        await self._answered(await self.fake.submit_modal(user, opened, {field_id: value}))

    async def _answered(self, rec: Interaction) -> Any:
        self.tally.clicks += 1
        try:
            callback = await rec.response(timeout=ANSWER_WAIT)
        except TimeoutError:
            self.tally.unanswered.append(f"{rec.type} by {rec.user['username']}")
            return None
        if (
            callback.message is not None
            and callback.message.ephemeral
            and rec.message is not callback.message
        ):
            self.tally.private += 1
        return callback


def _text_input_id(components: Sequence[JSON]) -> str:
    for component in components:
        inner = component.get("components") or [component.get("component") or {}]
        for item in inner:
            if item.get("type") == 4:
                return str(item["custom_id"])
    raise AssertionError(f"no text input in {components}")
