"""`bench.floor`'s floor bot answers with the board Parlour showed: the same embed, picture,
buttons and menus, each routed back to its board. Nothing here is timed."""

from __future__ import annotations

import re
from collections import Counter

import discord

from bench.floor import Measured, board_of, by_stage, floor_and_picture
from bench.floor_bot import Clicked, Shown
from bench.load import Window
from bench.profile import Profiled
from tests.e2e.fake_model import Attachment, FakeMessage

PICTURE = b"\x89PNG\r\n\x1a\n not a real picture"
BOARD = FakeMessage(
    data={
        "id": "1",
        "channel_id": "2",
        "content": "",
        "flags": 0,
        "embeds": [{"title": "Cock & Bull", "image": {"url": "attachment://board.png"}}],
        "components": [
            {
                "type": 1,
                "components": [
                    {
                        "type": 2,
                        "style": 1,
                        "label": "Roll",
                        "custom_id": "a",
                        "emoji": {"name": "🎲"},
                    },
                    {"type": 2, "style": 2, "label": "Text board", "custom_id": "b"},
                ],
            },
            {
                "type": 1,
                "components": [{"type": 2, "style": 4, "label": "Resign", "custom_id": "c"}],
            },
        ],
    },
    attachments=[Attachment(9, "board.png", PICTURE, "image/png", "https://cdn/board.png")],
)


MENU = {
    "type": 3,
    "custom_id": "m",
    "placeholder": "Attack from…",
    "min_values": 1,
    "max_values": 1,
    "options": [
        {"label": "Ukraine (3)", "value": "ukraine", "emoji": {"name": "⚔️"}},
        {"label": "Ural (2)", "value": "ural", "description": "next to Siberia"},
    ],
}
RISK_BOARD = FakeMessage(
    data={**BOARD.data, "components": [{"type": 1, "components": [MENU]}, *BOARD.components]},
    attachments=BOARD.attachments,
)


def looks(rows: list[dict[str, object]]) -> list[list[tuple[object, ...]]]:
    return [
        [(b["label"], b["style"], b.get("emoji", {}).get("name")) for b in row["components"]]  # type: ignore[attr-defined]
        for row in rows
    ]


async def test_a_floor_board_has_parlours_buttons_each_routed_to_it() -> None:
    shown = Shown.of(board_of(BOARD))
    rows = shown.view(7).to_components()
    assert looks(rows) == looks(BOARD.components)
    ids = [b["custom_id"] for row in rows for b in row["components"]]
    assert ids == ["floor:7:0", "floor:7:1", "floor:7:2"]
    template = Clicked.__discord_ui_compiled_template__  # how discord.py routes a click
    for custom_id in ids:
        match = template.fullmatch(custom_id)
        assert isinstance(match, re.Match)
        clicked = await Clicked.from_custom_id(None, None, match)  # type: ignore[arg-type]
        assert clicked.board == 7


async def test_a_click_is_answered_with_the_board_parlour_showed() -> None:
    answer = Shown.of(board_of(BOARD)).answer(3)
    embed, (file,) = answer["embed"], answer["attachments"]
    assert isinstance(embed, discord.Embed) and embed.to_dict()["title"] == "Cock & Bull"
    assert file.filename == "board.png" and file.fp.read() == PICTURE
    assert answer["content"] is None
    assert len(answer["view"].children) == 3


def stretch(cpu_s: float) -> Window:
    """1,000 interactions answered in 10 s, the bot using `cpu_s` of CPU."""
    return Window(10.0, [5.0] * 1000, 0, 1000, Counter(), 0, cpu_s, cpu_s, 0.0)


def test_each_bots_cpu_is_shared_out_by_its_own_samples() -> None:
    both = Measured(
        parlour=stretch(9.0),
        floor=stretch(3.0),
        parlour_stages=Profiled(Counter({"storage": 1, "requests to Discord": 2}), 9.0, 1000, ""),
        floor_stages=Counter({"requests to Discord": 4}),
    )
    rows = {row[0]: row[1:] for row in by_stage(both)}
    assert rows["storage"] == ["3.00", "0.00", "+3.00"]
    assert rows["requests to Discord"] == ["6.00", "3.00", "+3.00"]
    assert rows["all"] == ["9.00", "3.00", "+6.00"]


def test_the_floor_and_parlours_picture_are_added_up() -> None:
    stages = Counter({"PNG encode": 2, "picture drawing": 3, "picture hand-over": 1, "storage": 4})
    both = Measured(
        parlour=stretch(10.0),
        floor=stretch(2.5),
        parlour_stages=Profiled(stages, 10.0, 1000, ""),
        floor_stages=Counter({"requests to Discord": 4}),
    )
    assert floor_and_picture(both).endswith(
        "2.50 + 6.00 = 8.50 ms an interaction, of Parlour's 10.00"
    )


async def test_a_risk_floor_board_has_parlours_menus_and_its_first_button_is_clicked() -> None:
    rows = Shown.of(board_of(RISK_BOARD)).view(4).to_components()
    (menu,) = rows[0]["components"]
    assert menu["type"] == 3 and menu["custom_id"] == "floor:4:0"
    assert menu["placeholder"] == "Attack from…"
    assert [o["label"] for o in menu["options"]] == ["Ukraine (3)", "Ural (2)"]
    assert [o["value"] for o in menu["options"]] == ["ukraine", "ural"]
    assert menu["options"][0]["emoji"]["name"] == "⚔️"
    assert menu["options"][1]["description"] == "next to Siberia"
    assert looks(rows[1:]) == looks(BOARD.components)
    clicked = FakeMessage(data={**RISK_BOARD.data, "components": rows}).buttons[0]
    assert clicked["custom_id"] == "floor:4:1"  # the menu's row is passed over
    assert RISK_BOARD.buttons[0]["custom_id"] == "a"
