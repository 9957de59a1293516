"""Self-test of the fake Discord, driven through a tiny inline discord.py bot."""

from __future__ import annotations

import asyncio
import contextlib
import io
import re
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import aiohttp
import discord
import pytest
from discord import app_commands
from discord.ext import commands
from PIL import Image

from tests.e2e.fake_discord import (
    DEFAULT_BOT_PERMISSIONS,
    DriverError,
    FakeDiscord,
    FakeMessage,
    RestCall,
)

BotFactory = Callable[[], Awaitable["DemoBot"]]


def png_bytes() -> bytes:
    """A small red PNG."""
    buffer = io.BytesIO()
    Image.new("RGB", (8, 8), "red").save(buffer, format="PNG")
    return buffer.getvalue()


class Counter(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]], template=r"demo:(?P<n>[0-9]+)"
):
    """A button that counts its clicks in its custom_id; disabled from 2 on."""

    def __init__(self, n: int) -> None:
        button: discord.ui.Button[discord.ui.View] = discord.ui.Button(
            label=f"Count {n}", custom_id=f"demo:{n}", disabled=n >= 2
        )
        super().__init__(button)
        self.n = n

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> Counter:
        return cls(int(match["n"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        n = self.n + 1
        await interaction.response.edit_message(content=f"count={n}", view=counter_view(n))


def counter_view(n: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(Counter(n))
    return view


class ColourView(discord.ui.View):
    """A string select that reports the picked colour."""

    @discord.ui.select(
        custom_id="colour",
        placeholder="Colour",
        options=[
            discord.SelectOption(label="Red", value="red"),
            discord.SelectOption(label="Blue", value="blue"),
        ],
    )
    async def colour(
        self, interaction: discord.Interaction, select: discord.ui.Select[Any]
    ) -> None:
        await interaction.response.edit_message(content=f"picked {select.values[0]}", view=None)


class QuestionModal(discord.ui.Modal, title="Question"):
    answer: discord.ui.TextInput[QuestionModal] = discord.ui.TextInput(
        label="Answer", custom_id="answer"
    )

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"answer={self.answer.value}")


demo = app_commands.Group(name="demo", description="Fake Discord self-test")


@demo.command(description="Reply with a counter button")
async def ping(interaction: discord.Interaction) -> None:
    await interaction.response.send_message("count=0", view=counter_view(0))


@demo.command(description="Open a thread with a picture and a button")
async def thread(interaction: discord.Interaction) -> None:
    await interaction.response.defer(ephemeral=True, thinking=True)
    assert isinstance(interaction.channel, discord.TextChannel)
    try:
        created = await interaction.channel.create_thread(
            name="game", type=discord.ChannelType.public_thread
        )
        picture = discord.File(io.BytesIO(png_bytes()), "board.png")
        await created.send("board", file=picture, view=counter_view(0))
    except discord.Forbidden as error:
        await interaction.followup.send(f"forbidden {error.code}")
        return
    await interaction.followup.send(f"thread {created.id}")


@demo.command(description="Reply only to the caller")
async def secret(interaction: discord.Interaction) -> None:
    await interaction.response.send_message("for your eyes only", ephemeral=True)


@demo.command(description="Pick a colour")
async def pick(interaction: discord.Interaction) -> None:
    await interaction.response.send_message("pick one", view=ColourView())


@demo.command(description="Ask a question in a modal")
async def ask(interaction: discord.Interaction) -> None:
    await interaction.response.send_modal(QuestionModal())


@demo.command(description="Answer after a pause, deferred first or not")
async def slow(interaction: discord.Interaction, wait: float, defer: bool) -> None:
    assert isinstance(interaction.channel, discord.TextChannel)
    try:
        if defer:
            await interaction.response.defer()
        await asyncio.sleep(wait)
        if defer:
            await interaction.followup.send("done")
        else:
            await interaction.response.send_message("done")
    except discord.HTTPException as error:
        # Said in the channel: a failing command would be logged as an error.
        await interaction.channel.send(f"refused {error.status} {error.code}")


@demo.command(description="Say the caller's locale and the guild's")
async def locales(interaction: discord.Interaction) -> None:
    guild_locale = interaction.guild_locale
    assert guild_locale is not None and interaction.guild is not None
    said = f"{interaction.locale.value} {guild_locale.value} {interaction.guild.preferred_locale}"
    await interaction.response.send_message(said)


@app_commands.command(description="Echo the options back")
async def echo(
    interaction: discord.Interaction,
    text: app_commands.Range[str, 1, 20],
    times: app_commands.Range[int, 1, 3],
    loud: bool,
    who: discord.Member,
) -> None:
    said = " ".join([text] * times)
    await interaction.response.send_message(f"{said.upper() if loud else said} for {who.name}")


class DemoBot(commands.Bot):
    def __init__(self) -> None:
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=discord.Intents.default(),
            guild_ready_timeout=0.1,
        )
        self.tree.add_command(demo)
        self.tree.add_command(echo)

        self.readies = 0

    async def setup_hook(self) -> None:
        self.add_dynamic_items(Counter)
        await self.tree.sync()

    async def on_ready(self) -> None:
        self.readies += 1

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        """No 5 s pause before identifying again (discord.py's default, for Discord's limit
        of one IDENTIFY per 5 s): the fake has no such limit."""


@pytest.fixture
async def start_bot(fake: FakeDiscord) -> AsyncIterator[BotFactory]:
    """Start DemoBot instances against the fake; all are closed at teardown."""
    running: list[tuple[DemoBot, asyncio.Task[None]]] = []

    async def start() -> DemoBot:
        bot = DemoBot()
        await bot.login(fake.token)
        running.append((bot, asyncio.create_task(bot.connect())))
        await asyncio.wait_for(bot.wait_until_ready(), 5)
        return bot

    yield start
    for bot, task in running:
        await bot.close()
        await task


@pytest.fixture
async def bot(start_bot: BotFactory) -> DemoBot:
    return await start_bot()


async def eventually(check: Callable[[], bool], timeout: float = 2.0) -> None:
    """Poll the bot's state until ``check()`` holds."""
    async with asyncio.timeout(timeout):
        while not check():
            await asyncio.sleep(0.01)


def filled(message: FakeMessage | None) -> FakeMessage | None:
    """The message once a deferred response has been filled in."""
    return message if message is not None and not message.loading else None


async def test_commands_are_synced(fake: FakeDiscord, bot: commands.Bot) -> None:
    synced = {c["name"]: c for c in fake.commands()}
    assert set(synced) == {"demo", "echo"}
    assert {o["name"] for o in synced["demo"]["options"]} == {
        "ping",
        "thread",
        "secret",
        "pick",
        "ask",
        "slow",
        "locales",
    }
    echo_options = [(o["name"], o["type"]) for o in synced["echo"]["options"]]
    assert echo_options == [("text", 3), ("times", 4), ("loud", 5), ("who", 6)]
    put = [c for c in fake.calls if c.method == "PUT"]
    assert [c.path for c in put] == [f"/applications/{fake.application_id}/commands"]


async def test_slash_options_reach_the_bot(fake: FakeDiscord, bot: commands.Bot) -> None:
    alice, bob = fake.make_user("alice"), fake.make_user("bob")
    options = {"text": "hi", "times": 2, "loud": True, "who": bob}
    reply = (await (await fake.slash(alice, "echo", options=options)).response()).message
    assert reply is not None and reply.content == "HI HI for bob"
    assert fake.latest_message() == reply
    with pytest.raises(DriverError, match="'times' is required"):
        await fake.slash(alice, "echo", options={"text": "hi", "loud": False, "who": bob})
    with pytest.raises(DriverError, match="no subcommand 'nope'"):
        await fake.slash(alice, "demo", "nope")


async def test_slash_values_are_checked_as_discords_client_does_unless_told(
    fake: FakeDiscord, bot: commands.Bot
) -> None:
    """Types, ranges and lengths are what the synced definition offers (choices too);
    `checked=False` sends what a client with an older definition (or a custom one) might."""
    alice, bob = fake.make_user("alice"), fake.make_user("bob")
    options = {"text": "hi", "times": 4, "loud": False, "who": bob}
    with pytest.raises(DriverError, match="'times': 4 is out of its range"):
        await fake.slash(alice, "echo", options=options)
    with pytest.raises(DriverError, match="'text': '' is out of its range"):
        await fake.slash(alice, "echo", options=options | {"text": "", "times": 1})
    with pytest.raises(DriverError, match=r"'times' .* got '2'"):
        await fake.slash(alice, "echo", options=options | {"times": "2"})
    rec = await fake.slash(alice, "echo", options=options, checked=False)
    reply = (await rec.response()).message
    assert reply is not None and reply.content == "hi hi hi hi for bob"


async def test_button_edits_message_and_survives_restart(
    fake: FakeDiscord, start_bot: BotFactory
) -> None:
    first = await start_bot()
    alice = fake.make_user("alice")
    reply = (await (await fake.slash(alice, "demo", "ping")).response()).message
    assert reply is not None
    assert [(b["label"], b["custom_id"]) for b in reply.buttons] == [("Count 0", "demo:0")]
    with pytest.raises(DriverError, match="no component"):
        await fake.click(alice, reply, label="Join")

    callback = await (await fake.click(alice, reply, label="Count 0")).response()
    assert callback.type == 7 and callback.message is reply
    assert reply.content == "count=1" and reply.edited

    await first.close()
    await start_bot()
    assert len(fake.identifies) == 2
    await (await fake.click(alice, reply, custom_id="demo:1")).response()
    assert reply.content == "count=2" and fake.messages() == [reply]
    with pytest.raises(DriverError, match="disabled"):
        await fake.click(alice, reply, label="Count 2")


async def test_thread_with_picture_and_button(fake: FakeDiscord, bot: commands.Bot) -> None:
    alice = fake.make_user("alice")
    rec = await fake.slash(alice, "demo", "thread")
    assert (await rec.response()).type == 5
    done = await fake.wait_for(lambda: filled(rec.original))
    [created] = fake.threads
    thread_id = int(created["id"])
    assert done.content == f"thread {thread_id}" and fake.ephemeral_for(alice) == [done]
    assert created["type"] == 11 and created["parent_id"] == str(fake.channel_id)

    [board] = fake.messages(thread_id)
    [attachment] = board.attachments
    assert attachment.filename == "board.png"
    picture = Image.open(io.BytesIO(attachment.data))
    assert (picture.format, picture.size) == ("PNG", (8, 8))
    async with aiohttp.ClientSession() as session, session.get(attachment.url) as response:
        assert await response.read() == attachment.data

    await (await fake.click(alice, board, label="Count 0")).response()
    assert board.content == "count=1" and board.attachments == [attachment]

    assert bot.get_channel(thread_id) is not None
    await fake.delete_channel(thread_id)
    await eventually(lambda: bot.get_channel(thread_id) is None)
    with pytest.raises(discord.NotFound) as info:
        await bot.fetch_channel(thread_id)
    assert info.value.code == 10003


async def test_ephemeral_reply_is_private(fake: FakeDiscord, bot: commands.Bot) -> None:
    alice, bob = fake.make_user("alice"), fake.make_user("bob")
    reply = (await (await fake.slash(alice, "demo", "secret")).response()).message
    assert reply is not None and reply.content == "for your eyes only"
    assert fake.ephemeral_for(alice) == [reply] and fake.ephemeral_for(bob) == []
    assert fake.public_messages() == []
    with pytest.raises(DriverError, match="ephemeral"):
        await fake.click(bob, reply, label="anything")


@pytest.mark.parametrize(
    "missing", ["create_public_threads", "attach_files", "send_messages_in_threads"]
)
async def test_missing_permission_is_forbidden(
    fake: FakeDiscord, bot: commands.Bot, missing: str
) -> None:
    permissions = discord.Permissions(DEFAULT_BOT_PERMISSIONS)
    setattr(permissions, missing, False)
    fake.set_bot_permissions(fake.channel_id, permissions)
    rec = await fake.slash(fake.make_user("alice"), "demo", "thread")
    reply = await fake.wait_for(lambda: filled(rec.original))
    assert reply.content == "forbidden 50013"
    assert [c.response["code"] for c in fake.calls if c.status == 403] == [50013]
    assert int(rec.payload["app_permissions"]) == permissions.value
    channel = bot.get_channel(fake.channel_id)
    assert isinstance(channel, discord.TextChannel)
    assert getattr(channel.permissions_for(channel.guild.me), missing) is False


async def test_dms_go_to_a_channel_per_member_and_a_closed_one_is_refused(
    fake: FakeDiscord, bot: commands.Bot
) -> None:
    alice, bob = fake.make_user("alice"), fake.make_user("bob")
    fake.close_dms(bob)
    channel = await bot.create_dm(discord.Object(int(alice["id"])))
    await channel.send("hello")
    bot._connection._private_channels.clear()  # forget it: Discord hands back the same one
    again = await bot.create_dm(discord.Object(int(alice["id"])))
    await again.send("again")
    assert again.id == channel.id and [m.content for m in fake.dms(alice)] == ["hello", "again"]
    closed = await bot.create_dm(discord.Object(int(bob["id"])))
    with pytest.raises(discord.Forbidden) as refused:
        await closed.send("hello")
    assert refused.value.code == 50007 and fake.dms(bob) == []
    assert all(fake.is_dm(c) for c in fake.calls if c.route == "/users/@me/channels")
    assert fake.faults == []


async def test_select_and_modal(fake: FakeDiscord, bot: commands.Bot) -> None:
    alice = fake.make_user("alice")
    menu = (await (await fake.slash(alice, "demo", "pick")).response()).message
    assert menu is not None
    with pytest.raises(DriverError, match="no options"):
        await fake.select(alice, menu, ["green"], placeholder="Colour")
    await (await fake.select(alice, menu, ["blue"], custom_id="colour")).response()
    assert menu.content == "picked blue" and menu.components == []

    rec = await fake.slash(alice, "demo", "ask")
    assert (await rec.response()).type == 9
    answer = await (await fake.submit_modal(alice, rec, {"answer": "42"})).response()
    assert answer.message is not None and answer.message.content == "answer=42"


async def test_unknown_route_is_a_fault(fake: FakeDiscord, bot: commands.Bot) -> None:
    with pytest.raises(discord.HTTPException) as info:
        await bot.http.request(discord.http.Route("GET", "/not-a-real-route"))
    assert info.value.status == 400
    assert fake.faults == ["unhandled GET /api/v10/not-a-real-route"]
    fake.faults.clear()
    with pytest.raises(TimeoutError, match="last REST calls"):
        await fake.wait_for(lambda: False, timeout=0.05)


async def test_a_late_callback_is_refused_as_unknown_interaction(
    fake: FakeDiscord, bot: commands.Bot
) -> None:
    fake.interaction_window = 0.2
    alice = fake.make_user("alice")
    quick = await fake.slash(alice, "demo", "ping")
    await quick.response()
    assert quick.answered_after is not None and 0 <= quick.answered_after < 0.2

    rec = await fake.slash(alice, "demo", "slow", options={"wait": 0.3, "defer": False})
    assert fake.unanswered(now=rec.sent_at + 0.1) == []
    assert fake.unanswered(now=rec.sent_at + 0.25) == [rec]
    refused = await fake.wait_for(
        lambda: fake.latest_message(predicate=lambda m: "refused" in m.content)
    )
    assert refused.content == "refused 404 10062"
    assert fake.late_answers == [rec] and rec.callback is None
    assert fake.unanswered() == [rec]
    [late] = [c for c in fake.calls if c.path.startswith(f"/interactions/{rec.id}/")]
    assert (late.status, late.response["code"]) == (404, 10062)


async def test_deferring_in_time_leaves_the_token_valid_for_follow_ups(
    fake: FakeDiscord, bot: commands.Bot
) -> None:
    fake.interaction_window = 0.2
    alice = fake.make_user("alice")
    rec = await fake.slash(alice, "demo", "slow", options={"wait": 0.3, "defer": True})
    assert (await rec.response()).type == 5
    done = await fake.wait_for(lambda: filled(rec.original))
    assert done.content == "done" and fake.late_answers == [] and fake.unanswered() == []

    # Once the token has expired (15 minutes on Discord), follow-ups are refused.
    fake.token_lifetime = 0.2
    rec = await fake.slash(alice, "demo", "slow", options={"wait": 0.3, "defer": True})
    refused = await fake.wait_for(
        lambda: fake.latest_message(predicate=lambda m: "refused" in m.content)
    )
    assert refused.content == "refused 401 50027"


def general(bot: commands.Bot, fake: FakeDiscord) -> discord.TextChannel:
    channel = bot.get_channel(fake.channel_id)
    assert isinstance(channel, discord.TextChannel)
    return channel


@pytest.mark.parametrize(
    ("status", "code", "error_type", "text"),
    [
        (404, 10008, discord.NotFound, "Unknown Message"),
        (404, 10003, discord.NotFound, "Unknown Channel"),
        (403, 50001, discord.Forbidden, "Missing Access"),
        (400, 50083, discord.HTTPException, "Thread is archived"),
        (400, 30046, discord.HTTPException, "Maximum number of edits to messages older than 1"),
    ],
)
async def test_an_injected_error_answers_once(
    fake: FakeDiscord,
    bot: commands.Bot,
    status: int,
    code: int,
    error_type: type[discord.HTTPException],
    text: str,
) -> None:
    message = await general(bot, fake).send("hello")
    edits = rf"/channels/{fake.channel_id}/messages/\d+"
    injection = fake.inject("PATCH", edits, status=status, code=code)
    with pytest.raises(error_type) as info:
        await message.edit(content="edited")
    assert (info.value.status, info.value.code) == (status, code)
    assert info.value.text.startswith(text)
    assert injection.hits == 1 and injection.removed
    await message.edit(content="edited")  # times=1: the next edit is handled
    assert fake.message(message.id).content == "edited"
    patches = [c for c in fake.calls if c.method == "PATCH"]
    assert [(c.status, c.injected) for c in patches] == [(status, injection), (200, None)]
    assert fake.requests_per_route()["PATCH /channels/{channel_id}/messages/{message_id}"] == 2


async def test_an_injection_lasts_until_removed_and_may_be_slow(
    fake: FakeDiscord, bot: commands.Bot
) -> None:
    channel = general(bot, fake)
    injection = fake.inject(
        "POST", re.compile(r"/channels/\d+/messages"), status=403, code=50013, times=None
    )
    for _ in range(2):
        with pytest.raises(discord.Forbidden):
            await channel.send("nope")
    injection.remove()
    await channel.send("yes")
    assert injection.hits == 2 and [m.content for m in fake.messages()] == ["yes"]

    fake.inject("POST", r"/channels/\d+/messages", status=404, code=10003, delay=0.1)
    started = asyncio.get_running_loop().time()
    with pytest.raises(discord.NotFound):
        await channel.send("late")
    assert asyncio.get_running_loop().time() - started >= 0.1


async def test_an_injected_429_is_waited_out_by_discord_py(
    fake: FakeDiscord, bot: commands.Bot
) -> None:
    channel = general(bot, fake)
    injection = fake.inject("POST", r"/channels/\d+/messages", retry_after=0.05, times=2)
    started = asyncio.get_running_loop().time()
    sent = await channel.send("patience")
    assert asyncio.get_running_loop().time() - started >= 0.1
    assert injection.hits == 2 and fake.message(sent.id).content == "patience"
    posts = [c for c in fake.calls if c.method == "POST" and c.path.endswith("/messages")]
    assert [c.status for c in posts] == [429, 429, 200]
    limited = posts[0]
    assert limited.response == {
        "message": "You are being rate limited.",
        "retry_after": 0.05,
        "global": False,
    }
    headers = limited.response_headers
    assert headers["Retry-After"] == "1" and headers["X-RateLimit-Remaining"] == "0"
    assert headers["X-RateLimit-Scope"] == "user" and headers["X-RateLimit-Bucket"]
    assert float(headers["X-RateLimit-Reset-After"]) == 0.05

    # Interaction callbacks go through discord.py's webhook adapter: it waits too.
    fake.inject("POST", r"/interactions/\d+/[^/]+/callback", retry_after=0.05)
    rec = await fake.slash(fake.make_user("alice"), "demo", "ping")
    assert (await rec.response()).type == 4
    callbacks = [c.status for c in fake.calls if c.path.startswith("/interactions/")]
    assert callbacks == [429, 200]


async def test_a_hanging_request_waits_for_release(fake: FakeDiscord, bot: commands.Bot) -> None:
    channel = general(bot, fake)
    injection = fake.inject("POST", r"/channels/\d+/messages", hang=True, times=None, delay=0.02)
    sending = asyncio.create_task(channel.send("held"))
    await fake.wait_for(lambda: injection.held == 1)
    assert fake.messages() == [] and not sending.done()
    injection.release()
    sent = await sending
    assert [m.id for m in fake.messages()] == [sent.id]

    # A held request the bot gives up on is dropped: never answered, never handled.
    abandoned = asyncio.create_task(channel.send("abandoned"))
    await fake.wait_for(lambda: injection.held == 1)
    abandoned.cancel()
    await eventually(lambda: injection.held == 0)
    injection.remove()
    assert [c.status for c in fake.calls if c.path.endswith("/messages")] == [200, 0]
    assert [m.id for m in fake.messages()] == [sent.id]


async def test_a_dropped_gateway_is_resumed_with_what_the_bot_missed(
    fake: FakeDiscord, bot: DemoBot
) -> None:
    alice = fake.make_user("alice")
    await fake.drop_gateway()
    assert not fake.bot_connected
    # Sent while the bot is away: replayed to it when it RESUMEs.
    rec = await fake.slash(alice, "demo", "ping")
    reply = (await rec.response()).message
    assert reply is not None and reply.content == "count=0"
    assert fake.resumes == 1 and fake.replayed == ["INTERACTION_CREATE"]
    assert (fake.readies, len(fake.identifies), bot.readies) == (1, 1, 1)
    assert fake.bot_connected

    await bot.close()
    await eventually(lambda: not fake.bot_connected)
    with pytest.raises(DriverError, match="no bot"):
        await fake.slash(alice, "demo", "ping")


async def test_a_dropped_session_makes_the_bot_identify_again(
    fake: FakeDiscord, bot: DemoBot
) -> None:
    started = asyncio.get_running_loop().time()
    await fake.drop_gateway(resume=False)
    await fake.wait_for(lambda: fake.readies == 2)
    await eventually(lambda: bot.readies == 2)
    assert asyncio.get_running_loop().time() - started < 2  # no 5 s wait on the way
    assert len(fake.identifies) == 2 and fake.resumes == 0
    guild = bot.get_guild(fake.guild_id)
    assert guild is not None and guild.get_channel(fake.channel_id) is not None
    rec = await fake.slash(fake.make_user("alice"), "demo", "ping")
    assert (await rec.response()).message is not None


async def new_thread(bot: commands.Bot, fake: FakeDiscord) -> discord.Thread:
    return await general(bot, fake).create_thread(
        name="game", type=discord.ChannelType.public_thread
    )


async def test_a_moderator_deletes_a_message(fake: FakeDiscord, bot: DemoBot) -> None:
    deleted: list[int] = []

    async def on_raw_message_delete(event: discord.RawMessageDeleteEvent) -> None:
        deleted.append(event.message_id)

    bot.add_listener(on_raw_message_delete)
    message = await general(bot, fake).send("doomed")
    await fake.delete_message(message.id)
    await eventually(lambda: deleted == [message.id])
    for call in (
        message.edit(content="again"),
        message.delete(),
        general(bot, fake).fetch_message(message.id),
    ):
        with pytest.raises(discord.NotFound) as info:
            await call
        assert info.value.code == 10008
    with pytest.raises(DriverError, match="no public message"):
        await fake.delete_message(message.id)


async def test_a_deleted_thread_is_an_unknown_channel(fake: FakeDiscord, bot: DemoBot) -> None:
    thread = await new_thread(bot, fake)
    message = await thread.send("hello")
    await fake.delete_channel(thread.id)
    for call in (
        thread.send("anyone?"),
        message.edit(content="edited"),
        message.delete(),
        thread.edit(name="renamed"),
    ):
        with pytest.raises(discord.NotFound) as info:
            await call
        assert info.value.code == 10003


async def test_an_archived_thread_refuses_edits_until_a_post_unarchives_it(
    fake: FakeDiscord, bot: DemoBot
) -> None:
    thread = await new_thread(bot, fake)
    message = await thread.send("hello")

    def archived() -> bool:  # as the bot knows it: discord.py keeps no archived thread
        return bot.get_channel(thread.id) is None

    await fake.archive_thread(thread.id)
    await eventually(archived)
    for call in (message.edit(content="edited"), message.delete()):
        with pytest.raises(discord.HTTPException) as info:
            await call
        assert (info.value.status, info.value.code) == (400, 50083)
        assert info.value.text == "Thread is archived"
    with pytest.raises(discord.HTTPException) as info:
        await thread.edit(name="renamed")
    assert info.value.code == 50083

    await thread.send("back")  # posting unarchives an unlocked thread
    assert not fake.channel(thread.id)["thread_metadata"]["archived"]
    await eventually(lambda: not archived())
    await message.edit(content="edited")

    await fake.archive_thread(thread.id, locked=True)
    with pytest.raises(discord.HTTPException) as info:
        await thread.send("locked out")
    assert info.value.code == 50083
    await thread.edit(archived=False)  # the bot can manage threads
    metadata = fake.channel(thread.id)["thread_metadata"]
    assert not metadata["archived"] and metadata["locked"]
    await message.edit(content="edited again")
    assert fake.message(message.id).content == "edited again"


async def test_components_in_an_archived_thread_still_answer(
    fake: FakeDiscord, bot: DemoBot
) -> None:
    alice = fake.make_user("alice")
    rec = await fake.slash(alice, "demo", "thread")
    await fake.wait_for(lambda: filled(rec.original))
    [thread] = fake.threads
    [board] = fake.messages(int(thread["id"]))
    await fake.archive_thread(int(thread["id"]))
    callback = await (await fake.click(alice, board, label="Count 0")).response()
    assert callback.type == 7 and board.content == "count=1"


async def test_interactions_carry_the_user_and_guild_locales(
    fake: FakeDiscord, start_bot: BotFactory
) -> None:
    fake.guild_locale = "de"
    await start_bot()
    bruna, anna = fake.make_user("bruna", locale="pt-BR"), fake.make_user("anna")
    rec = await fake.slash(bruna, "demo", "locales")
    assert (rec.payload["locale"], rec.payload["guild_locale"]) == ("pt-BR", "de")
    reply = (await rec.response()).message
    assert reply is not None and reply.content == "pt-BR de de"
    reply = (await (await fake.slash(anna, "demo", "locales")).response()).message
    assert reply is not None and reply.content == "en-US de de"


async def test_a_bot_joins_a_new_guild_with_its_own_channel(
    fake: FakeDiscord, bot: DemoBot
) -> None:
    joined: list[int] = []

    async def on_guild_join(guild: discord.Guild) -> None:
        joined.append(guild.id)

    bot.add_listener(on_guild_join)
    second = fake.create_guild("Second", locale="fr")
    await eventually(lambda: joined == [second])
    guild = bot.get_guild(second)
    assert guild is not None and guild.name == "Second"
    assert bot.user is not None and guild.owner_id not in (None, bot.user.id)
    assert str(guild.preferred_locale) == "fr"
    channel = guild.get_channel(fake.general_channel_id(second))
    assert isinstance(channel, discord.TextChannel) and channel.name == "general"
    other = fake.create_text_channel("other", second)
    await eventually(lambda: guild.get_channel(other) is not None)

    # Commands run where they are sent, in that guild.
    alice = fake.make_user("alice")
    rec = await fake.slash(alice, "demo", "locales", channel_id=other)
    assert rec.payload["guild_id"] == str(second)
    reply = (await rec.response()).message
    assert reply is not None and reply.channel_id == other
    assert reply.content == "en-US fr fr"
    sent = await channel.send("hello")
    assert fake.message(sent.id).channel_id == channel.id


@app_commands.command(description="Say which shard answers")
async def where(interaction: discord.Interaction) -> None:
    assert interaction.guild is not None
    await interaction.response.send_message(f"shard {interaction.guild.shard_id}")


class ShardBot(discord.AutoShardedClient):
    """A sharded client noting the guild of every interaction and message it receives."""

    def __init__(self, shard_ids: list[int] | None, shard_count: int | None) -> None:
        # None for both: as many shards as GET /gateway/bot recommends.
        sharding: dict[str, Any] = {"shard_ids": shard_ids, "shard_count": shard_count}
        super().__init__(intents=discord.Intents.default(), guild_ready_timeout=0.1, **sharding)
        self.tree = app_commands.CommandTree(self)
        self.tree.add_command(where)
        self.interaction_guilds: list[int | None] = []
        self.message_guilds: list[int | None] = []

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        self.interaction_guilds.append(interaction.guild_id)

    async def on_message(self, message: discord.Message) -> None:
        self.message_guilds.append(message.guild.id if message.guild else None)

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        """No 5 s pause between the IDENTIFYs of two shards (see DemoBot)."""


@pytest.fixture
async def start_sharded(fake: FakeDiscord) -> AsyncIterator[Callable[..., Awaitable[ShardBot]]]:
    running: list[tuple[ShardBot, asyncio.Task[None]]] = []

    async def start(shard_ids: list[int] | None, shard_count: int | None) -> ShardBot:
        client = ShardBot(shard_ids, shard_count)
        await client.login(fake.token)
        running.append((client, asyncio.create_task(client.connect())))
        await asyncio.wait_for(client.wait_until_ready(), 5)
        return client

    yield start
    for client, task in running:
        await client.close()
        await task


async def test_each_shard_receives_only_its_guilds(
    fake: FakeDiscord, start_sharded: Callable[..., Awaitable[ShardBot]]
) -> None:
    zero, one = fake.create_guild("Zero", shard=(0, 2)), fake.create_guild("One", shard=(1, 2))
    expected = [{g for g in fake.guild_ids if fake.shard_of(g, 2) == s} for s in (0, 1)]
    assert zero in expected[0] and one in expected[1]
    alice = fake.make_user("alice")
    shards = [await start_sharded([0], 2)]
    await shards[0].tree.sync()
    with pytest.raises(DriverError, match=f"no bot is connected .*{one}"):
        await fake.slash(alice, "where", channel_id=fake.general_channel_id(one))
    shards.append(await start_sharded([1], 2))
    assert [i["shard"] for i in fake.identifies] == [[0, 2], [1, 2]]
    for shard, client in enumerate(shards):
        assert {g.id for g in client.guilds} == expected[shard]

    rec = await fake.slash(alice, "where", channel_id=fake.general_channel_id(one))
    reply = (await rec.response()).message
    assert reply is not None and reply.content == "shard 1"
    assert shards[1].interaction_guilds == [one] and shards[0].interaction_guilds == []
    await eventually(lambda: shards[1].message_guilds == [one])
    rec = await fake.slash(alice, "where", channel_id=fake.general_channel_id(zero))
    reply = (await rec.response()).message
    assert reply is not None and reply.content == "shard 0"
    await eventually(lambda: shards[0].message_guilds == [zero])
    assert shards[1].interaction_guilds == [one] and shards[1].message_guilds == [one]

    # A new guild goes to its shard only; so do its channels' events.
    late = fake.create_guild("Late", shard=(1, 2))
    await eventually(lambda: shards[1].get_guild(late) is not None)
    assert shards[0].get_guild(late) is None


async def test_an_auto_sharded_client_follows_the_recommended_shard_count(
    fake: FakeDiscord, start_sharded: Callable[..., Awaitable[ShardBot]]
) -> None:
    fake.create_guild("Zero", shard=(0, 2))
    fake.create_guild("One", shard=(1, 2))
    fake.recommended_shards = 2
    client = await start_sharded(None, None)
    assert client.shard_count == 2
    assert [i["shard"] for i in fake.identifies] == [[0, 2], [1, 2]]
    assert {g.id for g in client.guilds} == set(fake.guild_ids)
    assert {g.shard_id for g in client.guilds} == {0, 1}


def posts(fake: FakeDiscord) -> list[RestCall]:
    return [c for c in fake.calls if c.route == "/channels/{channel_id}/messages"]


async def test_the_channel_post_limit_slows_the_bot_down(fake: FakeDiscord, bot: DemoBot) -> None:
    fake.channel_post_limit = (3, 0.3)
    channel = general(bot, fake)
    started = asyncio.get_running_loop().time()
    await asyncio.gather(*(channel.send(f"message {n}") for n in range(7)))
    # 3 + 3 + 1 posts: discord.py waited for the bucket to reset twice, told by the headers.
    assert asyncio.get_running_loop().time() - started >= 0.6
    assert sorted(m.content for m in fake.messages()) == [f"message {n}" for n in range(7)]
    assert {c.status for c in posts(fake)} == {200}
    remaining = [c.response_headers["X-RateLimit-Remaining"] for c in posts(fake)]
    assert remaining == ["2", "1", "0", "2", "1", "0", "2"]
    assert fake.requests_per_route()["POST /channels/{channel_id}/messages"] == 7


async def test_a_post_beyond_the_channel_limit_is_answered_429(
    fake: FakeDiscord, start_bot: BotFactory
) -> None:
    first, second = await start_bot(), await start_bot()
    fake.channel_post_limit = (2, 0.2)
    # discord.py returns from the post that empties a bucket only once the bucket resets.
    sending = asyncio.gather(*(general(first, fake).send(f"first {n}") for n in range(2)))
    await fake.wait_for(lambda: len(posts(fake)) == 2)
    # The second bot does not know the bucket is used up: it is answered 429 and waits.
    await general(second, fake).send("second")
    await sending
    assert [c.status for c in posts(fake)] == [200, 200, 429, 200]
    limited = posts(fake)[2]
    assert limited.response_headers["X-RateLimit-Scope"] == "shared"
    assert 0 < limited.response["retry_after"] <= 0.2
    assert [m.content for m in fake.messages()][-1] == "second"


async def test_interaction_answers_are_not_held_by_the_channel_limit(
    fake: FakeDiscord, bot: DemoBot
) -> None:
    fake.channel_post_limit = (1, 0.5)
    posting = asyncio.create_task(general(bot, fake).send("the only post for now"))
    [post] = await fake.wait_for(lambda: posts(fake) or None)
    alice = fake.make_user("alice")
    reply = (await (await fake.slash(alice, "demo", "ping")).response()).message
    assert reply is not None
    rec = await fake.slash(alice, "demo", "slow", options={"wait": 0.0, "defer": True})
    assert (await fake.wait_for(lambda: filled(rec.original))).content == "done"
    # All answered in the channel while its bucket was still empty.
    assert fake.calls[-1].at < post.at + 0.5
    await posting
    assert [c.status for c in posts(fake)] == [200]


async def test_the_bots_token_is_held_to_the_global_limit_and_interactions_are_not(
    fake: FakeDiscord, bot: DemoBot
) -> None:
    """Discord's global limit: 50 requests a second with the bot's token, all routes
    together; one more is answered with a global 429, which discord.py waits out."""
    fake.global_limit = 5
    channel = general(bot, fake)
    started = asyncio.get_running_loop().time()
    await asyncio.gather(*(channel.send(f"message {n}") for n in range(7)))
    waited = asyncio.get_running_loop().time() - started
    assert sorted(m.content for m in fake.messages()) == [f"message {n}" for n in range(7)]
    limited = fake.globally_limited
    assert limited and all(c.status == 429 for c in limited)
    # The window may have opened before the burst (the bot's own start-up requests): the wait
    # is until it ends, as the first 429 said.
    assert waited >= limited[0].response["retry_after"]
    assert limited[0].response_headers["X-RateLimit-Global"] == "true"
    assert limited[0].response["global"] is True
    # Interaction answers and their follow-ups use the interaction's token: not counted.
    before = len(fake.globally_limited)
    alice = fake.make_user("alice")
    for _ in range(8):
        rec = await fake.slash(alice, "demo", "slow", options={"wait": 0.0, "defer": True})
        assert (await fake.wait_for(lambda rec=rec: filled(rec.original))).content == "done"
    assert len(fake.globally_limited) == before
    assert not any(c.bot_token for c in fake.calls if c.path.startswith("/webhooks/"))


async def test_a_request_cut_off_by_a_killed_bot_is_dropped_not_a_fault(fake: FakeDiscord) -> None:
    """A bot process killed while sending a picture: the fake sees the connection end in the
    middle of the body, and drops the call (never handled, status 0)."""
    host, port = "127.0.0.1", int(fake.http_base.rsplit(":", 1)[1])
    _reader, writer = await asyncio.open_connection(host, port)
    body = b'--cut\r\nContent-Disposition: form-data; name="payload_json"\r\n\r\n{"content": "'
    writer.write(
        b"POST /api/v10/channels/1/messages HTTP/1.1\r\n"
        b"Host: " + f"{host}:{port}".encode() + b"\r\n"
        b"Authorization: Bot " + fake.token.encode() + b"\r\n"
        b"Content-Type: multipart/form-data; boundary=cut\r\n"
        b"Content-Length: 100000\r\n\r\n" + body
    )
    await writer.drain()
    await eventually(lambda: bool(fake.calls))
    writer.close()  # the rest of the body never comes
    await writer.wait_closed()
    with contextlib.suppress(TimeoutError):  # time enough for the fake to note a fault
        await eventually(lambda: bool(fake.faults), timeout=0.5)
    assert [c.status for c in fake.calls] == [0] and fake.faults == []
