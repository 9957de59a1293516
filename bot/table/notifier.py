"""How a member hears of their turn: each member's choice per server (`/settings me
notify:`), and the direct messages of those who chose `dm`.

A turn's ping in the game's thread mentions the members who chose `ping`, names without a
mention those who chose `dm` or `quiet`, and leaves out those who chose `none`. A member who
chose `dm` gets one direct message per turn (the publisher asks once per turn, not per
move), none for a game they clicked in the last `WATCHING` seconds (they are watching it),
and at most one every `DM_EVERY` seconds: turns that come sooner are folded into the next.
DMs use the bot's token, so all of them together are paced (`DM_REQUESTS_PER_SECOND`),
well inside Discord's global limit of 50 requests a second. A member whose DMs are closed
(Discord's 50007) is pinged in the thread instead, and told privately at their next click.
A restart, even a kill, forgets none of it that matters (see `Notifier`): no turn is DM'd
twice, folded DMs still go, and the note about closed DMs is given once.
"""

from __future__ import annotations

import asyncio
import contextlib
import enum
import logging
import math
import time
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, field
from typing import Any

import discord

from bot.language.command_translator import spoken_command
from bot.language.i18n import N_, _, language_of, speaking
from bot.language.wording import without_mentions
from bot.service import LoadedGame
from bot.settings import Settings
from bot.storage import Storage
from bot.storage.notify_state import DmKey, StoredDm
from bot.table.presenter import Presenter

log = logging.getLogger(__name__)

CANNOT_DM = 50007  # Discord's code: the member does not take DMs from the bot
WATCHING = Settings.notify_watching  # seconds after a member's click on a game: watching it
DM_EVERY = Settings.notify_dm_every  # seconds: at most one DM per member in this time
# The bot's token is limited to 50 requests a second for the whole bot; DMs (and opening a
# member's DM channel) take at most this many of them, leaving the rest to boards and pings.
DM_REQUESTS_PER_SECOND = 10.0
SETTINGS_TTL = 60.0  # seconds a server's settings are trusted unread (another process may set)
REFUSED_FOR = 3600.0  # seconds a member whose DMs were refused is pinged instead
DM_LENGTH = 2000  # Discord's limit for a message's content


class Notify(enum.StrEnum):
    """How a member hears of their turn (stored in `member_notify.notify`)."""

    PING = "ping"  # a mention in the game's thread (the default)
    DM = "dm"  # a direct message; named in the thread without a mention
    QUIET = "quiet"  # named in the thread without a mention
    NONE = "none"  # not at all


# How each choice is worded where a member sees theirs (`/settings me`, the 🔒 panel).
NOTIFY_WORDS = {
    Notify.PING: N_("a ping in the game's thread"),
    Notify.DM: N_("a direct message (named in the thread without a ping)"),
    Notify.QUIET: N_("named in the game's thread, without a ping"),
    Notify.NONE: N_("not at all"),
}


def notify_line(notify: Notify) -> str:
    """The member's choice in one line, with the command that changes it."""
    return _("🔔 Your turn reaches you by: {how} (`{command}`)").format(
        how=_(NOTIFY_WORDS[notify]), command=spoken_command("/settings me")
    )


@dataclass
class Audience:
    """Who hears of a turn, and how."""

    mentioned: set[int] = field(default_factory=set)  # pinged in the thread
    named: set[int] = field(default_factory=set)  # named in the thread, without a mention
    messaged: set[int] = field(default_factory=set)  # sent a DM (and named in the thread)
    left_out: set[int] = field(default_factory=set)  # chose to hear nothing


@dataclass(frozen=True)
class TurnNote:
    """One game's line of a DM, worded already, and the thread ping to fall back on."""

    game_id: int
    thread_id: int
    line: str  # in the member's language: the game, what is asked, the board's link
    fallback: str  # in the game's language: the thread ping's text, should the DM be refused
    step: int = -1  # the game's step when the turn was announced
    reminder: bool = False  # the turn timer's reminder, not the turn's start
    guild_id: int = 0

    @property
    def key(self) -> DmKey:
        """Which turn of which game the note announces (what is kept of DMs sent)."""
        return (self.game_id, self.step, self.reminder)

    def stored(self, user_id: int) -> StoredDm:
        """The note as kept for `user_id` until it is sent."""
        return StoredDm(
            user_id,
            self.game_id,
            self.guild_id,
            self.thread_id,
            self.step,
            self.reminder,
            self.line,
            self.fallback,
        )


def board_url(guild_id: int, thread_id: int, message_id: int) -> str:
    """The link that opens a board in Discord (its jump URL)."""
    return f"https://discord.com/channels/{guild_id}/{thread_id}/{message_id}"


