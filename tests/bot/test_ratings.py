"""Ratings: the figures are OpenSkill's Plackett–Luce for the same places, written with the
results of a game's last action; a recompute from the stored results gives exactly the
same. Every test taking `storage` or `service` runs on SQLite and on PostgreSQL."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest
from openskill.models import PlackettLuce, PlackettLuceRating

from bot.ratings import AI_PLAYER, Placing, Rating, update
from bot.service import GameService
from bot.storage import NewGame, ResultRow, SeatRow, Storage, open_storage
from rules.core import Action
from rules.registry import ENGINES
from tests.bot.test_storage_service import play_to_the_end

GUILD = 1 << 22
ANA, LEO, EVE, MIA, TOM = 101, 102, 103, 104, 105
MODEL = PlackettLuce()


@pytest.fixture
async def storage(database_url: str):
    storage = await open_storage(database_url)
    yield storage
    await storage.close()


@pytest.fixture
def service(storage: Storage) -> GameService:
    return GameService(storage, ENGINES, clock=lambda: 1000.0, fixed_seed="seed-1")


def fresh() -> PlackettLuceRating:
    return MODEL.rating()


def figures(rating: Rating) -> tuple[float, float]:
    return rating.mu, rating.sigma


def theirs(rating: PlackettLuceRating) -> tuple[float, float]:
    return rating.mu, rating.sigma


async def finish(
    storage: Storage,
    places: Sequence[tuple[int, int]],
    *,
    game: str = "hold_your_horses",
    sides: Sequence[int] | None = None,
    now: float = 1000.0,
    guild: int = GUILD,
) -> int:
    """A game of `game` in `guild` whose last action writes `places` ((player, place) in seat
    order; negative players are bot seats), played by `sides` when given; returns its id."""
    seats = [
        SeatRow(n, player, f"P{player}", player < 0, sides[n] if sides else 0)
        for n, (player, _) in enumerate(places)
    ]
    game_id = await storage.create_game(
        NewGame(
            game=game, guild_id=guild, channel_id=2, host=seats[0], options={}, seed="s", now=now
        )
    )
    for seat in seats[1:]:
        await storage.add_seat(game_id, seat)
    await storage.start_game(game_id, {}, None, now)
    results = [
        ResultRow(
            player_id=player,
            is_bot=player < 0,
            place=place,
            score=0,
            won=place == 1,
            stats={},
            team=sides[n] if sides else n,
        )
        for n, (player, place) in enumerate(places)
    ]
    await storage.record_action(
        game_id,
        step=0,
        revision=0,
        player_id=places[0][0],
        action=Action("end"),
        by_ai=False,
        state={},
        deadline=None,
        results=results,
        now=now,
    )
    return game_id


async def rated(storage: Storage, game: str = "hold_your_horses") -> dict[int, Rating]:
    return {r.player_id: r.rating for r in await storage.ratings(GUILD, game)}


# --- the pure update ---------------------------------------------------------------------------


def test_a_game_of_one_team_rates_nobody() -> None:
    assert update([Placing(ANA, 0, 1, True), Placing(LEO, 0, 1, True)], {}) == {}


def test_the_ai_in_several_seats_gets_the_mean_of_its_seats() -> None:
    after = update(
        [Placing(ANA, 0, 2, False), *(Placing(AI_PLAYER, t, t, t == 1) for t in (1, 3))], {}
    )
    first, _, third = MODEL.rate([[fresh()], [fresh()], [fresh()]], ranks=[1, 2, 3])
    assert after[AI_PLAYER].mu == pytest.approx((first[0].mu + third[0].mu) / 2)
    assert after[AI_PLAYER].sigma == pytest.approx((first[0].sigma + third[0].sigma) / 2)
    assert (after[AI_PLAYER].played, after[AI_PLAYER].wins) == (1, 1)


# --- written with the results, on both backends ------------------------------------------------


async def test_two_players_get_openskills_figures_game_after_game(storage: Storage) -> None:
    await finish(storage, [(ANA, 1), (LEO, 2)], game="cock_and_bull")
    [ana], [leo] = MODEL.rate([[fresh()], [fresh()]], ranks=[1, 2])
    ratings = await rated(storage, "cock_and_bull")
    assert figures(ratings[ANA]) == theirs(ana) and figures(ratings[LEO]) == theirs(leo)
    assert (ratings[ANA].played, ratings[ANA].wins, ratings[LEO].wins) == (1, 1, 0)

    await finish(storage, [(ANA, 2), (LEO, 1)], game="cock_and_bull")
    [ana], [leo] = MODEL.rate([[ana], [leo]], ranks=[2, 1])
    ratings = await rated(storage, "cock_and_bull")
    assert figures(ratings[ANA]) == theirs(ana) and figures(ratings[LEO]) == theirs(leo)
    assert ratings[ANA].played == ratings[LEO].played == 2
    # The leaderboard's order: the higher conservative rating first.
    assert [r.player_id for r in await storage.ratings(GUILD, "cock_and_bull")] == sorted(
        (ANA, LEO), key=lambda p: -ratings[p].ordinal
    )


async def test_five_players_by_place_and_a_shared_place(storage: Storage) -> None:
    order = [(EVE, 1), (ANA, 2), (TOM, 3), (LEO, 4), (MIA, 5)]
    game_id = await finish(storage, order)
    expected = MODEL.rate([[fresh()] for _ in order], ranks=[place for _, place in order])
    ratings = await rated(storage)
    assert [figures(ratings[p]) for p, _ in order] == [theirs(t[0]) for t in expected]
    changes = await storage.rating_changes(game_id)
    assert [c.player_id for c in changes] == [p for p, _ in order]  # seat order
    assert all(c.before == 0.0 for c in changes)  # newcomers: μ − 3σ = 0
    assert [c.after for c in changes] == [t[0].ordinal() for t in expected]

    # A tie: Ana and Leo share first place, so they get the same new rating from the same one.
    await finish(storage, [(ANA, 1), (LEO, 1), (MIA, 3)], game="winners_circle")
    tied = MODEL.rate([[fresh()], [fresh()], [fresh()]], ranks=[1, 1, 3])
    ratings = await rated(storage, "winners_circle")
    assert figures(ratings[ANA]) == figures(ratings[LEO]) == theirs(tied[0][0])
    assert figures(ratings[MIA]) == theirs(tied[2][0])


async def test_sides_are_rated_as_teams(storage: Storage) -> None:
    """Horse Collar 2v2: Ana and Eve (side 1) beat Leo and Mia (side 0)."""
    await finish(
        storage,
        [(LEO, 2), (MIA, 2), (ANA, 1), (EVE, 1)],
        game="horse_collar",
        sides=[0, 0, 1, 1],
    )
    losers, winners = MODEL.rate([[fresh(), fresh()], [fresh(), fresh()]], ranks=[2, 1])
    ratings = await rated(storage, "horse_collar")
    assert [figures(ratings[p]) for p in (LEO, MIA, ANA, EVE)] == [
        theirs(r) for r in (*losers, *winners)
    ]


async def test_bot_seats_are_rated_as_the_ai_and_can_be_left_out(storage: Storage) -> None:
    game_id = await finish(storage, [(ANA, 2), (-1, 1)], game="cock_and_bull")
    [ana], [ai] = MODEL.rate([[fresh()], [fresh()]], ranks=[2, 1])
    ratings = await rated(storage, "cock_and_bull")
    assert figures(ratings[AI_PLAYER]) == theirs(ai) and figures(ratings[ANA]) == theirs(ana)
    assert (ratings[AI_PLAYER].played, ratings[AI_PLAYER].wins) == (1, 1)
    (_, bot) = await storage.rating_changes(game_id)
    assert bot.player_id == -1 and bot.is_bot and bot.after == ai.ordinal()
    # Another game's Bot 2 is the same AI.
    await finish(storage, [(LEO, 1), (-2, 2)], game="cock_and_bull")
    ratings = await rated(storage, "cock_and_bull")
    assert ratings[AI_PLAYER].played == 2 and set(ratings) == {ANA, LEO, AI_PLAYER}
    humans = await storage.ratings(GUILD, "cock_and_bull", with_ai=False)
    assert {r.player_id for r in humans} == {ANA, LEO}


async def test_the_ratings_of_one_server_and_game_only(storage: Storage) -> None:
    await finish(storage, [(ANA, 1), (LEO, 2)], game="cock_and_bull")
    assert await storage.ratings(GUILD, "risk") == []
    assert await storage.ratings(GUILD + 1, "cock_and_bull") == []


# --- recompute -----------------------------------------------------------------------------------


async def snapshot(storage: Storage) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Every rating and every result's rating columns, in a stable order."""

    def key(row: dict[str, Any]) -> tuple[Any, ...]:
        return row["game"], row.get("game_id", 0), row["player_id"]

    results = [
        {k: r[k] for k in ("game", "game_id", "player_id", "team", "rating_before", "rating_after")}
        for r in await storage.table_rows("results")
    ]
    return sorted(await storage.table_rows("ratings"), key=key), sorted(results, key=key)


