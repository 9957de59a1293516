"""`python -m bot`, killed by SIGKILL at one stored step: run as
`python -m tests.e2e.kill_after <bot's arguments>` with `KILL_AFTER` naming the step (a key
of `PLANTS`).

The product carries no test hook: this wraps one storage method (the one the product
calls for that step) in the process, then runs `bot.__main__.main` as `python -m bot`
does. The process dies at the step's first occurrence in its life (a step that did
nothing, such as a claim another process holds, lets it go on).

A season's end, in the order it takes them:

- `season-end`: the end's transaction committed (season ended, tables frozen, next opened);
- `season-claim`: the card's posting claimed;
- `season-post`: the card posted, its message id not stored yet;
- `season-store`: the card marked posted with its message id (everything done).

A tournament's steps (`bot.tournament.clock` takes them as the event goes on):

- `start`: the event started (absentees dropped);
- `round`: a round's tables and byes stored;
- `seat`: a table's game made and claimed for the table;
- `begin`: a table's game started;
- `result`: a table's places stored;
- `card`: the card redrawn, its revision not stored yet;
- `end`: the event finished;
- `final-claim`: the final post claimed;
- `final-post`: the final standings posted, their message id not stored yet.
"""

from __future__ import annotations

import functools
import os
import signal
import sys
from collections.abc import Awaitable, Callable
from typing import Any

from bot.storage.games import Games
from bot.storage.seasons import Seasons
from bot.storage.tournaments import Tournaments

Step = Callable[..., Awaitable[Any]]


def die() -> None:
    """As `kill -9`: no shutdown code, no flushing, no goodbye to the gateway."""
    os.kill(os.getpid(), signal.SIGKILL)


def after(step: Step, *, only_if: Callable[[Any], bool] = lambda _: True) -> Step:
    """`step`, then death if what it returned is one `only_if` accepts (a step that did
    nothing, such as a claim another process holds, lets the process go on)."""

    @functools.wraps(step)
    async def wrapped(*args: Any, **kwargs: Any) -> Any:
        done = await step(*args, **kwargs)
        if only_if(done):
            die()
        return done

    return wrapped


def before(step: Step) -> Step:
    """Death as `step` is called, before it does anything."""

    @functools.wraps(step)
    async def wrapped(*args: Any, **kwargs: Any) -> Any:
        die()
        return await step(*args, **kwargs)

    return wrapped


def plant(owner: type, name: str, wrap: Callable[[Step], Step]) -> Callable[[], None]:
    """Replace `owner.name` by `wrap` of it, when called."""
    return lambda: setattr(owner, name, wrap(getattr(owner, name)))


def _some(result: Any) -> bool:
    return result is not None


PLANTS: dict[str, Callable[[], None]] = {
    "season-end": plant(Seasons, "end_season", functools.partial(after, only_if=_some)),
    "season-claim": plant(Seasons, "claim_card", functools.partial(after, only_if=bool)),
    "season-post": plant(Seasons, "card_posted", before),
    "season-store": plant(Seasons, "card_posted", after),
    "start": plant(Tournaments, "start_tournament", functools.partial(after, only_if=_some)),
    "round": plant(Tournaments, "store_round", functools.partial(after, only_if=bool)),
    "seat": plant(Tournaments, "seat_table", after),
    "begin": plant(Games, "start_game", after),
    "result": plant(Tournaments, "store_result", functools.partial(after, only_if=bool)),
    "card": plant(Tournaments, "card_shown", before),
    "end": plant(Tournaments, "end_tournament", functools.partial(after, only_if=bool)),
    "final-claim": plant(Tournaments, "claim_final", functools.partial(after, only_if=bool)),
    "final-post": plant(Tournaments, "final_posted", before),
}


if __name__ == "__main__":
    PLANTS[os.environ["KILL_AFTER"]]()
    from bot.__main__ import main

    sys.exit(main(sys.argv[1:]))
