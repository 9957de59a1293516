"""How a 429 of Discord's is counted: by the scope its headers give."""

from __future__ import annotations

import pytest

from bot.metrics import rate_limit_scope

VIA = {"Via": "1.1 google"}


@pytest.mark.parametrize(
    ("headers", "scope"),
    [
        (VIA | {"X-RateLimit-Scope": "user"}, "user"),
        (VIA | {"X-RateLimit-Scope": "shared"}, "shared"),
        (VIA | {"X-RateLimit-Scope": "global", "X-RateLimit-Global": "true"}, "global"),
        (VIA | {"X-RateLimit-Global": "true"}, "global"),  # an older answer, no scope
        (VIA | {"X-RateLimit-Scope": "something-new"}, "other"),
        (VIA, "other"),
        ({"X-RateLimit-Scope": "user"}, "cloudflare"),  # no Via: not Discord's own answer
    ],
)
def test_a_429_is_counted_by_its_scope(headers: dict[str, str], scope: str) -> None:
    assert rate_limit_scope(headers) == scope
