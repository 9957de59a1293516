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

Discord's rules the fake keeps, and what tests can make go wrong:

- The 3-second window. ``Interaction.sent_at`` and ``Callback.at`` are ``time.monotonic()``
  stamps; a callback later than ``fake.interaction_window`` (3.0) is refused 404 10062
  and the interaction lands in ``fake.late_answers``; ``fake.unanswered()`` lists those
  users saw fail. Follow-ups and ``@original`` edits work for ``fake.token_lifetime``
  (15 minutes) after the interaction was sent, then answer 401 50027.
- Faults on REST routes: ``fake.inject(method, path_regex, status=, code=, delay=,
  hang=, retry_after=, times=)`` answers matching requests with an error, a proper 429
  that discord.py waits out by itself, or holds them until ``injection.release()``.
  Injected answers are in ``calls`` (``call.injected``), never in ``faults``.
- Gateway drops: ``await fake.drop_gateway()`` makes the bot reconnect and RESUME (what
  it missed meanwhile is replayed); ``drop_gateway(resume=False)`` makes it IDENTIFY
  anew (a fresh READY: ``fake.readies``). discord.py sleeps 5 s before every IDENTIFY
  but its first unless the bot overrides ``before_identify_hook``.
- Moderators: ``delete_message``, ``delete_channel`` (later calls: 404 10008 / 10003)
  and ``archive_thread`` (edits there: 400 50083 until a post or PATCH unarchives it).
- Users and guilds: ``make_user(name, locale=)``, ``fake.guild_locale``,
  ``create_guild(name, shard=(id, count))``, ``create_text_channel(name, guild_id)``.
  A session that IDENTIFYs with ``"shard": [id, count]`` gets only the events of the
  guilds its shard owns, ``(guild_id >> 22) % count`` (one without gets everything);
  ``fake.recommended_shards`` is what ``GET /gateway/bot`` recommends. Several bot
  processes (one per shard) tell their REST calls apart when each is given its own
  ``fake.api_base_for(name)``: ``call.client`` is that name, ``fake.guild_of(call)`` the
  server a call acted in.
- The global rate limit: at most ``fake.global_limit`` (50) requests a second made with
  the bot's token, all routes together (``call.bot_token``); one more is answered with a
  global 429 (``X-RateLimit-Global``) and kept in ``fake.globally_limited``. Interaction
  callbacks and their webhook (follow-ups, edits) are not bound by it, as on Discord.
- Direct messages: ``POST /users/@me/channels`` opens a member's DM channel (one per
  member, the same one again after); the bot's posts there are ``fake.dms(user)``. A member
  made with ``fake.close_dms(user)`` takes none: a post is refused 403 50007, as Discord
  refuses a member who closed their DMs.
- Rate limits: ``fake.channel_post_limit = (5, 5.0)`` limits the bot's message posts per
  channel (bucket headers on every answer, 429 beyond); interaction answers are exempt.
  ``fake.requests_per_route()`` counts calls per route.

The model (constants, messages, calls, interactions) is in ``fake_model`` and Discord's
error answers, injections and rate limits in ``fake_faults``; import them from here.
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
from collections import Counter, deque
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, TypeVar

import discord
from aiohttp import BodyPartReader, WSMsgType, web
from aiohttp.hdrs import CONTENT_DISPOSITION

from tests.e2e.fake_faults import (
    ApiError,
    FixedWindow,
    Injection,
    bucket_hash,
    globally_limited,
    rate_limit_headers,
    too_many_requests,
)
from tests.e2e.fake_model import (
    ALL_PERMISSIONS,
    ANSWER_REQUIRED,
    API_PREFIX,
    APPLICATION_COMMAND,
    ATTACH_FILES,
    AUTOCOMPLETE,
    BUTTON,
    CB_AUTOCOMPLETE,
    CB_DEFERRED_MESSAGE,
    CB_DEFERRED_UPDATE,
    CB_MESSAGE,
    CB_MODAL,
    CB_PONG,
    CB_UPDATE_MESSAGE,
    COMPONENTS_V2,
    CREATE_PRIVATE_THREADS,
    CREATE_PUBLIC_THREADS,
    DEFAULT_BOT_PERMISSIONS,
    DEFAULT_MEMBER_PERMISSIONS,
    DISCORD_EPOCH_MS,
    EPHEMERAL,
    HAS_THREAD,
    INTENT_GUILD_MESSAGES,
    INTENT_GUILDS,
    JSON,
    LOADING,
    MANAGE_CHANNELS,
    MANAGE_THREADS,
    MESSAGE_COMPONENT,
    MODAL_SUBMIT,
    OP_DISPATCH,
    OP_HEARTBEAT,
    OP_HEARTBEAT_ACK,
    OP_HELLO,
    OP_IDENTIFY,
    OP_INVALID_SESSION,
    OP_PRESENCE_UPDATE,
    OP_REQUEST_GUILD_MEMBERS,
    OP_RESUME,
    OP_VOICE_STATE_UPDATE,
    OPTION_BOOLEAN,
    OPTION_CHANNEL,
    OPTION_INTEGER,
    OPTION_MENTIONABLE,
    OPTION_NUMBER,
    OPTION_ROLE,
    OPTION_STRING,
    OPTION_USER,
    PATIENCE,
    PING,
    PRIVATE_THREAD,
    PUBLIC_THREAD,
    READ_MESSAGE_HISTORY,
    SEND_MESSAGES,
    SEND_MESSAGES_IN_THREADS,
    SETTABLE_FLAGS,
    STRING_SELECT,
    SUBCOMMAND_TYPES,
    SUPPRESS_EMBEDS,
    SUPPRESS_NOTIFICATIONS,
    TEXT_CHANNEL,
    TEXT_INPUT,
    THREAD_TYPES,
    VIEW_CHANNEL,
    Attachment,
    Callback,
    DriverError,
    FakeMessage,
    Interaction,
    RestCall,
    Upload,
    now_iso,
    number_components,
    user_id_of,
    walk_components,
)

#: Tests import the fake's model and faults from here too.
__all__ = [
    "APPLICATION_COMMAND",
    "BUTTON",
    "CB_AUTOCOMPLETE",
    "CB_DEFERRED_MESSAGE",
    "CB_DEFERRED_UPDATE",
    "CB_MESSAGE",
    "CB_MODAL",
    "CB_PONG",
    "CB_UPDATE_MESSAGE",
    "COMPONENTS_V2",
    "DEFAULT_BOT_PERMISSIONS",
    "DEFAULT_MEMBER_PERMISSIONS",
    "EPHEMERAL",
    "JSON",
    "MESSAGE_COMPONENT",
    "MODAL_SUBMIT",
    "PATIENCE",
    "STRING_SELECT",
    "SUPPRESS_EMBEDS",
    "SUPPRESS_NOTIFICATIONS",
    "TEXT_INPUT",
    "ApiError",
    "Attachment",
    "Callback",
    "DriverError",
    "FakeDiscord",
    "FakeMessage",
    "Injection",
    "Interaction",
    "RestCall",
    "Upload",
    "walk_components",
]

T = TypeVar("T")

_log = logging.getLogger(__name__)


_DISPOSITION_PARAM = re.compile(r'([\w*]+)=(?:"([^"]*)"|([^;\s]*))')


def _form_field(disposition: str) -> tuple[str | None, str | None]:
    """A form part's name and filename, from its Content-Disposition as discord.py writes it
    (`form-data; name="files[0]"; filename="board.png"`, values unquoted). By hand: aiohttp's
    own parser (`BodyPartReader.name`) was a tenth of the fake's time under load."""
    params = {
        key.lower(): quoted or bare for key, quoted, bare in _DISPOSITION_PARAM.findall(disposition)
    }
    return params.get("name"), params.get("filename")


