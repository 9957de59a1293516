"""Seasons in storage, on SQLite and on PostgreSQL: the soft reset from the all-time rating,
season points (places among humans, ties, the anti-farming rule), the final tables frozen
once and never recomputed, forgetting, and the end that happens exactly once."""

from __future__ import annotations

import asyncio
import itertools

import pytest

from bot.ratings import AI_PLAYER, Placing, Rating, update
from bot.seasons import (
    DAY,
    MONTHLY,
    NONE,
    SEASON_MODEL,
    SEASON_SIGMA,
    WEEKLY,
    BadSeason,
    next_end,
    parse_end,
    season_points,
    soft_reset,
)
from bot.storage import SeasonRunning, Storage, open_storage
from tests.bot.test_ratings import ANA, EVE, GUILD, LEO, MIA, finish, rated

START = 10 * DAY
HOUR = 3600.0


@pytest.fixture
async def storage(database_url: str):
    storage = await open_storage(database_url)
    yield storage
    await storage.close()


async def begin(
    storage: Storage, *, recur: str = NONE, games: str | None = None, length: float = 7 * DAY
) -> int:
    season = await storage.start_season(
        GUILD,
        name="Autumn",
        ends_at=START + length,
        games=games,
        recur=recur,
        channel_id=5,
        now=START,
    )
    return season.number


async def board(storage: Storage, number: int, game: str = "hold_your_horses") -> list[tuple]:
    season = await storage.season(GUILD, number)
    assert season is not None
    rows = await storage.season_board(season, game, 3)
    return [(r.player_id, r.rating, r.points, r.played, r.ranked) for r in rows]


# --- the pure rules --------------------------------------------------------------------------


def test_points_scale_with_the_table_and_ties_share_the_average() -> None:
    assert season_points({ANA: 1, LEO: 2}) == {ANA: 10, LEO: 0}
    assert season_points({ANA: 1, LEO: 2, EVE: 3}) == {ANA: 10, LEO: 5, EVE: 0}
    # Leo and Eve share places 2 and 3 of four: (6.67 + 3.33) / 2 each.
    tied = season_points({ANA: 1, LEO: 2, EVE: 2, MIA: 4})
    assert tied[ANA] == 10 and tied[MIA] == 0
    assert tied[LEO] == tied[EVE] == pytest.approx(5)


def test_fewer_than_two_humans_earn_nobody_points() -> None:
    assert season_points({ANA: 1}) == {}
    assert season_points({}) == {}


def test_places_are_counted_among_the_humans_only() -> None:
    # Ana second behind a bot, Leo third: among the humans, Ana won.
    assert season_points({ANA: 2, LEO: 3}) == {ANA: 10, LEO: 0}


def test_the_soft_reset_keeps_skill_and_raises_sigma() -> None:
    veteran = Rating(mu=31.0, sigma=2.1, played=150, wins=90)
    season = soft_reset(veteran)
    assert (season.mu, season.sigma, season.played) == (31.0, SEASON_SIGMA, 0)
    unsure = Rating(mu=20.0, sigma=7.0)
    assert soft_reset(unsure).sigma == 7.0


def test_a_veteran_losing_to_a_newcomer_loses_visibly() -> None:
    veteran = Rating()
    for n in range(200):  # 200 rated games against newcomers, winning three in five
        place = 1 if n % 5 < 3 else 2
        after = update(
            [Placing(ANA, 0, place, place == 1), Placing(LEO, 1, 3 - place, False)],
            {ANA: veteran},
            SEASON_MODEL,
        )
        veteran = after[ANA]
    assert veteran.played == 200
    lost = update(
        [Placing(ANA, 0, 2, False), Placing(EVE, 1, 1, True)], {ANA: veteran}, SEASON_MODEL
    )[ANA]
    assert lost.points - veteran.points <= -5  # shown points, × 10


def test_an_end_is_a_future_utc_time_within_a_year() -> None:
    now = START + 5 * HOUR
    assert parse_end("7d", now) == now + 7 * DAY
    assert parse_end(" 30D ", now) == now + 30 * DAY
    assert parse_end("1970-01-20", now) == 20 * DAY  # the day's end, midnight UTC after it
    for bad in ("1970-01-10", "1970-01-05", "tomorrow", "0d", "2026-02-30", "400d", "1971-03-01"):
        with pytest.raises(BadSeason):
            parse_end(bad, now)


