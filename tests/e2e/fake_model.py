"""What the fake Discord stores and hands to tests: Discord's constants, messages,
REST calls, interactions.

Kept apart from ``fake_discord`` (which serves them) to keep that file readable; import
these from ``tests.e2e.fake_discord``, which re-exports them.
"""

from __future__ import annotations

import copy
import itertools
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

import discord

from tests.e2e.fake_faults import Injection

if TYPE_CHECKING:
    from tests.e2e.fake_discord import FakeDiscord

JSON = dict[str, Any]

API_PREFIX = "/api/v10"
# How long a test waits for what it expects (a callback, a message, a row) before calling it
# lost: long, as the suite runs in parallel and a worker may wait for a core that long; a
# hang still fails, and what must come in time (Discord's 3 s) is asserted on its own.
PATIENCE = 30.0  # seconds
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

#: Interactions a user sees fail ("The application did not respond") when unanswered in time.
ANSWER_REQUIRED = (APPLICATION_COMMAND, MESSAGE_COMPONENT, MODAL_SUBMIT)

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


def now_iso() -> str:
    return datetime.now(UTC).isoformat()


def user_id_of(user: JSON | int) -> int:
    return int(user["id"]) if isinstance(user, dict) else int(user)


def walk_components(components: Sequence[JSON]) -> Iterator[JSON]:
    """Yield every component depth-first: action rows, containers, sections, labels."""
    for component in components:
        yield component
        yield from walk_components(component.get("components", []))
        for key in ("accessory", "component"):
            if isinstance(component.get(key), dict):
                yield from walk_components([component[key]])


def number_components(components: Sequence[JSON]) -> None:
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

    def seen(self) -> FakeMessage:
        """A copy of the message as it is now: what a member's screen shows until the next
        update reaches it (edits are applied to the stored message in place)."""
        return FakeMessage(copy.deepcopy(self.data), list(self.attachments), self.visible_to)

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
    #: The answer's HTTP status; 0 while unanswered (or if the bot hung up on a held request).
    status: int = 0
    response: Any = None
    at: float = field(default_factory=time.monotonic)  # when the bot made the request
    #: The route template, e.g. ``/channels/{channel_id}/messages``; the path if unknown.
    route: str = ""
    #: Headers of the answer beyond the usual ones (rate limit buckets).
    response_headers: dict[str, str] = field(default_factory=dict)
    #: The injection that answered it instead of the fake, if any.
    injected: Injection | None = field(default=None, repr=False)
    #: Which client made it, for a client given ``fake.api_base_for(name)``; else None.
    client: str | None = None

    @property
    def bot_token(self) -> bool:
        """Made with the bot's token, so counted against its global rate limit: every call
        but an interaction's callback and its webhook (follow-ups, edits of its messages)."""
        return not self.path.startswith(("/webhooks/", "/interactions/"))


@dataclass
class Callback:
    """The bot's answer to an interaction (POST /interactions/{id}/{token}/callback)."""

    type: int
    data: JSON
    message: FakeMessage | None
    #: When the callback reached the fake (time.monotonic()).
    at: float = field(default_factory=time.monotonic)


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
    #: When the fake sent it to the bot (time.monotonic()); Discord's 3-second clock starts here.
    sent_at: float = field(default_factory=time.monotonic)
    #: The guild of its channel.
    guild_id: int = 0

    @property
    def answered_after(self) -> float | None:
        """Seconds from sending to the bot's (accepted) callback; None while unanswered."""
        return None if self.callback is None else self.callback.at - self.sent_at

    async def response(self, timeout: float = PATIENCE) -> Callback:
        """Wait for the bot's callback to this interaction."""
        return await self.fake.wait_for(lambda: self.callback, timeout)