def turn_note(
    table: LoadedGame,
    presenter: Presenter[Any],
    language: str,
    board_id: int,
    fallback: str,
    *,
    reminder: bool = False,
) -> TurnNote:
    """A game's line of a member's DM, in `language`: the game, what is asked, the link to
    the board (and, for the turn timer's reminder, when the AI plays instead)."""
    row = table.row
    url = board_url(row.guild_id, row.thread_id or 0, board_id)
    with speaking(language):
        asked = without_mentions(presenter.prompt(table.state, table.names), table.names)
        game = f"**{presenter.title} #{row.id}**"
        if reminder and row.deadline is not None:
            line = _(
                "⏰ Still your turn in {game}: {asked} — the AI plays for you {when}. "
                "[Go to the board]({url})"
            ).format(game=game, asked=asked, when=f"<t:{int(row.deadline)}:R>", url=url)
        else:
            line = _("🎲 Your turn in {game}: {asked} [Go to the board]({url})").format(
                game=game, asked=asked, url=url
            )
    return TurnNote(row.id, row.thread_id or 0, line, fallback, row.step, reminder, row.guild_id)


class Pace:
    """Spaces requests evenly: at most `rate` a second, whoever asks."""

    def __init__(self, rate: float) -> None:
        """`rate`: requests a second."""
        self._gap = 1.0 / rate
        self._next = -math.inf

    async def slot(self) -> None:
        """Wait for the next free moment."""
        now = time.monotonic()
        at = max(now, self._next)
        self._next = at + self._gap
        if at > now:
            await asyncio.sleep(at - now)