def test_recurring_seasons_last_a_week_or_calendar_months() -> None:
    assert next_end(START, WEEKLY) == START + 7 * DAY
    jan31 = 30 * DAY  # 1970-01-31
    assert next_end(jan31, MONTHLY) == (31 + 27) * DAY  # 1970-02-28


# --- storage, both backends ------------------------------------------------------------------


async def test_a_season_rating_starts_from_the_all_time_one_softly_reset(storage: Storage) -> None:
    for _ in range(6):
        await finish(storage, [(ANA, 1), (LEO, 2)], now=START - DAY)
    before = await rated(storage)
    number = await begin(storage)
    assert await board(storage, number) == []  # a new season's board is empty
    assert await rated(storage) == before  # and the all-time ratings are as they were
    await finish(storage, [(ANA, 1), (LEO, 2)], now=START + HOUR)
    after = await rated(storage)
    season = await storage.season(GUILD, number)
    assert season is not None
    rows = {r.player_id: r for r in await storage.season_board(season, "hold_your_horses", 3)}
    # The season's figures are the season model's from the softly reset all-time ratings.
    expected = update(
        [Placing(ANA, 0, 1, True), Placing(LEO, 1, 2, False)],
        {p: soft_reset(before[p]) for p in (ANA, LEO)},
        SEASON_MODEL,
    )
    assert rows[ANA].rating == expected[ANA].points
    assert rows[LEO].rating == expected[LEO].points
    assert rows[ANA].played == 1 and rows[ANA].points == 10 and rows[LEO].points == 0
    # The all-time rating moved as ever (never reset): one more game on the same μ.
    assert after[ANA].played == 7 and after[ANA].mu > before[ANA].mu


async def test_a_season_of_one_game_ignores_the_others(storage: Storage) -> None:
    number = await begin(storage, games="risk")
    await finish(storage, [(ANA, 1), (LEO, 2)], now=START + HOUR)
    assert await board(storage, number) == []
    await finish(storage, [(ANA, 1), (LEO, 2)], game="risk", now=START + HOUR)
    assert [r[0] for r in await board(storage, number, "risk")] == [ANA, LEO]


async def test_the_ai_takes_no_place_and_one_human_earns_nothing(storage: Storage) -> None:
    number = await begin(storage)
    await finish(storage, [(-1, 1), (ANA, 2), (LEO, 3)], now=START + HOUR)
    assert {r[0]: r[2] for r in await board(storage, number)} == {ANA: 10, LEO: 0}
    await finish(storage, [(EVE, 1), (-1, 2)], now=START + HOUR)
    eve = {r[0]: r for r in await board(storage, number)}[EVE]
    assert (eve[2], eve[3]) == (0, 1)  # rated, no points
    assert AI_PLAYER not in {r[0] for r in await board(storage, number)}


async def test_at_most_three_results_a_day_against_the_same_opponents_count(
    storage: Storage,
) -> None:
    number = await begin(storage)
    for n in range(5):
        await finish(storage, [(ANA, 1), (LEO, 2)], now=START + n * HOUR)
    await finish(storage, [(ANA, 1), (LEO, 2), (EVE, 3)], now=START + 6 * HOUR)  # others
    await finish(storage, [(ANA, 1), (LEO, 2)], now=START + DAY + HOUR)  # the next UTC day
    rows = {r[0]: r for r in await board(storage, number)}
    assert rows[ANA][2] == 3 * 10 + 10 + 10
    assert rows[ANA][3] == 7  # every game still rated


