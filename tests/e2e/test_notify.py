"""Your turn reaches you as you chose (`/settings me notify:`): a DM, one per turn and none
while you play, a ping, a quiet mention, or nothing; `/my-games` lists what waits for you.

Minutes pass on the notifier's clock (`bot.notifier.clock`), moved on by the tests: a
member "away" for two minutes is one whose last click is that far back on it.
"""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import pytest

from bot.client import ParlourBot
from bot.table import my_games, notifier
from bot.table.notifier import TurnNote
from tests.e2e.conftest import ParlourFactory
from tests.e2e.driver import (
    COCK_AND_BULL_CHOICES,
    choose_ok,
    eventually,
    first_offered,
    human_turn,
    is_board,
    move_number,
    open_lobby,
    play_one_move,
    player_to_act,
    prompt,
    start_game,
)
from tests.e2e.fake_discord import JSON, FakeDiscord, FakeMessage
from tests.e2e.storm import Spec, Storm

GAME = "cock-and-bull"
RISK = Spec(
    "risk",
    {"turn_limit": 3},
    prefer=("Auto", "Blitz", "End attacks", "End turn", re.compile(r"^Move in \d+ \(all\)")),
    panel="My cards & mission",
)
AWAY = notifier.WATCHING + 1  # seconds: long enough for a member to stop watching a game
BOARD_LINK = re.compile(r"https://discord\.com/channels/(\d+)/(\d+)/(\d+)")


class Clock:
    """The notifier's clock, which the test moves on."""

    def __init__(self, bot: ParlourBot) -> None:
        self.later = 0.0
        bot.notifier.clock = lambda: time.time() + self.later

    def wait(self, seconds: float) -> None:
        self.later += seconds


async def settled(bot: ParlourBot) -> None:
    """Until the bot is quiet: boards shown, clicks answered."""

    async def quiet() -> bool:
        return not bot.publisher.busy and not bot.router.busy

    await eventually(quiet, timeout=15)


async def choose(fake: FakeDiscord, user: JSON, how: str) -> str:
    """`/settings me notify:<how>`; the private answer."""
    answer = (await fake.slash(user, "settings", "me", options={"notify": how})).response()
    message = (await answer).message
    assert message is not None and message.ephemeral
    return message.content


def pings(fake: FakeDiscord, thread_id: int) -> list[FakeMessage]:
    """The thread's turn pings (every message that is not a board), oldest first."""
    return [m for m in fake.messages(thread_id) if not is_board(m) and "turn" in m.content]


def sent_with(fake: FakeDiscord, message: FakeMessage) -> JSON:
    """The request body that posted `message` (a follow-up or the bot's own post)."""
    for call in fake.calls:
        if isinstance(call.response, dict) and call.response.get("id") == str(message.id):
            return call.json  # type: ignore[no-any-return]
    raise AssertionError(f"no request posted message {message.id}")


