"""Winner's Circle end to end: the real client against the fake Discord.

Bets are picked in the board's select menu (or, with hidden bets, in the player's private
"My chips" panel), the race is played with the Roll and move buttons.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import pytest

from bot.client import ParlourBot
from cogs.winners_circle import BET_MENU, HORSE_EMOJI, WinnersCirclePresenter
from rules.core import Event
from rules.winners_circle.engine import parse_rules
from rules.winners_circle.payout import race_payout, settle
from rules.winners_circle.state import (
    Bet,
    LineKind,
    PayoutMade,
    Phase,
    RaceEnded,
    WinnersCircleState,
)
from rules.winners_circle.track import destination
from tests.e2e.conftest import ParlourFactory
from tests.e2e.driver import (
    JSON,
    boards_in,
    choose,
    human_turn,
    is_result,
    move_number,
    newest_board,
    offered,
    open_panel,
    picture,
    play_one_move,
    play_to_the_end,
    prompt,
    start_game,
)
from tests.e2e.fake_discord import STRING_SELECT, FakeDiscord, FakeMessage

GAME = "winners-circle"
BET = re.compile(r"^Horse \d \(\w+\) — chip \d")
MOVE = re.compile(r"^Horse \d (→|finishes|can't move)")
CHOICES = (BET, "Roll", MOVE, re.compile(r"^Start race"))
PRIVATE = "My chips"
# How a chip's value would show in text: the bet wording, an option's label or value.
CHIP_VALUE = re.compile(r"chip [0-2]|bet_hidden|bluff|Chips revealed")


def game_id(board: FakeMessage) -> int:
    return int(board.embeds[0]["title"].split()[-1].lstrip("#"))  # "Risk, game 42", "Risk · #42"


async def state_of(bot: ParlourBot, board: FakeMessage) -> WinnersCircleState:
    state: WinnersCircleState = (await bot.service.table(game_id(board))).state
    return state


def narration(board: FakeMessage) -> str:
    return str(board.embeds[0]["description"])


def select_picks(fake: FakeDiscord, users: Sequence[JSON]) -> int:
    ids = {u["id"] for u in users}
    return sum(
        1
        for rec in fake.interactions
        if rec.user["id"] in ids and rec.payload["data"].get("component_type") == STRING_SELECT
    )


def payout_text(line: Any, names: dict[int, str]) -> str:
    short = f", short {line.unpaid}" if line.unpaid else ""
    return f"{names[line.player]} {line.amount:+d} (chip {line.chip}{short})"


async def test_full_three_player_game_with_a_bot_then_scoreboard(
    fake: FakeDiscord, start_parlour: ParlourFactory
) -> None:
    bot = await start_parlour()
    ana, leo = fake.make_user("Ana"), fake.make_user("Leo")
    humans = [ana, leo]
    board = await start_game(fake, ana, GAME, joiners=[leo], bots=1)
    names = {int(ana["id"]): "Ana", int(leo["id"]): "Leo", -1: "Bot 1"}

    # The first bet open to a human: one select of every horse × chip, with the card values.
    up = await human_turn(fake, humans, board, CHOICES)
    assert up is not None and "Race 1 of 3, bets (round 1 of 3)" in prompt(up)
    (menu,) = [c for c in up.components[0]["components"] if c["type"] == STRING_SELECT]
    assert menu["placeholder"] == BET_MENU
    state = await state_of(bot, up)
    first = state.players[state.current]
    assert not state.bets_of(first)  # a human's first bet: any horse, chip 1 or 2
    assert len(menu["options"]) == 7 * 2
    option = menu["options"][0]
    assert re.fullmatch(r"Horse 1 \(red\) — chip 1", option["label"])
    assert re.fullmatch(r"Head \d+ · Cap \d+ · Saddle \d+ · Shoe \d+", option["description"])
    assert PRIVATE in offered(up)

    moves = await play_to_the_end(fake, humans, board, CHOICES)

    final = await state_of(bot, board)
    assert final.phase is Phase.OVER and len(final.results) == 3
    assert moves > 30
    assert select_picks(fake, humans) == 2 * 3 * 3  # every human bet was a select pick

    # One board per race, closed by its itemised payout, then the final standings.
    boards = boards_in(fake, board.channel_id)
    assert len(boards) == 4
    for race, closed in enumerate(boards[:3], start=1):
        text = narration(closed)
        assert not closed.components and "▶" not in text
        assert picture(closed).width == 800  # the payout summary, not the track
        for label in ("**Win**", "**Place**", "**Show**", "**Last**"):
            assert label in text
        money = final.results[race - 1].money
        ranked = sorted(zip(final.players, money, strict=True), key=lambda pm: -pm[1])
        standings = " · ".join(f"{names[p]} {m}" for p, m in ranked)
        assert f"💰 Money after race {race}: {standings}" in text
    # Race 3's payout, chip by chip, doubled.
    text = narration(boards[2])
    lines = race_payout(final)
    assert lines and all(payout_text(line, names) in text for line in lines)
    assert "doubled" in text
    assert picture(boards[3]).size == (960, 820)
    # The game is over: no live button (not even My chips), only a rematch to start.
    assert [b["label"] for b in boards[3].buttons] == ["Rematch"]

    result = fake.latest_message(board.channel_id, is_result)
    assert result is not None
    richest = max(final.money)
    winners = [p for p, m in zip(final.players, final.money, strict=True) if m == richest]
    for p in winners:
        assert (f"<@{p}>" if p > 0 else "Bot 1") in result.content
    assert f"with {richest}" in result.content
    assert prompt(boards[3]) in result.content

    rec = await fake.slash(ana, "scoreboard", options={"game": "winners_circle"})
    scoreboard = (await rec.response()).message
    assert scoreboard is not None
    rows = scoreboard.embeds[0]["description"].splitlines()
    assert len(rows) == 3 and "Winners backed" in rows[0] and "Lasts backed" in rows[0]
    top = [p for p in final.players if p in winners and p > 0]
    if top:
        assert f"<@{top[0]}>" in "".join(row for row in rows if "1 W" in row)


async def test_hidden_bets_never_show_a_chip_before_the_race_ends(
    fake: FakeDiscord, start_parlour: ParlourFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Everything the guild's members receive: every public message as posted and edited.
    seen: list[str] = []
    dispatch = fake._dispatch

    def spy(event: str, data: JSON, intent: int | None = None) -> None:
        if event in ("MESSAGE_CREATE", "MESSAGE_UPDATE"):
            public = {k: data.get(k) for k in ("content", "embeds", "components")}
            seen.append(json.dumps(public, ensure_ascii=False))
        dispatch(event, data, intent)

    monkeypatch.setattr(fake, "_dispatch", spy)
    bot = await start_parlour()
    ana, leo = fake.make_user("Ana"), fake.make_user("Leo")
    humans = [ana, leo]
    board = await start_game(fake, ana, GAME, joiners=[leo], bots=1, options={"hidden_bets": True})

    # Bets are made in the private panel only: the board offers no bet.
    up = await human_turn(fake, humans, board, CHOICES, PRIVATE)
    assert up is not None and "open **My chips**" in prompt(up)
    assert first_bet(up) is None

    # The first human bet: the panel shows its owner their chip, and nobody else.
    betting: FakeMessage = up
    state = await state_of(bot, betting)
    actor = next(u for u in humans if int(u["id"]) == state.players[state.current])
    other = next(u for u in humans if u is not actor)
    panel = await open_panel(fake, actor, up, PRIVATE)
    assert "Chips left: 0 · 1 · 1 · 2" in panel.content
    assert len(offered(panel)) == 7 * 3  # every horse × chips 0, 1, 2
    (label,) = [lbl for lbl in offered(panel) if lbl.startswith("Horse 4 (green) — chip 2")]
    step = move_number(betting)
    await (await choose(fake, actor, panel, label)).response()
    await fake.wait_for(lambda: move_number(betting) > step or None)
    assert "You put chip 2 on 🟢 horse 4" in panel.content  # the panel, refreshed
    assert "Your bets: 🟢 horse 4 — chip 2" in panel.content
    assert "puts a hidden chip on 🟢 horse 4" in narration(newest_board(fake, up))
    assert not any("horse 4 — chip" in m.content for m in fake.ephemeral_for(other))

    # Play race 1 to its end; every private panel shows its owner's own bets.
    bets: tuple[Bet, ...] = ()
    while True:
        up = await human_turn(fake, humans, board, CHOICES, PRIVATE)
        assert up is not None
        state = await state_of(bot, up)
        if state.results:
            break
        if state.phase is not Phase.BETTING:
            bets = state.bets  # race 1's, all placed (a bot may open race 2 at once)
        await play_one_move(fake, humans, up, CHOICES, PRIVATE)
    assert len(bets) == 3 * 4
    for user in humans:
        own = [b for b in bets if b.player == int(user["id"])]
        shown = [m.content for m in fake.ephemeral_for(user) if "Your bets" in m.content][-1]
        assert len(own) == 4 and all(f"horse {b.horse} — chip {b.chip}" in shown for b in own)

    revealed = next(i for i, text in enumerate(seen) if "Chips revealed" in text)
    assert revealed > 100  # a whole race went by
    leaks = [text for text in seen[:revealed] if CHIP_VALUE.search(text)]
    assert not leaks, leaks[0]
    hidden = [text for text in seen[:revealed] if "puts a hidden chip on" in text]
    assert len(hidden) >= 3 * 4  # every bet was announced, without its value
    # Once the race is over the values are public, the bot's as well.
    closing = seen[revealed]
    assert all(f"{b.chip} on {HORSE_EMOJI[b.horse]}{b.horse}" in closing for b in bets)
    assert "Bot 1" in closing


def first_bet(board: FakeMessage) -> str | None:
    return next((lbl for lbl in offered(board) if BET.search(lbl)), None)


async def test_a_restart_in_the_middle_of_a_race_loses_nothing(
    fake: FakeDiscord, start_parlour: ParlourFactory
) -> None:
    bot = await start_parlour()
    ana, leo = fake.make_user("Ana"), fake.make_user("Leo")
    players = [ana, leo]
    board = await start_game(fake, ana, GAME, joiners=[leo])
    while (await state_of(bot, board)).phase is not Phase.MOVE or move_number(board) < 12:
        board = await play_one_move(fake, players, board, CHOICES)
    before = await state_of(bot, board)
    moves = [lbl for lbl in offered(board) if MOVE.search(lbl)]
    horse = int(moves[0].split()[1])
    assert before.running() and len(moves) >= 2
    await bot.close()

    bot = await start_parlour()
    assert await state_of(bot, board) == before
    # The pre-restart board's move button still works, and moves that horse where it said.
    landing = destination(before, horse)
    board = await play_one_move(fake, players, board, (moves[0],))
    after = await state_of(bot, board)
    assert after.progress[horse - 1] == landing.end and not after.is_face_up(horse)
    for _ in range(6):
        board = await play_one_move(fake, players, board, CHOICES)
    gid = game_id(board)
    assert await bot.service.replay(gid) == (await bot.service.table(gid)).state


async def test_a_wrong_player_or_an_outsider_is_refused_and_nothing_changes(
    fake: FakeDiscord, start_parlour: ParlourFactory
) -> None:
    bot = await start_parlour()
    ana, leo, eve = (fake.make_user(n) for n in ("Ana", "Leo", "Eve"))
    board = await start_game(fake, ana, GAME, joiners=[leo])
    before = await state_of(bot, board)
    step = move_number(board)
    actor = ana if before.players[before.current] == int(ana["id"]) else leo
    waiting = leo if actor is ana else ana
    label = first_bet(board)
    assert label is not None
    for user in (waiting, eve):
        await (await choose(fake, user, board, label)).response()
    await (await fake.click(eve, board, label=PRIVATE)).response()
    assert [m.content for m in fake.ephemeral_for(waiting)] == ["It is not your turn."]
    assert [m.content for m in fake.ephemeral_for(eve)] == ["You are not playing in this game."] * 2
    assert move_number(newest_board(fake, board)) == step
    assert await state_of(bot, board) == before

    rec = await fake.slash(eve, GAME, "rules")
    reply = (await rec.response()).message
    assert reply is not None and reply.ephemeral
    assert "Win, Place, Show" in reply.embeds[0]["description"]


# --- the presenter's wording, without Discord --------------------------------------------


def test_the_payout_is_itemised_chip_by_chip_doubled_in_race_3_and_short_when_broke() -> None:
    """The worked example of docs/rules/winners_circle.md, "A game: three races", as race 3
    (doubled), with C and D too poor to pay in full."""
    a, b, c, d = 1, 2, 3, 4
    bets = [Bet(a, 1, 2), Bet(b, 2, 2), Bet(a, 2, 1), Bet(c, 2, 1)]
    bets += [Bet(c, 3, 1), Bet(c, 7, 2), Bet(d, 7, 1)]
    lines, money = settle([a, b, c, d], [0, 0, 0, 50], bets, (1, 2, 3), 2, (7,), parse_rules({}), 3)
    events: list[Event] = [RaceEnded(3, (1, 2, 3), (7,), 2)]
    events += [PayoutMade(3, True, line) for line in lines]
    names = {a: "A", b: "B", c: "C", d: "D"}
    text = WinnersCirclePresenter().narrate(events, names)
    assert text[0].startswith("🥇 **Win** 🔴 horse 1 — 2 bets, 350 a bet, doubled: A +1400")
    assert "4 bets, 150 a bet, doubled: B +600 (chip 2), A +300 (chip 1), C +300" in text[1]
    assert "1 bet, 250 a bet, doubled: C +500 (chip 1)" in text[2]
    assert "**Pace bonus** 🔵 horse 2 — 100 a bet, doubled: B +400 (chip 2), A +200" in text[3]
    # C has 1000 when the bank is paid: 400 for the 2-chip; D pays the 50 she has of 200.
    assert "pays 100 a bet, doubled: C -400 (chip 2), D -50 (chip 1, short 150)" in text[4]
    assert money == (1900, 1000, 600, 0)
    assert {LineKind.PACE, LineKind.LAST} <= {line.kind for line in lines}


def test_move_buttons_say_where_the_horse_ends_up() -> None:
    from random import Random

    from rules.winners_circle import ENGINE
    from rules.winners_circle.cards import Symbol

    state = ENGINE.initial_state([1, 2], {}, Random(4))
    look = WinnersCirclePresenter().button
    player = state.players[state.current]
    # Horse 1 on 60 and horse 2 one space short of the line: a blocked move, a finisher.
    progress = (60, 72, *state.progress[2:])
    state = replace(state, phase=Phase.MOVE, rolled=Symbol.HEAD, progress=progress)
    finish = look(ENGINE.legal_actions(state, player)[1], state)
    assert finish.label == "Horse 2 finishes 1st"
    move = destination(state, 3)
    label = look(ENGINE.legal_actions(state, player)[2], state).label
    assert label.startswith(f"Horse 3 → {move.space}")
    assert ("(blocked)" in label) == (move.moved < move.wanted)
