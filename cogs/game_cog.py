"""What every game's Discord side is made of: its cog, built on `GameCog`, and the `GameSpec`
that ends its module and names its engine, presenter and cog (`cogs/games.py` lists them).

A game's cog declares what sets it apart — its presenter, the `/<game> new` description and
the rules in short — and `GameCog` builds the `new` and `rules` commands every game has from
that and the engine's declared house rules (`cogs/options.py`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from discord import app_commands
from discord.ext import commands

from bot.client import Interaction, ParlourBot
from bot.table.presenter import Presenter
from cogs.options import new_command, rules_text, send_rules
from rules.core import Engine


@app_commands.guild_only()
class GameCog(commands.GroupCog):
    """The slash commands of one game, `/<group_name> new` and `/<group_name> rules`.

    A subclass sets `presenter` (whose engine declares the house rules), `lobby` (the `new`
    command's description) and `summary` (the rules in short, one catalog message per
    paragraph, `summary_values` filling their `{fields}`), and passes `group_name`.
    """

    presenter: ClassVar[type[Presenter[Any]]]
    lobby: ClassVar[str]
    summary: ClassVar[Sequence[str]]
    summary_values: ClassVar[Mapping[str, int | str]] = {}

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """Give a game's cog its `new` and `rules` commands (discord.py collects a cog's
        commands from its class after this runs)."""
        super().__init_subclass__(**kwargs)
        engine = cls.presenter.engine
        own = {k: v for k, v in vars(cls).items() if isinstance(v, app_commands.Command)}
        cls.new = new_command(engine.name, engine.options, cls.lobby)  # type: ignore[attr-defined]
        cls.rules = _rules_command(cls)  # type: ignore[attr-defined]
        # Discord lists a group's commands in the class's order: `new` and `rules` come
        # first, then the game's own (Risk's `attack`), so the synced list stays as it was.
        for name, command in own.items():
            delattr(cls, name)
            setattr(cls, name, command)

    def __init__(self, bot: ParlourBot) -> None:
        """The cog of `bot`."""
        self.bot = bot
        super().__init__()


def _rules_command(cog: type[GameCog]) -> app_commands.Command[Any, ..., None]:
    """`/<game> rules`: the rules in short and every house rule, to the asker only."""
    presenter = cog.presenter
    command = f"/{cog.__cog_group_name__} new"

    async def rules(self: GameCog, interaction: Interaction) -> None:
        text = rules_text(cog.summary, presenter.engine.options, command, **cog.summary_values)
        await send_rules(interaction, presenter.title, text, presenter.colour)

    # A qualified name makes discord.py treat the callback as a method (the cog comes first).
    rules.__qualname__ = "GameCog.rules"
    description = f"How to play {presenter.title}, in short."
    return app_commands.command(name="rules", description=description)(rules)


@dataclass(frozen=True)
class GameSpec:
    """One game as the bot shows it: its rules, the presenter that words and draws it, and
    the cog of its slash commands, built for the bot."""

    engine: Engine[Any]
    presenter: type[Presenter[Any]]
    cog: type[GameCog]

    def __post_init__(self) -> None:
        """The three must be one game's: a spec naming another's presenter fails at import."""
        if self.presenter.engine is not self.engine:
            raise ValueError(f"{self.presenter.__name__} does not show {self.engine.name}")
        if self.cog.presenter is not self.presenter:
            raise ValueError(f"{self.cog.__name__} is not {self.engine.name}'s cog")

    @property
    def name(self) -> str:
        """The game's name, its engine's (`rules.registry.ENGINES`)."""
        return self.engine.name
