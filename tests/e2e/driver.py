"""Playing Parlour through the fake Discord the way members do: by reading and clicking."""

from __future__ import annotations

import asyncio
import io
import re
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from PIL import Image

from tests.e2e.fake_discord import (
    PATIENCE,
    STRING_SELECT,
    FakeDiscord,
    FakeMessage,
    Interaction,
    walk_components,
)

JSON = dict[str, Any]
PROMPT = re.compile(r"\*\*(?P<prompt>.+)\*\*$")  # the board's last line, bold
# What a player may pick: a button's or a select option's exact label, or a pattern it matches.
Choice = str | re.Pattern[str]


async def open_lobby(
    fake: FakeDiscord,
    host: JSON,
    game: str,
    options: dict[str, Any] | None = None,
    channel_id: int | None = None,
) -> FakeMessage:
    rec = await fake.slash(host, game, "new", options=options or {}, channel_id=channel_id)
    callback = await rec.response()
    assert callback.message is not None, "the lobby was not posted"
    assert not callback.message.ephemeral, callback.message.content
    return callback.message


async def click_ok(fake: FakeDiscord, user: JSON, message: FakeMessage, label: str) -> None:
    """Click and require that the bot did not answer with a private error."""
    rec = await fake.click(user, message, label=label)
    callback = await rec.response()
    if callback.message is not None and callback.message.ephemeral:
        raise AssertionError(f"{user['username']} clicking {label!r}: {callback.message.content}")


async def start_game(
    fake: FakeDiscord,
    host: JSON,
    game: str,
    joiners: Sequence[JSON] = (),
    bots: int = 0,
    options: dict[str, Any] | None = None,
    channel_id: int | None = None,
) -> FakeMessage:
    """Open a lobby (in `channel_id`, else the fake's first channel), fill it, click Start;
    returns the board message in the new thread."""
    lobby = await open_lobby(fake, host, game, options, channel_id)
    for user in joiners:
        await click_ok(fake, user, lobby, "Join")
    for _ in range(bots):
        await click_ok(fake, host, lobby, "Add bot")
    before = {int(t["id"]) for t in fake.threads}
    await fake.click(host, lobby, label="Start")

    def new_board() -> FakeMessage | None:
        for thread in fake.threads:
            if int(thread["id"]) not in before:
                return fake.latest_message(int(thread["id"]), is_board)
        return None

    return await fake.wait_for(new_board)


def is_board(message: FakeMessage) -> bool:
    """A game board: a message with an embed (the prompt) and a picture."""
    return bool(message.embeds and message.attachments)


def boards_in(fake: FakeDiscord, thread_id: int) -> list[FakeMessage]:
    """Every board message of a game's thread, oldest first (one per chapter)."""
    return [m for m in fake.messages(thread_id) if is_board(m)]


def board_message(fake: FakeDiscord) -> FakeMessage | None:
    """The newest game board in any game thread."""
    thread_ids = {int(t["id"]) for t in fake.threads}
    for message in reversed(fake.public_messages()):
        if message.channel_id in thread_ids and is_board(message):
            return message
    return None


def prompt(board: FakeMessage) -> str:
    lines = board.embeds[0]["description"].splitlines()
    match = PROMPT.match(lines[-1])
    assert match, lines[-1]
    return match["prompt"]


def move_number(board: FakeMessage) -> int:
    return int(board.embeds[0]["footer"]["text"].split()[-1])


def picture(board: FakeMessage) -> Image.Image:
    (attachment,) = board.attachments
    assert attachment.filename == "board.png"
    image = Image.open(io.BytesIO(attachment.data))
    image.load()
    return image


def player_to_act(board: FakeMessage, players: Sequence[JSON]) -> JSON | None:
    """The first player named (or mentioned) in the prompt, once no bot is named there (bots
    move on their own: a human clicking at the same moment would be told the board moved on)."""
    text = prompt(board)
    if "Bot " in text:
        return None
    named = []
    for p in players:
        at = min(
            (i for i in (text.find(p["username"]), text.find(f"<@{p['id']}>")) if i >= 0),
            default=-1,
        )
        if at >= 0:
            named.append((at, p))
    return min(named, key=lambda pair: pair[0])[1] if named else None


def private_replies(fake: FakeDiscord, user: JSON) -> list[str]:
    return [m.content for m in fake.ephemeral_for(user)]


async def eventually(check: Callable[[], Awaitable[bool]], timeout: float = PATIENCE) -> None:
    """Poll a condition the fake cannot see (the bot's database), every 20 ms."""
    deadline = asyncio.get_running_loop().time() + timeout
    while not await check():
        if asyncio.get_running_loop().time() > deadline:
            raise TimeoutError("condition not met in time")
        await asyncio.sleep(0.02)


# --- Cock & Bull by clicks -------------------------------------------------------------------

COCK_AND_BULL_CHOICES = (  # a player clicks the first of these that the board offers
    "Roll one die",
    "Roll",
    "Play red",
    "Flip their chip",
    "Remove their chip",
    "Take 1 point",
    "Place a new chip",
)


def is_result(message: FakeMessage) -> bool:
    return message.content.startswith("🏁")