async def test_a_slow_risk_game_sends_the_dm_member_one_dm_per_turn_and_none_while_they_play(
    fake: FakeDiscord, start_parlour: ParlourFactory
) -> None:
    """Ana chose DMs, Leo pings. Leo takes his time over every other turn of his: Ana, away
    meanwhile, gets one DM as her turn begins, linking to the board up; over Leo's quick
    turns she is still at the table and gets none. Her moves (many a turn) send nothing."""
    bot = await start_parlour()
    clock = Clock(bot)
    storm = Storm(fake, seed=11)
    table = await storm.open(RISK, ("Ana", "Leo"))
    ana, leo = table.players
    chosen_at = len(fake.calls)
    said = await choose(fake, ana, "dm")
    assert "a direct message" in said
    await settled(bot)
    dms, watched, leo_turns, slow, last = 0, 0, 0, False, None
    for _ in range(2000):
        if (dms >= 3 and watched >= 2) or storm.finished(table):
            break
        board = storm.board(table)
        actor = player_to_act(board, table.players) if board and board.components else None
        if actor is None:
            await asyncio.sleep(0.02)
            continue
        if actor is leo and last is not leo:
            leo_turns += 1
            slow = leo_turns % 2 == 1
        if actor is leo and slow:
            clock.wait(AWAY)  # Leo thinks it over; Ana is away
        await storm.play_turn(table)
        await settled(bot)
        up = storm.board(table)
        assert up is not None
        now = player_to_act(up, table.players) if up.components else None
        if actor is leo and now is ana:
            if slow:
                dms += 1
                await fake.wait_for(lambda n=dms: len(fake.dms(ana)) >= n or None)
                dm = fake.dms(ana)[-1].content
                link = BOARD_LINK.search(dm)
                assert link is not None, dm
                assert link.groups() == (str(fake.guild_id), str(table.thread_id), str(up.id))
                assert "Risk #" in dm and "Your turn" in dm
            else:
                watched += 1
        assert len(fake.dms(ana)) == dms, (dms, [m.content for m in fake.dms(ana)])
        last = actor
    assert dms >= 3 and watched >= 2, (dms, watched)
    await settled(bot)
    await eventually(lambda: _idle(bot))
    assert len(fake.dms(ana)) == dms and fake.dms(leo) == []
    # Every ping since her choice (each deleted as the next came) names Ana without a
    # mention, and mentions Leo.
    sent = [
        str(c.json["content"])
        for c in fake.calls[chosen_at:]
        if isinstance(c.json, dict) and "turn" in str(c.json.get("content"))
    ]
    assert not any(f"<@{ana['id']}>" in text for text in sent)
    assert any(text.startswith("**Ana** your turn") for text in sent)
    assert any(text.startswith(f"<@{leo['id']}> your turn") for text in sent)


async def play_until(
    fake: FakeDiscord,
    bot: ParlourBot,
    players: Sequence[JSON],
    board: FakeMessage,
    done: Callable[[], object],
    before: Callable[[JSON], None] = lambda actor: None,
) -> FakeMessage:
    """Moves (`before` told who is about to make each) until `done()`; the board then up."""
    for _ in range(60):
        up = await human_turn(fake, players, board)
        assert up is not None, "the game ended first"
        await settled(bot)
        await eventually(lambda: _idle(bot))  # the DMs of the last move sent, or refused
        if done():
            return up
        actor = player_to_act(up, players)
        assert actor is not None
        before(actor)
        board = await play_one_move(fake, players, up)
    raise AssertionError("never done")


def named(fake: FakeDiscord, thread_id: int, who: str) -> FakeMessage | None:
    """The newest turn ping in the thread that names `who` (a mention or a name)."""
    found = [m for m in pings(fake, thread_id) if who in m.content]
    return found[-1] if found else None


@dataclass
class Duo:
    """Ana, who chose how her turn reaches her, and Leo, in a Cock & Bull game Leo hosts."""

    fake: FakeDiscord
    bot: ParlourBot
    clock: Clock
    ana: JSON
    leo: JSON
    board: FakeMessage

    @property
    def thread(self) -> int:
        return self.board.channel_id

    def leo_thinks(self, actor: JSON) -> None:
        """Before each of Leo's moves: Ana is away meanwhile."""
        if actor is self.leo:
            self.clock.wait(AWAY)

    async def play_until(self, done: Callable[[], object], *, away: bool = True) -> FakeMessage:
        """Moves until `done()` (Ana away while Leo plays, if `away`); the board then up."""
        before = self.leo_thinks if away else (lambda actor: None)
        self.board = await play_until(
            self.fake, self.bot, [self.ana, self.leo], self.board, done, before
        )
        return self.board


async def duo(
    fake: FakeDiscord,
    start_parlour: ParlourFactory,
    how: str,
    *,
    locale: str = "en-US",
    closed: bool = False,
) -> Duo:
    """Ana (`locale`; her DMs `closed`) chooses `how`, then joins Leo's game."""
    bot = await start_parlour()
    clock = Clock(bot)
    ana, leo = fake.make_user("Ana", locale=locale), fake.make_user("Leo")
    if closed:
        fake.close_dms(ana)
    await choose(fake, ana, how)
    board = await start_game(fake, leo, GAME, joiners=[ana])
    return Duo(fake, bot, clock, ana, leo, board)


