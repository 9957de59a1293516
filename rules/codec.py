"""JSON round-trips for frozen state dataclasses, driven by their type hints.

Engines store their state as JSON (docs/ARCHITECTURE.md, "The engine protocol"). Rather
than a hand-written `dump` and `load` per game, state classes are plain frozen dataclasses of
ints, strings, enums, tuples and other such dataclasses, and this module walks the type hints
both ways.
"""

from __future__ import annotations

import dataclasses
import enum
import types
import typing
from collections.abc import Callable, Mapping
from functools import cache
from typing import Annotated, Any, TypeVar

from rules.core import PLAYER_ID

T = TypeVar("T")


ADDED_LATER = "added_later"


def added_later(default: Any) -> Any:
    """A field added to a stored state after games were saved without it: `load` gives it
    `default` when it is missing, and `dump` leaves it out while it holds `default`, so the
    dump (and its digest, in the golden playthroughs) of a game that never used it is
    unchanged."""
    return dataclasses.field(default=default, metadata={ADDED_LATER: True})


def to_json(value: Any) -> Any:
    """A JSON-safe copy of `value` (dataclass -> dict, enum -> value, tuple -> list)."""
    kind: Any = type(value)  # a class is hashable, whatever mypy makes of dataclasses
    dump = _dumper(kind)
    return value if dump is None else dump(value)


Convert = Callable[[Any], Any]


@cache
def _dumper(cls: type) -> Convert | None:
    """How `to_json` copies a value of class `cls` (None: as it is), worked out once per
    class: every move dumps a whole state, so nothing is looked up per value."""
    if dataclasses.is_dataclass(cls):
        plan = [
            (f.name, bool(f.metadata.get(ADDED_LATER)), f.default) for f in dataclasses.fields(cls)
        ]

        def dump_fields(value: Any) -> dict[str, Any]:
            out = {}
            for name, later, default in plan:
                field = getattr(value, name)
                if not (later and field == default):  # an added field at its default: left out
                    out[name] = to_json(field)
            return out

        return dump_fields
    if issubclass(cls, enum.Enum):
        return lambda value: value.value
    if issubclass(cls, tuple | list):
        return lambda value: [to_json(v) for v in value]
    if issubclass(cls, frozenset):
        return lambda value: sorted(to_json(v) for v in value)
    return None


def dump_state(state: Any) -> dict[str, Any]:
    """An engine's `dump`: the state as JSON, its version key "v" included."""
    data: dict[str, Any] = to_json(state)
    return data


Upgrade = Callable[[dict[str, Any]], dict[str, Any]]
"""Turns a dumped state of one version into the next version's shape (its "v" is set after)."""


def load_state(
    cls: type[T],
    data: Mapping[str, Any],
    version: int,
    title: str,
    upgrades: Mapping[int, Upgrade] | None = None,
) -> T:
    """An engine's `load`.

    A state saved by an older version of the engine is brought up to `version` one version
    at a time, `upgrades[v]` taking a version-v dump to version v + 1: an engine that changes
    its state's shape bumps its version and adds the upgrade, so saved games play on. Any
    other version is refused rather than misread.
    """
    upgraded = dict(data)
    while upgraded.get("v") != version and upgraded.get("v") in (upgrades or {}):
        old = upgraded["v"]
        upgraded = {**(upgrades or {})[old](upgraded), "v": old + 1}
    if upgraded.get("v") != version:
        raise ValueError(f"unknown {title} state version {data.get('v')!r}")
    return from_json(cls, upgraded)


def from_json(cls: type[T], data: Any) -> T:
    """Rebuild an instance of `cls` from `to_json` output."""
    tp: Any = cls
    build = _builder(tp)
    return typing.cast(T, data if build is None else build(data))


@cache
def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


@cache
def _builder(tp: Any) -> Convert | None:
    """How `from_json` rebuilds a value of type `tp` from its JSON (None: the JSON value as
    it is), worked out once per type from its hints."""
    origin = typing.get_origin(tp)
    args = typing.get_args(tp)
    if origin in (typing.Union, types.UnionType):
        (inner,) = [a for a in args if a is not type(None)]
        optional = _builder(inner)
        if optional is None:
            return None
        return lambda data: None if data is None else optional(data)
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            each = _builder(args[0])
            if each is None:
                return tuple
            return lambda data: tuple(each(d) for d in data)
        items = [_builder(a) for a in args]
        return lambda data: tuple(
            d if b is None else b(d) for b, d in zip(items, data, strict=True)
        )
    if origin is frozenset:
        member = _builder(args[0])
        if member is None:
            return frozenset
        return lambda data: frozenset(member(d) for d in data)
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        return lambda data: _build_dataclass(tp, data)
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        return tp
    return None


@cache
def _fields_plan(cls: type) -> list[tuple[str, Convert | None, bool]]:
    """Each field of dataclass `cls`: its name, how to rebuild it, and whether it may be
    missing (added later). Worked out on first use, so a class may hold itself."""
    hints = _hints(cls)
    return [
        (f.name, _builder(hints[f.name]), bool(f.metadata.get(ADDED_LATER)))
        for f in dataclasses.fields(cls)
    ]


def _build_dataclass(cls: type, data: Any) -> Any:
    assert isinstance(data, Mapping)
    kwargs = {}
    for name, build, later in _fields_plan(cls):
        if name in data:
            kwargs[name] = data[name] if build is None else build(data[name])
        elif not later:
            raise KeyError(name)
    return cls(**kwargs)


def player_renamed(value: T, old: int, new: int) -> T:
    """`value` (a state dataclass) with every player id `old` in it made `new`: the fields
    whose type hints say `PlayerId` (alone, or inside tuples and nested dataclasses), and no
    other number, however equal (a seat, a count, a territory)."""
    return typing.cast(T, _renamed(type(value), value, old, new))


@cache
def _marked_hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls, include_extras=True)


def _renamed(tp: Any, value: Any, old: int, new: int) -> Any:
    origin = typing.get_origin(tp)
    args = typing.get_args(tp)
    if origin is Annotated:
        if PLAYER_ID in tp.__metadata__:
            return new if value == old else value
        return _renamed(args[0], value, old, new)
    if origin in (typing.Union, types.UnionType):
        if value is None:
            return None
        (inner,) = [a for a in args if a is not type(None)]
        return _renamed(inner, value, old, new)
    if origin is tuple:
        inners = [args[0]] * len(value) if len(args) == 2 and args[1] is Ellipsis else args
        return tuple(_renamed(a, v, old, new) for a, v in zip(inners, value, strict=True))
    if origin is frozenset:
        return frozenset(_renamed(args[0], v, old, new) for v in value)
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        hints = _marked_hints(tp)
        changes = {}
        for f in dataclasses.fields(tp):
            now = getattr(value, f.name)
            then = _renamed(hints[f.name], now, old, new)
            if then != now:
                changes[f.name] = then
        return dataclasses.replace(value, **changes) if changes else value
    return value
