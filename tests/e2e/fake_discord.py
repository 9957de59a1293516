"""An in-process fake of Discord (REST API + gateway) for end-to-end tests.

The unchanged discord.py client talks to it over 127.0.0.1 once pointed at it::

    discord.http.Route.BASE = fake.api_base
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(fake.gateway_url)

Tests then play the part of Discord users::

    async with FakeDiscord() as fake:
        alice = fake.make_user("alice")
        ...start the bot with fake.token...
        rec = await fake.slash(alice, "demo", "ping")
        reply = (await rec.response()).message
        await fake.click(alice, reply, label="Join")
        assert fake.faults == []

Every REST call is kept in ``fake.calls``. Routes the fake does not know answer 400 and
land in ``fake.faults``, as do errors inside the fake itself. Errors are always 4xx because
discord.py retries 5xx answers for a long time.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import logging
import mimetypes
import re
import secrets
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, TypeVar

import discord
from aiohttp import BodyPartReader, WSMsgType, web

JSON = dict[str, Any]
T = TypeVar("T")

_log = logging.getLogger(__name__)

API_PREFIX = "/api/v10"
DISCORD_EPOCH_MS = 1_420_070_400_000

# Message flags.
SUPPRESS_EMBEDS = 1 << 2
HAS_THREAD = 1 << 5
EPHEMERAL = 1 << 6
LOADING = 1 << 7
SUPPRESS_NOTIFICATIONS = 1 << 12
COMPONENTS_V2 = 1 << 15
SETTABLE_FLAGS = SUPPRESS_EMBEDS | SUPPRESS_NOTIFICATIONS | COMPONENTS_V2

# Channel types.
TEXT_CHANNEL = 0
PUBLIC_THREAD = 11
PRIVATE_THREAD = 12
THREAD_TYPES = (PUBLIC_THREAD, PRIVATE_THREAD)

# Gateway opcodes and intents.
OP_DISPATCH = 0
OP_HEARTBEAT = 1
OP_IDENTIFY = 2
OP_PRESENCE_UPDATE = 3
OP_VOICE_STATE_UPDATE = 4
OP_RESUME = 6
OP_REQUEST_GUILD_MEMBERS = 8
OP_INVALID_SESSION = 9
OP_HELLO = 10
OP_HEARTBEAT_ACK = 11
INTENT_GUILDS = 1 << 0
INTENT_GUILD_MESSAGES = 1 << 9

# Interaction types and callback types.
PING = 1
APPLICATION_COMMAND = 2
MESSAGE_COMPONENT = 3
AUTOCOMPLETE = 4
MODAL_SUBMIT = 5
CB_PONG = 1
CB_MESSAGE = 4
CB_DEFERRED_MESSAGE = 5
CB_DEFERRED_UPDATE = 6
CB_UPDATE_MESSAGE = 7
CB_AUTOCOMPLETE = 8
CB_MODAL = 9

# Component types.
BUTTON = 2
STRING_SELECT = 3
TEXT_INPUT = 4

_P = discord.Permissions
ALL_PERMISSIONS = _P.all().value
VIEW_CHANNEL = _P(view_channel=True).value
SEND_MESSAGES = _P(send_messages=True).value
SEND_MESSAGES_IN_THREADS = _P(send_messages_in_threads=True).value
ATTACH_FILES = _P(attach_files=True).value
READ_MESSAGE_HISTORY = _P(read_message_history=True).value
CREATE_PUBLIC_THREADS = _P(create_public_threads=True).value
CREATE_PRIVATE_THREADS = _P(create_private_threads=True).value
MANAGE_THREADS = _P(manage_threads=True).value
MANAGE_CHANNELS = _P(manage_channels=True).value
#: Guild-wide permissions of @everyone (and so of every user made with make_user).
DEFAULT_MEMBER_PERMISSIONS = _P(
    view_channel=True,
    send_messages=True,
    send_messages_in_threads=True,
    create_public_threads=True,
    create_private_threads=True,
    embed_links=True,
    attach_files=True,
    read_message_history=True,
    add_reactions=True,
    use_external_emojis=True,
    use_application_commands=True,
).value
#: Guild-wide permissions of the bot (@everyone plus its managed role).
DEFAULT_BOT_PERMISSIONS = (
    DEFAULT_MEMBER_PERMISSIONS
    | _P(manage_threads=True, manage_messages=True, mention_everyone=True).value
)

SUBCOMMAND_TYPES = (1, 2)  # SUB_COMMAND, SUB_COMMAND_GROUP
OPTION_STRING, OPTION_INTEGER, OPTION_BOOLEAN, OPTION_USER = 3, 4, 5, 6
OPTION_CHANNEL, OPTION_ROLE, OPTION_MENTIONABLE, OPTION_NUMBER = 7, 8, 9, 10


class DriverError(AssertionError):
    """A test asked the fake to do something a Discord user could not do."""


class ApiError(Exception):
    """A Discord error answer: HTTP status plus Discord's JSON error body."""

    def __init__(self, status: int, code: int, message: str, errors: JSON | None = None) -> None:
        super().__init__(f"{status} {message} (code {code})")
        self.status = status
        self.body: JSON = {"message": message, "code": code}
        if errors is not None:
            self.body["errors"] = errors


def _unknown(what: str, code: int) -> ApiError:
    return ApiError(404, code, f"Unknown {what}")


def _invalid_form(field_name: str, code: str, message: str) -> ApiError:
    errors = {field_name: {"_errors": [{"code": code, "message": message}]}}
    return ApiError(400, 50035, "Invalid Form Body", errors)


def _now() -> str:
    return datetime.now(UTC).isoformat()


def _user_id(user: JSON | int) -> int:
    return int(user["id"]) if isinstance(user, dict) else int(user)


def walk_components(components: Sequence[JSON]) -> Iterator[JSON]:
    """Yield every component depth-first: action rows, containers, sections, labels."""
    for component in components:
        yield component
        yield from walk_components(component.get("components", []))
        for key in ("accessory", "component"):
            if isinstance(component.get(key), dict):
                yield from walk_components([component[key]])


def _number_components(components: Sequence[JSON]) -> None:
    """Give every component without one a numeric ``id``, as Discord does."""
    used = {c["id"] for c in walk_components(components) if c.get("id") is not None}
    free = (n for n in itertools.count(1) if n not in used)
    for component in walk_components(components):
        if component.get("id") is None:
            component["id"] = next(free)


@dataclass
class Upload:
    """A file received in a multipart request as ``files[index]``."""

    index: int
    filename: str
    data: bytes
    content_type: str


@dataclass
class Attachment:
    """A file attached to a message; ``data`` holds the uploaded bytes."""

    id: int
    filename: str
    data: bytes
    content_type: str
    url: str
    description: str | None = None

    def payload(self) -> JSON:
        """Discord's attachment object."""
        payload: JSON = {
            "id": str(self.id),
            "filename": self.filename,
            "size": len(self.data),
            "url": self.url,
            "proxy_url": self.url,
            "content_type": self.content_type,
        }
        if self.description is not None:
            payload["description"] = self.description
        return payload


@dataclass
class FakeMessage:
    """A message as Discord stores it; edits are applied in place."""

    data: JSON
    attachments: list[Attachment] = field(default_factory=list)
    visible_to: int | None = None
    deleted: bool = False

    @property
    def payload(self) -> JSON:
        """The Discord message object, as REST returns it."""
        return {**self.data, "attachments": [a.payload() for a in self.attachments]}

    @property
    def id(self) -> int:
        return int(self.data["id"])

    @property
    def channel_id(self) -> int:
        return int(self.data["channel_id"])

    @property
    def content(self) -> str:
        return str(self.data["content"])

    @property
    def embeds(self) -> list[JSON]:
        return list(self.data["embeds"])

    @property
    def components(self) -> list[JSON]:
        return list(self.data["components"])

    @property
    def flags(self) -> int:
        return int(self.data["flags"])

    @property
    def ephemeral(self) -> bool:
        return self.visible_to is not None

    @property
    def loading(self) -> bool:
        """True while a deferred response has not been filled in."""
        return bool(self.flags & LOADING)

    @property
    def edited(self) -> bool:
        return self.data["edited_timestamp"] is not None

    @property
    def buttons(self) -> list[JSON]:
        """All buttons, wherever they are nested."""
        return [c for c in walk_components(self.components) if c["type"] == BUTTON]

    def find_component(
        self,
        component_type: int,
        *,
        label: str | None = None,
        custom_id: str | None = None,
        placeholder: str | None = None,
    ) -> JSON:
        """The first component of that type matching every given criterion."""
        candidates = [c for c in walk_components(self.components) if c["type"] == component_type]
        wanted = {"label": label, "custom_id": custom_id, "placeholder": placeholder}
        for component in candidates:
            if all(v is None or component.get(k) == v for k, v in wanted.items()):
                return component
        seen = [(c.get("label") or c.get("placeholder"), c.get("custom_id")) for c in candidates]
        criteria = {k: v for k, v in wanted.items() if v is not None}
        raise DriverError(
            f"message {self.id} has no component of type {component_type} matching {criteria}; "
            f"it has (label/placeholder, custom_id): {seen}"
        )


