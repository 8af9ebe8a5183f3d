"""A JSON column's shape checked over a whole batch with C-level calls, before pydantic is asked.

`models.export_quick` judges a JSON column's parsed values against its shape
(models.export_format.SHAPES) with one pydantic call per batch. At a million
events that call is the largest single cost of an export after SQLite: pydantic
builds a copy of every change it checks. The shapes Adjutant stores are plain:
a list of whole numbers within limits, of short texts, or of small objects with
fixed keys (an event's changes, a roll's modifiers). Such a shape is checked
here column by column over the batch (`set(map(type, ...))`, `min`/`max`, the
key sets compared in one `all(map(...))`), compiled once per shape from its type.

The check only ever says "pydantic would accept every value" (True) or "ask
pydantic" (False): a shape it cannot read, or any value outside the plain forms
(a Boolean where a number is wanted, a missing or extra key, a float), is left to
the pydantic adapter, which then accepts it or names the fault as before. The
values come from orjson, so every object key is already text.
"""

from __future__ import annotations

import typing
from collections.abc import Callable, Sequence
from itertools import chain
from operator import itemgetter
from types import UnionType
from typing import Annotated, Any, Union, get_args, get_origin

import annotated_types
from pydantic import Strict
from typing_extensions import is_typeddict  # models.export_format's TypedDicts are typing_extensions' own
from pydantic.fields import FieldInfo

Check = Callable[[Sequence[Any]], bool]


def batch_check(shape: Any) -> Check | None:
    """A check that each value of a batch of parsed JSON values is of `shape`; None when the
    shape is not plain."""
    try:
        return _check(shape)
    except _NotPlain:
        return None


class _NotPlain(Exception):
    """A type this module does not check: pydantic alone judges it."""


def _check(shape: Any) -> Check:
    origin = get_origin(shape)
    if origin is list:
        return _list(_check(get_args(shape)[0]))
    if origin is Annotated:
        return _scalar(shape)
    if is_typeddict(shape):
        return _typed_dict(shape)
    if shape is Any:
        return lambda _values: True
    if origin in (Union, UnionType):
        return _optional_object(shape)
    if origin is dict and get_args(shape) == (str, Any):
        return _only_types({dict})  # JSON objects: their keys are text
    raise _NotPlain


class _OnlyTypes:
    """A shape its values' types alone decide: an object's field then asks for no list of its values."""

    def __init__(self, allowed: set[type]) -> None:
        self.allowed = frozenset(allowed)

    def __call__(self, values: Sequence[Any]) -> bool:
        return set(map(type, values)) <= self.allowed


def _only_types(allowed: set[type]) -> Check:
    return _OnlyTypes(allowed)


def _optional_object(shape: Any) -> Check:
    """`dict[str, Any] | None`, the one union a change holds (its row before and after)."""
    members = set(get_args(shape))
    if members != {dict[str, Any], type(None)}:
        raise _NotPlain
    return _only_types({dict, type(None)})


def _list(item: Check) -> Check:
    def check(values: Sequence[Any]) -> bool:
        if not values:
            return True
        if set(map(type, values)) != {list}:
            return False
        return item(list(chain.from_iterable(values)))

    return check


def _scalar(shape: Any) -> Check:
    """Annotated[int or str, Strict(), Field(ge=, le=, max_length=)]: pydantic's StrictInt and StrictStr."""
    base, *metadata = get_args(shape)
    limits: dict[str, Any] = {}
    strict = False
    for item in metadata:
        if isinstance(item, Strict):
            strict = item.strict
            continue
        constraints = item.metadata if isinstance(item, FieldInfo) else [item]
        if isinstance(item, FieldInfo) and (item.annotation not in (None, type(None)) or not item.is_required()):
            raise _NotPlain
        for constraint in constraints:
            if isinstance(constraint, annotated_types.Ge):
                limits["ge"] = constraint.ge
            elif isinstance(constraint, annotated_types.Le):
                limits["le"] = constraint.le
            elif isinstance(constraint, annotated_types.MaxLen):
                limits["max_length"] = constraint.max_length
            elif isinstance(constraint, Strict):
                strict = constraint.strict
            else:
                raise _NotPlain
    if not strict:
        raise _NotPlain
    if base is int and "max_length" not in limits:
        low, high = limits.get("ge"), limits.get("le")

        def integers(values: Sequence[Any]) -> bool:
            if not values:
                return True
            if set(map(type, values)) != {int}:  # a Boolean is not a whole number here, as for pydantic
                return False
            return (low is None or min(values) >= low) and (high is None or max(values) <= high)

        return integers
    if base is str and set(limits) <= {"max_length"}:
        longest = limits.get("max_length")

        if longest is None:
            return _only_types({str})

        def texts(values: Sequence[Any]) -> bool:
            if not values:
                return True
            if set(map(type, values)) != {str}:
                return False
            return max(map(len, values)) <= longest

        return texts
    raise _NotPlain


def _typed_dict(shape: Any) -> Check:
    """A TypedDict whose every key is required (extra keys are refused: ROW_CONFIG forbids them)."""
    hints = typing.get_type_hints(shape, include_extras=True)
    if set(shape.__required_keys__) != set(hints):
        raise _NotPlain
    names = list(hints)
    count = len(names)
    # Every value's keys read at once: a value with `count` keys of which each name is one has
    # exactly these keys; a missing one raises KeyError. One C-level pass, where comparing each
    # value's key view with a set is a call and a view per value.
    getter = itemgetter(*names) if count > 1 else _one(names[0])
    fields = [(index, _check(kind)) for index, kind in enumerate(hints.values()) if kind is not Any]
    # Fields whose values' types alone decide are read without a list of their values.
    typed = [(index, field.allowed) for index, field in fields if isinstance(field, _OnlyTypes)]
    other = [(index, field) for index, field in fields if not isinstance(field, _OnlyTypes)]

    def check(values: Sequence[Any]) -> bool:
        if not values:
            return True
        # Each value an object (orjson makes plain dicts; anything else is pydantic's to judge).
        if set(map(type, values)) != {dict} or set(map(len, values)) != {count}:
            return False
        try:
            columns = list(zip(*map(getter, values)))
        except KeyError:
            return False
        return all(set(map(type, columns[index])) <= allowed for index, allowed in typed) and all(
            field(list(columns[index])) for index, field in other
        )

    return check


def _one(name: str) -> Callable[[Any], tuple[Any]]:
    """itemgetter of one name, giving a 1-tuple as itemgetter of several gives a tuple."""
    get = itemgetter(name)
    return lambda value: (get(value),)