def _unknown(what: str, code: int) -> ApiError:
    return ApiError(404, code, f"Unknown {what}")


def _thread_archived() -> ApiError:
    return ApiError(400, 50083, "Thread is archived")


def _invalid_form(field_name: str, code: str, message: str) -> ApiError:
    errors = {field_name: {"_errors": [{"code": code, "message": message}]}}
    return ApiError(400, 50035, "Invalid Form Body", errors)


@dataclass
class _Guild:
    """A guild the bot is in; every user made with ``make_user`` is a member of each."""

    id: int
    name: str
    owner_id: int  # not the bot: discord.py grants a guild's owner every permission
    bot_role_id: int  # the bot's managed role
    system_channel_id: int = 0  # its "general" text channel
    locale: str | None = None  # None: FakeDiscord.guild_locale


_CLIENT = re.compile(r"/clients/(?P<client>[^/]+)(?P<path>/.*)")
_IN_CHANNEL = re.compile(r"/channels/(?P<id>\d+)(/|$)")
_FOR_INTERACTION = re.compile(r"/(interactions/\d+|webhooks/\d+)/(?P<token>[^/]+)(/|$)")


def _client_path(path: str) -> tuple[str | None, str]:
    """The client named in a path from ``api_base_for``, and the path without it."""
    match = _CLIENT.fullmatch(path)
    return (None, path) if match is None else (match["client"], match["path"])


def _frame(op: int, data: str, seq: int | None = None, event: str | None = None) -> str:
    """A gateway frame around ``data``, already JSON."""
    return f'{{"op": {op}, "d": {data}, "s": {json.dumps(seq)}, "t": {json.dumps(event)}}}'


class _Connection:
    """One gateway websocket; frames go through a queue so their order is kept."""

    def __init__(self, ws: web.WebSocketResponse) -> None:
        self.ws = ws
        self.queue: asyncio.Queue[str] = asyncio.Queue()
        self.writer = asyncio.create_task(self._write())
        #: Set when the fake closes it: the code the bot answers with is its own then.
        self.closed_by_fake = False

    async def close(self, code: int) -> None:
        self.closed_by_fake = True
        await self.ws.close(code=code)

    def send(self, frame: str) -> None:
        self.queue.put_nowait(frame)

    def send_op(self, op: int, data: Any) -> None:
        """Queue a frame that is not a dispatch (HELLO, HEARTBEAT_ACK, INVALID_SESSION)."""
        self.send(_frame(op, json.dumps(data)))

    async def _write(self) -> None:
        while True:
            frame = await self.queue.get()
            try:
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


class _Session:
    """A gateway session, from IDENTIFY until it ends; it outlives a dropped websocket.

    Every dispatch takes the next sequence number and is kept, whether a websocket is
    attached or not, so that a RESUME replays what the bot missed, as Discord does.
    """

    HISTORY = 2000  # dispatches kept for replay

    def __init__(self, intents: int, shard: tuple[int, int] | None) -> None:
        self.session_id = secrets.token_hex(16)
        self.intents = intents
        self.shard = shard
        self.seq = 0
        self.history: deque[tuple[int, str]] = deque(maxlen=self.HISTORY)
        #: The websocket the session is on; None while the bot is away (it may RESUME).
        self.conn: _Connection | None = None
        #: Dropped by ``drop_gateway``: the bot is expected back.
        self.dropped = False

    def dispatch(self, event: str, data: Any) -> None:
        """Send (or, while away, keep) a dispatch; ``data`` is serialized now, so that later
        state changes do not leak into it."""
        self.seq += 1
        frame = _frame(OP_DISPATCH, json.dumps(data), self.seq, event)
        self.history.append((self.seq, frame))
        if self.conn is not None:
            self.conn.send(frame)

    def can_replay(self, after: int) -> bool:
        return not self.history or self.history[0][0] <= after + 1

    def replay(self, after: int) -> list[str]:
        """Send again every dispatch numbered after ``after``; returns their event names."""
        assert self.conn is not None
        events = []
        for seq, frame in self.history:
            if seq > after:
                self.conn.send(frame)
                events.append(json.loads(frame)["t"])
        return events

    def owns(self, guild_id: int | None) -> bool:
        """Whether this session's shard receives the guild's events (Discord's formula)."""
        if self.shard is None or guild_id is None:
            return True
        shard_id, shard_count = self.shard
        return (guild_id >> 22) % shard_count == shard_id


Handler = Callable[..., Any]


