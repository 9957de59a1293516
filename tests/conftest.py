"""Fixtures every test package may use: the database URLs of both backends."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.databases import fresh_schema


@pytest.fixture
async def postgres_url() -> AsyncIterator[str]:
    """A fresh PostgreSQL schema of its own (skipped without a server, failed under CI)."""
    async with fresh_schema() as url:
        yield url


@pytest.fixture(params=["sqlite", "postgres"])
async def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[str]:
    """Each backend in turn: the test runs once on SQLite and once on PostgreSQL."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'parlour.sqlite3'}"
        return
    async with fresh_schema() as url:
        yield url