async def test_a_member_whose_dms_are_closed_is_pinged_instead_and_told_once(
    fake: FakeDiscord, start_parlour: ParlourFactory
) -> None:
    game = await duo(fake, start_parlour, "dm", closed=True)
    ana = game.ana
    await game.play_until(lambda: named(fake, game.thread, f"<@{ana['id']}>"))
    fallback = named(fake, game.thread, f"<@{ana['id']}>")
    assert fallback is not None and "your turn" in fallback.content
    assert fallback.content.startswith(f"<@{ana['id']}> ")
    assert sent_with(fake, fallback)["allowed_mentions"]["users"] == [int(ana["id"])]
    assert fake.dms(ana) == []
    refused = [c for c in fake.calls if fake.is_dm(c) and c.status == 403]
    assert len(refused) == 1

    def notes() -> list[str]:
        return [
            m.content
            for m in fake.ephemeral_for(ana)
            if "could not send you a direct message" in m.content
        ]

    assert notes() == []
    await game.play_until(lambda: notes())  # Ana's next click
    assert len(notes()) == 1 and "/settings me" in notes()[0]
    clicks = len(fake.interactions)
    await game.play_until(lambda: len(fake.interactions) > clicks + 6)
    assert len(notes()) == 1  # told once


async def test_quiet_names_the_member_without_a_mention(
    fake: FakeDiscord, start_parlour: ParlourFactory
) -> None:
    game = await duo(fake, start_parlour, "quiet")
    await game.play_until(lambda: named(fake, game.thread, "Ana"))
    ping = named(fake, game.thread, "Ana")
    assert ping is not None and ping.content.startswith("**Ana** your turn"), ping
    assert f"<@{game.ana['id']}>" not in ping.content
    mentions = sent_with(fake, ping)["allowed_mentions"]
    assert mentions["parse"] == [] and mentions.get("users", []) == []
    assert fake.dms(game.ana) == []


async def test_none_leaves_the_member_out_of_the_ping(
    fake: FakeDiscord, start_parlour: ParlourFactory
) -> None:
    game = await duo(fake, start_parlour, "none")
    clicks = len(fake.interactions)
    await game.play_until(lambda: len(fake.interactions) > clicks + 12)
    sent = [str(c.json.get("content")) for c in fake.calls if isinstance(c.json, dict)]
    assert any(text.startswith(f"<@{game.leo['id']}> your turn") for text in sent)
    assert not any("your turn" in text and "Ana" in text.split("turn")[0] for text in sent)
    assert fake.dms(game.ana) == []


async def test_the_setting_is_shown_and_kept_per_server(
    fake: FakeDiscord, start_parlour: ParlourFactory
) -> None:
    """`/settings me` shows and sets a member's own settings: how their turn reaches them
    (per server, shown in the 🔒 panel too) beside the text board (every server)."""
    bot = await start_parlour()
    ana, leo = fake.make_user("Ana"), fake.make_user("Leo")
    shown = (await (await fake.slash(ana, "settings", "me")).response()).message
    assert shown is not None and shown.ephemeral
    assert "a ping in the game's thread" in shown.content and "Text board" in shown.content
    await choose(fake, ana, "dm")
    turned = await fake.slash(ana, "settings", "me", options={"text-board": True})
    message = (await turned.response()).message
    assert message is not None and message.content.endswith(
        "📝 Text board after each of your moves, in every server: on."
    )
    assert await bot.play.reading.wanted(int(ana["id"]))
    other = fake.create_guild("Other")
    elsewhere = await fake.slash(ana, "settings", "me", channel_id=fake.general_channel_id(other))
    message = (await elsewhere.response()).message
    assert message is not None and "a ping in the game's thread" in message.content
    board = await start_game(fake, ana, "winners-circle", joiners=[leo])
    panel = (await (await fake.click(ana, board, label="My chips")).response()).message
    assert panel is not None and panel.ephemeral
    assert panel.content.endswith(
        "🔔 Your turn reaches you by: a direct message (named in the thread without a ping)"
        " (`/settings me`)"
    )