class FakeDiscord:
    """Fake Discord REST API and gateway on 127.0.0.1; use ``async with FakeDiscord() as fake``."""

    def __init__(self, token: str = "fake-bot-token") -> None:
        self.token = token
        self._last_id = 0
        self._started = datetime.now(UTC).isoformat()
        self.application_id = self.bot_user_id = self._snowflake()
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
        self._locales: dict[int, str] = {}
        self._member_permissions: dict[int, int] = {}  # granted beyond the default ones
        self._guilds: dict[int, _Guild] = {}
        self._channels: dict[int, JSON] = {}
        self._deleted_channels: set[int] = set()
        self._bot_overwrites: dict[int, int] = {}
        self._thread_members: dict[int, dict[int, str]] = {}
        self._messages: dict[int, FakeMessage] = {}
        #: Seconds a bot post's nonce is remembered (``enforce_nonce``): Discord's "past few
        #: minutes"; 0 turns the check off, as for a post after the window.
        self.nonce_window = 120.0
        # The same messages by channel: drivers wait on a game's thread after every REST
        # call, and 200 games must not each scan every message of every thread.
        self._by_channel: dict[int, list[FakeMessage]] = {}
        self._commands: dict[int | None, list[JSON]] = {}
        self._interactions_by_token: dict[str, Interaction] = {}
        #: Identified sessions not ended (their bot may be away, to RESUME).
        self._sessions: list[_Session] = []
        self._sessions_by_id: dict[str, _Session] = {}
        self._connections: set[_Connection] = set()
        # Drivers waiting for a condition, re-checked after every REST call: checked right
        # there, not by waking each waiter's task (200 waiting games made that the fake's
        # main cost).
        self._waiters: list[tuple[Callable[[], Any], asyncio.Future[Any]]] = []
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
        #: READY dispatches sent (one per IDENTIFY accepted) and RESUMEs accepted.
        self.readies = 0
        self.resumes = 0
        #: The events replayed on RESUMEs (sent while the bot was away), in order.
        self.replayed: list[str] = []
        #: Seconds Discord waits for an interaction's callback before refusing it (10062).
        self.interaction_window = 3.0
        #: Seconds an interaction token stays valid for follow-ups and @original edits.
        self.token_lifetime = 15 * 60.0
        #: Interactions whose callback came after ``interaction_window`` and was refused.
        self.late_answers: list[Interaction] = []
        self._injections: list[Injection] = []
        #: Locale of the guilds made without one: their ``preferred_locale`` and interactions'
        #: ``guild_locale``.
        self.guild_locale = "en-US"
        #: The shard count ``GET /gateway/bot`` recommends (``AutoShardedClient`` uses it).
        self.recommended_shards = 1
        #: Opt-in limit on the bot's message posts per channel: (posts, seconds), e.g.
        #: ``(5, 5.0)``. Answers carry the bucket headers; one post too many is answered 429.
        self.channel_post_limit: tuple[int, float] | None = None
        self._post_windows = FixedWindow()
        #: Requests a second the bot's token may make, all routes together (None: no limit).
        self.global_limit: int | None = 50
        #: Bot-token requests refused for going over ``global_limit``.
        self.globally_limited: list[RestCall] = []
        self._global_window = FixedWindow()
        self._dm_channels: dict[int, int] = {}  # member -> their DM channel
        self._dm_members: dict[int, int] = {}  # DM channel -> its member
        self._dms: dict[int, list[FakeMessage]] = {}  # member -> the bot's DMs to them
        self._closed_dms: set[int] = set()
        #: The first guild and its general channel.
        self.guild_id = self.create_guild("Fake Guild")
        self.channel_id = self._guilds[self.guild_id].system_channel_id

    # -- lifecycle -----------------------------------------------------------------------

    async def start(self) -> None:
        """Start serving on a free port of 127.0.0.1."""
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_get("/gateway", self._gateway)
        app.router.add_get("/attachments/{channel_id}/{attachment_id}/{filename}", self._cdn)
        app.router.add_route("*", "/{tail:.*}", self._rest)
        # Not handler_cancellation: a request the bot gives up on (a cancelled task) must
        # still be handled to the end, waking wait_for, as Discord would handle it.
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = self._runner.addresses[0][1]

    async def close(self) -> None:
        """Close every gateway connection and stop the server."""
        for injection in list(self._injections):
            injection.remove()  # a held request would keep the server's shutdown waiting
        for conn in list(self._connections):
            await conn.close(1001)
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

    def api_base_for(self, client: str) -> str:
        """An API base for one of several bot processes: its calls carry ``client``."""
        return f"{self.http_base}/clients/{client}{API_PREFIX}"

    @property
    def gateway_url(self) -> str:
        """Value for ``DiscordWebSocket.DEFAULT_GATEWAY`` (as a yarl.URL)."""
        return f"ws://127.0.0.1:{self.port}/gateway"

    # -- world setup ---------------------------------------------------------------------

    def grant(self, user: JSON, permissions: discord.Permissions) -> None:
        """Give a member more permissions in every channel (e.g. Manage Threads)."""
        self._member_permissions[user_id_of(user)] = permissions.value

    def make_user(self, name: str, locale: str = "en-US") -> JSON:
        """Create a user (a member of every guild) and return its user payload.

        ``locale`` is the language of their client: their interactions carry it.
        """
        uid = self._snowflake()
        self._locales[uid] = locale
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

    def create_guild(
        self, name: str, *, shard: tuple[int, int] | None = None, locale: str | None = None
    ) -> int:
        """Add the bot to a new guild, with a general text channel, roles and an owner.

        ``shard=(shard_id, shard_count)`` picks an id that shard owns by Discord's formula
        ``(guild_id >> 22) % shard_count``. ``locale`` defaults to ``guild_locale``. Bots
        connected on the owning shard receive GUILD_CREATE (discord.py: ``on_guild_join``).
        """
        if shard is not None and not 0 <= shard[0] < shard[1]:
            raise DriverError(f"no shard {shard[0]} among {shard[1]}")
        gid = self._snowflake(shard)
        owner = self.make_user(f"{name} owner")
        guild = _Guild(gid, name, int(owner["id"]), self._snowflake(), locale=locale)
        self._guilds[gid] = guild
        guild.system_channel_id = self._add_text_channel("general", gid)
        # Without "unavailable", as for a guild joined (not one coming back after READY).
        joined = {k: v for k, v in self._guild_payload(gid).items() if k != "unavailable"}
        self._dispatch("GUILD_CREATE", joined, INTENT_GUILDS)
        return gid

    def remove_bot(self, guild_id: int) -> None:
        """The bot is kicked from a guild (not an outage): GUILD_DELETE without
        ``unavailable`` (discord.py: ``on_guild_remove``)."""
        self._dispatch("GUILD_DELETE", {"id": str(guild_id)}, INTENT_GUILDS)

    def add_bot_back(self, guild_id: int) -> None:
        """The bot is invited again to a guild it was removed from (``on_guild_join``)."""
        joined = {k: v for k, v in self._guild_payload(guild_id).items() if k != "unavailable"}
        self._dispatch("GUILD_CREATE", joined, INTENT_GUILDS)

    @property
    def guild_ids(self) -> list[int]:
        """Every guild, the first (``guild_id``) first."""
        return list(self._guilds)

    def general_channel_id(self, guild_id: int) -> int:
        """The text channel a guild was made with (``channel_id`` for the first guild)."""
        return self._guilds[guild_id].system_channel_id

    def shard_of(self, guild_id: int, shard_count: int) -> int:
        """The shard that owns a guild among ``shard_count`` (Discord's formula)."""
        return (guild_id >> 22) % shard_count

    def create_text_channel(self, name: str, guild_id: int | None = None) -> int:
        """Create a text channel in a guild (default: the first; CHANNEL_CREATE to its bot)."""
        gid = self.guild_id if guild_id is None else guild_id
        if gid not in self._guilds:
            raise DriverError(f"no guild {gid}")
        cid = self._add_text_channel(name, gid)
        self._dispatch("CHANNEL_CREATE", self.channel(cid), INTENT_GUILDS)
        return cid

    def _add_text_channel(self, name: str, guild_id: int) -> int:
        cid = self._snowflake()
        self._channels[cid] = {
            "id": str(cid),
            "type": TEXT_CHANNEL,
            "guild_id": str(guild_id),
            "name": name,
            "position": sum(c["guild_id"] == str(guild_id) for c in self._channels.values()),
            "parent_id": None,
            "topic": None,
            "nsfw": False,
            "last_message_id": None,
            "rate_limit_per_user": 0,
            "default_auto_archive_duration": 1440,
            "flags": 0,
        }
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
        """Delete a channel or thread as a moderator would (CHANNEL_DELETE / THREAD_DELETE).

        The bot's later calls on it, or on its messages, are answered 404 10003.
        """
        self._live_channel(channel_id)
        self._remove_channel(channel_id)
        await self._flush()
        await self._notify()

    async def delete_message(self, message: FakeMessage | int) -> None:
        """Delete a public message as a moderator would (MESSAGE_DELETE).

        The bot's later calls on it are answered 404 10008 Unknown Message.
        """
        mid = message.id if isinstance(message, FakeMessage) else message
        msg = self._messages.get(mid)
        if msg is None or msg.deleted or msg.ephemeral:
            raise DriverError(f"no public message {mid} to delete (deleted, or ephemeral)")
        self._remove_message(msg)
        await self._flush()
        await self._notify()

    async def post_as_bot(
        self, channel_id: int, *, content: str = "", components: Sequence[JSON] = ()
    ) -> FakeMessage:
        """A message the bot posted long ago, e.g. by an older version whose buttons this
        one no longer knows (MESSAGE_CREATE is dispatched as for any post)."""
        message = self._new_message(
            channel_id, {"content": content, "components": list(components)}, []
        )
        await self._flush()
        await self._notify()
        return message

    def create_thread(self, channel_id: int, name: str) -> int:
        """A public thread in a text channel, made outside the bot (e.g. by an earlier
        version's start of a game); THREAD_CREATE is dispatched as usual."""
        parent = self._live_channel(channel_id)
        thread = self._create_thread(parent, self._snowflake(), PUBLIC_THREAD, {"name": name})
        return int(thread["id"])

    def leftover_command(self, name: str, guild_id: int | None = None) -> JSON:
        """A slash command an older version synced and this one no longer has: Discord
        still shows it to members until the bot's next sync replaces the list."""
        scope = self._commands.setdefault(guild_id, [])
        command = self._stored_command(
            {"name": name, "description": "An old command", "type": 1}, None, scope
        )
        scope.append(command)
        return command

    async def archive_thread(self, thread_id: int, *, locked: bool = False) -> None:
        """Archive a thread (and lock it) as Discord or a moderator does (THREAD_UPDATE).

        While archived, the bot's edits and deletions of its messages are answered 400 50083
        "Thread is archived"; a message posted in it unarchives it, unless it is locked;
        PATCH ``{"archived": false}`` unarchives it. Interactions on its messages still work.
        """
        thread = self._live_channel(thread_id)
        if thread["type"] not in THREAD_TYPES:
            raise DriverError(f"channel {thread_id} is not a thread")
        metadata = thread["thread_metadata"]
        metadata.update(archived=True, locked=locked, archive_timestamp=now_iso())
        self._dispatch("THREAD_UPDATE", self.channel(thread_id), INTENT_GUILDS)
        await self._flush()
        await self._notify()

    # -- faults --------------------------------------------------------------------------

    def inject(
        self,
        method: str,
        path: str | re.Pattern[str],
        *,
        status: int = 400,
        code: int = 0,
        message: str = "",
        times: int | None = 1,
        delay: float = 0.0,
        hang: bool = False,
        retry_after: float | None = None,
    ) -> Injection:
        """Answer matching REST requests with an error instead of handling them.

        A request matches by ``method`` and ``re.fullmatch`` of its path after ``/api/v10``
        (e.g. ``r"/channels/\\d+/messages/\\d+"``). It is answered ``status`` with Discord's
        error body (``code``, ``message``: Discord's own text for known codes) after
        ``delay`` seconds. ``retry_after`` makes it a 429 with Discord's rate-limit body and
        headers, which discord.py waits out and retries by itself. ``hang=True`` holds the
        request open until ``injection.release()`` and then handles it normally (or drops it
        if the bot hangs up first). ``times`` requests are matched, or all until
        ``injection.remove()`` when None. Earlier injections win; injected answers are
        recorded in ``calls`` (``call.injected``) and are never faults.
        """
        if times is not None and times < 1:
            raise DriverError("times must be at least 1 (or None: until removed)")
        injection = Injection(
            method=method.upper(),
            pattern=re.compile(path) if isinstance(path, str) else path,
            status=429 if retry_after is not None else status,
            code=code,
            message=message,
            times=times,
            delay=delay,
            hang=hang,
            retry_after=retry_after,
            _on_remove=self._drop_injection,
        )
        self._injections.append(injection)
        return injection

    def _drop_injection(self, injection: Injection) -> None:
        if injection in self._injections:
            self._injections.remove(injection)

    def _take_injection(self, call: RestCall) -> Injection | None:
        """The first injection matching the call, counted; a used-up one stops matching (it
        stays listed so that ``close`` releases requests it still holds)."""
        for injection in self._injections:
            if injection.matches(call.method, call.path):
                injection.hits += 1
                if injection.times is not None and injection.hits >= injection.times:
                    injection.removed = True
                return injection
        return None

    async def _inject(self, request: web.Request, call: RestCall, injection: Injection) -> bool:
        """Play an injection on a call: raise its error, or hold it. True once a hang is
        released (the call is then handled normally); False if the bot hung up first (the
        call is dropped, its status left 0)."""
        call.injected = injection
        if injection.delay:
            await asyncio.sleep(injection.delay)
        if not injection.hang:
            raise injection.error(call.route)
        released = injection.hold()
        await self._notify()  # tests may wait until the request is held
        while not released.done():
            # aiohttp tells a handler of a closed connection only by its transport.
            transport = request.transport
            if transport is None or transport.is_closing():
                released.cancel()
                await self._notify()
                return False
            await asyncio.wait([released], timeout=0.01)
        call.injected = None
        return True

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
        return [m for m in self._by_channel.get(cid, ()) if not m.deleted and not m.ephemeral]

    def latest_message(
        self, channel_id: int | None = None, predicate: Callable[[FakeMessage], bool] | None = None
    ) -> FakeMessage | None:
        """The newest public message of a channel, optionally the newest matching predicate."""
        cid = self.channel_id if channel_id is None else channel_id
        for message in reversed(self._by_channel.get(cid, ())):  # drivers ask after every call
            if not (message.deleted or message.ephemeral) and (
                predicate is None or predicate(message)
            ):
                return message
        return None

    def public_messages(self) -> list[FakeMessage]:
        """Every public, non-deleted message in every channel, oldest first."""
        return [m for m in self._messages.values() if not m.deleted and not m.ephemeral]

    def close_dms(self, user: JSON | int) -> None:
        """The member takes no DMs from the bot: posts to them are refused (50007)."""
        self._closed_dms.add(user_id_of(user))

    def dms(self, user: JSON | int) -> list[FakeMessage]:
        """The bot's direct messages to a member, oldest first."""
        return list(self._dms.get(user_id_of(user), ()))

    def is_dm(self, call: RestCall) -> bool:
        """True for the bot's requests about DMs: opening a DM channel, posting in one."""
        if call.route == "/users/@me/channels":
            return True
        match = _IN_CHANNEL.match(call.path)
        return match is not None and int(match["id"]) in self._dm_members

    def ephemeral_for(self, user: JSON | int) -> list[FakeMessage]:
        """Non-deleted ephemeral messages shown to that user, oldest first."""
        uid = user_id_of(user)
        return [m for m in self._messages.values() if not m.deleted and m.visible_to == uid]

    async def wait_for(self, predicate: Callable[[], T | None], timeout: float = PATIENCE) -> T:
        """Wait until ``predicate()`` is truthy (re-checked after every REST call); return it."""
        result = predicate()
        if not result:
            waiter = (predicate, asyncio.get_running_loop().create_future())
            self._waiters.append(waiter)
            try:
                result = await asyncio.wait_for(waiter[1], timeout)
            except TimeoutError:
                raise TimeoutError(
                    f"fake discord: condition not met within {timeout}s\n{self.dump()}"
                ) from None
            finally:
                if waiter in self._waiters:
                    self._waiters.remove(waiter)
        assert result is not None
        return result

    def unanswered(self, now: float | None = None) -> list[Interaction]:
        """Commands, clicks and modal submits older than the window and still without a callback.

        These are the ones a user saw fail; ``now`` is a ``time.monotonic()`` value.
        """
        at = time.monotonic() if now is None else now
        return [
            rec
            for rec in self.interactions
            if rec.type in ANSWER_REQUIRED
            and rec.callback is None
            and at - rec.sent_at > self.interaction_window
        ]

    def requests_per_route(self, since: float | None = None) -> Counter[str]:
        """How many REST calls were made per route, keyed ``"PATCH /channels/{channel_id}"``.

        ``since`` (a ``time.monotonic()`` value) counts only calls made from then on.
        """
        return Counter(
            f"{c.method} {c.route}" for c in self.calls if since is None or c.at >= since
        )

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
        checked: bool = True,
    ) -> Interaction:
        """Run a synced slash command, e.g. ``slash(u, "game", "start", options={"size": 3})``.

        ``command`` and ``subcommand`` may hold spaces for groups (``"game admin reset"``).
        Option values are checked against the synced definition (type, choices, range and
        length, as Discord's client does) unless ``checked=False``: then a string, number or
        boolean goes as given, as from a client holding an older definition of the command
        or a custom client. Users are given as user payloads, channels and roles as ids.
        """
        path = command.split() + (subcommand.split() if subcommand else [])
        cid = self.channel_id if channel_id is None else channel_id
        guild = self._guild_of(self._live_channel(cid))
        definition, guild_id = self._find_command(path[0], guild.id)
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
        built = self._build_options(definitions, options or {}, resolved, guild, checked)
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
        seen: FakeMessage | None = None,
    ) -> Interaction:
        """Click a button of a message, found by label and/or custom_id.

        `seen` is the message as the member's screen still showed it (`message.seen()`,
        taken earlier): the button is found there, and, as Discord does, the interaction
        carries the message as it is now, which may no longer have that button."""
        msg = self._visible_message(user, message)
        button = (seen or msg).find_component(BUTTON, label=label, custom_id=custom_id)
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

    async def submit_raw_modal(
        self, user: JSON, message: FakeMessage, custom_id: str, value: str = "1"
    ) -> Interaction:
        """Submit a box with `custom_id` and one text input, as a client may that kept a box
        open across an upgrade (or a broken client): not one the bot has just opened."""
        data: JSON = {
            "custom_id": custom_id,
            "components": [
                {
                    "type": 1,
                    "id": 1,
                    "components": [{"type": TEXT_INPUT, "id": 2, "custom_id": "n", "value": value}],
                }
            ],
        }
        return await self._send_interaction(MODAL_SUBMIT, user, message.channel_id, data, message)

    # -- internals: ids, permissions, payloads -------------------------------------------

    def _snowflake(self, shard: tuple[int, int] | None = None) -> int:
        """A new id, greater than every earlier one; owned by ``shard`` if given."""
        stamp = (int(time.time() * 1000) - DISCORD_EPOCH_MS) << 22
        self._last_id = max(stamp, self._last_id + 1)
        if shard is not None:
            # Step on to later milliseconds until the id lands on that shard.
            shard_id, shard_count = shard
            while (self._last_id >> 22) % shard_count != shard_id:
                self._last_id = ((self._last_id >> 22) + 1) << 22
        return self._last_id

    def _guild_of(self, channel: JSON) -> _Guild:
        return self._guilds[int(channel["guild_id"])]

    def _locale_of(self, guild: _Guild) -> str:
        return guild.locale or self.guild_locale

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

    def _member(self, user: JSON, guild: _Guild) -> JSON:
        is_bot = int(user["id"]) == self.bot_user_id
        return {
            "user": user,
            "roles": [str(guild.bot_role_id)] if is_bot else [],
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

    def _role(
        self, guild: _Guild, role_id: int, name: str, permissions: int, position: int
    ) -> JSON:
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
            "managed": role_id != guild.id,
            "mentionable": False,
            "flags": 0,
        }
        if role["managed"]:
            role["tags"] = {"bot_id": str(self.bot_user_id)}
        return role

    def _guild_payload(self, guild_id: int) -> JSON:
        guild = self._guilds[guild_id]
        live = [
            cid
            for cid, channel in self._channels.items()
            if cid not in self._deleted_channels and channel["guild_id"] == str(guild_id)
        ]
        return {
            "id": str(guild_id),
            "name": guild.name,
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "banner": None,
            "description": None,
            "owner_id": str(guild.owner_id),
            "features": [],
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "mfa_level": 0,
            "nsfw_level": 0,
            "premium_tier": 0,
            "premium_subscription_count": 0,
            "premium_progress_bar_enabled": False,
            "preferred_locale": self._locale_of(guild),
            "afk_timeout": 300,
            "afk_channel_id": None,
            "system_channel_id": str(guild.system_channel_id),
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
                self._role(guild, guild.id, "@everyone", DEFAULT_MEMBER_PERMISSIONS, 0),
                self._role(guild, guild.bot_role_id, "FakeBot", DEFAULT_BOT_PERMISSIONS, 1),
            ],
            "emojis": [],
            "stickers": [],
            "channels": [
                self.channel(c) for c in live if self._channels[c]["type"] not in THREAD_TYPES
            ],
            "threads": [self.channel(c) for c in live if self._channels[c]["type"] in THREAD_TYPES],
            "members": [self._member(self.bot_user, guild)],
            "voice_states": [],
            "presences": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
        }

    def _find_command(self, name: str, guild_id: int) -> tuple[JSON, int | None]:
        for scope in (guild_id, None):
            for command in self._commands.get(scope, []):
                if command["name"] == name and command.get("type", 1) == 1:
                    return command, scope
        synced = [c["name"] for cmds in self._commands.values() for c in cmds]
        raise DriverError(f"no synced slash command {name!r}; synced: {synced}")

    def _build_options(
        self,
        definitions: list[JSON],
        values: Mapping[str, Any],
        resolved: JSON,
        guild: _Guild,
        checked: bool = True,
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
            value = self._option_value(definition, values[name], resolved, guild, checked)
            built.append({"name": name, "type": definition["type"], "value": value})
        return built

    def _option_value(
        self, definition: JSON, value: Any, resolved: JSON, guild: _Guild, checked: bool = True
    ) -> Any:
        """Check one option value and return it as Discord sends it, filling ``resolved``."""
        kind, name = definition["type"], definition["name"]
        python_types: dict[int, tuple[type, ...]] = {
            OPTION_STRING: (str,),
            OPTION_INTEGER: (int,),
            OPTION_BOOLEAN: (bool,),
            OPTION_NUMBER: (int, float),
        }
        if kind in python_types:
            if checked:
                self._check_scalar(definition, value, python_types[kind])
            return value
        if kind == OPTION_USER or (kind == OPTION_MENTIONABLE and user_id_of(value) in self._users):
            user = self._users.get(user_id_of(value))
            if user is None:
                raise DriverError(f"option {name!r}: unknown user {value!r}")
            member = {k: v for k, v in self._member(user, guild).items() if k != "user"}
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
            roles = {int(r["id"]): r for r in self._guild_payload(guild.id)["roles"]}
            if int(value) not in roles:
                raise DriverError(f"option {name!r}: unknown role {value!r}")
            resolved.setdefault("roles", {})[str(value)] = roles[int(value)]
            return str(value)
        raise DriverError(f"option {name!r}: type {kind} is not supported by the fake")

    @staticmethod
    def _check_scalar(definition: JSON, value: Any, types: tuple[type, ...]) -> None:
        """What Discord's client lets a member send for a string, number or boolean."""
        kind, name = definition["type"], definition["name"]
        ok = isinstance(value, types) and (kind == OPTION_BOOLEAN or not isinstance(value, bool))
        if not ok:
            raise DriverError(f"option {name!r} (type {kind}) got {value!r}")
        choices = [c["value"] for c in definition.get("choices", [])]
        if choices and value not in choices:
            raise DriverError(f"option {name!r} must be one of {choices}")
        size = len(value) if kind == OPTION_STRING else value
        low, high = (
            ("min_length", "max_length") if kind == OPTION_STRING else ("min_value", "max_value")
        )
        if kind != OPTION_BOOLEAN and not (
            definition.get(low, size) <= size <= definition.get(high, size)
        ):
            raise DriverError(f"option {name!r}: {value!r} is out of its range")

    def _visible_message(self, user: JSON, message: FakeMessage | int) -> FakeMessage:
        mid = message.id if isinstance(message, FakeMessage) else message
        msg = self._messages.get(mid)
        if msg is None or msg.deleted:
            raise DriverError(f"message {mid} does not exist (or was deleted)")
        if msg.visible_to is not None and msg.visible_to != user_id_of(user):
            raise DriverError(f"message {mid} is ephemeral and not shown to {user['username']}")
        return msg

    async def _send_interaction(
        self, kind: int, user: JSON, channel_id: int, data: JSON, message: FakeMessage | None = None
    ) -> Interaction:
        guild = self._guild_of(self._live_channel(channel_id))
        if not self._reachable(guild.id):
            raise DriverError(f"no bot is connected to the fake gateway (for guild {guild.id})")
        if user_id_of(user) not in self._users:
            raise DriverError("unknown user: create users with make_user()")
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
            guild_id=guild.id,
        )
        rec.payload = {
            "id": str(rec.id),
            "application_id": str(self.application_id),
            "type": kind,
            "data": data,
            "token": rec.token,
            "version": 1,
            "guild_id": str(guild.id),
            "guild": {"id": str(guild.id), "locale": self._locale_of(guild), "features": []},
            "channel_id": str(channel_id),
            "channel": channel,
            "member": {
                **self._member(user, guild),
                "permissions": str(
                    DEFAULT_MEMBER_PERMISSIONS | self._member_permissions.get(user_id_of(user), 0)
                ),
            },
            "app_permissions": str(self.bot_permissions(channel_id)),
            "locale": self._locales.get(user_id_of(user), "en-US"),
            "guild_locale": self._locale_of(guild),
            "entitlements": [],
            "authorizing_integration_owners": {"0": str(guild.id)},
            "context": 0,
            "attachment_size_limit": 10 * 1024 * 1024,
        }
        if message is not None:
            rec.payload["message"] = message.payload
        self._interactions_by_token[rec.token] = rec
        self.interactions.append(rec)
        rec.sent_at = time.monotonic()
        self._dispatch("INTERACTION_CREATE", rec.payload)
        await self._flush()
        await self._notify()
        return rec

    # -- internals: gateway --------------------------------------------------------------

    def _dispatch(self, event: str, data: JSON, intent: int | None = None) -> None:
        """Queue a dispatch to every session subscribed to ``intent`` whose shard owns the
        event's guild (read from the payload)."""
        guild_id = (
            data.get("id") if event in ("GUILD_CREATE", "GUILD_DELETE") else data.get("guild_id")
        )
        for session in self._sessions:
            if (intent is None or session.intents & intent) and session.owns(
                None if guild_id is None else int(guild_id)
            ):
                session.dispatch(event, data)

    async def _flush(self) -> None:
        """Wait until every queued gateway frame has been written."""
        await asyncio.gather(*(c.queue.join() for c in list(self._connections)))

    async def _notify(self) -> None:
        for waiter in list(self._waiters):
            predicate, future = waiter
            if future.done():
                continue
            try:
                result = predicate()
            except Exception as e:  # the waiter's error, raised where it waits
                future.set_exception(e)
                continue
            if result:
                future.set_result(result)

    @property
    def bot_connected(self) -> bool:
        """Whether some bot session is on a websocket now (not away, not ended)."""
        return any(s.conn is not None for s in self._sessions)

    def _reachable(self, guild_id: int) -> bool:
        """Whether a bot will get the guild's events: connected, or dropped by
        ``drop_gateway`` and expected back (it is sent what it missed on RESUME)."""
        return any((s.conn is not None or s.dropped) and s.owns(guild_id) for s in self._sessions)

    async def drop_gateway(self, *, resume: bool = True) -> None:
        """Close every bot websocket as Discord does when it wants the bot to reconnect.

        ``resume=True``: close code 4000 ("Unknown error"); discord.py reconnects at once and
        RESUMEs, and is sent what it missed, then RESUMED (``resumes`` counts them).
        ``resume=False``: close code 4009 ("Session timed out") and the session is ended;
        discord.py tries to RESUME anyway, is answered INVALID_SESSION(false) and IDENTIFYs
        again: a fresh READY and GUILD_CREATE (``readies`` counts them), so ``on_ready`` fires
        again. discord.py sleeps 5 s before every IDENTIFY but its first
        (``Client.before_identify_hook``): a test bot should override that hook.

        Returns once the websockets are closed; wait for the new session with e.g.
        ``await fake.wait_for(lambda: fake.resumes == 1)``.
        """
        attached = [s for s in self._sessions if s.conn is not None]
        if not attached:
            raise DriverError("no bot is connected to the fake gateway")
        for session in attached:
            assert session.conn is not None
            conn, session.conn = session.conn, None  # away from now on
            if resume:
                session.dropped = True
            else:
                self._end_session(session)
            await conn.close(4000 if resume else 4009)

    def _end_session(self, session: _Session) -> None:
        if session in self._sessions:
            self._sessions.remove(session)
        self._sessions_by_id.pop(session.session_id, None)

    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(max_msg_size=0)
        await ws.prepare(request)
        conn = _Connection(ws)
        self._connections.add(conn)
        conn.send_op(OP_HELLO, {"heartbeat_interval": 41250})
        session: _Session | None = None
        try:
            async for msg in ws:
                if msg.type is not WSMsgType.TEXT:
                    self.faults.append(f"unexpected gateway frame type {msg.type}")
                    continue
                try:
                    session = await self._on_gateway_frame(conn, session, json.loads(msg.data))
                except Exception as error:
                    _log.exception("fake discord failed on gateway frame %s", msg.data[:200])
                    self.faults.append(f"error handling gateway frame: {error!r}")
        finally:
            self._connections.discard(conn)
            if session is not None and session.conn is conn:
                session.conn = None
                # A bot closing with 1000/1001 ends its session; after any other close, or
                # none, it may come back and RESUME. (discord.py's close() usually sends 4000:
                # its reading task closes the socket first.)
                if not conn.closed_by_fake and ws.close_code in (1000, 1001):
                    self._end_session(session)
            await conn.stop()
            await self._notify()
        return ws

    async def _on_gateway_frame(
        self, conn: _Connection, session: _Session | None, frame: JSON
    ) -> _Session | None:
        """Handle one frame from the bot; returns the connection's session from then on."""
        op, data = frame["op"], frame["d"]
        if op == OP_HEARTBEAT:
            conn.send_op(OP_HEARTBEAT_ACK, None)
        elif op in (OP_IDENTIFY, OP_RESUME):
            if session is not None:
                self.faults.append(f"gateway op {op} on a connection with a session")
                return session
            session = (
                await self._identify(conn, data) if op == OP_IDENTIFY else self._resume(conn, data)
            )
            await self._flush()
            await self._notify()
        elif op == OP_REQUEST_GUILD_MEMBERS:
            if session is not None:
                session.dispatch("GUILD_MEMBERS_CHUNK", self._members_chunk(data))
        elif op not in (OP_PRESENCE_UPDATE, OP_VOICE_STATE_UPDATE):
            self.faults.append(f"unhandled gateway op {op}: {frame}")
        return session

    def _resume(self, conn: _Connection, data: JSON) -> _Session | None:
        """Continue a session: replay the dispatches after the bot's ``seq``, then RESUMED.

        An unknown or ended session is answered INVALID_SESSION(false): discord.py then
        IDENTIFYs again, after the 5 s of its default ``before_identify_hook``.
        """
        session = self._sessions_by_id.get(data.get("session_id", ""))
        after = int(data.get("seq") or 0)
        if session is None or data.get("token") != self.token or not session.can_replay(after):
            if session is not None:
                self._end_session(session)
            conn.send_op(OP_INVALID_SESSION, False)
            return None
        if session.conn is not None:
            # The bot came back before its old websocket was seen closing: Discord drops it.
            old = session.conn
            asyncio.get_running_loop().create_task(old.close(4000))
        session.conn, session.dropped = conn, False
        self.replayed += session.replay(after)
        session.dispatch("RESUMED", {})
        self.resumes += 1
        return session

    def _members_chunk(self, request: JSON) -> JSON:
        wanted = {int(u) for u in request.get("user_ids") or []}
        query = request.get("query") or ""

        def matches(uid: int, user: JSON) -> bool:
            return uid in wanted if wanted else str(user["username"]).startswith(query)

        guild = self._guilds[int(request["guild_id"])]
        return {
            "guild_id": str(guild.id),
            "members": [
                self._member(u, guild) for uid, u in self._users.items() if matches(uid, u)
            ],
            "chunk_index": 0,
            "chunk_count": 1,
            "not_found": [],
            "nonce": request.get("nonce"),
        }

    async def _identify(self, conn: _Connection, data: JSON) -> _Session | None:
        if data.get("token") != self.token:
            await conn.ws.close(code=4004, message=b"Authentication failed.")
            return None
        shard = data.get("shard")
        if shard is not None and not (
            isinstance(shard, list) and len(shard) == 2 and 0 <= shard[0] < shard[1]
        ):
            await conn.close(4010)  # Discord's "Invalid shard"
            return None
        self.identifies.append(data)
        session = _Session(int(data.get("intents", 0)), None if shard is None else tuple(shard))
        owned = [gid for gid in self._guilds if session.owns(gid)]
        session.conn = conn
        self._sessions.append(session)
        self._sessions_by_id[session.session_id] = session
        ready = {
            "v": 10,
            "user": self.bot_user,
            "guilds": [{"id": str(gid), "unavailable": True} for gid in owned],
            "session_id": session.session_id,
            "resume_gateway_url": self.gateway_url,
            "application": {"id": str(self.application_id), "flags": 0},
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "_trace": ["fake-discord"],
        }
        if shard is not None:
            ready["shard"] = shard
        session.dispatch("READY", ready)
        self.readies += 1
        for gid in owned:
            session.dispatch("GUILD_CREATE", self._guild_payload(gid))
        return session

    # -- internals: REST plumbing --------------------------------------------------------

    def _build_routes(self) -> list[tuple[str, str, re.Pattern[str], Handler]]:
        cmds = "/applications/{app_id}/commands"
        guild_cmds = "/applications/{app_id}/guilds/{guild_id}/commands"
        webhook_msg = "/webhooks/{app_id}/{token}/messages/{message_id}"
        message = "/channels/{channel_id}/messages/{message_id}"
        thread_members = "/channels/{channel_id}/thread-members"
        table: list[tuple[str, str, Handler]] = [
            ("GET", "/users/@me", lambda call: self.bot_user),
            ("GET", "/users/{user_id}", self._get_user),
            ("POST", "/users/@me/channels", self._open_dm),
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
            (method, path, re.compile(re.sub(r"\{(\w+)\}", r"(?P<\1>[^/]+)", path)), handler)
            for method, path, handler in table
        ]

    def guild_of(self, call: RestCall) -> int | None:
        """The server a REST call acted in (through a channel, thread or interaction of
        it), or None for calls of no server (the application's commands, the gateway)."""
        if match := _IN_CHANNEL.match(call.path):
            channel = self._channels.get(int(match["id"]))
            return None if channel is None else int(channel["guild_id"])
        if match := _FOR_INTERACTION.match(call.path):
            rec = self._interactions_by_token.get(match["token"])
            return None if rec is None else rec.guild_id
        return None

    def _route(self, request: web.Request, call: RestCall) -> tuple[Handler, JSON] | None:
        """The handler and path parameters of a call (setting ``call.route``), if known."""
        call.route = call.path
        if not _client_path(request.path)[1].startswith(API_PREFIX):
            return None
        for method, template, pattern, handler in self._routes:
            match = pattern.fullmatch(call.path)
            if match is not None and method == call.method:
                call.route = template
                return handler, match.groupdict()
        return None

    async def _rest(self, request: web.Request) -> web.Response:
        client, full_path = _client_path(request.path)
        path = full_path.removeprefix(API_PREFIX)
        call = RestCall(request.method, path, dict(request.query), client=client)
        self.calls.append(call)
        route = self._route(request, call)
        body: Any
        try:
            call.json, call.files = await self._read_body(request)
            injection = self._take_injection(call)
            if injection is not None and not await self._inject(request, call, injection):
                return web.Response(status=400)  # nobody is listening any more
            body = self._handle(request, call, route)
            call.status = 204 if body is None else 200
        except ApiError as error:
            call.status, body = error.status, error.body
            call.response_headers.update(error.headers)
        except ConnectionResetError:
            # The bot hung up while sending it (a process killed mid-request): the call is
            # dropped, its status left 0, as Discord would never have read it whole.
            return web.Response(status=400)
        except Exception as error:
            _log.exception("fake discord failed on %s %s", call.method, path)
            self.faults.append(f"error handling {call.method} {path}: {error!r}")
            call.status, body = 400, {"message": f"fake discord: error {error!r}", "code": 0}
        await self._flush()
        await self._notify()
        if body is None:
            return web.Response(status=204, headers=call.response_headers)
        encoded = json.dumps(body)
        call.response = json.loads(encoded)  # a snapshot: stored state keeps changing
        # Exactly "application/json" (no charset): discord.py only parses JSON then.
        return web.Response(
            status=call.status,
            body=encoded.encode(),
            content_type="application/json",
            headers=call.response_headers,
        )

    def _handle(
        self, request: web.Request, call: RestCall, route: tuple[Handler, JSON] | None
    ) -> Any:
        if route is None:
            self.faults.append(f"unhandled {call.method} {request.path}")
            raise ApiError(400, 0, f"fake discord: unhandled {call.method} {request.path}")
        handler, params = route
        if call.bot_token:
            if request.headers.get("Authorization") != f"Bot {self.token}":
                raise ApiError(401, 0, "401: Unauthorized")
            self._limit_globally(call)
        return handler(call, **params)

    def _limit_globally(self, call: RestCall) -> None:
        """Count a bot-token request against the global limit, refusing one over it."""
        if self.global_limit is None:
            return
        allowed, _, reset_after = self._global_window.take("global", self.global_limit, 1.0)
        if not allowed:
            self.globally_limited.append(call)
            raise globally_limited(reset_after)

    @staticmethod
    async def _read_body(request: web.Request) -> tuple[Any, list[Upload]]:
        if not request.can_read_body:
            return None, []
        # The media type by hand: aiohttp parses the header with the email package, which
        # was a tenth of the fake's time under load.
        media = request.headers.get("Content-Type", "").split(";")[0].strip().lower()
        if media != "multipart/form-data":
            return json.loads(await request.read()), []
        payload: Any = None
        files: list[Upload] = []
        async for part in await request.multipart():
            assert isinstance(part, BodyPartReader), "nested multipart is not supported"
            name, filename = _form_field(part.headers.get(CONTENT_DISPOSITION, ""))
            if name == "payload_json":
                payload = json.loads(await part.read())
            elif name and (index := re.fullmatch(r"files\[(\d+)\]", name)):
                filename = filename or f"file{index[1]}"
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

    def _open_dm(self, call: RestCall) -> JSON:
        uid = int((call.json or {}).get("recipient_id", 0))
        if uid not in self._users:
            raise _unknown("User", 10013)
        if uid not in self._dm_channels:
            cid = self._snowflake()
            self._dm_channels[uid], self._dm_members[cid] = cid, uid
        cid = self._dm_channels[uid]
        last = self._dms.get(uid, [])
        return {
            "id": str(cid),
            "type": 1,
            "last_message_id": str(last[-1].id) if last else None,
            "recipients": [self._users[uid]],
        }

    def _post_dm(self, call: RestCall, channel_id: int) -> JSON:
        uid = self._dm_members[channel_id]
        if uid in self._closed_dms:
            raise ApiError(403, 50007, "Cannot send messages to this user")
        data = self._message_data(channel_id, call.json or {})
        msg = FakeMessage(data)
        self._check_not_empty(data, [])
        self._dms.setdefault(uid, []).append(msg)
        return msg.payload

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
        return {
            "url": self.gateway_url,
            "shards": self.recommended_shards,
            "session_start_limit": limit,
        }

    def _get_member(self, call: RestCall, guild_id: str, user_id: str) -> JSON:
        guild = self._guilds.get(int(guild_id)) if guild_id.isdigit() else None
        if guild is None:
            raise _unknown("Guild", 10004)
        if not user_id.isdigit() or int(user_id) not in self._users:
            raise _unknown("Member", 10007)
        return self._member(self._users[int(user_id)], guild)

    def _command_scope(self, app_id: str, guild_id: str | None) -> list[JSON]:
        if int(app_id) != self.application_id:
            raise _unknown("Application", 10002)
        if guild_id is not None and int(guild_id) not in self._guilds:
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
            # The thread's owner may rename/archive it; locking, or unarchiving a locked
            # thread, needs MANAGE_THREADS.
            owned = int(channel["owner_id"]) == self.bot_user_id
            metadata = channel["thread_metadata"]
            locked = metadata["locked"] and metadata["archived"]
            self._require(cid, MANAGE_THREADS if "locked" in body or locked or not owned else 0)
            # An archived thread only takes edits that unarchive it.
            if metadata["archived"] and body.get("archived", True):
                raise _thread_archived()
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
                metadata["archive_timestamp"] = now_iso()
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
            "archive_timestamp": now_iso(),
            "locked": False,
            "create_timestamp": now_iso(),
        }
        if kind == PRIVATE_THREAD:
            metadata["invitable"] = body.get("invitable", True)
        return {
            "id": str(thread_id),
            "type": kind,
            "guild_id": parent["guild_id"],
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
        self._thread_members[thread_id] = {self.bot_user_id: now_iso()}
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
            member["member"] = self._member(self._users[uid], self._guild_of(self._channels[tid]))
        return member

    def _put_thread_member(self, call: RestCall, channel_id: str, user_id: str) -> None:
        tid, uid = self._thread_and_user(channel_id, user_id)
        self._thread_members[tid].setdefault(uid, now_iso())

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
        limit = min(int(call.query.get("limit", 50)), 100)
        if "after" in call.query:  # the `limit` messages right after it, newest first
            later = [m for m in self.messages(int(channel_id)) if m.id > int(call.query["after"])]
            return [m.payload for m in reversed(later[:limit])]
        return [m.payload for m in itertools.islice(found, limit)]

    def _post_message(self, call: RestCall, channel_id: str) -> JSON:
        if int(channel_id) in self._dm_members:
            return self._post_dm(call, int(channel_id))
        channel = self._channel_or_404(channel_id)
        cid = int(channel_id)
        self._limit_post(call, cid)
        self._require(
            cid, SEND_MESSAGES_IN_THREADS if channel["type"] in THREAD_TYPES else SEND_MESSAGES
        )
        if call.files:
            self._require(cid, ATTACH_FILES)
        metadata = channel.get("thread_metadata") or {}
        if metadata.get("archived") and metadata.get("locked"):
            raise _thread_archived()
        body = call.json or {}
        if body.get("enforce_nonce") and (earlier := self._same_nonce(body.get("nonce"))):
            return earlier.payload
        return self._new_message(cid, body, call.files).payload

    def _same_nonce(self, nonce: object) -> FakeMessage | None:
        """The bot's message posted within ``nonce_window`` seconds with this nonce: what
        Discord answers a post with ``enforce_nonce`` with, instead of a second message."""
        since = (int((time.time() - self.nonce_window) * 1000) - DISCORD_EPOCH_MS) << 22
        return next(
            (
                m
                for m in self._messages.values()
                if nonce is not None
                and m.id >= since
                and not m.deleted
                and m.data.get("nonce") == nonce
            ),
            None,
        )

    def _get_message(self, call: RestCall, channel_id: str, message_id: str) -> JSON:
        return self._channel_message(channel_id, message_id).payload

    def _patch_message(self, call: RestCall, channel_id: str, message_id: str) -> JSON:
        msg = self._changeable_message(self._channel_message(channel_id, message_id))
        if call.files:
            self._require(msg.channel_id, ATTACH_FILES)
        return self._edit_message(msg, call.json or {}, call.files).payload

    def _delete_message(self, call: RestCall, channel_id: str, message_id: str) -> None:
        self._remove_message(
            self._changeable_message(self._channel_message(channel_id, message_id))
        )

    def _limit_post(self, call: RestCall, channel_id: int) -> None:
        """Count a post against ``channel_post_limit``, as Discord's per-channel bucket does.

        Only POST /channels/{id}/messages goes through here: interaction callbacks and
        their webhook follow-ups are not limited by it on Discord either.
        """
        if self.channel_post_limit is None:
            return
        limit, period = self.channel_post_limit
        allowed, remaining, reset_after = self._post_windows.take(channel_id, limit, period)
        bucket = bucket_hash(call.method, call.route)
        if not allowed:
            raise too_many_requests(reset_after, bucket, scope="shared", limit=limit)
        call.response_headers.update(rate_limit_headers(limit, remaining, reset_after, bucket))

    def _changeable_message(self, msg: FakeMessage) -> FakeMessage:
        """The message, if it may be edited or deleted: not a public one of an archived thread."""
        metadata = self._channels[msg.channel_id].get("thread_metadata") or {}
        if metadata.get("archived") and not msg.ephemeral:
            raise _thread_archived()
        return msg

    def _unarchive(self, thread_id: int) -> None:
        """A new message in an archived thread brings it back, as on Discord."""
        metadata = self._channels[thread_id].get("thread_metadata") or {}
        if metadata.get("archived") and not metadata.get("locked"):
            metadata.update(archived=False, archive_timestamp=now_iso())
            self._dispatch("THREAD_UPDATE", self.channel(thread_id), INTENT_GUILDS)

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
        number_components(data["components"])
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

    def _message_data(self, channel_id: int, body: JSON) -> JSON:
        """A new bot message's fields, from a post's body."""
        data: JSON = {
            "id": str(self._snowflake()),
            "type": 0,
            "channel_id": str(channel_id),
            "author": self.bot_user,
            "content": "",
            "timestamp": now_iso(),
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
        return data

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
        data = self._message_data(channel_id, body)
        if body.get("nonce") is not None:
            data["nonce"] = body["nonce"]
        reference = body.get("message_reference")
        if reference:
            data["type"] = 19
            data["message_reference"] = {
                **reference,
                "channel_id": str(channel_id),
                "guild_id": self._channels[channel_id]["guild_id"],
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
        self._by_channel.setdefault(channel_id, []).append(msg)
        if not msg.ephemeral:
            self._unarchive(channel_id)
            self._channels[channel_id]["last_message_id"] = data["id"]
            self._dispatch("MESSAGE_CREATE", self._gateway_message(msg), INTENT_GUILD_MESSAGES)
        return msg

    def _edit_message(self, msg: FakeMessage, body: JSON, uploads: list[Upload]) -> FakeMessage:
        data = {**msg.data, "edited_timestamp": now_iso()}
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
                "guild_id": self._channels[msg.channel_id]["guild_id"],
            }
            self._dispatch("MESSAGE_DELETE", event, INTENT_GUILD_MESSAGES)

    def _gateway_message(self, msg: FakeMessage) -> JSON:
        guild = self._guild_of(self._channels[msg.channel_id])
        member = {k: v for k, v in self._member(self.bot_user, guild).items() if k != "user"}
        return {**msg.payload, "guild_id": str(guild.id), "member": member}

    def _interaction_metadata(self, rec: Interaction) -> JSON:
        metadata: JSON = {
            "id": str(rec.id),
            "type": rec.type,
            "user": rec.user,
            "authorizing_integration_owners": {"0": str(rec.guild_id)},
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
        # Measured when the fake handles the callback, not when it arrived: a callback held
        # back by an injected delay or hang lands late, as one delayed on the way would.
        at = time.monotonic()
        if at - rec.sent_at > self.interaction_window:
            if rec not in self.late_answers:
                self.late_answers.append(rec)
            raise _unknown("interaction", 10062)
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
            number_components(data.get("components", []))
        if message is not None:
            rec.original = message
        rec.callback = Callback(kind, data, message, at)
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
        if time.monotonic() - rec.sent_at > self.token_lifetime:
            raise ApiError(401, 50027, "Invalid Webhook Token")
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
        self._changeable_message(msg)
        return self._edit_message(msg, call.json or {}, call.files).payload

    def _delete_webhook_message(
        self, call: RestCall, app_id: str, token: str, message_id: str
    ) -> None:
        self._remove_message(
            self._changeable_message(self._webhook_message(app_id, token, message_id))
        )
