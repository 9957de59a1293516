"""What the bot sent, read back from the fake Discord's record of its requests: every
message payload, public or private, and what every picture among them must carry."""

from __future__ import annotations

import re
from typing import Any

from tests.e2e.fake_discord import FakeDiscord, FakeMessage

JSON = dict[str, Any]
EPHEMERAL = 64
CB_MESSAGE, CB_UPDATE = 4, 7  # interaction callbacks that carry a message


class Payloads:
    """Every message payload the bot sent in a test, public or private."""

    def __init__(self, fake: FakeDiscord) -> None:
        self.fake = fake

    def split(self) -> tuple[list[JSON], list[tuple[int, JSON]]]:
        """The public payloads, and the private ones with whom they were for."""
        public: list[JSON] = []
        private: list[tuple[int, JSON]] = []
        by_token = {rec.token: rec for rec in self.fake.interactions}
        for call in self.fake.calls:
            body = call.json
            if call.method not in ("POST", "PATCH") or not isinstance(body, dict):
                continue
            if call.path.startswith("/channels/"):
                public.append(body)
                continue
            token = re.search(r"/(?:interactions/\d+|webhooks/\d+)/([^/]+)", call.path)
            rec = by_token.get(token[1]) if token else None
            if rec is None:
                continue
            if call.path.endswith("/callback"):
                if body.get("type") not in (CB_MESSAGE, CB_UPDATE):
                    continue  # a defer or a number box (shown to the clicker alone)
                data = body.get("data") or {}
                shown_to_all = (
                    not data.get("flags", 0) & EPHEMERAL
                    if body["type"] == CB_MESSAGE
                    else rec.message is not None and not rec.message.ephemeral
                )
            elif call.method == "POST":  # a follow-up
                data, shown_to_all = body, not body.get("flags", 0) & EPHEMERAL
            else:  # an edit of the answer, or of the clicked message after a deferral
                data = body
                target: FakeMessage | None = rec.original or rec.message
                shown_to_all = target is not None and not target.ephemeral
            if shown_to_all:
                public.append(data)
            else:
                private.append((int(rec.user["id"]), data))
        return public, private


MENTION = re.compile(r"<@(\d+)>")


def check_alt_texts(public: list[JSON], humans: dict[int, str]) -> None:
    """Every picture among the `public` payloads (more than a handful: a whole game's) has
    alt text of at most 1,024 characters naming whoever its board's prompt names, the player
    to act, of the `humans` (by id) or the bots; its language is the caller's to check."""
    pictures = 0
    for payload in public:
        uploads = [a for a in payload.get("attachments") or () if "filename" in a]
        for attachment in uploads:
            pictures += 1
            alt = attachment.get("description") or ""
            assert 0 < len(alt) <= 1024, attachment
            embeds = payload.get("embeds") or [{}]
            last = (embeds[0].get("description") or "").splitlines()[-1:]
            prompt = last[0] if last and last[0].startswith("**") and last[0].endswith("**") else ""
            named = [humans[int(m)] for m in MENTION.findall(prompt) if int(m) in humans]
            named += re.findall(r"Bot \d+", prompt)
            named += [name for name in humans.values() if name in prompt]
            assert all(name in alt for name in named), (prompt, alt)
    assert pictures > 5
