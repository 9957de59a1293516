"""Which servers a process looks after: its shards, by Discord's own formula."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Shards:
    """The shards `ids` (of `count`) this process runs."""

    count: int
    ids: tuple[int, ...]

    def owns(self, guild_id: int) -> bool:
        """Whether a server's events come to this process: `(guild_id >> 22) % count`."""
        return (guild_id >> 22) % self.count in self.ids

    @property
    def syncs_commands(self) -> bool:
        """Commands are global: one process syncs them, the one holding shard 0."""
        return 0 in self.ids
