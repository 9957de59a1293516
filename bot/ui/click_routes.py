"""Where a click on a Parlour button or menu goes: one route for each kind of custom id.

Every `bot.ui.components.ParlourItem` hands its click, with the id it parsed, to the
client's `clicks` (a `ClickRoutes`): the table routes the `ButtonId`s of its lobbies and
boards (`bot.table.clicks`), the cogs the ids of their own messages (`/history`'s pages, the
replay viewer, `/forget-me`'s question). Each route runs under the router, so it is answered
within Discord's 3 seconds and a refusal (`UserError`) is answered privately.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import discord

from bot.ui.replies import Reply
from bot.ui.router import Router

T = TypeVar("T")
Route = Callable[[Reply, T], Awaitable[None]]


class ClickRoutes:
    """The route of each kind of click, by the type of the id its item parsed."""

    def __init__(self, router: Router) -> None:
        """No routes yet; each will run under `router`."""
        self._router = router
        self._routes: dict[type[Any], Route[Any]] = {}

    def add(self, kind: type[T], route: Route[T]) -> None:
        """Send every click whose id is a `kind` to `route` (one route for each kind)."""
        if kind in self._routes:
            raise ValueError(f"{kind.__name__} clicks have a route already")
        self._routes[kind] = route

    async def click(self, interaction: discord.Interaction[Any], target: object) -> None:
        """Hand a click, with what its item names (`target`), to the route of its kind."""
        route = self._routes.get(type(target))
        if route is None:
            raise LookupError(f"no route for {type(target).__name__} clicks: is its cog loaded?")
        await self._router.handle(Reply.of(interaction), lambda reply: route(reply, target))
