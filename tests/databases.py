"""The PostgreSQL server tests use (`TEST_DATABASE_URL`), one fresh schema per test.

Where the server can't be reached, PostgreSQL tests are skipped with one line saying so —
except under CI (`CI=true`), where that fails the run: CI must test both backends.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import sqlite3
import subprocess
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from urllib.parse import parse_qs, quote, urlsplit, urlunsplit

import asyncpg
import pytest

DEFAULT_URL = "postgresql://postgres@127.0.0.1:5432/test"
_unreachable: list[str] = []  # why, once found out: one try per test run


def server_url() -> str:
    return os.environ.get("TEST_DATABASE_URL", "").strip() or DEFAULT_URL


def with_schema(url: str, schema: str) -> str:
    """`url` with its connections' search_path set to `schema` (asyncpg passes unknown
    query parameters on as server settings, and so does every process given the URL)."""
    return f"{url}{'&' if '?' in url else '?'}search_path={quote(schema)}"


async def _require_server(url: str) -> None:
    if not _unreachable:
        try:
            connection = await asyncpg.connect(url, timeout=5)
        except (OSError, TimeoutError, asyncpg.PostgresError) as e:
            _unreachable.append(f"PostgreSQL at {url} unreachable ({e or type(e).__name__})")
        else:
            await connection.close()
            _unreachable.append("")
    if _unreachable[0]:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"{_unreachable[0]}: CI must test PostgreSQL (set TEST_DATABASE_URL)")
        pytest.skip(_unreachable[0])


@asynccontextmanager
async def fresh_schema() -> AsyncIterator[str]:
    """A URL whose tables live in a new, empty schema, dropped afterwards: tests running
    in parallel or again never meet each other's rows. Its name says which pytest-xdist
    worker made it (`gw0`, ...), should one be left behind."""
    url = server_url()
    await _require_server(url)
    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
    schema = f"test_{worker}_{secrets.token_hex(6)}"
    admin = await asyncpg.connect(url)
    try:
        await admin.execute(f"CREATE SCHEMA {schema}")
        yield with_schema(url, schema)
    finally:
        await admin.execute(f"DROP SCHEMA IF EXISTS {schema} CASCADE")
        await admin.close()


def dump(url: str) -> str:
    """The whole database as text, as its own tool dumps it: SQLite's `.dump` (every table's
    schema and rows), or `pg_dump` of the test's schema on PostgreSQL."""
    if url.startswith("sqlite:///"):
        with contextlib.closing(sqlite3.connect(url.removeprefix("sqlite:///"))) as db:
            return "\n".join(db.iterdump())
    parts = urlsplit(url)
    schema = parse_qs(parts.query)["search_path"][0]
    done = subprocess.run(
        ["pg_dump", "--schema", schema, urlunsplit(parts._replace(query=""))],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    return done.stdout