async def test_a_recompute_gives_exactly_the_incremental_figures(service: GameService) -> None:
    """Real games to their end, bots, sides and all: a recompute rewrites every figure the
    same, and rates a server's results from scratch as if they had been rated as they ended."""
    storage = service.storage
    games = [
        ("cock_and_bull", [(ANA, 0), (LEO, 0)], 0, {}),
        ("cock_and_bull", [(ANA, 0)], 1, {}),
        ("hold_your_horses", [(ANA, 0), (LEO, 0), (EVE, 0), (MIA, 0)], 1, {"races": 1}),
        ("horse_collar", [(ANA, 0), (LEO, 1)], 2, {"sides": 2, "frames": 1, "target": 11}),
        ("cock_and_bull", [(LEO, 0), (ANA, 0)], 0, {}),
    ]
    for game, players, bots, options in games:
        table = await service.create_lobby(
            game,
            guild_id=GUILD,
            channel_id=2,
            host_id=players[0][0],
            host_name="Host",
            options=options,
        )
        for player, side in players[1:]:
            await service.join(table.row.id, player, f"P{player}", side)
        for _ in range(bots):
            await service.add_bot(table.row.id, players[0][0])
        await service.start(table.row.id, players[0][0])
        await play_to_the_end(service, table.row.id, ENGINES[game])
    incremental = await snapshot(storage)
    ratings, results = incremental
    assert {r["game"] for r in ratings} == {"cock_and_bull", "hold_your_horses", "horse_collar"}
    assert any(r["player_id"] == AI_PLAYER for r in ratings)
    assert all(r["rating_after"] is not None for r in results)
    sides = sorted(r["team"] for r in results if r["game"] == "horse_collar")
    assert sides == [0, 0, 1, 1]  # Ana and a bot against Leo and a bot

    assert await storage.recompute_ratings(GUILD) == len(games)
    assert await snapshot(storage) == incremental

    # As a database of the previous version would be after its upgrade: results, no ratings.
    async with storage._transaction() as db:
        await db.execute("DELETE FROM ratings")
        await db.execute("UPDATE results SET rating_before = NULL, rating_after = NULL")
    assert await storage.ratings(GUILD, "cock_and_bull") == []
    assert await storage.recompute_ratings(GUILD) == len(games)
    assert await snapshot(storage) == incremental
    assert await storage.recompute_ratings(GUILD + 1) == 0  # another server's: nothing
