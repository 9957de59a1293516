"""A number typed in a box: any script's decimal digits, nothing else."""

from __future__ import annotations

import pytest

from bot.table.play import typed_number


@pytest.mark.parametrize(
    ("text", "number"),
    [("42", 42), (" 7 ", 7), ("٤٢", 42), ("१२", 12), ("４２", 42), ("𝟏𝟐", 12), ("007", 7)],
)
def test_decimal_digits_of_any_script_are_read(text: str, number: int) -> None:
    assert typed_number(text) == number


@pytest.mark.parametrize("text", ["", " ", "²", "①", "4²", "½", "-3", "+3", "1.5", "1 2", "x"])
def test_anything_else_is_no_number(text: str) -> None:
    assert typed_number(text) is None
