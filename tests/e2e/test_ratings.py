"""Ratings end to end: finished games move ratings, the result message shows each change,
`/leaderboard` ranks the players with enough games (the AI among them unless hidden),
`/stats` shows rating and rank, and a manager's recompute changes nothing."""

from __future__ import annotations

import re

import discord
from openskill.models import PlackettLuce

from bot.language.wording import rating
from bot.ratings import AI_PLAYER, MIN_GAMES, SCALE
from tests.e2e.conftest import ParlourFactory
from tests.e2e.driver import is_result, play_to_the_end, start_game
from tests.e2e.fake_discord import JSON, FakeDiscord, FakeMessage

GAME = "cock-and-bull"
OPTIONS = {"point_limit": 3}
CHANGE = re.compile(r"(<@\d+>|🤖 AI) ([+−±]\d+)")


async def play(fake: FakeDiscord, host: JSON, guest: JSON | None) -> FakeMessage:
    """A quick game of `host` against `guest` (or a bot); returns its result message."""
    board = await start_game(
        fake, host, GAME, joiners=[guest] if guest else [], bots=0 if guest else 1, options=OPTIONS
    )
    await play_to_the_end(fake, [host, guest] if guest else [host], board)
    result = fake.latest_message(board.channel_id, is_result)
    assert result is not None
    return result


def changes(result: FakeMessage) -> dict[str, int]:
    """Who moved by how much, from the result message's rating line."""
    (line,) = [line for line in result.content.splitlines() if line.startswith("📈 Rating: ")]
    found = CHANGE.findall(line)
    assert " · ".join(f"{who} {delta}" for who, delta in found) == line.removeprefix("📈 Rating: ")
    return {who: int(delta.replace("−", "-").replace("±", "")) for who, delta in found}


async def command(fake: FakeDiscord, member: JSON, name: str, **options: object) -> FakeMessage:
    message = (await (await fake.slash(member, name, options=options)).response()).message
    assert message is not None
    return message


async def test_ratings_move_with_results_and_rank_the_server(
    fake: FakeDiscord, start_parlour: ParlourFactory
) -> None:
    parlour = await start_parlour()
    ana, leo, eve = fake.make_user("Ana"), fake.make_user("Leo"), fake.make_user("Eve")
    mention = {u["username"]: f"<@{u['id']}>" for u in (ana, leo, eve)}

    # The first game: two newcomers, OpenSkill's figures for a win and a loss, × 10.
    result = await play(fake, ana, leo)
    first = changes(result)
    model = PlackettLuce()
    [won], [lost] = model.rate([[model.rating()], [model.rating()]], ranks=[1, 2])
    assert list(first) == [mention["Ana"], mention["Leo"]]  # seat order
    assert sorted(first.values()) == [round(SCALE * lost.ordinal()), round(SCALE * won.ordinal())]
    assert "`/leaderboard`" in result.content

    # Two more between them, then Eve and Ana each play the AI once.
    for _ in range(MIN_GAMES - 1):
        await play(fake, ana, leo)
    against_ai = changes(await play(fake, eve, None))
    assert set(against_ai) == {mention["Eve"], "🤖 AI"}
    await play(fake, ana, None)

    ratings = await parlour.service.storage.ratings(fake.guild_id, "cock_and_bull")
    by_id = {r.player_id: r.rating for r in ratings}
    ranked = [r.player_id for r in ratings if r.rating.played >= MIN_GAMES]
    assert sorted(ranked) == sorted([int(ana["id"]), int(leo["id"])])

    board = await command(fake, eve, "leaderboard", game="cock_and_bull")
    assert not board.ephemeral  # public, as /scoreboard is
    embed = board.embeds[0]
    assert embed["title"] == "Cock & Bull — leaderboard"
    assert embed["description"].splitlines() == [
        f"**{n}.** <@{p}> — **{rating(r.points)}** · {r.played} played · {r.wins} W"
        for n, (p, r) in enumerate(((p, by_id[p]) for p in ranked), start=1)
    ]
    assert embed["footer"]["text"] == (
        f"A player needs {MIN_GAMES} rated games to be ranked: 2 players not ranked yet. "
        f"Rating: (μ − 3σ) × {SCALE}, OpenSkill's Plackett–Luce model."
    )
    hidden = (await command(fake, eve, "leaderboard", game="cock_and_bull", bots=False)).embeds[0]
    assert hidden["description"] == embed["description"]
    assert "1 player not ranked yet" in hidden["footer"]["text"]
    assert "The AI is hidden" in hidden["footer"]["text"]
    assert AI_PLAYER in by_id  # rated, only not ranked yet

    stats = await command(fake, leo, "stats", user=ana)
    (field,) = stats.embeds[0]["fields"]
    rank = ranked.index(int(ana["id"])) + 1
    ana_rating = rating(by_id[int(ana["id"])].points)
    assert field["value"].endswith(f"Rating {ana_rating} · rank {rank} of 2")
    eve_stats = (await command(fake, eve, "stats", user=eve)).embeds[0]["fields"][0]["value"]
    assert eve_stats.endswith(f"ranked after {MIN_GAMES} rated games (1 so far)")

    await check_recompute(fake, ana, embed)


async def check_recompute(fake: FakeDiscord, manager: JSON, before: dict[str, object]) -> None:
    """The command is for server managers, and rating the results again changes nothing."""
    everywhere = fake.commands() + fake.commands(fake.guild_id)
    (synced,) = [c for c in everywhere if c["name"] == "recompute-ratings"]
    manage_guild = discord.Permissions(manage_guild=True).value
    assert int(synced["default_member_permissions"]) == manage_guild
    # A server may hand the command to anyone: the bot checks again when it runs.
    refused = await command(fake, manager, "recompute-ratings")
    assert refused.ephemeral
    assert refused.content == "Only members who can manage the server can recompute its ratings."
    fake.grant(manager, discord.Permissions(manage_guild=True))
    answer = await command(fake, manager, "recompute-ratings")
    assert answer.ephemeral and answer.content == "Ratings recomputed from 5 finished games."
    after = await command(fake, manager, "leaderboard", game="cock_and_bull")
    assert after.embeds[0] == before