def is_over(board: FakeMessage) -> bool:
    """The final board: nothing left to play, only a rematch to start."""
    return [b.get("label") for b in board.buttons] == ["Rematch"]


def newest_board(fake: FakeDiscord, board: FakeMessage) -> FakeMessage:
    """The newest board in `board`'s thread: a game posts a new one per chapter (a race)."""
    return fake.latest_message(board.channel_id, is_board) or board


def offered(message: FakeMessage) -> list[str]:
    """The labels of everything a message offers to pick: its buttons and select options."""
    labels = [str(b.get("label", "")) for b in message.buttons]
    for menu in walk_components(message.components):
        if menu["type"] == STRING_SELECT:
            labels.extend(str(o["label"]) for o in menu.get("options", []))
    return labels


def matches(label: str, choice: Choice) -> bool:
    """Whether `label` is `choice` (a label) or matches it (a pattern)."""
    return label == choice if isinstance(choice, str) else choice.search(label) is not None


def first_of(labels: Sequence[str], choices: Sequence[Choice]) -> str | None:
    """The first of `labels` that the first of `choices` (in their order) picks."""
    for choice in choices:
        for label in labels:
            if matches(label, choice):
                return label
    return None


def first_offered(message: FakeMessage, choices: Sequence[Choice]) -> str | None:
    """The label of the first of `choices` (in their order) that `message` offers."""
    return first_of(offered(message), choices)


async def choose(fake: FakeDiscord, user: JSON, message: FakeMessage, label: str) -> Interaction:
    """Pick the select option labelled `label`, or else click the button so labelled."""
    for menu in walk_components(message.components):
        if menu["type"] != STRING_SELECT:
            continue
        for option in menu.get("options", []):
            if option["label"] == label:
                values = [option["value"]]
                return await fake.select(user, message, values, custom_id=menu["custom_id"])
    return await fake.click(user, message, label=label)


async def choose_ok(fake: FakeDiscord, user: JSON, message: FakeMessage, label: str) -> None:
    """`choose`, and require that the bot did not answer with a private error (a private
    panel answered by editing itself is no error)."""
    rec = await choose(fake, user, message, label)
    callback = await rec.response()
    reply = callback.message
    if reply is not None and reply.ephemeral and reply is not message:
        raise AssertionError(f"{user['username']} choosing {label!r}: {reply.content}")


async def open_panel(fake: FakeDiscord, user: JSON, board: FakeMessage, label: str) -> FakeMessage:
    """Click the board's private-panel button; returns the panel shown to `user` alone."""
    callback = await (await fake.click(user, board, label=label)).response()
    panel = callback.message
    assert panel is not None and panel.ephemeral, f"{label!r} opened no private panel"
    return panel


async def play_one_move(
    fake: FakeDiscord,
    players: Sequence[JSON],
    board: FakeMessage,
    choices: Sequence[Choice] = COCK_AND_BULL_CHOICES,
    private_label: str | None = None,
) -> FakeMessage:
    """The named player picks the first of `choices` the board offers (a button or a select
    option) — or, when the board offers none, the first their private panel (opened with
    `private_label`) offers; returns the board that is up once the move is shown (a new one
    when the move ended a chapter)."""
    actor = player_to_act(board, players)
    assert actor is not None, prompt(board)
    target = board
    label = first_offered(board, choices)
    if label is None and private_label is not None:
        target = await open_panel(fake, actor, board, private_label)
        label = first_offered(target, choices)
    assert label is not None, f"none of {choices} offered to {actor['username']}"
    step = move_number(board)
    await choose_ok(fake, actor, target, label)
    await fake.wait_for(
        lambda: move_number(board) > step or newest_board(fake, board) is not board or None
    )
    return newest_board(fake, board)


async def human_turn(
    fake: FakeDiscord,
    players: Sequence[JSON],
    board: FakeMessage,
    choices: Sequence[Choice] = COCK_AND_BULL_CHOICES,
    private_label: str | None = None,
) -> FakeMessage | None:
    """Wait until one of `players` can pick one of `choices` (on the newest board or, with
    `private_label`, in their private panel) and return that board; None once the game is
    over and its result announced. Bots play meanwhile."""

    def ready() -> bool | None:
        up = newest_board(fake, board)
        over = fake.latest_message(board.channel_id, is_result) is not None
        can_pick = first_offered(up, choices) is not None or (
            private_label is not None and private_label in offered(up)
        )
        return over or (can_pick and player_to_act(up, players) is not None) or None

    await fake.wait_for(ready)
    if fake.latest_message(board.channel_id, is_result):
        return None
    return newest_board(fake, board)


async def play_to_the_end(
    fake: FakeDiscord,
    players: Sequence[JSON],
    board: FakeMessage,
    choices: Sequence[Choice] = COCK_AND_BULL_CHOICES,
    max_moves: int = 2000,
    private_label: str | None = None,
) -> int:
    """Play every human move until the game is over and its result is announced."""
    for moves in range(max_moves):
        up = await human_turn(fake, players, board, choices, private_label)
        if up is None:
            return moves
        board = await play_one_move(fake, players, up, choices, private_label)
    raise AssertionError("the game did not end")
