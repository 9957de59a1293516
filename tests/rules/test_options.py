"""rules/options.py: one declaration per option gives its checks, defaults and table rule."""

from __future__ import annotations

import pytest

from rules.core import IllegalAction
from rules.options import Kind, OptionSet, choice, flag, number

SIDES = (1, 2, 4)
OPTIONS = OptionSet(
    (
        flag("quick", "Quick game", "End after one round"),
        number("target", "Target", "Points to win", default=51, low=1, high=500),
        number("limit", "Limit", "Rounds (0 = none)", default=0, low=0, high=9, zero="none"),
        choice(
            "dice", "Dice", "Which dice", default="uniform",
            choices=[("uniform", "even"), ("weighted", "loaded")],
        ),
        choice("best_of", "Match", "Games", default=1, choices=[(1, "one"), (3, "three")]),
        number(
            "sides", "Sides", "How many sides", default=2, low=2, high=4,
            tables=lambda sides: {int(sides) * k for k in SIDES},
            misfit="{players} players cannot make {value} equal sides.",
        ),
    )
)  # fmt: skip
ANY_TABLE = range(2, 17)


def test_missing_options_take_their_defaults_and_undeclared_keys_are_left_alone() -> None:
    chosen = OPTIONS.resolve({"target": 21, "turn_timer": 600}, ANY_TABLE)
    assert chosen.values == {
        "quick": False,
        "target": 21,
        "limit": 0,
        "dice": "uniform",
        "best_of": 1,
        "sides": 2,
    }
    assert chosen.number("target") == 21 and chosen.text("dice") == "uniform"
    assert not chosen.flag("quick")
    assert OPTIONS.defaults().values == OPTIONS.resolve({}, 4).values


@pytest.mark.parametrize(
    ("given", "message"),
    [
        ({"quick": 1}, "Quick game: on or off."),
        ({"target": 0}, "Target: a whole number from 1 to 500."),
        ({"target": 501}, "Target: a whole number from 1 to 500."),
        ({"target": "51"}, "Target: a whole number from 1 to 500."),
        ({"target": True}, "Target: a whole number from 1 to 500."),
        ({"target": 5.0}, "Target: a whole number from 1 to 500."),
        ({"dice": "loaded"}, "Dice: uniform or weighted."),
        ({"best_of": 2}, "Match: 1 or 3."),
        ({"best_of": "3"}, "Match: 1 or 3."),
        ({"best_of": True}, "Match: 1 or 3."),  # True == 1 in Python, but not a choice here
    ],
)
def test_a_value_an_option_does_not_take_is_refused_with_what_it_takes(
    given: dict[str, object], message: str
) -> None:
    with pytest.raises(IllegalAction) as refused:
        OPTIONS.resolve(given, ANY_TABLE)
    assert str(refused.value) == message


def test_a_table_rule_refuses_a_table_the_value_does_not_suit() -> None:
    assert OPTIONS.resolve({"sides": 3}, 6).number("sides") == 3
    assert OPTIONS.resolve({"sides": 3}, 12).number("sides") == 3
    with pytest.raises(IllegalAction, match=r"^5 players cannot make 3 equal sides\.$"):
        OPTIONS.resolve({"sides": 3}, 5)


def test_without_a_table_the_options_need_only_suit_one_size() -> None:
    assert OPTIONS.resolve({"sides": 4}, ANY_TABLE).number("sides") == 4  # 4, 8 or 16
    with pytest.raises(IllegalAction, match=r"^2 players cannot make 4 equal sides\.$"):
        OPTIONS.resolve({"sides": 4}, range(2, 4))  # the smallest table's refusal


def test_values_are_worded_for_the_lobby() -> None:
    assert [OPTIONS[name].word(value) for name, value in OPTIONS.defaults().values.items()] == [
        "off",
        "51",
        "none",
        "even",
        "one",
        "2",
    ]
    assert OPTIONS["limit"].word(3) == "3" and OPTIONS["quick"].word(True) == "on"
    assert OPTIONS["dice"].word("withdrawn") == "withdrawn"
    assert OPTIONS["sides"].kind is Kind.NUMBER


@pytest.mark.parametrize(
    "bad",
    [
        lambda: flag("Quick", "Quick", "Upper case in a name"),
        lambda: flag("x" * 33, "Long", "A name over 32 characters"),
        lambda: flag("quick", "Quick", "d" * 101),
        lambda: flag("quick", "Quick", ""),
        lambda: number("n", "N", "Default out of range", default=0, low=1, high=3),
        lambda: choice("c", "C", "Mixed kinds", default=1, choices=[(1, "one"), ("2", "two")]),
        lambda: choice("c", "C", "Too many", default=0, choices=[(n, str(n)) for n in range(26)]),
        lambda: number("n", "N", "No refusal", default=1, low=1, high=3, tables=lambda v: {2}),
        lambda: OptionSet((flag("a", "A", "First"), flag("a", "A", "Twice"))),
        lambda: OptionSet(tuple(flag(f"o{n}", "O", "One too many") for n in range(25))),
    ],
)
def test_a_declaration_discord_would_refuse_fails_at_import(bad: object) -> None:
    with pytest.raises(ValueError):
        bad()  # type: ignore[operator]
