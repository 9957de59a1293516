"""Risk's "how many": every legal number offered (`NumberLayout`), the least, half and
all as buttons, the numbers between in a menu, or typed in a number box when too many."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from bot.language.i18n import N_, NP_, _, pgettext
from bot.table.board import OPTIONS_PER_MENU
from bot.table.presenter import ButtonLook
from cogs.risk.words import name_of
from rules.risk.actions import (
    Verb,
)
from rules.risk.queries import (
    HowMany,
)
from rules.risk.state import (
    RiskState,
)

QUICK_ONLY = 5  # up to this many legal numbers: a button each
# In the context "armies": Winner's Circle's "Place" is a finishing place.
DOING = {
    Verb.PLACE: NP_("armies", "Place"),
    Verb.MOVE_IN: NP_("armies", "Move in"),
    Verb.FORTIFY: NP_("armies", "Move"),
}


def doing(verb: Verb) -> str:
    """What choosing `verb`'s number does, in the current language: "Place", "Move in"."""
    return pgettext("armies", DOING[verb])


ALL_OF_IT = {Verb.PLACE: N_("all"), Verb.MOVE_IN: N_("all"), Verb.FORTIFY: N_("all but one")}
QUESTION = {
    Verb.PLACE: N_("How many armies go on {}?"),
    Verb.MOVE_IN: N_("How many armies move into {}?"),
    Verb.FORTIFY: N_("How many armies move to {}?"),
}


@dataclass(frozen=True)
class NumberLayout:
    """Where each legal number of a "how many" is offered: a button for the quick choices
    (the least, half and all), and the numbers between as options of one menu when they fit
    in one (25), else typed in a number box ("Type a number…")."""

    quick: frozenset[int]
    menu: str  # the placeholder of the menu of the other numbers
    typed: bool  # too many for one menu: the other numbers are typed


@cache
def number_layout(verb: Verb, lo: int, hi: int) -> NumberLayout:
    """The layout for choosing `verb`'s number from `lo` to `hi`."""
    menu = f"{DOING[verb]} another number…"
    if hi - lo + 1 <= QUICK_ONLY:
        return NumberLayout(frozenset(range(lo, hi + 1)), menu, typed=False)
    quick = frozenset({lo, max(lo, hi // 2), hi})
    return NumberLayout(quick, menu, typed=hi - lo + 1 - len(quick) > OPTIONS_PER_MENU)


def layout_of(asked: HowMany) -> NumberLayout:
    """The layout for the number `asked` for, from its least to its most."""
    return number_layout(asked.verb, asked.numbers[0], asked.numbers[-1])


def number_look(asked: HowMany, n: int, state: RiskState) -> ButtonLook:
    """A number's button or menu option: "Move in 39 (all)", "Ukraine keeps 1"."""
    lo, hi = asked.numbers[0], asked.numbers[-1]
    layout = layout_of(asked)
    note = ""
    if n == hi:
        note = f" ({_(ALL_OF_IT[asked.verb])})"
    elif n == lo and asked.verb == Verb.MOVE_IN:
        note = _(" (least)")
    elif n == max(lo, hi // 2) and len(layout.quick) < hi - lo + 1:
        note = _(" (half)")
    label = f"{doing(asked.verb)} {n}{note}"
    if n in layout.quick:
        return ButtonLook(label, emoji="➕" if asked.verb == Verb.PLACE else None)
    # The layout's menu is worded in English (it is cached): the board shows this one.
    menu = _("{doing} another number…").format(doing=doing(asked.verb))
    here = state.armies_on(state.source)
    kept = here - (n - lo) if asked.verb == Verb.MOVE_IN else here - n
    after = (
        _("{territory} would have {armies}").format(
            territory=name_of(state.source), armies=here + n
        )
        if asked.verb == Verb.PLACE
        else _("{territory} keeps {armies}").format(territory=name_of(state.source), armies=kept)
    )
    return ButtonLook(label, menu=menu, description=after)
