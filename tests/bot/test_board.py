"""Board components: menus and buttons within Discord's limits, ids that decode to actions."""

from __future__ import annotations

import logging
import re
from types import SimpleNamespace
from typing import Any

import discord
import pytest

from bot.table.board import components
from bot.table.presenter import ButtonLook
from bot.ui.components import GameButton, GameSelect
from bot.ui.custom_ids import MENU_TEMPLATE, TEMPLATE, ButtonId, parse_choice
from rules.core import Action


def table(step: int = 7) -> Any:
    return SimpleNamespace(row=SimpleNamespace(game="risk", id=3, step=step))


def territory_offers(n: int, menu: str = "Attack from") -> list[tuple[Action, ButtonLook]]:
    return [(Action("attack_from", f"t{i}"), ButtonLook(f"T{i}", menu=menu)) for i in range(n)]


def button_offers(n: int) -> list[tuple[Action, ButtonLook]]:
    return [(Action("place", str(i)), ButtonLook(f"Place {i}")) for i in range(n)]


def test_a_menu_of_more_than_25_options_is_split_and_every_choice_decodes() -> None:
    items = components(table(), territory_offers(42))
    selects = [i for i in items if isinstance(i, GameSelect)]
    assert [s.item.placeholder for s in selects] == ["Attack from (1/2)", "Attack from (2/2)"]
    assert [len(s.item.options) for s in selects] == [25, 17]
    decoded = [parse_choice(s.item.custom_id, o.value) for s in selects for o in s.item.options]
    assert decoded == [ButtonId("risk", 3, 7, "attack_from", f"t{i}") for i in range(42)]
    assert len({s.item.custom_id for s in selects}) == 2  # ids unique within the message


def test_menus_come_first_and_buttons_fill_the_rows_left() -> None:
    items = components(table(), [*button_offers(10), *territory_offers(5, "Move to")])
    assert isinstance(items[0], GameSelect)
    buttons = [i for i in items if isinstance(i, GameButton)]
    assert [b.target.arg for b in buttons] == [str(i) for i in range(10)]
    view = discord.ui.View()
    for item in items:
        view.add_item(item)  # discord.py lays them out; it raises if they don't fit


def test_too_many_components_are_cut_to_what_fits_and_logged(
    caplog: pytest.LogCaptureFixture,
) -> None:
    with caplog.at_level(logging.ERROR, logger="bot.table.board"):
        items = components(table(), [*territory_offers(130), *button_offers(3)])
    assert len(items) == 5 and all(isinstance(i, GameSelect) for i in items)
    assert "too many components" in caplog.text


def test_a_menu_id_is_never_taken_for_a_button_and_back() -> None:
    bid = ButtonId("risk", 3, 7, "attack_from", "ukraine")
    assert re.fullmatch(TEMPLATE, bid.encode())
    assert not re.fullmatch(MENU_TEMPLATE, bid.encode())
    assert re.fullmatch(MENU_TEMPLATE, bid.menu_id(0))
    assert not re.fullmatch(TEMPLATE, bid.menu_id(0))
    with pytest.raises(ValueError):
        ButtonId("risk", 3, 7, "menu", "0").encode()
    assert ButtonId.parse(bid.encode()) == bid


def test_a_forged_menu_choice_is_refused() -> None:
    with pytest.raises(ValueError):
        parse_choice("v1:risk:3:7:menu:0", "attack_from:ukraine; drop")
    with pytest.raises(ValueError):
        parse_choice("v1:risk:3:7:attack_from", "attack_from:ukraine")
