"""`python -m bot`, killed by SIGKILL right after one persisted step of a season's end: run
as `python -m tests.e2e.season_kill <bot's arguments>` with `KILL_AFTER` naming the step.

The product carries no test hook: this wraps the storage's season steps (the same methods
`bot.season_clock` calls) in the process, then runs `bot.__main__.main` as `python -m bot`
does. The steps, in the order the end takes them:

- `end`: the end's transaction committed (season ended, tables frozen, next one opened);
- `claim`: the card's posting claimed;
- `post`: the card posted, its message id not stored yet;
- `store`: the card marked posted with its message id (everything done).
"""

from __future__ import annotations

import functools
import os
import signal
import sys
from collections.abc import Awaitable, Callable
from typing import Any

from bot.storage.seasons import Seasons

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


PLANTS: dict[str, Callable[[], None]] = {
    "end": lambda: setattr(
        Seasons, "end_season", after(Seasons.end_season, only_if=lambda e: e is not None)
    ),
    "claim": lambda: setattr(Seasons, "claim_card", after(Seasons.claim_card, only_if=bool)),
    "post": lambda: setattr(Seasons, "card_posted", before(Seasons.card_posted)),
    "store": lambda: setattr(Seasons, "card_posted", after(Seasons.card_posted)),
}


if __name__ == "__main__":
    PLANTS[os.environ["KILL_AFTER"]]()
    from bot.__main__ import main

    sys.exit(main(sys.argv[1:]))