async def test_an_end_freezes_the_tables_for_good(storage: Storage) -> None:
    number = await begin(storage)
    for n in range(3):
        await finish(storage, [(ANA, 1), (LEO, 2), (EVE, 3)], now=START + n * HOUR)
    await finish(storage, [(LEO, 1), (MIA, 2)], now=START + 4 * HOUR)
    live = await board(storage, number)
    ended = await storage.end_season(GUILD, number, START + DAY, due_only=False)
    assert ended is not None and ended.number == number
    frozen = await board(storage, number)
    assert frozen == live
    assert [r[4] for r in frozen] == [True, True, True, False]  # Mia: one game
    season = await storage.season(GUILD, number)
    assert season is not None and not season.running
    names = [r.name for r in await storage.season_board(season, "hold_your_horses", 3)]
    assert names == [f"P{p}" for p in (ANA, LEO, EVE, MIA)]
    # More games, a recompute and a member forgotten: the order and points stand.
    await finish(storage, [(EVE, 1), (ANA, 2)], now=START + 2 * DAY)
    await storage.recompute_ratings(GUILD)
    stand_ins = itertools.count(99).__next__  # these games have results, not states
    await storage.forget_player(LEO, "Former player", lambda _g, state, _o, _n: state, stand_ins)
    after = await board(storage, number)
    assert [r[1:] for r in after] == [r[1:] for r in frozen]
    assert [r[0] for r in after] == [ANA, None, EVE, MIA]
    assert await storage.running_season(GUILD) is None
    # Forgetting reached the live tables too.
    assert await storage.table_rows("season_results")
    assert LEO not in {r["player_id"] for r in await storage.table_rows("season_results")}


async def test_one_season_at_a_time(storage: Storage) -> None:
    await begin(storage)
    with pytest.raises(SeasonRunning):
        await begin(storage)
    assert len(await storage.table_rows("seasons")) == 1


async def test_a_recurring_season_opens_the_next_with_an_empty_board(storage: Storage) -> None:
    number = await begin(storage, recur=WEEKLY)
    await finish(storage, [(ANA, 1), (LEO, 2)], now=START + HOUR)
    assert await storage.end_season(GUILD, number, START + HOUR, due_only=True) is None
    ended = await storage.end_season(GUILD, number, START + 7 * DAY + 5, due_only=True)
    assert ended is not None
    following = await storage.running_season(GUILD)
    assert following is not None and following.number == number + 1
    assert (following.starts_at, following.ends_at) == (START + 7 * DAY, START + 14 * DAY)
    assert await board(storage, following.number) == []
    await finish(storage, [(LEO, 1), (ANA, 2)], now=START + 8 * DAY)
    assert [r[0] for r in await board(storage, following.number)] == [LEO, ANA]
    assert [r[0] for r in await board(storage, number)] == [ANA, LEO]


async def test_the_end_happens_once_whoever_races_for_it(database_url: str) -> None:
    # Two storages on the same PostgreSQL schema (two processes' worth; SQLite admits one
    # process per file) and the clock racing a `/season end`, each several times at once:
    # one end, one archive, one next season.
    one = await open_storage(database_url)
    two = await open_storage(database_url) if database_url.startswith("postgres") else one
    try:
        number = await begin(one, recur=WEEKLY)
        await finish(one, [(ANA, 1), (LEO, 2)], now=START + HOUR)
        due = START + 7 * DAY + 1
        ends = await asyncio.gather(
            *(
                s.end_season(GUILD, number, due, due_only=due_only)
                for s in (one, two, one, two)
                for due_only in (True, False)
            )
        )
        assert len([e for e in ends if e is not None]) == 1
        seasons = await one.table_rows("seasons")
        assert sorted((s["number"], s["status"]) for s in seasons) == [
            (number, "ended"),
            (number + 1, "running"),
        ]
        assert len(await two.table_rows("season_finals")) == 2
        # The card: claimed by one process, never by the other while the claim holds.
        claims = await asyncio.gather(
            one.claim_card(GUILD, number, due, due - HOUR),
            two.claim_card(GUILD, number, due, due - HOUR),
        )
        assert sorted(claims) == [False, True]
        await two.card_posted(GUILD, number, 777)
        assert await one.cards_to_post() == []
    finally:
        await one.close()
        if two is not one:
            await two.close()


async def test_forgetting_a_server_deletes_its_seasons(storage: Storage) -> None:
    number = await begin(storage)
    await finish(storage, [(ANA, 1), (LEO, 2)], now=START + HOUR)
    await storage.end_season(GUILD, number, START + DAY, due_only=False)
    await storage.forget_guild(GUILD)
    for table in ("seasons", "season_ratings", "season_results", "season_finals"):
        assert await storage.table_rows(table) == [], table