class Notifier:
    """Members' notification settings, what they click (so no DM reaches someone watching),
    and the DMs, paced and folded (see the module).

    What must survive a restart is in the database (`bot/storage/notify_state.py`): each
    member's last turn announced per game and whether its DM went out, claimed just before
    it is sent (a kill after the claim loses that DM, never sends it twice); the DMs waiting
    (folded), re-armed at the next start; when each member's last DM went, which paces the
    next; refused members and whether they were told. Clicks stay in memory only: after a
    restart nobody is watching a game until they click in it again, and treating them as
    away sends at most the DM they would have had a little sooner."""

    def __init__(
        self,
        client: discord.Client,
        storage: Storage,
        *,
        clock: Callable[[], float] = time.time,
        watching: float = WATCHING,
        dm_every: float = DM_EVERY,
    ) -> None:
        """DMs go out with `client`; settings and the DMs' state are kept in `storage`.
        `clock` (unix seconds: the times are stored) times clicks and DMs; tests move it on
        to stand for minutes passing. `watching` and `dm_every`: `WATCHING` and `DM_EVERY`
        (the hoster's `NOTIFY_WATCHING` and `NOTIFY_DM_EVERY`)."""
        self._client = client
        self._storage = storage
        self.clock = clock
        self._watching = watching
        self._dm_every = dm_every
        self._settings: dict[int, tuple[float, dict[int, Notify]]] = {}
        self._clicks: dict[tuple[int, int], float] = {}  # (game, member) -> last click
        self._languages: dict[int, str] = {}  # a member's language, from their last click
        self._dm_channels: dict[int, int] = {}  # member -> their DM channel's id
        self._last_dm: dict[int, float] = {}  # as stored: read once per member
        self._inbox: dict[int, dict[int, TurnNote]] = {}  # member -> game -> note, not kept yet
        self._queued: dict[int, dict[int, TurnNote]] = {}  # kept as waiting: to send
        self._senders: dict[int, asyncio.Task[None]] = {}
        self._refused: dict[int, float] = {}  # members whose DMs were refused, when
        self._to_tell: set[int] = set()  # refused members not told yet (as stored)
        self._pace = Pace(DM_REQUESTS_PER_SECOND)

    async def resume(self, owns: Callable[[int], bool] = lambda guild_id: True) -> None:
        """At start: the refusals kept, and the DMs that were waiting when the bot stopped
        (of the servers `owns` says are this process's), sent as their turn comes."""
        for refusal in await self._storage.refusals():
            self._refused[refusal.user_id] = refusal.refused_at
            if not refusal.told:
                self._to_tell.add(refusal.user_id)
        for dm in await self._storage.waiting_dms():
            if owns(dm.guild_id):
                note = TurnNote(
                    dm.game_id,
                    dm.thread_id,
                    dm.line,
                    dm.fallback,
                    dm.step,
                    dm.reminder,
                    dm.guild_id,
                )
                self._queued.setdefault(dm.user_id, {})[dm.game_id] = note
                self._start_sender(dm.user_id)

    # --- settings ----------------------------------------------------------------------------

    async def settings(self, guild_id: int) -> Mapping[int, Notify]:
        """A server's members' choices (members not in it chose `ping`), read at most once
        a minute: a turn costs no read of its own."""
        now = self.clock()
        cached = self._settings.get(guild_id)
        if cached is None or now - cached[0] > SETTINGS_TTL:
            stored = await self._storage.notify_settings(guild_id)
            values = {n.value for n in Notify}  # a value of a later version: the default
            known = {uid: Notify(v) for uid, v in stored.items() if v in values}
            cached = (now, known)
            self._settings[guild_id] = cached
        return cached[1]

    async def setting(self, guild_id: int, user_id: int) -> Notify:
        """How a member hears of their turn in a server's games."""
        return (await self.settings(guild_id)).get(user_id, Notify.PING)

    async def set(self, guild_id: int, user_id: int, notify: Notify) -> None:
        """A member's choice, stored and in effect at once in this process. Choosing again
        answers the note about refused DMs: DMs are tried afresh."""
        await self._storage.set_notify(guild_id, user_id, notify.value)
        await self._storage.clear_refusal(user_id)
        await self.settings(guild_id)
        self._settings[guild_id][1][user_id] = notify
        self._refused.pop(user_id, None)
        self._to_tell.discard(user_id)

    def forget(self, user_id: int) -> None:
        """`/forget-me`: nothing of the member stays in memory either (the database's part
        goes with their other data)."""
        for _read_at, members in self._settings.values():
            members.pop(user_id, None)
        self._clicks = {k: v for k, v in self._clicks.items() if k[1] != user_id}
        for kept in (self._languages, self._dm_channels, self._last_dm, self._refused):
            kept.pop(user_id, None)
        self._inbox.pop(user_id, None)
        self._queued.pop(user_id, None)
        self._to_tell.discard(user_id)

    # --- who hears of a turn -----------------------------------------------------------------

    def clicked(self, game_id: int, user_id: int, locale: object) -> None:
        """A member clicked in a game: they watch it for a while; their client's language
        is the one their DMs speak."""
        now = self.clock()
        if len(self._clicks) > 10_000:  # old clicks say nothing any more
            self._clicks = {k: t for k, t in self._clicks.items() if now - t < self._watching}
        self._clicks[game_id, user_id] = now
        self._languages[user_id] = language_of(locale)

    def watching(self, game_id: int, user_id: int) -> bool:
        """True if the member clicked in the game in the last `WATCHING` seconds."""
        at = self._clicks.get((game_id, user_id))
        return at is not None and self.clock() - at < self._watching

    def language(self, user_id: int) -> str | None:
        """The language of the member's client at their last click, if they clicked."""
        return self._languages.get(user_id)

    async def audience(self, guild_id: int, game_id: int, players: Collection[int]) -> Audience:
        """Who hears of a turn that began for `players` (humans), and how."""
        chosen = await self.settings(guild_id)
        now = self.clock()
        audience = Audience()
        for player in players:
            notify = chosen.get(player, Notify.PING)
            if notify is Notify.DM and now - self._refused.get(player, -math.inf) < REFUSED_FOR:
                notify = Notify.PING  # their DMs are closed: pinged, as they were told
            if notify is Notify.PING:
                audience.mentioned.add(player)
            elif notify is Notify.QUIET or (notify is Notify.DM and self.watching(game_id, player)):
                audience.named.add(player)
            elif notify is Notify.DM:
                audience.messaged.add(player)
            else:
                audience.left_out.add(player)
        return audience

    # --- DMs ---------------------------------------------------------------------------------

    def send(self, user_id: int, note: TurnNote) -> None:
        """Queue a turn's DM: kept as waiting, then sent at once, or folded into the
        member's next one when they had one less than `DM_EVERY` seconds ago (a game's newer
        note replaces its older). A turn announced to the member already (a board posted
        again, here or before a restart) is not sent again."""
        self._inbox.setdefault(user_id, {})[note.game_id] = note
        self._start_sender(user_id)

    def _start_sender(self, user_id: int) -> None:
        if user_id not in self._senders:
            self._senders[user_id] = asyncio.create_task(self._deliver(user_id))

    @property
    def sending(self) -> bool:
        """True while some DM waits to go out."""
        return bool(self._senders)

    async def close(self) -> None:
        """Stop: DMs kept as waiting stay so in the database, sent at the next start (a
        turn announced in the last instant, not kept yet, goes by its thread ping alone)."""
        senders = list(self._senders.values())
        for sender in senders:
            sender.cancel()
        await asyncio.gather(*senders, return_exceptions=True)

    async def _take_in(self, user_id: int) -> None:
        """The notes sent to the member while their next DM waits for its minute: kept as
        waiting (folded), those of a turn not announced to them before."""
        for note in self._inbox.pop(user_id, {}).values():
            if await self._storage.queue_dm(note.stored(user_id)):
                self._queued.setdefault(user_id, {})[note.game_id] = note

    async def _deliver(self, user_id: int) -> None:
        try:
            while self._inbox.get(user_id) or self._queued.get(user_id):
                if user_id not in self._last_dm:
                    last = await self._storage.last_dm_at(user_id)
                    self._last_dm[user_id] = -math.inf if last is None else last
                # Looked at again every second: a turn of the clock (tests) takes effect.
                while (wait := self._last_dm[user_id] + self._dm_every - self.clock()) > 0:
                    await self._take_in(user_id)
                    await asyncio.sleep(min(wait, 1.0))
                await self._next_dm(user_id)
        except discord.HTTPException as e:  # Discord's trouble: this turn's DM is lost
            log.warning("DM to member %s not sent (%s %s)", user_id, e.status, e.code)
        except Exception:
            log.exception("DM to member %s failed", user_id)
        finally:
            self._senders.pop(user_id, None)

    async def _next_dm(self, user_id: int) -> None:
        """One DM with every note that fits (the rest wait for the next), none of a game the
        member is back at. Kept and claimed in one transaction before it is sent: a kill
        between the two loses this DM, never sends it twice."""
        fresh = self._inbox.pop(user_id, {})
        notes = self._queued.pop(user_id, {}) | fresh  # a game's newer note replaces its older
        back = [n for n in notes.values() if self.watching(n.game_id, user_id)]
        ready = [n for n in notes.values() if n not in back]
        fit, size = 0, 0
        for note in ready:
            if fit and size + len(note.line) > DM_LENGTH:
                break
            fit, size = fit + 1, size + len(note.line) + 1
        now = self.clock()
        kept, claimed = await self._storage.settle_dms(
            user_id,
            fresh=[n.stored(user_id) for n in fresh.values()],
            claim=[n.key for n in ready[:fit]],
            drop=[n.key for n in back],
            now=now,
        )
        for note in ready[fit:]:  # overflow: the next DM's
            if note.game_id in kept or note.game_id not in fresh:
                self._queued.setdefault(user_id, {}).setdefault(note.game_id, note)
        sent = [n for n in ready[:fit] if n.game_id in claimed]
        if sent:  # else another process sent them, or they were announced before
            self._last_dm[user_id] = now
            await self._dm(user_id, sent, now)

    async def _dm(self, user_id: int, notes: list[TurnNote], now: float) -> None:
        """The DM of `notes`, claimed; on a refusal, the thread pings instead."""
        lines = [note.line[:DM_LENGTH] for note in notes]
        try:
            channel_id = self._dm_channels.get(user_id)
            if channel_id is None:
                await self._pace.slot()
                channel_id = (await self._client.create_dm(discord.Object(user_id))).id
                self._dm_channels[user_id] = channel_id
            await self._pace.slot()
            channel = self._client.get_partial_messageable(
                channel_id, type=discord.ChannelType.private
            )
            await channel.send("\n".join(lines), allowed_mentions=discord.AllowedMentions.none())
        except discord.HTTPException as e:
            if e.code != CANNOT_DM and not isinstance(e, discord.NotFound):
                raise
            log.warning(
                "member %s takes no DMs (%s): pinged in the thread instead", user_id, e.code
            )
            self._refused[user_id] = now
            if await self._storage.dms_refused(user_id, notes[0].guild_id, now):
                self._to_tell.add(user_id)
            for note in notes:
                await self._fall_back(user_id, note)

    async def _fall_back(self, user_id: int, note: TurnNote) -> None:
        """The thread ping the DM stood for, with the mention."""
        await self._pace.slot()
        thread = self._client.get_partial_messageable(note.thread_id)
        with contextlib.suppress(discord.HTTPException):  # the thread may be gone since
            await thread.send(
                f"<@{user_id}> {note.fallback}",
                allowed_mentions=discord.AllowedMentions(
                    everyone=False, roles=False, users=[discord.Object(user_id)]
                ),
            )

    async def refusal_note(self, user_id: int) -> str | None:
        """Once, at the member's next click after Discord refused their DM (in this process
        or before a restart, claimed in the database): why they were pinged in the thread
        instead (worded in the clicker's language)."""
        if user_id not in self._to_tell:
            return None  # no read for the clicks of everyone else
        self._to_tell.discard(user_id)
        if not await self._storage.claim_refusal_note(user_id):
            return None  # told already, by another process
        return _(
            "I could not send you a direct message about your turn: Discord refused it "
            "(your DMs are closed to me or to this server's members). You were pinged in the "
            "game's thread instead. Open your DMs, or choose another way with `{command}`."
        ).format(command=spoken_command("/settings me"))