async def test_only_managers_change_the_servers_settings(
    fake: FakeDiscord, start_parlour: ParlourFactory
) -> None:
    bot = await start_parlour()
    ana = fake.make_user("Ana")
    for command, options in (
        ("turn-timer", {"timer": 0}),
        ("language", {"language": "es"}),
        ("season-min-games", {"games": 9}),
    ):
        answer = await fake.slash(ana, "settings", command, options=options)
        message = (await answer.response()).message
        assert message is not None and message.ephemeral
        assert message.content == (
            "Only members who can manage the server may change its settings."
        ), command
    assert await bot.service.storage.season_min_games(fake.guild_id) == 3


async def three_games_of_ana(fake: FakeDiscord) -> tuple[JSON, JSON, list[FakeMessage]]:
    """Ana, Leo and the boards of her three games in two channels (a fourth game is not hers),
    one move made in the first so that not every game waits for the same player."""
    ana, leo, mia = fake.make_user("Ana"), fake.make_user("Leo"), fake.make_user("Mia")
    second = fake.create_text_channel("more-games")
    boards = [
        await start_game(fake, ana, GAME, joiners=[leo]),
        await start_game(fake, leo, GAME, joiners=[ana], channel_id=second),
        await start_game(fake, mia, GAME, joiners=[ana]),
    ]
    await start_game(fake, leo, GAME, joiners=[mia])  # not Ana's
    boards[0] = await play_one_move(fake, [ana, leo], boards[0])
    return ana, leo, boards


async def my_games_lists_waiting_first(
    fake: FakeDiscord, ana: JSON, boards: Sequence[FakeMessage]
) -> None:
    """`/my-games` shows Ana, to her alone, a line for each of `boards`: those waiting for
    her first (where the board's prompt names her, with whoever acts at once with her)."""
    waiting = {b.channel_id for b in boards if "Ana" in prompt(b)}
    assert 0 < len(waiting) < 3, "a mix of games waiting for Ana and not"
    listed = (await (await fake.slash(ana, "my-games")).response()).message
    assert listed is not None and listed.ephemeral
    lines = listed.embeds[0]["description"].splitlines()[1:]
    assert len(lines) == 3, lines
    threads = [int(BOARD_LINK.search(line).group(2)) for line in lines]  # type: ignore[union-attr]
    assert set(threads) == {b.channel_id for b in boards}
    marks = [line[0] for line in lines]
    assert marks == ["▶"] * len(waiting) + ["•"] * (3 - len(waiting))
    assert set(threads[: len(waiting)]) == waiting