async def test_the_minimum_of_season_games_is_a_server_setting(storage: Storage) -> None:
    assert await storage.season_min_games(GUILD) == 3
    await storage.set_season_min_games(GUILD, 1)
    assert await storage.season_min_games(GUILD) == 1
    number = await begin(storage)
    await finish(storage, [(ANA, 1), (LEO, 2)], now=START + HOUR)
    await storage.end_season(GUILD, number, START + DAY, due_only=False)
    season = await storage.season(GUILD, number)
    assert season is not None
    rows = await storage.season_board(season, "hold_your_horses", 3)
    assert [r.ranked for r in rows] == [True, True]  # frozen with the server's minimum


async def test_an_end_cut_short_changes_nothing(
    storage: Storage, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Killed between marking the season ended and freezing its tables: the transaction
    # rolls back, and the next try ends it whole.
    number = await begin(storage, recur=WEEKLY)
    await finish(storage, [(ANA, 1), (LEO, 2)], now=START + HOUR)

    async def cut(*_: object) -> None:
        raise ConnectionResetError

    with monkeypatch.context() as patch:
        patch.setattr(storage, "_freeze", cut)
        with pytest.raises(ConnectionResetError):
            await storage.end_season(GUILD, number, START + DAY, due_only=False)
    (season,) = await storage.table_rows("seasons")
    assert (season["status"], season["ended_at"]) == ("running", None)
    assert await storage.table_rows("season_finals") == []
    assert await storage.end_season(GUILD, number, START + DAY, due_only=False) is not None
    assert len(await storage.table_rows("seasons")) == 2
    assert len(await storage.table_rows("season_finals")) == 2


async def test_a_recompute_rates_the_running_season_again_and_never_an_archive(
    storage: Storage,
) -> None:
    # The same games in two servers; in the first, the stored ratings (all-time and season)
    # are then out of step with the results, and a recompute must bring the running
    # season's board back to what playing the games gave in the second.
    other = GUILD + 1
    for guild in (GUILD, other):
        for _ in range(3):
            await finish(storage, [(ANA, 1), (LEO, 2)], now=START - DAY, guild=guild)
        for number, (start, games) in enumerate(
            [
                (START, [[(ANA, 1), (LEO, 2), (EVE, 3)], [(EVE, 1), (ANA, 2)]]),
                (START + 2 * DAY, [[(LEO, 1), (ANA, 2)], [(ANA, 1), (-1, 2), (MIA, 3)]]),
            ],
            start=1,
        ):
            await storage.start_season(
                guild,
                name="Autumn",
                ends_at=start + DAY,
                games=None,
                recur=NONE,
                channel_id=5,
                now=start,
            )
            for n, places in enumerate(games):
                await finish(storage, places, now=start + n * HOUR, guild=guild)
            if number == 1:
                await storage.end_season(guild, number, start + DAY, due_only=False)
    await finish(storage, [(EVE, 1), (MIA, 2)], now=START + 3 * DAY, guild=GUILD)  # later
    await finish(storage, [(EVE, 1), (MIA, 2)], now=START + 3 * DAY, guild=other)
    archive = [r for r in await storage.table_rows("season_finals") if r["guild_id"] == GUILD]
    frozen = await board(storage, 1)
    async with storage._transaction() as db:
        await db.execute("UPDATE ratings SET mu = mu + 5 WHERE guild_id = ?", GUILD)
        await db.execute("UPDATE season_ratings SET mu = 0, sigma = 1 WHERE guild_id = ?", GUILD)

    assert await storage.recompute_ratings(GUILD) == 8

    def season_two(rows: list[dict]) -> list[tuple]:
        return sorted(
            (r["game"], r["player_id"], r["mu"], r["sigma"], r["played"], r["wins"], r["points"])
            for r in rows
            if r["season"] == 2
        )

    rated = await storage.table_rows("season_ratings")
    played = season_two([r for r in rated if r["guild_id"] == other])
    assert len(played) == 4  # Leo, Ana, Mia and the AI
    assert season_two([r for r in rated if r["guild_id"] == GUILD]) == played
    boards = []
    for guild in (GUILD, other):
        season = await storage.season(guild, 2)
        assert season is not None and season.running
        boards.append(await storage.season_board(season, "hold_your_horses", 1))
    assert boards[0] == boards[1] and [r.player_id for r in boards[0]] == [ANA, LEO, MIA]
    # The ended season's archive, as it was frozen, row for row.
    assert [r for r in await storage.table_rows("season_finals") if r["guild_id"] == GUILD] == (
        archive
    )
    assert await board(storage, 1) == frozen
