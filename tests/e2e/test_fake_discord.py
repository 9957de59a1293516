"""Self-test of the fake Discord, driven through a tiny inline discord.py bot."""

from __future__ import annotations

import asyncio
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

from tests.e2e.fake_discord import DEFAULT_BOT_PERMISSIONS, DriverError, FakeDiscord, FakeMessage

BotFactory = Callable[[], Awaitable[commands.Bot]]


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


@app_commands.command(description="Echo the options back")
async def echo(
    interaction: discord.Interaction, text: str, times: int, loud: bool, who: discord.Member
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

    async def setup_hook(self) -> None:
        self.add_dynamic_items(Counter)
        await self.tree.sync()


@pytest.fixture
async def start_bot(fake: FakeDiscord) -> AsyncIterator[BotFactory]:
    """Start DemoBot instances against the fake; all are closed at teardown."""
    running: list[tuple[commands.Bot, asyncio.Task[None]]] = []

    async def start() -> commands.Bot:
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
async def bot(start_bot: BotFactory) -> commands.Bot:
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