async def test_my_games_lists_three_games_across_two_channels_those_waiting_first(
    fake: FakeDiscord, start_parlour: ParlourFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    bot = await start_parlour()
    ana, leo, boards = await three_games_of_ana(fake)
    await settled(bot)
    await my_games_lists_waiting_first(fake, ana, boards)

    # Pages, and a forged page id.
    monkeypatch.setattr(my_games, "PAGE_SIZE", 2)
    listed = (await (await fake.slash(ana, "my-games")).response()).message
    assert listed is not None and listed.embeds[0]["footer"]["text"] == "Page 1 of 2"
    turned = (await (await fake.click(ana, listed, label="Next")).response()).message
    assert turned is not None and turned.embeds[0]["footer"]["text"] == "Page 2 of 2"
    # A button whose id was tampered with (or drawn when there were more pages).
    stored = fake.message(listed.id).buttons[0]
    stored.update(custom_id=f"mg1:{ana['id']}:999:on", disabled=False)
    answer = (await (await fake.click(ana, listed, label="Previous")).response()).message
    assert answer is not None and answer.ephemeral
    assert (
        answer.content == "There is no page 1000: your games fill 2 pages. Use the command again."
    )
    stored.update(custom_id=f"mg1:{leo['id']}:1:on")
    answer = (await (await fake.click(ana, listed, label="Previous")).response()).message
    assert answer is not None and "someone else's" in answer.content


async def test_a_burst_of_200_games_turns_stays_under_the_global_limit(
    fake: FakeDiscord, start_parlour: ParlourFactory
) -> None:
    """Fifty members who chose DMs, in 200 games; in every game the player to act plays
    their turn at once. Each member whose turn began gets one DM at once, the rest folded
    into one more a minute later; no request of the bot's token is refused for the global
    limit."""
    bot = await start_parlour()
    clock = Clock(bot)
    members = [fake.make_user(f"P{n:02d}") for n in range(50)]  # none inside another
    for member in members:
        await choose(fake, member, "dm")

    async def open_game(k: int) -> tuple[list[JSON], int]:
        host, guest = members[k % 50], members[(k * 7 + 1 + k // 50) % 50]
        if guest is host:
            guest = members[(k + 1) % 50]
        lobby = await open_lobby(fake, host, GAME)
        await choose_ok(fake, guest, lobby, "Join")
        await choose_ok(fake, host, lobby, "Start")
        await fake.wait_for(lambda: fake.latest_message(lobby.id, is_board), timeout=30)
        return [host, guest], lobby.id  # the thread is made from the lobby message

    async def play(players: list[JSON], thread: int, *, whole_turn: bool) -> None:
        """Both roll for the first turn; or the player to act plays until their turn ends."""
        first = None
        for _ in range(8):
            board = fake.latest_message(thread, is_board)
            assert board is not None
            actor = player_to_act(board, players)
            if actor is None or (first is not None and actor is not first):
                return
            first = first or actor
            label = first_offered(board, COCK_AND_BULL_CHOICES)
            assert label is not None
            step = move_number(board)
            await choose_ok(fake, actor, board, label)
            await fake.wait_for(
                lambda b=board, s=step: (
                    move_number(fake.latest_message(thread, is_board) or b) > s or None
                ),
                timeout=30,
            )
            if not whole_turn and "first turn" not in prompt(board):
                return

    games = []
    for batch in range(10):
        games += await asyncio.gather(*(open_game(k) for k in range(batch * 20, batch * 20 + 20)))
    for players, thread in games:  # the roll for the first turn, everyone at the table
        await play(players, thread, whole_turn=False)
    await settled(bot)
    clock.wait(AWAY)  # everyone left their games a while ago
    calls, marker = len(fake.calls), max(m.id for m in fake.public_messages())
    limited = len(fake.globally_limited)

    # Twenty games' turns every half second: all 200 within five seconds, each click still
    # answered within Discord's three (200 clicks at the same instant would not be, on 2 cores).
    turns_played = []
    for wave in range(10):
        turns_played += [
            asyncio.create_task(play(p, t, whole_turn=True)) for p, t in games[wave::10]
        ]
        await asyncio.sleep(0.5)
    await asyncio.gather(*turns_played)
    await settled(bot)
    # Whoever a new ping named: their turn began, while they were away.
    waiting: dict[str, set[int]] = {}
    for players, thread in games:
        for ping in (m for m in pings(fake, thread) if m.id > marker):
            for member in players:
                if f"**{member['username']}**" in ping.content:
                    waiting.setdefault(member["id"], set()).add(thread)
    turns = sum(len(threads) for threads in waiting.values())
    assert turns >= 100, turns
    told = [m for m in members if m["id"] in waiting]
    await fake.wait_for(lambda: all(fake.dms(m) for m in told) or None, timeout=60)
    assert all(len(fake.dms(m)) == 1 for m in told)
    clock.wait(notifier.DM_EVERY)  # a minute later: the turns folded meanwhile

    def threads_in_dms(member: JSON) -> set[int]:
        found = (BOARD_LINK.findall(m.content) for m in fake.dms(member))
        return {int(link[1]) for links in found for link in links}

    await fake.wait_for(
        lambda: all(threads_in_dms(m) >= waiting[m["id"]] for m in told) or None, timeout=60
    )
    await eventually(lambda: _idle(bot), timeout=30)
    assert all(len(fake.dms(m)) <= 2 for m in members)
    dms = sum(len(fake.dms(m)) for m in members)
    assert dms < turns, (dms, turns)  # folded
    dm_requests = [c for c in fake.calls[calls:] if fake.is_dm(c)]
    assert len(dm_requests) == dms + len(told)  # each member's DM channel opened once
    assert fake.globally_limited[limited:] == [], [
        f"{c.method} {c.route}" for c in fake.globally_limited[limited:]
    ]


async def test_turn_notes_are_dropped_for_a_member_back_at_the_table(
    fake: FakeDiscord, start_parlour: ParlourFactory
) -> None:
    """A DM held back by the minute between DMs is not sent if the member clicked in that
    game meanwhile: they know."""
    bot = await start_parlour()
    clock = Clock(bot)
    ana = fake.make_user("Ana")
    bot.notifier.send(int(ana["id"]), TurnNote(1, fake.channel_id, "first", "x"))
    await fake.wait_for(lambda: fake.dms(ana) or None)
    bot.notifier.send(int(ana["id"]), TurnNote(2, fake.channel_id, "second", "x"))
    bot.notifier.clicked(2, int(ana["id"]), "en-US")
    clock.wait(notifier.DM_EVERY)
    await eventually(lambda: _idle(bot))
    assert [m.content for m in fake.dms(ana)] == ["first"]


async def _idle(bot: ParlourBot) -> bool:
    return not bot.notifier.sending


async def test_the_turn_timers_reminder_follows_the_setting_once(
    fake: FakeDiscord, start_parlour: ParlourFactory
) -> None:
    """Halfway through a 4-second turn the reminder goes out: a DM to Ana, who chose them
    and is away, with when the AI plays for her; a mention for Leo in the thread. Once."""
    bot = await start_parlour()
    clock = Clock(bot)
    await bot.service.storage.set_guild_turn_timer(fake.guild_id, 4)
    ana, leo = fake.make_user("Ana"), fake.make_user("Leo")
    await choose(fake, ana, "dm")
    chosen_at = len(fake.calls)
    board = await start_game(fake, ana, GAME, joiners=[leo])  # both roll for the first turn
    clock.wait(AWAY)  # Ana leaves the table at once
    dm = await fake.wait_for(lambda: fake.dms(ana)[:1] or None, timeout=6)
    assert dm[0].content.startswith("⏰ Still your turn in **Cock & Bull #")
    assert re.search(r"the AI plays for you <t:\d+:R>\. \[Go to the board\]", dm[0].content)
    assert BOARD_LINK.search(dm[0].content) is not None
    await fake.wait_for(lambda: move_number(board) >= 1 or None, timeout=6)  # the AI played
    await settled(bot)
    reminders = [
        str(c.json["content"])
        for c in fake.calls[chosen_at:]
        if isinstance(c.json, dict) and "still your turn" in str(c.json.get("content"))
    ]
    assert len(reminders) == 1, reminders
    assert reminders[0].startswith(f"<@{leo['id']}> **Ana** ⏰ still your turn")
    assert [m.content.startswith("⏰") for m in fake.dms(ana)] == [True]


async def test_a_dm_speaks_the_members_language(
    fake: FakeDiscord, start_parlour: ParlourFactory
) -> None:
    """Ana's client speaks Spanish; the game, Leo's, English: her DM is in Spanish."""
    game = await duo(fake, start_parlour, "dm", locale="es-ES")
    await game.play_until(lambda: fake.dms(game.ana))
    (dm,) = fake.dms(game.ana)
    assert dm.content.startswith("🎲 Te toca en **Cock & Bull #"), dm.content
    assert "[Ir al tablero](https://discord.com/channels/" in dm.content
    assert named(fake, game.thread, "**Ana** your turn") is not None  # the game's English


async def test_turns_that_overflow_one_dm_wait_for_the_next(
    fake: FakeDiscord, start_parlour: ParlourFactory
) -> None:
    """Thirty games' turns at once, 100 characters each: a DM takes what fits in Discord's
    2,000 characters, the rest come a minute later; none is lost."""
    bot = await start_parlour()
    clock = Clock(bot)
    ana = fake.make_user("Ana")
    for game in range(1, 31):
        line = f"game {game:02d} " + "." * 92
        bot.notifier.send(int(ana["id"]), TurnNote(game, fake.channel_id, line, "x"))
    first = await fake.wait_for(lambda: fake.dms(ana) or None)
    assert len(first[0].content) <= 2000 and first[0].content.count("game ") == 19
    clock.wait(notifier.DM_EVERY)
    await fake.wait_for(lambda: len(fake.dms(ana)) == 2 or None)
    await eventually(lambda: _idle(bot))
    sent = "\n".join(m.content for m in fake.dms(ana))
    assert [f"game {n:02d} " in sent for n in range(1, 31)] == [True] * 30


async def test_a_board_posted_again_is_no_new_turn_for_dms(
    fake: FakeDiscord, start_parlour: ParlourFactory
) -> None:
    """A moderator deletes the board while Ana, who chose DMs, is away: the board is posted
    again and her turn announced again in the thread, but she got her DM already."""
    game = await duo(fake, start_parlour, "dm")
    board = await game.play_until(lambda: fake.dms(game.ana))

    def announced() -> int:
        return len([c for c in fake.calls if "**Ana** your turn" in str(c.json)])

    before = announced()
    game.clock.wait(AWAY + notifier.DM_EVERY)
    await fake.delete_message(board)
    await fake.wait_for(lambda: announced() > before or None)
    await settled(game.bot)
    await eventually(lambda: _idle(game.bot))
    assert len(fake.dms(game.ana)) == 1


async def test_a_member_sets_only_their_own_choice_and_a_forged_one_changes_nothing(
    fake: FakeDiscord, start_parlour: ParlourFactory
) -> None:
    """`/settings me` has no member to name: whoever runs it sets their own. A value the
    command does not offer (a custom client's) is refused privately, nothing changed."""
    bot = await start_parlour()
    ana, leo = fake.make_user("Ana"), fake.make_user("Leo")
    await choose(fake, ana, "dm")
    await choose(fake, leo, "none")
    storage = bot.service.storage
    chosen = {int(ana["id"]): "dm", int(leo["id"]): "none"}
    assert await storage.notify_settings(fake.guild_id) == chosen
    forged = await fake.slash(leo, "settings", "me", options={"notify": "loud"}, checked=False)
    answer = (await forged.response()).message
    assert answer is not None and answer.ephemeral
    assert answer.content.startswith("**notify** can't be `loud`: it takes "), answer.content
    assert await storage.notify_settings(fake.guild_id) == chosen
    assert await bot.notifier.setting(fake.guild_id, int(leo["id"])) is notifier.Notify.NONE


async def test_a_dm_to_a_member_discord_no_longer_knows_is_the_thread_ping_and_one_line(
    fake: FakeDiscord, start_parlour: ParlourFactory, caplog: pytest.LogCaptureFixture
) -> None:
    """A member who left (their account gone: Discord answers 404, Unknown User, to opening
    their DM channel) is pinged in the thread instead; the log says so in one warning line,
    no error; their note waits for a click that never comes, harmlessly."""
    bot = await start_parlour()
    gone = 424242424242424242  # no member of the fake's
    note = TurnNote(1, fake.channel_id, "line", "your turn: Gone to roll", guild_id=fake.guild_id)
    bot.notifier.send(gone, note)
    ping = await fake.wait_for(
        lambda: fake.latest_message(fake.channel_id, lambda m: m.content.startswith(f"<@{gone}>"))
    )
    assert ping.content == f"<@{gone}> your turn: Gone to roll"
    await eventually(lambda: _idle(bot))
    warnings = [r for r in caplog.records if r.name == "bot.table.notifier"]
    assert [r.levelname for r in warnings] == ["WARNING"], caplog.text
    assert "takes no DMs" in warnings[0].getMessage()
    assert await bot.service.storage.refusals() != []
