"""Your turn reaches you, through the real bot process (`python -m bot`) and the fake
Discord, across kills (SIGKILL: no shutdown code runs): one DM per turn and none while the
member plays, never a second one for a turn after a restart; a member whose DMs are closed
pinged instead and told once; `quiet` without a mention; `/my-games`.

A member watches a game for `NOTIFY_WATCHING` seconds after a click in it (here a few, so
that being away takes seconds, not minutes); `NOTIFY_DM_EVERY` is 0, so that each turn's DM
goes at once (the minute between DMs, and the folding, are `test_notify.py`'s).
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

from bot.storage import open_storage
from tests.e2e.conftest import Launcher
from tests.e2e.driver import (
    human_turn,
    is_board,
    move_number,
    newest_board,
    open_panel,
    play_one_move,
    player_to_act,
    prompt,
    start_game,
)
from tests.e2e.fake_discord import FakeDiscord, FakeMessage
from tests.e2e.process import BotProcess, connected, process_env
from tests.e2e.storm import Storm
from tests.e2e.test_notify import (
    BOARD_LINK,
    RISK,
    choose,
    my_games_lists_waiting_first,
    pings,
    sent_with,
    three_games_of_ana,
)

GAME = "cock-and-bull"
WATCHING = 3.0  # seconds a member watches a game after a click in it (NOTIFY_WATCHING)
REFUSED = "could not send you a direct message"


class Process:
    """The bot process on one SQLite file, killed and started again at will."""

    def __init__(self, fake: FakeDiscord, launch: Launcher, folder: Path) -> None:
        self.fake, self.launch, self.folder = fake, launch, folder
        self.starts = 0
        self.bot: BotProcess | None = None
        self.logs: list[str] = []  # each process's log, once killed

    async def start(self) -> None:
        env = process_env(
            self.fake,
            self.folder / "parlour.sqlite3",
            NOTIFY_WATCHING=str(WATCHING),
            NOTIFY_DM_EVERY="0",
        )
        self.bot = await self.launch(self.folder, env, forked=True)
        self.starts += 1
        await connected(self.fake, self.bot, self.starts)

    async def kill(self) -> None:
        assert self.bot is not None
        await self.bot.kill()
        self.bot.assert_clean()
        self.logs.append(self.bot.log)


class Away:
    """When a member last clicked, as the test saw it: `away()` waits until they no longer
    watch the game (what standing up from the table for a few minutes does)."""

    def __init__(self) -> None:
        self.clicked_at = time.monotonic()

    def clicked(self) -> None:
        self.clicked_at = time.monotonic()

    async def away(self) -> None:
        # The bot saw the click a little after the test sent it: a second more.
        await asyncio.sleep(max(0.0, self.clicked_at + WATCHING + 1.0 - time.monotonic()))


async def test_a_slow_risk_game_dms_once_a_turn_none_while_playing_and_none_again_after_a_kill(
    fake: FakeDiscord, launch: Launcher, tmp_path: Path
) -> None:
    """Ana chose DMs, Leo the ping. Over Leo's slow turns Ana is away: as her turn begins
    she gets one DM linking to the board up. Over his quick ones she watches (she opens her
    cards meanwhile): none. Her own moves, many a turn, send nothing. Right after a DM the
    process is killed and the board deleted while it is down: the next start posts the
    board again and announces her turn again, but sends no second DM; her next turn's DM
    still comes, linking to the new board."""
    process = Process(fake, launch, tmp_path)
    await process.start()
    storm = Storm(fake, seed=11)
    table = await storm.open(RISK, ("Ana", "Leo"))
    ana, leo = table.players
    assert "a direct message" in await choose(fake, ana, "dm")
    ana_seen = Away()
    dms = watched = leo_turns = 0
    slow, killed, previous = False, False, None
    for _ in range(3000):
        if dms >= 4 and watched >= 2 and killed:
            break
        assert not storm.finished(table), "the game ended first"
        board = storm.board(table)
        actor = player_to_act(board, table.players) if board and board.components else None
        if board is None or actor is None:
            await asyncio.sleep(0.02)  # the bot is at work: the next board comes
            continue
        if actor is leo and previous is not leo:
            leo_turns += 1
            slow = leo_turns % 2 == 1
        if actor is ana and previous is leo:  # Ana's turn began
            if slow:
                dms += 1
                # This turn's DM comes after this turn's ping (the one before was deleted
                # as Leo's came): any other DM (for a turn she watched, or a second for a
                # turn) came before it, and is counted.
                ping = await fake.wait_for(
                    lambda: fake.latest_message(
                        table.thread_id, lambda msg: msg.content.startswith("**Ana** your turn")
                    )
                )
                sent = await fake.wait_for(
                    lambda p=ping: [m for m in fake.dms(ana) if m.id > p.id] or None
                )
                assert len(fake.dms(ana)) == dms, [m.content for m in fake.dms(ana)]
                link = BOARD_LINK.search(sent[0].content)
                assert link is not None, sent[0].content
                assert link.groups() == (str(fake.guild_id), str(table.thread_id), str(board.id))
                assert "Risk #" in sent[0].content and "Your turn" in sent[0].content
                if dms == 2 and not killed:
                    board = await killed_and_posted_again(process, fake, board)
                    killed = True
            else:
                watched += 1
        previous = actor
        if actor is leo and slow:
            await ana_seen.away()  # Leo thinks it over
        elif actor is leo:
            await open_panel(fake, ana, board, "My cards & mission")  # Ana watches
            ana_seen.clicked()
        await storm.play_turn(table)
        if actor is ana:
            ana_seen.clicked()
    assert dms >= 4 and watched >= 2 and killed, (dms, watched, killed)
    assert fake.dms(leo) == []
    await process.kill()
    # Every ping names Ana without a mention (the one she gets when her DMs are refused
    # aside), and mentions Leo.
    texts = [m.content for m in pings(fake, table.thread_id)] + [
        str(c.json["content"])
        for c in fake.calls
        if isinstance(c.json, dict) and "turn" in str(c.json.get("content"))
    ]
    assert not any(f"<@{ana['id']}>" in text for text in texts)
    assert any(text.startswith("**Ana** your turn") for text in texts)
    assert any(text.startswith(f"<@{leo['id']}> your turn") for text in texts)


async def killed_and_posted_again(
    process: Process, fake: FakeDiscord, board: FakeMessage
) -> FakeMessage:
    """Kill the process right after Ana's DM, delete the board while it is down, start it
    again: the board is posted again (the same step) and her turn announced again."""
    await process.kill()
    thread_id, step = board.channel_id, move_number(board)
    announced = len([c for c in fake.calls if "**Ana** your turn" in str(c.json)])
    await fake.delete_message(board)
    await process.start()
    again = await fake.wait_for(lambda: fake.latest_message(thread_id, is_board))
    assert again.id != board.id and move_number(again) == step
    await fake.wait_for(
        lambda: (
            len([c for c in fake.calls if "**Ana** your turn" in str(c.json)]) > announced or None
        )
    )
    # Ana is away still, as when her DM went out: a second one would go now (not dropped
    # for a click of hers).
    await asyncio.sleep(WATCHING)
    return again


async def test_a_member_whose_dms_are_closed_is_pinged_and_told_once_across_restarts(
    fake: FakeDiscord, launch: Launcher, tmp_path: Path
) -> None:
    """Ana chose DMs but closed them; Leo chose `quiet`. Ana's turn comes while she is away:
    Discord refuses the DM (50007), so she is pinged in the thread instead. The process is
    killed before she clicks again; after the start, her next click tells her why, once.
    Killed and started again after that, she is pinged (no DM tried) and never told again.
    Leo is named in every ping, never mentioned."""
    process = Process(fake, launch, tmp_path)
    await process.start()
    ana, leo = fake.make_user("Ana"), fake.make_user("Leo")
    fake.close_dms(ana)
    await choose(fake, ana, "dm")
    await choose(fake, leo, "quiet")
    board = await start_game(fake, leo, GAME, joiners=[ana])
    thread, players = board.channel_id, [ana, leo]
    ana_seen = Away()

    def mentioned() -> list[FakeMessage]:
        return [m for m in pings(fake, thread) if m.content.startswith(f"<@{ana['id']}> ")]

    def refused() -> int:
        return len([c for c in fake.calls if fake.is_dm(c) and c.status == 403])

    def notes() -> list[str]:
        return [m.content for m in fake.ephemeral_for(ana) if REFUSED in m.content]

    async def play_until_anas_turn(up: FakeMessage) -> FakeMessage:
        """Moves (Ana away while Leo plays) until Ana's turn begins after Leo's, the roll
        for the first turn over: the board then up."""
        for _ in range(200):
            ready = await human_turn(fake, players, newest_board(fake, up))
            assert ready is not None, "the game ended first"
            actor = player_to_act(ready, players)
            if actor is leo:
                await ana_seen.away()
            up = await play_one_move(fake, players, ready)
            if actor is ana:
                ana_seen.clicked()
            begun = "first turn" not in prompt(up) and player_to_act(up, players) is ana
            if actor is leo and begun:
                return up
        raise AssertionError("Ana's turn never came")

    board = await play_until_anas_turn(board)
    fallback = await fake.wait_for(lambda: mentioned()[-1:] or None)
    assert "your turn" in fallback[0].content
    assert sent_with(fake, fallback[0])["allowed_mentions"]["users"] == [int(ana["id"])]
    assert refused() == 1 and fake.dms(ana) == [] and notes() == []

    await process.kill()  # before Ana clicks again
    await process.start()
    board = await play_one_move(fake, players, await human_turn(fake, players, board) or board)
    told = await fake.wait_for(lambda: notes() or None)
    assert len(told) == 1 and "/settings me" in told[0]

    await process.kill()
    await process.start()
    pinged = len(mentioned())
    board = await play_until_anas_turn(board)
    # Pinged again, with the mention: her DMs were refused within the hour (kept).
    await fake.wait_for(lambda: len(mentioned()) > pinged or None)
    for _ in range(2):  # her click, and the next: a note would have come with the first
        board = await play_one_move(fake, players, await human_turn(fake, players, board) or board)
    assert refused() == 1 and notes() == told and fake.dms(ana) == []
    await process.kill()
    # One line in the log for the refused DM, no error (each process's log is clean).
    assert sum(log.count("takes no DMs") for log in process.logs) == 1
    # Leo chose quiet: named in his pings, never mentioned.
    texts = [str(c.json.get("content")) for c in fake.calls if isinstance(c.json, dict)]
    assert any(text.startswith("**Leo** your turn") for text in texts)
    assert not any(f"<@{leo['id']}>" in text for text in texts)
    for ping in pings(fake, thread):
        if "**Leo**" in ping.content:
            assert int(leo["id"]) not in sent_with(fake, ping)["allowed_mentions"].get("users", [])


async def test_the_timers_reminder_dms_once_even_when_a_kill_sends_it_again(
    fake: FakeDiscord, launch: Launcher, tmp_path: Path
) -> None:
    """A 20-second turn timer; Ana chose DMs. Halfway, she (away since she started the
    game) gets the reminder by DM, and Leo his mention. The process is killed at once, and
    the game row says the reminder was not sent yet (as after a kill before it was marked):
    the next start reminds again in the thread, but sends Ana no second reminder DM. Then
    the AI plays for them."""
    database = tmp_path / "parlour.sqlite3"
    ana, leo = fake.make_user("Ana"), fake.make_user("Leo")
    storage = await open_storage(f"sqlite:///{database}")
    try:
        await storage.set_guild_turn_timer(fake.guild_id, 20)
        await storage.set_notify(fake.guild_id, int(ana["id"]), "dm")
    finally:
        await storage.close()
    process = Process(fake, launch, tmp_path)
    await process.start()
    board = await start_game(fake, ana, GAME, joiners=[leo])  # both to roll for the first turn

    def reminders() -> list[str]:
        return [
            str(c.json["content"])
            for c in fake.calls
            if isinstance(c.json, dict) and "still your turn" in str(c.json.get("content"))
        ]

    def reminder_dms() -> list[FakeMessage]:
        return [m for m in fake.dms(ana) if m.content.startswith("⏰ Still your turn")]

    await fake.wait_for(lambda: reminder_dms() or None)
    await process.kill()
    assert len(reminders()) == 1 and reminders()[0].startswith(f"<@{leo['id']}> **Ana** ⏰")
    storage = await open_storage(f"sqlite:///{database}")
    try:
        async with storage._transaction() as db:  # the kill came before the mark
            assert await db.execute("UPDATE games SET reminded = 0") == 1
    finally:
        await storage.close()
    await process.start()
    await fake.wait_for(lambda: len(reminders()) == 2 or None)  # reminded again
    await fake.wait_for(lambda: move_number(newest_board(fake, board)) >= 1 or None, timeout=60)
    assert len(reminder_dms()) == 1
    await process.kill()


async def test_my_games_lists_three_games_across_two_channels_waiting_ones_first(
    fake: FakeDiscord, launch: Launcher, tmp_path: Path
) -> None:
    process = Process(fake, launch, tmp_path)
    await process.start()
    ana, _leo, boards = await three_games_of_ana(fake)
    await my_games_lists_waiting_first(fake, ana, boards)
    await process.kill()
