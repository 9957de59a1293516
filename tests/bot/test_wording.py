"""What players read: lists as a sentence, counts that agree with their nouns, verbs that
agree with their subjects, each player mentioned once."""

from __future__ import annotations

from bot.language.i18n import speaking
from bot.language.wording import (
    agree,
    bold_name,
    count,
    format_duration,
    listing,
    who,
    winners_phrase,
    without_mentions,
)

NAMES = {1: "Ana", 2: "Leo", 3: "Mia", -1: "Bot 1"}


def test_lists_read_as_a_sentence() -> None:
    assert listing([]) == ""
    assert listing(["Ana"]) == "Ana"
    assert listing(["Ana", "Leo"]) == "Ana and Leo"
    assert listing(["Ana", "Leo", "Mia"]) == "Ana, Leo and Mia"
    assert who([1, 2, -1], NAMES) == "<@1>, <@2> and 🤖 Bot 1"


def test_counts_and_verbs_agree() -> None:
    assert count(1, "reinforcement", "reinforcements") == "1 reinforcement"
    assert count(0, "reinforcement", "reinforcements") == "0 reinforcements"
    assert count(4, "army", "armies") == "4 armies"
    assert agree(3, "holds", "hold") == "hold" and agree(1, "holds", "hold") == "holds"
    assert winners_phrase([1], NAMES) == "<@1> wins"
    assert winners_phrase([1, 2, 3], NAMES) == "<@1>, <@2> and <@3> share the win"
    assert format_duration(86400) == "1 day" and format_duration(7200) == "2 hours"
    assert format_duration(90) == "90 seconds" and format_duration(0) == "off"


def test_a_ping_mentions_each_player_once() -> None:
    assert without_mentions("<@1>: place 4 armies", NAMES) == "**Ana**: place 4 armies"


def test_a_bold_name_pings_no_one_and_names_someone_unknown() -> None:
    assert bold_name(1, NAMES) == "**Ana**"
    assert bold_name(-1, NAMES) == "**Bot 1**"
    assert bold_name(9, NAMES) == "**Someone**"
    with speaking("es"):
        assert bold_name(9, NAMES) == "**Alguien**"
