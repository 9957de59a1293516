"""A whole game of each title in Spanish, through the fake Discord (issue 14): the host's
Discord speaks `es-ES`, so every public payload of the game — the lobby, each board's text,
embed, buttons and menus, the pings, the result — and every word drawn in its pictures is
Spanish, checked against the catalog; a private reply to the English-speaking member of the
same game stays English."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, replace
from functools import cache
from typing import Any

import pytest
from babel.messages.pofile import read_po

from bot.language.i18n import CATALOGS, translations
from tests.e2e.conftest import ParlourFactory
from tests.e2e.driver import is_board, offered, open_lobby
from tests.e2e.fake_discord import FakeDiscord
from tests.e2e.payloads import Payloads, check_alt_texts
from tests.e2e.storm import Spec, Storm, Table
from tests.games import STORMS
from tests.images.drawn import DrawnText

JSON = dict[str, Any]
MAX_CLICKS = 3000
# Words that are no language's: the game names as Parlour spells them everywhere, players.
GAME_WORDS = "Risk Cock Bull Hold Your Horses Winner's Circle Horse Collar Parlour"
TOKEN = re.compile(r"<[@#:][^>]*>|[^\W\d_]+(?:'[^\W\d_]+)?")  # mentions, and words
PLACEHOLDER = re.compile(r"\{[^}]*\}")


def es(message: str) -> str:
    return translations("es").gettext(message)


def specs() -> list[Spec]:
    """The games as `Storm` plays them (their test specs' `storm`): labels in Spanish, and Leo
    playing Horse Collar too (an English member of every game)."""
    move_all = re.compile(rf"^{re.escape(es('Move in'))} \d+ \({re.escape(es('all'))}\)")
    spanish: dict[str, dict[str, Any]] = {
        "winners_circle": {"panel": es("My chips")},
        "horse_collar": {"humans": 2, "bots": 0},
        "risk": {
            "prefer": (es("Auto"), es("Blitz"), es("End attacks"), es("End turn"), move_all),
            "panel": es("My cards & mission"),
        },
    }
    return [replace(spec, **spanish.get(spec.game, {})) for spec in STORMS]


@dataclass(frozen=True)
class Catalog:
    """What the Spanish catalog says: every word of its translations, and the English
    phrases (two words or more) that it translates differently (and keeps nowhere: "Cock &
    Bull" the roll is "Gallo y Toro", the game's title stays)."""

    words: frozenset[str]
    english: tuple[str, ...]


@cache
def catalog() -> Catalog:
    with (CATALOGS / "es.po").open("rb") as po:
        messages = [m for m in read_po(po, locale="es") if m.id]
    words: set[str] = set()
    english: set[str] = set()
    kept = {m.id for m in messages if isinstance(m.id, str) and m.id == m.string}
    for m in messages:
        ids = [m.id] if isinstance(m.id, str) else list(m.id)
        strings = [m.string] if isinstance(m.string, str) else list(m.string)
        for text in strings:
            words.update(w.lower() for w in TOKEN.findall(PLACEHOLDER.sub(" ", text)))
        for msgid in ids:
            if msgid in strings:
                continue
            for literal in PLACEHOLDER.split(msgid):
                phrase = literal.strip(" .,:;!?()—·*")
                if len(TOKEN.findall(phrase)) > 1:
                    english.add(phrase)
    return Catalog(frozenset(words), tuple(sorted(english - kept)))


def texts_of(payload: JSON) -> Iterator[str]:
    """Every text a member reads in a message payload (or a thread's name)."""
    for key in ("content", "name", "title", "placeholder", "label", "description", "value"):
        if key == "value" and "label" in payload:
            continue  # a select option's value: an id, never shown
        if isinstance(payload.get(key), str):
            yield payload[key]
    for key in ("embeds", "fields", "components", "options", "attachments"):
        for inner in payload.get(key) or ():
            yield from texts_of(inner)
    for key in ("footer", "author", "component"):
        if isinstance(payload.get(key), dict):
            yield from texts_of(payload[key])


def untranslated(text: str, names: set[str]) -> list[str]:
    """The words of `text` that are not Spanish by the catalog, and the English phrases in it."""
    known = catalog().words | names
    words = TOKEN.findall(text)
    if text.endswith("…") and words and text[:-1].endswith(words[-1]):
        # Shortened to fit the picture ("Justo pasada la línea de fa…"): part of a word.
        cut = words.pop().lower()
        words += [] if any(word.startswith(cut) for word in known) else [cut]
    stray = [
        w
        for w in words
        if len(w) > 1 and not w.startswith("<") and w.lower() not in known  # "M": a die's face
    ]
    return stray + [phrase for phrase in catalog().english if phrase in text]


class SpanishStorm(Storm):
    """The storm's random play, at a table Ana hosts in Spanish and Leo joins in English."""

    async def open(self, spec: Spec, names: Any = ("Ana", "Leo")) -> Table:
        ana = self.fake.make_user("Ana", locale="es-ES")
        leo = self.fake.make_user("Leo", locale="en-GB")
        players = [ana, leo][: spec.humans]
        lobby = await open_lobby(self.fake, ana, spec.game.replace("_", "-"), spec.options)
        for user in players[1:]:  # "Join", or in a game of sides "Join Red"
            join = [label for label in offered(lobby) if label.startswith(es("Join"))][-1]
            await self._answered(await self.fake.click(user, lobby, label=join))
        for _ in range(spec.bots):
            await self._answered(await self.fake.click(ana, lobby, label=es("Add bot")))
        threads = {int(t["id"]) for t in self.fake.threads}
        await self._answered(await self.fake.click(ana, lobby, label=es("Start")))
        thread_id = await self.fake.wait_for(
            lambda: next(
                (int(t["id"]) for t in self.fake.threads if int(t["id"]) not in threads), None
            )
        )
        return Table(spec, players, thread_id)

    def may_click(self, user: JSON, label: str) -> bool:
        # 🔍 draws its picture in the clicker's language: English for Leo, whose private
        # answers are his own; Ana's zooms are drawn in Spanish and checked with the rest.
        return super().may_click(user, label) and (label != es("Zoom") or user["username"] == "Ana")


@pytest.mark.parametrize("spec", specs(), ids=lambda spec: spec.game)
async def test_a_whole_game_in_spanish(
    fake: FakeDiscord,
    start_parlour: ParlourFactory,
    monkeypatch: pytest.MonkeyPatch,
    spec: Spec,
) -> None:
    await start_parlour(autoplay_pace=0.0)
    drawn = DrawnText(monkeypatch)  # after start-up: its warm-up draws English boards
    storm = SpanishStorm(fake, seed=5)  # its outsider speaks English: private replies
    table = await storm.open(spec)
    leo = table.players[-1]
    board = await fake.wait_for(lambda: fake.latest_message(table.thread_id, is_board))
    # Leo (English) opens the "Resign or end…" panel: it speaks his language.
    panel = await (await fake.click(leo, board, label=es("Resign or end…"))).response()
    assert panel.message is not None and panel.message.ephemeral
    assert panel.message.content.startswith("Votes to end:")
    assert "Resign…" in offered(panel.message)
    while not storm.finished(table):
        assert storm.tally.clicks < MAX_CLICKS, storm.report([table])
        await storm.click(table)

    # Besides: the names of the players and bots, and /replay's option (`id` in any language).
    names = {w.lower() for w in TOKEN.findall(GAME_WORDS + " Ana Leo Bot id")}
    public, private = Payloads(fake).split()
    assert any("🏁" in text for payload in public for text in texts_of(payload))
    wrong = {
        text: found
        for payload in public
        for text in texts_of(payload)
        if (found := untranslated(text, names))
    }
    assert not wrong, wrong
    check_alt_texts(public, {int(u["id"]): u["username"] for u in table.players})
    assert drawn.texts, "no picture was drawn"
    wrong = {text: found for text in set(drawn.texts) if (found := untranslated(text, names))}
    assert not wrong, wrong
    # Leo's private answers are his own, in English: the panel above among them.
    for_leo = [text for user, p in private if user == int(leo["id"]) for text in texts_of(p)]
    assert panel.message.content in for_leo and "Resign…" in for_leo