@dataclass
class RestCall:
    """One REST request the bot made and the fake's answer."""

    method: str
    path: str
    query: dict[str, str]
    json: Any = None
    files: list[Upload] = field(default_factory=list)
    status: int = 0
    response: Any = None
    at: float = field(default_factory=time.monotonic)  # when the bot made the request


@dataclass
class Callback:
    """The bot's answer to an interaction (POST /interactions/{id}/{token}/callback)."""

    type: int
    data: JSON
    message: FakeMessage | None


@dataclass
class Interaction:
    """An interaction the fake sent, and what the bot did with it."""

    fake: FakeDiscord = field(repr=False)
    id: int
    token: str
    type: int
    user: JSON
    channel_id: int
    message: FakeMessage | None
    payload: JSON = field(default_factory=dict, repr=False)
    callback: Callback | None = None
    #: The message ``@original`` refers to: the reply, or the clicked message after type 6/7.
    original: FakeMessage | None = None
    followups: list[FakeMessage] = field(default_factory=list)

    async def response(self, timeout: float = 5.0) -> Callback:
        """Wait for the bot's callback to this interaction."""
        return await self.fake.wait_for(lambda: self.callback, timeout)


class _Session:
    """One gateway websocket; frames go through a queue so their order is kept."""

    def __init__(self, ws: web.WebSocketResponse) -> None:
        self.ws = ws
        self.queue: asyncio.Queue[tuple[int, str | None, str]] = asyncio.Queue()
        self.seq = 0
        self.intents = 0
        self.session_id = secrets.token_hex(16)
        self.writer = asyncio.create_task(self._write())

    def send(self, op: int, data: Any, event: str | None = None) -> None:
        """Queue a frame; ``data`` is serialized now so later state changes do not leak in."""
        self.queue.put_nowait((op, event, json.dumps(data)))

    async def _write(self) -> None:
        while True:
            op, event, data = await self.queue.get()
            try:
                seq = None
                if op == OP_DISPATCH:
                    self.seq += 1
                    seq = self.seq
                frame = (
                    f'{{"op": {op}, "d": {data}, "s": {json.dumps(seq)}, "t": {json.dumps(event)}}}'
                )
                if not self.ws.closed:
                    await self.ws.send_str(frame)
            except ConnectionError:
                pass
            finally:
                self.queue.task_done()

    async def stop(self) -> None:
        self.writer.cancel()
        await asyncio.gather(self.writer, return_exceptions=True)
        while not self.queue.empty():
            self.queue.get_nowait()
            self.queue.task_done()


Handler = Callable[..., Any]


