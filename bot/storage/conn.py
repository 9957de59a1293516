"""What every query stands on: a connection that speaks SQL with `?` placeholders, and the
base the query mixins share (the reader, a transaction, a single statement).

A backend (`sqlite.py`, `postgres.py`) supplies the connections and the transaction; the
mixins (`games.py`, `ratings.py`, ...) write their queries once, against `Conn`.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable, Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import fields
from typing import Any, Protocol


class Row(Protocol):
    """A result row (aiosqlite.Row, asyncpg.Record): by column name or position."""

    def __getitem__(self, key: str | int, /) -> Any:
        """The value of a column, by its name or position."""
        ...

    def keys(self) -> Iterable[str]:
        """The names of the row's columns, in order."""
        ...


class Conn(Protocol):
    """What the queries need of a backend: SQL with `?` placeholders."""

    async def fetch(self, sql: str, *args: Any) -> list[Row]:
        """Every row a query returns."""
        ...

    async def fetchone(self, sql: str, *args: Any) -> Row | None:
        """The first row a query returns, or None."""
        ...

    async def execute(self, sql: str, *args: Any) -> int:
        """Run one statement; the number of rows it changed."""
        ...

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        """Run one statement once per row of arguments."""
        ...


class Connected(ABC):
    """The base of every query mixin: reads go to `_read`, writes into `_transaction` (or,
    for one statement atomic by itself, `_statement`)."""

    def __init__(self, reader: Conn) -> None:
        """Read through `reader` outside a transaction."""
        self._read = reader

    @abstractmethod
    def _transaction(self) -> AbstractAsyncContextManager[Conn]:
        """A connection in a transaction: committed when the block ends, rolled back if it
        raises."""

    def _statement(self) -> AbstractAsyncContextManager[Conn]:
        """A connection for one write statement, atomic by itself: a transaction unless
        the backend can do without one."""
        return self._transaction()

    async def _won(self, sql: str, *args: Any) -> bool:
        """Run one conditional write on its own: True for the one caller whose write
        changed a row (its condition still held)."""
        async with self._statement() as db:
            return await db.execute(sql, *args) == 1


def columns(record: type[Any], row: Row) -> dict[str, Any]:
    """The row's columns named like the fields of the dataclass `record`, by name (the
    caller converts those stored as text or integers before building it)."""
    return {f.name: row[f.name] for f in fields(record)}
