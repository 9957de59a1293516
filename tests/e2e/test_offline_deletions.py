"""A game's board or thread deleted while the bot was down (killed, so no event reached it):
the next start finds out. A missing board is posted again and the player to act pinged; a
missing thread ends the game, as when either is deleted while the bot runs."""

from __future__ import annotations

from pathlib import Path

from bot.storage import Storage, open_storage
from tests.e2e.conftest import Launcher
from tests.e2e.driver import (
    eventually,
    is_board,
    move_number,
    newest_board,
    play_one_move,
    player_to_act,
    start_game,
)
from tests.e2e.fake_discord import JSON, FakeDiscord, FakeMessage
from tests.e2e.process import BotProcess, connected, process_env

GAME = "cock-and-bull"
THREAD_GONE = "The game's thread was deleted, so the game ended."


async def started(
    fake: FakeDiscord, launch: Launcher, tmp_path: Path
) -> tuple[BotProcess, list[JSON], FakeMessage]:
    """A bot process with a two-player game under way, its board shown and saved as shown
    (the players pinged on it): the players and the board."""
    database = tmp_path / "parlour.sqlite3"
    bot = await launch(tmp_path, process_env(fake, database), forked=True)
    await connected(fake, bot, 1)
    players = [fake.make_user("Ana"), fake.make_user("Leo")]
    board = await start_game(fake, players[0], GAME, joiners=players[1:])
    reader = await open_storage(f"sqlite:///{database}", inspect=True)
    try:
        await eventually(lambda: _shown(reader))
    finally:
        await reader.close()
    return bot, players, board


async def _shown(reader: Storage) -> bool:
    """The game's board is saved as showing its step."""
    (row,) = await reader.games(status="active")
    return row.shown_step == row.step


def ping_after(fake: FakeDiscord, board: FakeMessage) -> FakeMessage | None:
    """The bot's ping posted in the board's thread after it, if any."""
    return fake.latest_message(
        board.channel_id, lambda m: m.id > board.id and m.content.startswith("<@")
    )


async def restart(fake: FakeDiscord, launch: Launcher, tmp_path: Path) -> BotProcess:
    bot = await launch(tmp_path, process_env(fake, tmp_path / "parlour.sqlite3"), forked=True)
    await connected(fake, bot, 2)
    return bot


async def games_listed(fake: FakeDiscord, user: JSON) -> str:
    listing = (await (await fake.slash(user, "games")).response()).message
    assert listing is not None and listing.ephemeral
    return str(listing.embeds[0]["description"])


async def test_a_board_deleted_while_the_bot_was_down_is_posted_again(
    fake: FakeDiscord, launch: Launcher, tmp_path: Path
) -> None:
    first, players, board = await started(fake, launch, tmp_path)
    thread_id, step = board.channel_id, move_number(board)
    await first.kill()
    await fake.delete_message(board)

    second = await restart(fake, launch, tmp_path)
    again = await fake.wait_for(lambda: fake.latest_message(thread_id, is_board))
    assert again.id != board.id and move_number(again) == step
    actor = player_to_act(again, players)
    assert actor is not None
    ping = await fake.wait_for(lambda: ping_after(fake, again))
    assert f"<@{actor['id']}>" in ping.content and " your turn: " in ping.content, ping.content
    assert f"<#{thread_id}>" in await games_listed(fake, players[1])
    # The new board plays on.
    up = await play_one_move(fake, players, again)
    assert move_number(newest_board(fake, up)) == step + 1
    second.assert_clean()


async def test_a_thread_deleted_while_the_bot_was_down_ends_the_game(
    fake: FakeDiscord, launch: Launcher, tmp_path: Path
) -> None:
    first, players, board = await started(fake, launch, tmp_path)
    lobby = fake.messages(fake.channel_id)[0]
    await first.kill()
    await fake.delete_channel(board.channel_id)

    second = await restart(fake, launch, tmp_path)
    await fake.wait_for(lambda: THREAD_GONE in lobby.embeds[0]["description"] or None)
    assert not lobby.buttons
    assert await games_listed(fake, players[0]) == (
        "No games right now. `/help` lists the games to start."
    )
    second.assert_clean()