class FakeDiscord:
    """Fake Discord REST API and gateway on 127.0.0.1; use ``async with FakeDiscord() as fake``."""

    def __init__(self, token: str = "fake-bot-token") -> None:
        self.token = token
        self._last_id = 0
        self._started = datetime.now(UTC).isoformat()
        self.application_id = self.bot_user_id = self._snowflake()
        self.guild_id = self._snowflake()
        self._bot_role_id = self._snowflake()
        self.bot_user: JSON = {
            "id": str(self.bot_user_id),
            "username": "FakeBot",
            "discriminator": "0001",
            "global_name": None,
            "avatar": None,
            "bot": True,
            "public_flags": 0,
            "flags": 0,
            "verified": True,
            "mfa_enabled": False,
        }
        self._users: dict[int, JSON] = {self.bot_user_id: self.bot_user}
        self._channels: dict[int, JSON] = {}
        self._deleted_channels: set[int] = set()
        self._bot_overwrites: dict[int, int] = {}
        self._thread_members: dict[int, dict[int, str]] = {}
        self._messages: dict[int, FakeMessage] = {}
        self._commands: dict[int | None, list[JSON]] = {}
        self._interactions_by_token: dict[str, Interaction] = {}
        self._sessions: list[_Session] = []
        self._sessions_by_id: dict[str, _Session] = {}
        self._sockets: set[web.WebSocketResponse] = set()
        self._changed = asyncio.Condition()
        self._routes = self._build_routes()
        self._runner: web.AppRunner | None = None
        self.port = 0
        #: Every REST call, in order.
        self.calls: list[RestCall] = []
        #: Unhandled routes and gateway ops, and errors inside the fake; tests assert it is empty.
        self.faults: list[str] = []
        #: Every interaction sent by a driver method, in order.
        self.interactions: list[Interaction] = []
        #: The IDENTIFY payloads received, one per bot (re)connection.
        self.identifies: list[JSON] = []
        self.channel_id = self.create_text_channel("general")
        # Not the bot: discord.py grants a guild's owner every permission.
        self._owner = self.make_user("guild-owner")

    # -- lifecycle -----------------------------------------------------------------------

    async def start(self) -> None:
        """Start serving on a free port of 127.0.0.1."""
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_get("/gateway", self._gateway)
        app.router.add_get("/attachments/{channel_id}/{attachment_id}/{filename}", self._cdn)
        app.router.add_route("*", "/{tail:.*}", self._rest)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = self._runner.addresses[0][1]

    async def close(self) -> None:
        """Close every gateway connection and stop the server."""
        for ws in list(self._sockets):
            await ws.close(code=1001)
        if self._runner is not None:
            await self._runner.cleanup()

    async def __aenter__(self) -> FakeDiscord:
        await self.start()
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()

    @property
    def http_base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def api_base(self) -> str:
        """Value for ``discord.http.Route.BASE``."""
        return f"{self.http_base}{API_PREFIX}"

    @property
    def gateway_url(self) -> str:
        """Value for ``DiscordWebSocket.DEFAULT_GATEWAY`` (as a yarl.URL)."""
        return f"ws://127.0.0.1:{self.port}/gateway"

    # -- world setup ---------------------------------------------------------------------

    def make_user(self, name: str) -> JSON:
        """Create a user (also a member of the guild) and return its user payload."""
        uid = self._snowflake()
        user = {
            "id": str(uid),
            "username": name,
            "discriminator": "0",
            "global_name": name,
            "avatar": None,
            "bot": False,
            "public_flags": 0,
        }
        self._users[uid] = user
        return user

    def create_text_channel(self, name: str) -> int:
        """Create a text channel in the guild (CHANNEL_CREATE if a bot is connected)."""
        cid = self._snowflake()
        self._channels[cid] = {
            "id": str(cid),
            "type": TEXT_CHANNEL,
            "guild_id": str(self.guild_id),
            "name": name,
            "position": len(self._channels),
            "parent_id": None,
            "topic": None,
            "nsfw": False,
            "last_message_id": None,
            "rate_limit_per_user": 0,
            "default_auto_archive_duration": 1440,
            "flags": 0,
        }
        self._dispatch("CHANNEL_CREATE", self.channel(cid), INTENT_GUILDS)
        return cid

    def set_bot_permissions(self, channel_id: int, permissions: int | discord.Permissions) -> None:
        """Set exactly the bot's permissions in a text channel (and its threads).

        Sent to the bot as a member overwrite in CHANNEL_UPDATE, so discord.py's
        ``permissions_for`` agrees with what the fake enforces.
        """
        value = permissions.value if isinstance(permissions, discord.Permissions) else permissions
        channel = self._live_channel(channel_id)
        if channel["type"] in THREAD_TYPES:
            raise DriverError("threads inherit permissions: set them on the parent channel")
        self._bot_overwrites[channel_id] = value
        self._dispatch("CHANNEL_UPDATE", self.channel(channel_id), INTENT_GUILDS)

    def bot_permissions(self, channel_id: int) -> int:
        """The bot's permissions in a channel or thread."""
        channel = self._channels[channel_id]
        parent = int(channel["parent_id"]) if channel["type"] in THREAD_TYPES else channel_id
        return self._bot_overwrites.get(parent, DEFAULT_BOT_PERMISSIONS)

    async def delete_channel(self, channel_id: int) -> None:
        """Delete a channel or thread as a moderator would (CHANNEL_DELETE / THREAD_DELETE)."""
        self._live_channel(channel_id)
        self._remove_channel(channel_id)
        await self._flush()
        await self._notify()

    # -- state views ---------------------------------------------------------------------

    def channel(self, channel_id: int) -> JSON:
        """The current channel or thread payload."""
        channel = dict(self._channels[channel_id])
        if channel["type"] == TEXT_CHANNEL:
            channel["permission_overwrites"] = self._overwrites(channel_id)
        else:
            channel["member_count"] = len(self._thread_members[channel_id])
        return channel

    @property
    def threads(self) -> list[JSON]:
        """Threads that exist (not deleted), in creation order."""
        return [
            self.channel(cid)
            for cid, ch in self._channels.items()
            if ch["type"] in THREAD_TYPES and cid not in self._deleted_channels
        ]

    def commands(self, guild_id: int | None = None) -> list[JSON]:
        """Synced application commands: global ones, or those of a guild."""
        return list(self._commands.get(guild_id, []))

    def message(self, message_id: int) -> FakeMessage:
        """A message by id (ephemeral or deleted ones too)."""
        return self._messages[message_id]

    def messages(self, channel_id: int | None = None) -> list[FakeMessage]:
        """Public, non-deleted messages of a channel (default: ``channel_id``), oldest first."""
        cid = self.channel_id if channel_id is None else channel_id
        return [m for m in self.public_messages() if m.channel_id == cid]

    def latest_message(
        self, channel_id: int | None = None, predicate: Callable[[FakeMessage], bool] | None = None
    ) -> FakeMessage | None:
        """The newest public message of a channel, optionally the newest matching predicate."""
        matching = [m for m in self.messages(channel_id) if predicate is None or predicate(m)]
        return matching[-1] if matching else None

    def public_messages(self) -> list[FakeMessage]:
        """Every public, non-deleted message in every channel, oldest first."""
        return [m for m in self._messages.values() if not m.deleted and not m.ephemeral]

    def ephemeral_for(self, user: JSON | int) -> list[FakeMessage]:
        """Non-deleted ephemeral messages shown to that user, oldest first."""
        uid = _user_id(user)
        return [m for m in self._messages.values() if not m.deleted and m.visible_to == uid]

    async def wait_for(self, predicate: Callable[[], T | None], timeout: float = 5.0) -> T:
        """Wait until ``predicate()`` is truthy (re-checked after every REST call); return it."""
        async with self._changed:
            try:
                result = await asyncio.wait_for(self._changed.wait_for(predicate), timeout)
            except TimeoutError:
                raise TimeoutError(
                    f"fake discord: condition not met within {timeout}s\n{self.dump()}"
                ) from None
        assert result is not None
        return result

    def dump(self) -> str:
        """A short summary of recent activity, for failure messages."""
        lines = ["last REST calls:"]
        lines += [f"  {c.method} {c.path} -> {c.status}" for c in self.calls[-15:]]
        lines.append("last messages:")
        for m in list(self._messages.values())[-8:]:
            buttons = [b.get("label") for b in m.buttons]
            state = "deleted " if m.deleted else "ephemeral " if m.ephemeral else ""
            lines.append(f"  {state}#{m.channel_id} {m.content[:60]!r} buttons={buttons}")
        lines.append(f"faults: {self.faults}")
        return "\n".join(lines)

    # -- drivers: what a player does -----------------------------------------------------

    async def slash(
        self,
        user: JSON,
        command: str,
        subcommand: str | None = None,
        *,
        options: Mapping[str, Any] | None = None,
        channel_id: int | None = None,
    ) -> Interaction:
        """Run a synced slash command, e.g. ``slash(u, "game", "start", options={"size": 3})``.

        ``command`` and ``subcommand`` may hold spaces for groups (``"game admin reset"``).
        Option values are checked against the synced definition; users are given as user
        payloads, channels and roles as ids.
        """
        path = command.split() + (subcommand.split() if subcommand else [])
        cid = self.channel_id if channel_id is None else channel_id
        definition, guild_id = self._find_command(path[0])
        definitions: list[JSON] = definition.get("options", [])
        chain: list[JSON] = []
        for name in path[1:]:
            subs = {o["name"]: o for o in definitions if o["type"] in SUBCOMMAND_TYPES}
            if name not in subs:
                raise DriverError(f"/{' '.join(path)}: no subcommand {name!r}; has {sorted(subs)}")
            chain.append(subs[name])
            definitions = subs[name].get("options", [])
        if any(o["type"] in SUBCOMMAND_TYPES for o in definitions):
            raise DriverError(f"/{' '.join(path)} needs a subcommand")
        resolved: JSON = {}
        built = self._build_options(definitions, options or {}, resolved)
        for sub in reversed(chain):
            built = [{"name": sub["name"], "type": sub["type"], "options": built}]
        data: JSON = {
            "id": definition["id"],
            "name": definition["name"],
            "type": 1,
            "options": built,
        }
        if resolved:
            data["resolved"] = resolved
        if guild_id is not None:
            data["guild_id"] = str(guild_id)
        return await self._send_interaction(APPLICATION_COMMAND, user, cid, data)

    async def click(
        self,
        user: JSON,
        message: FakeMessage | int,
        *,
        label: str | None = None,
        custom_id: str | None = None,
    ) -> Interaction:
        """Click a button of a message, found by label and/or custom_id."""
        msg = self._visible_message(user, message)
        button = msg.find_component(BUTTON, label=label, custom_id=custom_id)
        if button.get("disabled"):
            raise DriverError(f"button {button.get('label')!r} of message {msg.id} is disabled")
        if "custom_id" not in button:
            raise DriverError(f"button {button.get('label')!r} is a link/premium button")
        data: JSON = {
            "custom_id": button["custom_id"],
            "component_type": BUTTON,
            "id": button["id"],
        }
        return await self._send_interaction(MESSAGE_COMPONENT, user, msg.channel_id, data, msg)

    async def select(
        self,
        user: JSON,
        message: FakeMessage | int,
        values: Sequence[str],
        *,
        custom_id: str | None = None,
        placeholder: str | None = None,
    ) -> Interaction:
        """Pick option values in a string select of a message."""
        msg = self._visible_message(user, message)
        menu = msg.find_component(STRING_SELECT, custom_id=custom_id, placeholder=placeholder)
        if menu.get("disabled"):
            raise DriverError(f"select {menu['custom_id']!r} of message {msg.id} is disabled")
        allowed = [o["value"] for o in menu.get("options", [])]
        if unknown := [v for v in values if v not in allowed]:
            raise DriverError(
                f"select {menu['custom_id']!r} has no options {unknown}; has {allowed}"
            )
        low, high = menu.get("min_values", 1), menu.get("max_values", 1)
        if not low <= len(values) <= high:
            raise DriverError(f"select {menu['custom_id']!r} takes {low}..{high} values")
        data: JSON = {
            "custom_id": menu["custom_id"],
            "component_type": STRING_SELECT,
            "values": list(values),
            "id": menu["id"],
        }
        return await self._send_interaction(MESSAGE_COMPONENT, user, msg.channel_id, data, msg)

    async def submit_modal(
        self, user: JSON, opened_by: Interaction, values: Mapping[str, str | Sequence[str]]
    ) -> Interaction:
        """Submit the modal the bot opened in answer to ``opened_by``.

        ``values`` maps custom_id to a text input's text or a string select's values.
        """
        callback = opened_by.callback
        if callback is None or callback.type != CB_MODAL:
            raise DriverError("the bot did not answer that interaction with a modal")
        modal = callback.data
        unused = set(values)

        def answer(component: JSON) -> JSON:
            kind, cid = component["type"], str(component.get("custom_id", ""))
            unused.discard(cid)
            if kind == 1:
                return {
                    "type": 1,
                    "id": component["id"],
                    "components": [answer(c) for c in component["components"]],
                }
            if kind == 18:
                return {
                    "type": 18,
                    "id": component["id"],
                    "component": answer(component["component"]),
                }
            if kind == TEXT_INPUT:
                value = values.get(cid, component.get("value", ""))
                if component.get("required", True) and not value:
                    raise DriverError(f"modal text input {cid!r} is required")
                return {"type": kind, "id": component["id"], "custom_id": cid, "value": value}
            if kind == STRING_SELECT:
                return {
                    "type": kind,
                    "id": component["id"],
                    "custom_id": cid,
                    "values": list(values.get(cid, [])),
                }
            return {"type": kind, "id": component["id"]}

        components = [answer(c) for c in modal["components"]]
        if unused:
            raise DriverError(f"modal {modal['custom_id']!r} has no inputs {sorted(unused)}")
        data: JSON = {"custom_id": modal["custom_id"], "components": components}
        return await self._send_interaction(
            MODAL_SUBMIT, user, opened_by.channel_id, data, opened_by.message
        )

    # -- internals: ids, permissions, payloads -------------------------------------------

    def _snowflake(self) -> int:
        stamp = (int(time.time() * 1000) - DISCORD_EPOCH_MS) << 22
        self._last_id = max(stamp, self._last_id + 1)
        return self._last_id

    def _overwrites(self, channel_id: int) -> list[JSON]:
        if channel_id not in self._bot_overwrites:
            return []
        allow = self._bot_overwrites[channel_id]
        deny = ALL_PERMISSIONS & ~allow
        return [{"id": str(self.bot_user_id), "type": 1, "allow": str(allow), "deny": str(deny)}]

    def _require(self, channel_id: int, needed: int) -> None:
        have = self.bot_permissions(channel_id)
        if not have & VIEW_CHANNEL:
            raise ApiError(403, 50001, "Missing Access")
        if have & needed != needed:
            raise ApiError(403, 50013, "Missing Permissions")

    def _channel_or_404(self, channel_id: int | str) -> JSON:
        cid = int(channel_id)
        if cid not in self._channels or cid in self._deleted_channels:
            raise _unknown("Channel", 10003)
        return self._channels[cid]

    def _live_channel(self, channel_id: int) -> JSON:
        if channel_id not in self._channels or channel_id in self._deleted_channels:
            raise DriverError(f"no channel {channel_id} (or it was deleted)")
        return self._channels[channel_id]

    def _member(self, user: JSON) -> JSON:
        is_bot = int(user["id"]) == self.bot_user_id
        return {
            "user": user,
            "roles": [str(self._bot_role_id)] if is_bot else [],
            "joined_at": self._started,
            "premium_since": None,
            "deaf": False,
            "mute": False,
            "flags": 0,
            "pending": False,
            "nick": None,
            "avatar": None,
            "communication_disabled_until": None,
        }

    def _role(self, role_id: int, name: str, permissions: int, position: int) -> JSON:
        role: JSON = {
            "id": str(role_id),
            "name": name,
            "color": 0,
            "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
            "hoist": False,
            "icon": None,
            "unicode_emoji": None,
            "position": position,
            "permissions": str(permissions),
            "managed": role_id != self.guild_id,
            "mentionable": False,
            "flags": 0,
        }
        if role["managed"]:
            role["tags"] = {"bot_id": str(self.bot_user_id)}
        return role

    def _guild_payload(self) -> JSON:
        live = [cid for cid in self._channels if cid not in self._deleted_channels]
        return {
            "id": str(self.guild_id),
            "name": "Fake Guild",
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "banner": None,
            "description": None,
            "owner_id": self._owner["id"],
            "features": [],
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "mfa_level": 0,
            "nsfw_level": 0,
            "premium_tier": 0,
            "premium_subscription_count": 0,
            "premium_progress_bar_enabled": False,
            "preferred_locale": "en-US",
            "afk_timeout": 300,
            "afk_channel_id": None,
            "system_channel_id": str(self.channel_id),
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "public_updates_channel_id": None,
            "vanity_url_code": None,
            "application_id": None,
            "max_members": 500000,
            "joined_at": self._started,
            "large": False,
            "unavailable": False,
            "member_count": len(self._users),
            "roles": [
                self._role(self.guild_id, "@everyone", DEFAULT_MEMBER_PERMISSIONS, 0),
                self._role(self._bot_role_id, "FakeBot", DEFAULT_BOT_PERMISSIONS, 1),
            ],
            "emojis": [],
            "stickers": [],
            "channels": [
                self.channel(c) for c in live if self._channels[c]["type"] not in THREAD_TYPES
            ],
            "threads": [self.channel(c) for c in live if self._channels[c]["type"] in THREAD_TYPES],
            "members": [self._member(self.bot_user)],
            "voice_states": [],
            "presences": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
        }

    def _find_command(self, name: str) -> tuple[JSON, int | None]:
        for scope in (self.guild_id, None):
            for command in self._commands.get(scope, []):
                if command["name"] == name and command.get("type", 1) == 1:
                    return command, scope
        synced = [c["name"] for cmds in self._commands.values() for c in cmds]
        raise DriverError(f"no synced slash command {name!r}; synced: {synced}")

    def _build_options(
        self, definitions: list[JSON], values: Mapping[str, Any], resolved: JSON
    ) -> list[JSON]:
        by_name = {d["name"]: d for d in definitions}
        if unknown := set(values) - set(by_name):
            raise DriverError(f"unknown options {sorted(unknown)}; known: {sorted(by_name)}")
        built = []
        for definition in definitions:
            name = definition["name"]
            if name not in values:
                if definition.get("required"):
                    raise DriverError(f"option {name!r} is required")
                continue
            value = self._option_value(definition, values[name], resolved)
            built.append({"name": name, "type": definition["type"], "value": value})
        return built

    def _option_value(self, definition: JSON, value: Any, resolved: JSON) -> Any:
        """Check one option value and return it as Discord sends it, filling ``resolved``."""
        kind, name = definition["type"], definition["name"]
        python_types: dict[int, tuple[type, ...]] = {
            OPTION_STRING: (str,),
            OPTION_INTEGER: (int,),
            OPTION_BOOLEAN: (bool,),
            OPTION_NUMBER: (int, float),
        }
        if kind in python_types:
            ok = isinstance(value, python_types[kind]) and (
                kind == OPTION_BOOLEAN or not isinstance(value, bool)
            )
            if not ok:
                raise DriverError(f"option {name!r} (type {kind}) got {value!r}")
            choices = [c["value"] for c in definition.get("choices", [])]
            if choices and value not in choices:
                raise DriverError(f"option {name!r} must be one of {choices}")
            return value
        if kind == OPTION_USER or (kind == OPTION_MENTIONABLE and _user_id(value) in self._users):
            user = self._users.get(_user_id(value))
            if user is None:
                raise DriverError(f"option {name!r}: unknown user {value!r}")
            member = {k: v for k, v in self._member(user).items() if k != "user"}
            member["permissions"] = str(DEFAULT_MEMBER_PERMISSIONS)
            resolved.setdefault("users", {})[user["id"]] = user
            resolved.setdefault("members", {})[user["id"]] = member
            return user["id"]
        if kind == OPTION_CHANNEL:
            self._live_channel(int(value))
            channel = self.channel(int(value))
            channel["permissions"] = str(DEFAULT_MEMBER_PERMISSIONS)
            resolved.setdefault("channels", {})[channel["id"]] = channel
            return channel["id"]
        if kind in (OPTION_ROLE, OPTION_MENTIONABLE):
            roles = {int(r["id"]): r for r in self._guild_payload()["roles"]}
            if int(value) not in roles:
                raise DriverError(f"option {name!r}: unknown role {value!r}")
            resolved.setdefault("roles", {})[str(value)] = roles[int(value)]
            return str(value)
        raise DriverError(f"option {name!r}: type {kind} is not supported by the fake")

    def _visible_message(self, user: JSON, message: FakeMessage | int) -> FakeMessage:
        mid = message.id if isinstance(message, FakeMessage) else message
        msg = self._messages.get(mid)
        if msg is None or msg.deleted:
            raise DriverError(f"message {mid} does not exist (or was deleted)")
        if msg.visible_to is not None and msg.visible_to != _user_id(user):
            raise DriverError(f"message {mid} is ephemeral and not shown to {user['username']}")
        return msg

    async def _send_interaction(
        self, kind: int, user: JSON, channel_id: int, data: JSON, message: FakeMessage | None = None
    ) -> Interaction:
        if not self._sessions:
            raise DriverError("no bot is connected to the fake gateway")
        if _user_id(user) not in self._users:
            raise DriverError("unknown user: create users with make_user()")
        self._live_channel(channel_id)
        channel = self.channel(channel_id)
        channel["permissions"] = str(DEFAULT_MEMBER_PERMISSIONS)
        rec = Interaction(
            fake=self,
            id=self._snowflake(),
            token=secrets.token_urlsafe(48),
            type=kind,
            user=user,
            channel_id=channel_id,
            message=message,
        )
        rec.payload = {
            "id": str(rec.id),
            "application_id": str(self.application_id),
            "type": kind,
            "data": data,
            "token": rec.token,
            "version": 1,
            "guild_id": str(self.guild_id),
            "guild": {"id": str(self.guild_id), "locale": "en-US", "features": []},
            "channel_id": str(channel_id),
            "channel": channel,
            "member": {**self._member(user), "permissions": str(DEFAULT_MEMBER_PERMISSIONS)},
            "app_permissions": str(self.bot_permissions(channel_id)),
            "locale": "en-US",
            "guild_locale": "en-US",
            "entitlements": [],
            "authorizing_integration_owners": {"0": str(self.guild_id)},
            "context": 0,
            "attachment_size_limit": 10 * 1024 * 1024,
        }
        if message is not None:
            rec.payload["message"] = message.payload
        self._interactions_by_token[rec.token] = rec
        self.interactions.append(rec)
        self._dispatch("INTERACTION_CREATE", rec.payload)
        await self._flush()
        await self._notify()
        return rec

    # -- internals: gateway --------------------------------------------------------------

    def _dispatch(self, event: str, data: JSON, intent: int | None = None) -> None:
        """Queue a dispatch to every identified session subscribed to ``intent``."""
        for session in self._sessions:
            if intent is None or session.intents & intent:
                session.send(OP_DISPATCH, data, event)

    async def _flush(self) -> None:
        """Wait until every queued gateway frame has been written."""
        await asyncio.gather(*(s.queue.join() for s in self._sessions))

    async def _notify(self) -> None:
        async with self._changed:
            self._changed.notify_all()

    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(max_msg_size=0)
        await ws.prepare(request)
        self._sockets.add(ws)
        session = _Session(ws)
        session.send(OP_HELLO, {"heartbeat_interval": 41250})
        try:
            async for msg in ws:
                if msg.type is not WSMsgType.TEXT:
                    self.faults.append(f"unexpected gateway frame type {msg.type}")
                    continue
                try:
                    await self._on_gateway_frame(session, json.loads(msg.data))
                except Exception as error:
                    _log.exception("fake discord failed on gateway frame %s", msg.data[:200])
                    self.faults.append(f"error handling gateway frame: {error!r}")
        finally:
            if session in self._sessions:
                self._sessions.remove(session)
            self._sockets.discard(ws)
            await session.stop()
        return ws

    async def _on_gateway_frame(self, session: _Session, frame: JSON) -> None:
        op, data = frame["op"], frame["d"]
        if op == OP_HEARTBEAT:
            session.send(OP_HEARTBEAT_ACK, None)
        elif op == OP_IDENTIFY:
            await self._identify(session, data)
        elif op == OP_RESUME:
            self._resume(session, data)
        elif op == OP_REQUEST_GUILD_MEMBERS:
            session.send(OP_DISPATCH, self._members_chunk(data), "GUILD_MEMBERS_CHUNK")
        elif op not in (OP_PRESENCE_UPDATE, OP_VOICE_STATE_UPDATE):
            self.faults.append(f"unhandled gateway op {op}: {frame}")

    def _resume(self, session: _Session, data: JSON) -> None:
        """Continue a known session (events sent while disconnected are not replayed).

        Answering INVALID_SESSION instead would work too, but discord.py then waits 5 s
        before it identifies again.
        """
        old = self._sessions_by_id.get(data.get("session_id", ""))
        if old is None or data.get("token") != self.token:
            session.send(OP_INVALID_SESSION, False)
            return
        session.session_id, session.intents, session.seq = old.session_id, old.intents, old.seq
        self._sessions_by_id[session.session_id] = session
        session.send(OP_DISPATCH, {}, "RESUMED")
        self._sessions.append(session)

    def _members_chunk(self, request: JSON) -> JSON:
        wanted = {int(u) for u in request.get("user_ids") or []}
        query = request.get("query") or ""

        def matches(uid: int, user: JSON) -> bool:
            return uid in wanted if wanted else str(user["username"]).startswith(query)

        return {
            "guild_id": str(self.guild_id),
            "members": [self._member(u) for uid, u in self._users.items() if matches(uid, u)],
            "chunk_index": 0,
            "chunk_count": 1,
            "not_found": [],
            "nonce": request.get("nonce"),
        }

    async def _identify(self, session: _Session, data: JSON) -> None:
        if data.get("token") != self.token:
            await session.ws.close(code=4004, message=b"Authentication failed.")
            return
        self.identifies.append(data)
        session.intents = int(data.get("intents", 0))
        self._sessions_by_id[session.session_id] = session
        ready = {
            "v": 10,
            "user": self.bot_user,
            "guilds": [{"id": str(self.guild_id), "unavailable": True}],
            "session_id": session.session_id,
            "resume_gateway_url": self.gateway_url,
            "application": {"id": str(self.application_id), "flags": 0},
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "_trace": ["fake-discord"],
        }
        session.send(OP_DISPATCH, ready, "READY")
        session.send(OP_DISPATCH, self._guild_payload(), "GUILD_CREATE")
        self._sessions.append(session)

    # -- internals: REST plumbing --------------------------------------------------------

    def _build_routes(self) -> list[tuple[str, re.Pattern[str], Handler]]:
        cmds = "/applications/{app_id}/commands"
        guild_cmds = "/applications/{app_id}/guilds/{guild_id}/commands"
        webhook_msg = "/webhooks/{app_id}/{token}/messages/{message_id}"
        message = "/channels/{channel_id}/messages/{message_id}"
        thread_members = "/channels/{channel_id}/thread-members"
        table: list[tuple[str, str, Handler]] = [
            ("GET", "/users/@me", lambda call: self.bot_user),
            ("GET", "/users/{user_id}", self._get_user),
            ("GET", "/oauth2/applications/@me", self._get_application),
            ("GET", "/gateway", lambda call: {"url": self.gateway_url}),
            ("GET", "/gateway/bot", self._get_gateway_bot),
            ("GET", "/guilds/{guild_id}/members/{user_id}", self._get_member),
            ("GET", cmds, self._get_commands),
            ("PUT", cmds, self._put_commands),
            ("POST", cmds, self._post_command),
            ("GET", cmds + "/{command_id}", self._get_command),
            ("PATCH", cmds + "/{command_id}", self._patch_command),
            ("DELETE", cmds + "/{command_id}", self._delete_command),
            ("GET", guild_cmds, self._get_commands),
            ("PUT", guild_cmds, self._put_commands),
            ("POST", guild_cmds, self._post_command),
            ("GET", guild_cmds + "/{command_id}", self._get_command),
            ("PATCH", guild_cmds + "/{command_id}", self._patch_command),
            ("DELETE", guild_cmds + "/{command_id}", self._delete_command),
            ("GET", "/channels/{channel_id}", self._get_channel),
            ("PATCH", "/channels/{channel_id}", self._patch_channel),
            ("DELETE", "/channels/{channel_id}", self._delete_channel),
            ("POST", "/channels/{channel_id}/typing", self._typing),
            ("GET", "/channels/{channel_id}/messages", self._get_messages),
            ("POST", "/channels/{channel_id}/messages", self._post_message),
            ("GET", message, self._get_message),
            ("PATCH", message, self._patch_message),
            ("DELETE", message, self._delete_message),
            ("POST", "/channels/{channel_id}/threads", self._post_thread),
            ("POST", message + "/threads", self._post_message_thread),
            ("GET", thread_members, self._get_thread_members),
            ("GET", thread_members + "/{user_id}", self._get_thread_member),
            ("PUT", thread_members + "/{user_id}", self._put_thread_member),
            ("DELETE", thread_members + "/{user_id}", self._delete_thread_member),
            ("POST", "/interactions/{interaction_id}/{token}/callback", self._callback),
            ("POST", "/webhooks/{app_id}/{token}", self._post_followup),
            ("GET", webhook_msg, self._get_webhook_message),
            ("PATCH", webhook_msg, self._patch_webhook_message),
            ("DELETE", webhook_msg, self._delete_webhook_message),
        ]
        return [
            (method, re.compile(re.sub(r"\{(\w+)\}", r"(?P<\1>[^/]+)", path)), handler)
            for method, path, handler in table
        ]

    async def _rest(self, request: web.Request) -> web.Response:
        path = request.path.removeprefix(API_PREFIX)
        call = RestCall(request.method, path, dict(request.query))
        self.calls.append(call)
        body: Any
        try:
            call.json, call.files = await self._read_body(request)
            body = self._handle(request, call)
            call.status = 204 if body is None else 200
        except ApiError as error:
            call.status, body = error.status, error.body
        except Exception as error:
            _log.exception("fake discord failed on %s %s", call.method, path)
            self.faults.append(f"error handling {call.method} {path}: {error!r}")
            call.status, body = 400, {"message": f"fake discord: error {error!r}", "code": 0}
        await self._flush()
        await self._notify()
        if body is None:
            return web.Response(status=204)
        encoded = json.dumps(body)
        call.response = json.loads(encoded)  # a snapshot: stored state keeps changing
        # Exactly "application/json" (no charset): discord.py only parses JSON then.
        return web.Response(
            status=call.status, body=encoded.encode(), content_type="application/json"
        )

    def _handle(self, request: web.Request, call: RestCall) -> Any:
        routes = self._routes if request.path.startswith(API_PREFIX) else []
        for method, pattern, handler in routes:
            match = pattern.fullmatch(call.path)
            if match is None or method != call.method:
                continue
            webhook = call.path.startswith(("/webhooks/", "/interactions/"))
            if not webhook and request.headers.get("Authorization") != f"Bot {self.token}":
                raise ApiError(401, 0, "401: Unauthorized")
            return handler(call, **match.groupdict())
        self.faults.append(f"unhandled {call.method} {request.path}")
        raise ApiError(400, 0, f"fake discord: unhandled {call.method} {request.path}")

    @staticmethod
    async def _read_body(request: web.Request) -> tuple[Any, list[Upload]]:
        if not request.can_read_body:
            return None, []
        if request.content_type != "multipart/form-data":
            return await request.json(), []
        payload: Any = None
        files: list[Upload] = []
        async for part in await request.multipart():
            assert isinstance(part, BodyPartReader), "nested multipart is not supported"
            if part.name == "payload_json":
                payload = json.loads(await part.text())
            elif part.name and (index := re.fullmatch(r"files\[(\d+)\]", part.name)):
                filename = part.filename or f"file{index[1]}"
                content_type = mimetypes.guess_type(filename)[0] or "application/octet-stream"
                data = bytes(await part.read())
                files.append(Upload(int(index[1]), filename, data, content_type))
            else:
                raise ApiError(400, 50035, f"Invalid Form Body: unexpected part {part.name!r}")
        return payload, files

    async def _cdn(self, request: web.Request) -> web.Response:
        message_attachments = (a for m in self._messages.values() for a in m.attachments)
        for attachment in message_attachments:
            if str(attachment.id) == request.match_info["attachment_id"]:
                return web.Response(body=attachment.data, content_type=attachment.content_type)
        return web.Response(status=404, text="unknown attachment")

    # -- REST: users, application, commands ----------------------------------------------

    def _get_user(self, call: RestCall, user_id: str) -> JSON:
        if not user_id.isdigit() or int(user_id) not in self._users:
            raise _unknown("User", 10013)
        return self._users[int(user_id)]

    def _get_application(self, call: RestCall) -> JSON:
        return {
            "id": str(self.application_id),
            "name": "FakeBot",
            "description": "",
            "icon": None,
            "bot_public": True,
            "bot_require_code_grant": False,
            "owner": self.bot_user,
            "team": None,
            "verify_key": "0" * 64,
            "flags": 0,
            "bot": self.bot_user,
        }

    def _get_gateway_bot(self, call: RestCall) -> JSON:
        limit = {"total": 1000, "remaining": 999, "reset_after": 0, "max_concurrency": 1}
        return {"url": self.gateway_url, "shards": 1, "session_start_limit": limit}

    def _get_member(self, call: RestCall, guild_id: str, user_id: str) -> JSON:
        if int(guild_id) != self.guild_id:
            raise _unknown("Guild", 10004)
        if int(user_id) not in self._users:
            raise _unknown("Member", 10007)
        return self._member(self._users[int(user_id)])

    def _command_scope(self, app_id: str, guild_id: str | None) -> list[JSON]:
        if int(app_id) != self.application_id:
            raise _unknown("Application", 10002)
        if guild_id is not None and int(guild_id) != self.guild_id:
            raise _unknown("Guild", 10004)
        return self._commands.setdefault(None if guild_id is None else int(guild_id), [])

    def _stored_command(self, body: JSON, guild_id: str | None, existing: list[JSON]) -> JSON:
        kind = body.get("type", 1)
        old = next((c for c in existing if c["name"] == body["name"] and c["type"] == kind), None)
        command = {
            "description": "",
            "options": [],
            "default_member_permissions": None,
            "nsfw": False,
            **body,
            "id": old["id"] if old else str(self._snowflake()),
            "application_id": str(self.application_id),
            "type": kind,
            "version": str(self._snowflake()),
        }
        if guild_id is not None:
            command["guild_id"] = guild_id
        return command

    def _get_commands(self, call: RestCall, app_id: str, guild_id: str | None = None) -> list[JSON]:
        return self._command_scope(app_id, guild_id)

    def _put_commands(self, call: RestCall, app_id: str, guild_id: str | None = None) -> list[JSON]:
        scope = self._command_scope(app_id, guild_id)
        scope[:] = [self._stored_command(body, guild_id, scope) for body in call.json]
        return scope

    def _post_command(self, call: RestCall, app_id: str, guild_id: str | None = None) -> JSON:
        scope = self._command_scope(app_id, guild_id)
        command = self._stored_command(call.json, guild_id, scope)
        scope[:] = [c for c in scope if c["id"] != command["id"]] + [command]
        return command

    def _find_stored_command(
        self, app_id: str, guild_id: str | None, command_id: str
    ) -> tuple[list[JSON], JSON]:
        scope = self._command_scope(app_id, guild_id)
        for command in scope:
            if command["id"] == command_id:
                return scope, command
        raise _unknown("application command", 10063)

    def _get_command(
        self, call: RestCall, app_id: str, command_id: str, guild_id: str | None = None
    ) -> JSON:
        return self._find_stored_command(app_id, guild_id, command_id)[1]

    def _patch_command(
        self, call: RestCall, app_id: str, command_id: str, guild_id: str | None = None
    ) -> JSON:
        _, command = self._find_stored_command(app_id, guild_id, command_id)
        command.update(call.json)
        return command

    def _delete_command(
        self, call: RestCall, app_id: str, command_id: str, guild_id: str | None = None
    ) -> None:
        scope, command = self._find_stored_command(app_id, guild_id, command_id)
        scope.remove(command)

    # -- REST: channels and threads ------------------------------------------------------

    def _get_channel(self, call: RestCall, channel_id: str) -> JSON:
        self._channel_or_404(channel_id)
        self._require(int(channel_id), 0)
        return self.channel(int(channel_id))

    def _patch_channel(self, call: RestCall, channel_id: str) -> JSON:
        channel = self._channel_or_404(channel_id)
        cid, body = int(channel_id), call.json or {}
        is_thread = channel["type"] in THREAD_TYPES
        if is_thread:
            # The thread's owner may rename/archive it; locking needs MANAGE_THREADS.
            owned = int(channel["owner_id"]) == self.bot_user_id
            self._require(cid, MANAGE_THREADS if "locked" in body or not owned else 0)
        else:
            self._require(cid, MANAGE_CHANNELS)
        for key in ("name", "topic", "rate_limit_per_user", "nsfw", "flags"):
            if key in body:
                channel[key] = body[key]
        if is_thread:
            metadata = channel["thread_metadata"]
            for key in ("archived", "locked", "auto_archive_duration", "invitable"):
                if key in body:
                    metadata[key] = body[key]
            if "archived" in body:
                metadata["archive_timestamp"] = _now()
        self._dispatch(
            "THREAD_UPDATE" if is_thread else "CHANNEL_UPDATE", self.channel(cid), INTENT_GUILDS
        )
        return self.channel(cid)

    def _delete_channel(self, call: RestCall, channel_id: str) -> JSON:
        channel = self._channel_or_404(channel_id)
        self._require(
            int(channel_id), MANAGE_THREADS if channel["type"] in THREAD_TYPES else MANAGE_CHANNELS
        )
        return self._remove_channel(int(channel_id))

    def _remove_channel(self, channel_id: int) -> JSON:
        payload = self.channel(channel_id)
        self._deleted_channels.add(channel_id)
        if payload["type"] in THREAD_TYPES:
            keys = ("id", "guild_id", "parent_id", "type")
            self._dispatch("THREAD_DELETE", {k: payload[k] for k in keys}, INTENT_GUILDS)
        else:
            for cid, channel in self._channels.items():
                if channel.get("parent_id") == str(channel_id):
                    self._deleted_channels.add(cid)
            self._dispatch("CHANNEL_DELETE", payload, INTENT_GUILDS)
        return payload

    def _typing(self, call: RestCall, channel_id: str) -> None:
        self._channel_or_404(channel_id)
        self._require(int(channel_id), 0)

    def _thread_payload(self, parent: JSON, thread_id: int, kind: int, body: JSON) -> JSON:
        metadata: JSON = {
            "archived": False,
            "auto_archive_duration": body.get("auto_archive_duration") or 4320,
            "archive_timestamp": _now(),
            "locked": False,
            "create_timestamp": _now(),
        }
        if kind == PRIVATE_THREAD:
            metadata["invitable"] = body.get("invitable", True)
        return {
            "id": str(thread_id),
            "type": kind,
            "guild_id": str(self.guild_id),
            "parent_id": parent["id"],
            "owner_id": str(self.bot_user_id),
            "name": body["name"],
            "last_message_id": None,
            "message_count": 0,
            "total_message_sent": 0,
            "rate_limit_per_user": body.get("rate_limit_per_user") or 0,
            "flags": 0,
            "thread_metadata": metadata,
        }

    def _create_thread(self, parent: JSON, thread_id: int, kind: int, body: JSON) -> JSON:
        if parent["type"] != TEXT_CHANNEL:
            raise ApiError(400, 50024, "Cannot execute action on this channel type")
        if not body.get("name"):
            raise _invalid_form("name", "BASE_TYPE_REQUIRED", "This field is required")
        self._require(
            int(parent["id"]),
            CREATE_PUBLIC_THREADS if kind == PUBLIC_THREAD else CREATE_PRIVATE_THREADS,
        )
        self._channels[thread_id] = self._thread_payload(parent, thread_id, kind, body)
        self._thread_members[thread_id] = {self.bot_user_id: _now()}
        thread = self.channel(thread_id)
        event = {
            **thread,
            "newly_created": True,
            "member": self._thread_member(thread_id, self.bot_user_id),
        }
        self._dispatch("THREAD_CREATE", event, INTENT_GUILDS)
        return thread

    def _post_thread(self, call: RestCall, channel_id: str) -> JSON:
        body = call.json or {}
        parent = self._channel_or_404(channel_id)
        return self._create_thread(
            parent, self._snowflake(), body.get("type", PRIVATE_THREAD), body
        )

    def _post_message_thread(self, call: RestCall, channel_id: str, message_id: str) -> JSON:
        parent = self._channel_or_404(channel_id)
        msg = self._channel_message(channel_id, message_id)
        if msg.flags & HAS_THREAD:
            raise ApiError(400, 160004, "A thread has already been created for this message")
        thread = self._create_thread(parent, msg.id, PUBLIC_THREAD, call.json or {})
        msg.data["flags"] |= HAS_THREAD
        msg.data["thread"] = thread
        return thread

    def _thread_member(self, thread_id: int, user_id: int) -> JSON:
        joined = self._thread_members[thread_id][user_id]
        return {"id": str(thread_id), "user_id": str(user_id), "join_timestamp": joined, "flags": 0}

    def _thread_and_user(self, channel_id: str, user_id: str) -> tuple[int, int]:
        channel = self._channel_or_404(channel_id)
        if channel["type"] not in THREAD_TYPES:
            raise ApiError(400, 50024, "Cannot execute action on this channel type")
        self._require(int(channel_id), 0)
        uid = self.bot_user_id if user_id == "@me" else int(user_id)
        if uid not in self._users:
            raise _unknown("User", 10013)
        return int(channel_id), uid

    def _get_thread_members(self, call: RestCall, channel_id: str) -> list[JSON]:
        tid, _ = self._thread_and_user(channel_id, "@me")
        return [self._thread_member(tid, uid) for uid in self._thread_members[tid]]

    def _get_thread_member(self, call: RestCall, channel_id: str, user_id: str) -> JSON:
        tid, uid = self._thread_and_user(channel_id, user_id)
        if uid not in self._thread_members[tid]:
            raise _unknown("Member", 10007)
        member = self._thread_member(tid, uid)
        if call.query.get("with_member") in ("true", "1"):
            member["member"] = self._member(self._users[uid])
        return member

    def _put_thread_member(self, call: RestCall, channel_id: str, user_id: str) -> None:
        tid, uid = self._thread_and_user(channel_id, user_id)
        self._thread_members[tid].setdefault(uid, _now())

    def _delete_thread_member(self, call: RestCall, channel_id: str, user_id: str) -> None:
        tid, uid = self._thread_and_user(channel_id, user_id)
        self._thread_members[tid].pop(uid, None)

    # -- REST: messages ------------------------------------------------------------------

    def _channel_message(self, channel_id: str, message_id: str) -> FakeMessage:
        self._channel_or_404(channel_id)
        self._require(int(channel_id), READ_MESSAGE_HISTORY)
        msg = self._messages.get(int(message_id)) if message_id.isdigit() else None
        if msg is None or msg.deleted or msg.ephemeral or msg.channel_id != int(channel_id):
            raise _unknown("Message", 10008)
        return msg

    def _get_messages(self, call: RestCall, channel_id: str) -> list[JSON]:
        self._channel_or_404(channel_id)
        self._require(int(channel_id), READ_MESSAGE_HISTORY)
        found = reversed(self.messages(int(channel_id)))
        if "before" in call.query:
            found = (m for m in found if m.id < int(call.query["before"]))
        if "after" in call.query:
            found = (m for m in found if m.id > int(call.query["after"]))
        limit = min(int(call.query.get("limit", 50)), 100)
        return [m.payload for m in itertools.islice(found, limit)]

    def _post_message(self, call: RestCall, channel_id: str) -> JSON:
        channel = self._channel_or_404(channel_id)
        cid = int(channel_id)
        self._require(
            cid, SEND_MESSAGES_IN_THREADS if channel["type"] in THREAD_TYPES else SEND_MESSAGES
        )
        if call.files:
            self._require(cid, ATTACH_FILES)
        return self._new_message(cid, call.json or {}, call.files).payload

    def _get_message(self, call: RestCall, channel_id: str, message_id: str) -> JSON:
        return self._channel_message(channel_id, message_id).payload

    def _patch_message(self, call: RestCall, channel_id: str, message_id: str) -> JSON:
        msg = self._channel_message(channel_id, message_id)
        if call.files:
            self._require(msg.channel_id, ATTACH_FILES)
        return self._edit_message(msg, call.json or {}, call.files).payload

    def _delete_message(self, call: RestCall, channel_id: str, message_id: str) -> None:
        self._remove_message(self._channel_message(channel_id, message_id))

    def _attachments(
        self,
        channel_id: int,
        existing: list[Attachment],
        refs: list[JSON] | None,
        uploads: list[Upload],
    ) -> list[Attachment]:
        """Resolve an ``attachments`` list: indexes of new uploads or ids of kept attachments."""
        new = {}
        for upload in uploads:
            aid = self._snowflake()
            url = f"{self.http_base}/attachments/{channel_id}/{aid}/{upload.filename}"
            new[upload.index] = Attachment(
                aid, upload.filename, upload.data, upload.content_type, url
            )
        if refs is None:
            return existing + list(new.values())
        kept = {a.id: a for a in existing}
        result = []
        for ref in refs:
            key = int(ref["id"])
            if key in new:
                attachment = new.pop(key)
                attachment.filename = ref.get("filename") or attachment.filename
                attachment.description = ref.get("description")
            elif key in kept:
                attachment = kept[key]
            else:
                raise _invalid_form(
                    "attachments", "ATTACHMENT_NOT_FOUND", f"Unknown attachment {key}"
                )
            result.append(attachment)
        return result + list(new.values())

    @staticmethod
    def _apply_fields(data: JSON, body: JSON) -> None:
        content = body.get("content")
        if content is not None and len(str(content)) > 2000:
            raise _invalid_form(
                "content", "BASE_TYPE_MAX_LENGTH", "Must be 2000 or fewer in length."
            )
        if "content" in body:
            data["content"] = "" if content is None else str(content)
        for key in ("embeds", "components"):
            if key in body:
                data[key] = body[key] or []
        _number_components(data["components"])
        if body.get("flags") is not None:
            data["flags"] = (data["flags"] & ~SETTABLE_FLAGS) | (body["flags"] & SETTABLE_FLAGS)
        if body.get("poll") is not None:
            data["poll"] = body["poll"]

    @staticmethod
    def _check_not_empty(data: JSON, attachments: list[Attachment]) -> None:
        if not (
            data["content"]
            or data["embeds"]
            or data["components"]
            or attachments
            or data.get("poll")
        ):
            raise ApiError(400, 50006, "Cannot send an empty message")

    def _new_message(
        self,
        channel_id: int,
        body: JSON,
        uploads: list[Upload],
        *,
        interaction: Interaction | None = None,
        loading: bool = False,
    ) -> FakeMessage:
        """Store a new bot message; ephemeral if it answers an interaction with flag 64."""
        data: JSON = {
            "id": str(self._snowflake()),
            "type": 0,
            "channel_id": str(channel_id),
            "author": self.bot_user,
            "content": "",
            "timestamp": _now(),
            "edited_timestamp": None,
            "tts": bool(body.get("tts")),
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "embeds": [],
            "components": [],
            "pinned": False,
            "flags": 0,
        }
        self._apply_fields(data, body)
        if body.get("nonce") is not None:
            data["nonce"] = body["nonce"]
        reference = body.get("message_reference")
        if reference:
            data["type"] = 19
            data["message_reference"] = {
                **reference,
                "channel_id": str(channel_id),
                "guild_id": str(self.guild_id),
            }
            referenced = self._messages.get(int(reference["message_id"]))
            data["referenced_message"] = referenced.payload if referenced else None
        visible_to = None
        if interaction is not None:
            data["type"] = 20 if interaction.type == APPLICATION_COMMAND else 0
            data["webhook_id"] = data["application_id"] = str(self.application_id)
            data["interaction_metadata"] = self._interaction_metadata(interaction)
            if (body.get("flags") or 0) & EPHEMERAL:
                visible_to = int(interaction.user["id"])
                data["flags"] |= EPHEMERAL
        if loading:
            data["flags"] |= LOADING
        attachments = self._attachments(channel_id, [], body.get("attachments"), uploads)
        if not loading:
            self._check_not_empty(data, attachments)
        msg = FakeMessage(data, attachments, visible_to)
        self._messages[msg.id] = msg
        if not msg.ephemeral:
            self._channels[channel_id]["last_message_id"] = data["id"]
            self._dispatch("MESSAGE_CREATE", self._gateway_message(msg), INTENT_GUILD_MESSAGES)
        return msg

    def _edit_message(self, msg: FakeMessage, body: JSON, uploads: list[Upload]) -> FakeMessage:
        data = {**msg.data, "edited_timestamp": _now()}
        self._apply_fields(data, body)
        data["flags"] &= ~LOADING
        attachments = self._attachments(
            msg.channel_id, msg.attachments, body.get("attachments"), uploads
        )
        self._check_not_empty(data, attachments)
        msg.data, msg.attachments = data, attachments
        if not msg.ephemeral:
            self._dispatch("MESSAGE_UPDATE", self._gateway_message(msg), INTENT_GUILD_MESSAGES)
        return msg

    def _remove_message(self, msg: FakeMessage) -> None:
        msg.deleted = True
        if not msg.ephemeral:
            event = {
                "id": str(msg.id),
                "channel_id": str(msg.channel_id),
                "guild_id": str(self.guild_id),
            }
            self._dispatch("MESSAGE_DELETE", event, INTENT_GUILD_MESSAGES)

    def _gateway_message(self, msg: FakeMessage) -> JSON:
        member = {k: v for k, v in self._member(self.bot_user).items() if k != "user"}
        return {**msg.payload, "guild_id": str(self.guild_id), "member": member}

    def _interaction_metadata(self, rec: Interaction) -> JSON:
        metadata: JSON = {
            "id": str(rec.id),
            "type": rec.type,
            "user": rec.user,
            "authorizing_integration_owners": {"0": str(self.guild_id)},
        }
        if rec.message is not None:
            metadata["interacted_message_id"] = str(rec.message.id)
        if rec.original is not None:
            metadata["original_response_message_id"] = str(rec.original.id)
        return metadata

    # -- REST: interactions and their webhook --------------------------------------------

    def _callback(self, call: RestCall, interaction_id: str, token: str) -> JSON | None:
        rec = self._interactions_by_token.get(token)
        if rec is None or str(rec.id) != interaction_id:
            raise _unknown("interaction", 10062)
        if rec.callback is not None:
            raise ApiError(400, 40060, "Interaction has already been acknowledged.")
        body = call.json or {}
        kind: int = body.get("type", 0)
        data: JSON = body.get("data") or {}
        valid_for = {
            CB_PONG: (PING,),
            CB_MESSAGE: (APPLICATION_COMMAND, MESSAGE_COMPONENT, MODAL_SUBMIT),
            CB_DEFERRED_MESSAGE: (APPLICATION_COMMAND, MESSAGE_COMPONENT, MODAL_SUBMIT),
            CB_DEFERRED_UPDATE: (MESSAGE_COMPONENT, MODAL_SUBMIT),
            CB_UPDATE_MESSAGE: (MESSAGE_COMPONENT, MODAL_SUBMIT),
            CB_AUTOCOMPLETE: (AUTOCOMPLETE,),
            CB_MODAL: (APPLICATION_COMMAND, MESSAGE_COMPONENT),
        }
        updates = (CB_DEFERRED_UPDATE, CB_UPDATE_MESSAGE)
        if rec.type not in valid_for.get(kind, ()) or (kind in updates and rec.message is None):
            raise _invalid_form(
                "type", "INTERACTION_RESPONSE_TYPE_INVALID", f"Invalid response type {kind}"
            )
        self._channel_or_404(rec.channel_id)
        message = None
        if kind == CB_MESSAGE:
            message = self._new_message(rec.channel_id, data, call.files, interaction=rec)
        elif kind == CB_DEFERRED_MESSAGE:
            message = self._new_message(rec.channel_id, data, [], interaction=rec, loading=True)
        elif kind in updates:
            assert rec.message is not None
            message = rec.message
            if kind == CB_UPDATE_MESSAGE:
                self._edit_message(message, data, call.files)
        elif kind == CB_MODAL:
            _number_components(data.get("components", []))
        if message is not None:
            rec.original = message
        rec.callback = Callback(kind, data, message)
        if call.query.get("with_response") not in ("1", "true", "True"):
            return None
        summary: JSON = {"id": str(rec.id), "type": rec.type}
        if message is not None:
            summary["response_message_id"] = str(message.id)
            summary["response_message_loading"] = message.loading
            summary["response_message_ephemeral"] = message.ephemeral
        resource: JSON = {"type": kind}
        if message is not None and kind != CB_DEFERRED_UPDATE:
            resource["message"] = message.payload
        return {"interaction": summary, "resource": resource}

    def _webhook_interaction(self, app_id: str, token: str) -> Interaction:
        rec = self._interactions_by_token.get(token)
        if (
            not app_id.isdigit()
            or int(app_id) != self.application_id
            or rec is None
            or rec.callback is None
        ):
            raise _unknown("Webhook", 10015)
        return rec

    def _webhook_message(self, app_id: str, token: str, message_id: str) -> FakeMessage:
        rec = self._webhook_interaction(app_id, token)
        if message_id == "@original":
            msg = rec.original
        else:
            msg = next(
                (m for m in [rec.original, *rec.followups] if m and str(m.id) == message_id), None
            )
        if msg is None or msg.deleted:
            raise _unknown("Message", 10008)
        return msg

    def _post_followup(self, call: RestCall, app_id: str, token: str) -> JSON | None:
        rec = self._webhook_interaction(app_id, token)
        self._channel_or_404(rec.channel_id)
        body = call.json or {}
        if rec.original is not None and rec.original.loading:
            msg = self._edit_message(rec.original, body, call.files)
        else:
            msg = self._new_message(rec.channel_id, body, call.files, interaction=rec)
            rec.followups.append(msg)
        return msg.payload if call.query.get("wait") in ("1", "true", "True") else None

    def _get_webhook_message(
        self, call: RestCall, app_id: str, token: str, message_id: str
    ) -> JSON:
        return self._webhook_message(app_id, token, message_id).payload

    def _patch_webhook_message(
        self, call: RestCall, app_id: str, token: str, message_id: str
    ) -> JSON:
        msg = self._webhook_message(app_id, token, message_id)
        self._channel_or_404(msg.channel_id)
        return self._edit_message(msg, call.json or {}, call.files).payload

    def _delete_webhook_message(
        self, call: RestCall, app_id: str, token: str, message_id: str
    ) -> None:
        self._remove_message(self._webhook_message(app_id, token, message_id))
