"""`frozen`: a frozen dataclass that is quicker to build, for what the engines make by the
thousand in a game (events, actions, steps)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import MISSING, dataclass, field, fields
from typing import Any, TypeVar, dataclass_transform

T = TypeVar("T")


@dataclass_transform(frozen_default=True, field_specifiers=(field,))
def frozen(cls: type[T]) -> type[T]:
    """`@dataclass(frozen=True)`, with an `__init__` that hands the new instance its whole
    `__dict__` at once: the generated one sets each field through `object.__setattr__` (the
    class's own refuses), which makes a ten-field event twice as dear to build. Fields,
    defaults, keyword-only fields, equality, hashing and `repr` are the dataclass's.

    Raises:
        TypeError: For what the quicker `__init__` does not do: `default_factory`,
            `init=False` fields, `__post_init__`.
    """
    cls = dataclass(frozen=True)(cls)
    spec = fields(cls)  # type: ignore[arg-type]  # a dataclass now
    if hasattr(cls, "__post_init__") or any(
        not f.init or f.default_factory is not MISSING for f in spec
    ):
        raise TypeError(f"{cls.__name__}: no default_factory, init=False or __post_init__")
    defaults = {f.name: f.default for f in spec if f.default is not MISSING}

    def parameter(name: str) -> str:
        return f"{name}=_defaults[{name!r}]" if name in defaults else name

    positional = [parameter(f.name) for f in spec if not f.kw_only]
    keyword = [parameter(f.name) for f in spec if f.kw_only]
    parameters = ", ".join(["self", *positional, *(["*", *keyword] if keyword else [])])
    values = ", ".join(f"{f.name!r}: {f.name}" for f in spec)
    source = f"def __init__({parameters}):\n    _set(self, '__dict__', {{{values}}})\n"
    namespace: dict[str, Any] = {"_set": object.__setattr__, "_defaults": defaults}
    exec(source, namespace)  # the source is built from field names only
    init = namespace["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    init.__doc__ = cls.__init__.__doc__
    cls.__init__ = init  # type: ignore[method-assign]
    return cls


def replaced(instance: T, changes: Mapping[str, Any]) -> T:
    """`dataclasses.replace(instance, **changes)` for a frozen dataclass whose instances hold
    every field, and nothing else, in their `__dict__` (no `__slots__`, `ClassVar`,
    `__post_init__` or `init=False` field), at a fraction of the cost: the dict is copied,
    updated and handed to a new instance without running `__init__`, so no value is checked
    (callers pass values of the fields' types). The copy is complete before anyone sees it,
    so instances stay immutable.

    Raises:
        TypeError: For a name in `changes` that is not a field (as `replace` does): the
            copied dict holds every field, so one more key is a name that is not.
    """
    before = instance.__dict__
    values = before.copy()
    values.update(changes)
    if len(values) != len(before):  # counted, not compared: engines copy states by the thousand
        names = type(instance).__dataclass_fields__  # type: ignore[attr-defined]
        raise TypeError(f"not {type(instance).__name__} fields: {sorted(changes.keys() - names)}")
    new: T = _new(type(instance))
    _set(new, "__dict__", values)  # a frozen dataclass's own __setattr__ refuses
    return new


_new = object.__new__
_set = object.__setattr__
