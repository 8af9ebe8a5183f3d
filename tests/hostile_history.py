"""A seeded corpus of hostile event histories: what an imported or hand-edited campaign's
event log may hold where undo and redo read the values they write back.

Made from a campaign's export (its rows as JSON, `good`) and the numbers of its undo
and redo targets, with no list of tables or columns kept here: every column of every
table the models define gets the bad values of its kind, the kind read from the
column's type and the ranges and shapes an import holds a row to
(models.export_format.DOMAIN and SHAPES):

- whole numbers: one beyond each end of the column's range, one drawn further out,
  2**31, 2**63, -(2**63) - 1, 10**30, NaN, Infinity, -Infinity, 1e400, 2.5, a whole
  float, true, the number as text;
- texts: numbers, Booleans, 100,001 characters, a lone surrogate, and a control
  character (C0, DEL or C1, drawn) put at a drawn place in a word;
- Booleans, days and moments, JSON documents and the JSON shapes (raw dice,
  modifiers, members): the other JSON types, numbers for texts, wrong keys, nesting
  33 deep, NaN and control characters deep inside;
- every column also null where it may not be, a list and an object;
- each table's key: of the wrong type, null, beyond PostgreSQL's INTEGER, missing,
  with an extra column; tables and columns by drawn names no campaign has (and the
  event log's own, the campaign's version, SQLite's and the search index's tables);
- changes that are no change (not an object, missing parts, both sides null, before
  and after of different columns, a key changed), event changes that are no list or
  no JSON at all (NaN, 1e400, a lone surrogate, cut short), and undo events that
  name no undone action for redo to take.

Each bad value is planted, in a change of an update or of a whole row (an insert
or a delete, so that undo or redo would insert it), at a drawn place among the
real changes of the action undo would undo (its `before`) or redo would redo (its
`after`). Controls that must be taken are drawn too: a whole number at either end
of its range, written by undo or redo into a real row.
"""

from __future__ import annotations

import json
import random
import string
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, Literal, get_args, get_origin

import orjson
from sqlalchemy import JSON, BigInteger, Boolean, Column, Date, DateTime, Integer, String, Table, TypeDecorator

Doing = Literal["undo", "redo"]
NOT_JSON = object()  # what a refusal names when the planted changes are no JSON Adjutant reads
NO_VALUE = object()  # a refusal of the change's shape, which names no value


@dataclass(frozen=True)
class Raw:
    """JSON text written as it stands (1e400: no Python float prints it)."""

    text: str


@dataclass(frozen=True)
class Case:
    what: str
    doing: Doing
    event: int  # the event whose changes are planted
    changes: str  # the JSON text planted there
    named: Any  # the value the refusal must quote (as a JSON reader reads it), NOT_JSON, or NO_VALUE
    taken: tuple[str, dict[str, Any], str, Any] | None = None  # a control: (table, key, column, value) written
    kind: tuple[str, str] = ("", "")  # a bad value's column and label, for drawing each at least once


@dataclass(frozen=True)
class Campaign:
    """What the corpus is made from: the rows of a campaign's export, the action undo would undo,
    the action redo would redo, and the undo event that names it."""

    good: dict[str, Any]
    undo: int
    redo: int
    undo_event: int
    # Each real change of an event as JSON text, written once: a case's changes are these with its
    # own change put among them (some 1,800 cases are made from the two actions' changes).
    encoded: dict[int, list[str]] = field(default_factory=dict, compare=False, repr=False)

    def event(self, number: int) -> dict[str, Any]:
        return next(e for e in self.good["tables"]["event"] if e["id"] == number)

    def changes_text(self, number: int) -> list[str]:
        """`dumps` of each change of event `number`, in order."""
        if number not in self.encoded:
            self.encoded[number] = [dumps(change) for change in self.event(number)["changes"]]
        return self.encoded[number]


def dumps(value: Any) -> str:
    """JSON text of `value`, Raw parts as they stand, NaN and Infinity as Python writes them."""
    raws: list[str] = []

    def placeholder(item: Any) -> Any:
        if isinstance(item, Raw):
            raws.append(item.text)
            return f"@@raw{len(raws) - 1}@@"
        if isinstance(item, dict):
            return {key: placeholder(v) for key, v in item.items()}
        if isinstance(item, list):
            return [placeholder(v) for v in item]
        return item

    text = json.dumps(placeholder(value))
    for number, raw in enumerate(raws):
        text = text.replace(f'"@@raw{number}@@"', raw)
    return text


def as_read(value: Any) -> Any:
    """`value` as Adjutant reads it from JSON (orjson: an integer past 64 bits comes back a float),
    or NOT_JSON when orjson refuses it."""
    try:
        return orjson.loads(dumps(value))
    except orjson.JSONDecodeError:
        return NOT_JSON


# -- the kinds of column, from the tables themselves -----------------------------------------


def _kind(column: Column[Any]) -> Any:
    return column.type.impl_instance if isinstance(column.type, TypeDecorator) else column.type


def int_range(table: str, column: Column[Any]) -> tuple[int, int]:
    from models.export_format import DOMAIN, INT32, INT64

    low, high = INT64 if isinstance(_kind(column), BigInteger) else INT32
    domain = DOMAIN.get((table, column.name), {})
    return domain.get("ge", low), domain.get("le", high)


def controls_of(rng: random.Random) -> str:
    """A control character no form types: C0 (not tab or newline), DEL or C1."""
    pool = [c for c in map(chr, range(0x20)) if c not in "\t\n"] + ["\x7f"] + list(map(chr, range(0x80, 0xA0)))
    return rng.choice(pool)


def with_control(rng: random.Random, word: str = "Lützen") -> str:
    spot = rng.randrange(len(word) + 1)
    return word[:spot] + controls_of(rng) + word[spot:]


def _deep(depth: int) -> Any:
    value: Any = 1
    for _ in range(depth):
        value = {"a": value}
    return value


def bad_values(table: str, column: Column[Any], rng: random.Random) -> list[tuple[str, Any]]:
    """(label, value) of values `column` may not hold."""
    from models.export_format import MAX_JSON_DEPTH, MAX_TEXT, SHAPES

    kind, shape = _kind(column), SHAPES.get((table, column.name))
    nan, inf = float("nan"), float("inf")
    values: list[tuple[str, Any]] = [("a list", [1]), ("an object", {"a": 1})]
    if not column.nullable:
        values.append(("null", None))
    if isinstance(kind, Boolean):
        values += [("0", 0), ("1", 1), ("2", 2), ("text 'true'", "true"), ("1.0", 1.0), ("NaN", nan)]
    elif isinstance(kind, Integer):
        low, high = int_range(table, column)
        values += [
            ("one above its range", high + 1), ("one below its range", low - 1),
            ("drawn above its range", high + rng.randrange(2, 10**6)), ("drawn below its range", low - rng.randrange(2, 10**6)),
            ("2**31", 2**31), ("2**63", 2**63), ("-(2**63) - 1", -(2**63) - 1), ("10**30", 10**30),
            ("NaN", nan), ("Infinity", inf), ("-Infinity", -inf), ("1e400", Raw("1e400")),
            ("a fraction", low + 0.5), ("a whole float", float(low)), ("true", True), ("the number as text", str(low)),
        ]
        # 2**31 is a dice seed (64 bits): the whole numbers within the column's range are no bad value of it.
        values = [(label, v) for label, v in values if not (type(v) is int and low <= v <= high)]
    elif isinstance(kind, (Date, DateTime)):
        values += [("the 45th of the 13th month", "1813-13-45"), ("a word", "yesterday"), ("empty text", ""),
                   ("a number", 18130502), ("an hour 25", "1813-05-02T25:00:00"), ("a control character", with_control(rng, "1813-05-02"))]
    elif isinstance(kind, JSON):
        deep_nan, deep_control = {"a": {"b": [1, nan]}}, {"a": [{"b": with_control(rng)}]}
        if shape is None:  # a JSON object
            values = [(label, v) for label, v in values if label != "an object"]
            values += [("a list", []), ("a number", 5), ("text", "x"), ("true", True),
                       (f"{MAX_JSON_DEPTH + 1} deep", _deep(MAX_JSON_DEPTH + 1)), ("NaN inside", deep_nan),
                       ("a control character inside", deep_control), ("one in a key", {with_control(rng, "key"): 1}),
                       ("1e400 inside", {"a": [Raw("1e400")]})]
        else:  # a list of a shape
            values = [(label, v) for label, v in values if label != "a list"]
            item = get_args(shape)[0] if get_origin(shape) is list else None
            values += [("text", "x"), ("a number", 5), ("a list of lists", [[1]]), ("NaN inside", [nan]),
                       ("a list 40 deep", [_deep(40)]), ("null inside", [None])]
            if item is not None and getattr(item, "__annotations__", None):  # a TypedDict: modifiers
                values += [("a modifier without its label", [{"value": 1}]), ("a modifier's value as text", [{"label": "x", "value": "1"}]),
                           ("a modifier with an extra key", [{"label": "x", "value": 1, "extra": 1}]),
                           ("a modifier beyond its range", [{"label": "x", "value": 10**6 + 1}]),
                           ("a control character in a label", [{"label": with_control(rng), "value": 1}])]
            elif item is not None and get_args(item) and get_args(item)[0] is int:  # raw dice
                values += [("a die as text", [1, "6"]), ("a die beyond its range", [10**6 + 1]), ("a die true", [True]), ("a die 2.5", [2.5])]
            else:  # texts: an activation's members
                values += [("a number among texts", [5]), ("a control character in a text", [with_control(rng, "unit:ney")]),
                           ("100,001 characters", ["x" * (MAX_TEXT + 1)])]
    elif isinstance(kind, String):
        values += [("a number", 7), ("true", True), ("2.5", 2.5), ("NaN", nan), ("a list 1,000 deep", Raw("[" * 1000 + "]" * 1000)), (f"{MAX_TEXT + 1:,} characters", "x" * (MAX_TEXT + 1)),
                   ("a lone surrogate", "Lü\ud800tzen"), ("a control character", with_control(rng)),
                   ("another control character", with_control(rng, "Dresden"))]
        if get_origin(shape) is Literal:
            values.append(("a word it does not take", "".join(rng.choice(string.ascii_lowercase) for _ in range(rng.randrange(3, 12)))))
    return values


def _writable(tables: dict[str, Table]) -> list[Table]:
    return [table for name, table in sorted(tables.items()) if name != "event"]


def _key(table: Table, row: dict[str, Any] | None) -> dict[str, Any]:
    columns = list(table.primary_key.columns)
    if row is not None:
        return {c.name: row[c.name] for c in columns}
    return {c.name: 1 if isinstance(_kind(c), Integer) else "a_row" for c in columns}


def _plant(campaign: Campaign, doing: Doing, change: dict[str, Any], rng: random.Random) -> tuple[int, str]:
    """The event undo (or redo) would take, its changes with `change` at a drawn place among them."""
    number = campaign.undo if doing == "undo" else campaign.redo
    changes = list(campaign.changes_text(number))  # `dumps` of the list, read item by item: json.dumps writes ", " between items
    changes.insert(rng.randrange(len(changes) + 1), dumps(change))
    return number, "[" + ", ".join(changes) + "]"


def _value_change(table: Table, row: dict[str, Any] | None, column: str, value: Any, doing: Doing, whole: bool) -> dict[str, Any]:
    """A change that undo (`before`) or redo (`after`) would write `value` into `column` with: an
    update of a row, or (`whole`) a whole row inserted."""
    key = _key(table, row)
    if whole:
        written = {**(row or {}), **key, column: value}
        return {"table": table.name, "key": key, "before": written if doing == "undo" else None,
                "after": written if doing == "redo" else None}
    other = None if row is None else row.get(column)
    return {"table": table.name, "key": key, "before": {column: value if doing == "undo" else other},
            "after": {column: value if doing == "redo" else other}}


def value_cases(campaign: Campaign, rng: random.Random) -> Iterator[Case]:
    """Every bad value of every column that undo or redo may write, in a drawn direction and form."""
    from models import table_metadata

    for table in _writable(table_metadata().tables):
        rows = campaign.good["tables"].get(table.name) or []
        for column in table.columns:
            if column.primary_key or (table.name, column.name) == ("campaign", "version"):
                continue
            for label, value in bad_values(table.name, column, rng):
                doing: Doing = rng.choice(["undo", "redo"])
                row = rng.choice(rows) if rows else None
                whole = table.name != "campaign" and row is not None and rng.random() < 0.4
                change = _value_change(table, row, column.name, value, doing, whole)
                number, text = _plant(campaign, doing, change, rng)
                named = as_read(value)
                yield Case(f"{doing}: {table.name}.{column.name} {label} ({'a whole row' if whole else 'an update'})",
                           doing, number, text, named, kind=(f"{table.name}.{column.name}", label))


def control_cases(campaign: Campaign, rng: random.Random) -> Iterator[Case]:
    """A whole number at an end of its range, written into a real row by an update: taken."""
    from models import table_metadata

    for table in _writable(table_metadata().tables):
        rows = campaign.good["tables"].get(table.name) or []
        for column in table.columns:
            if (not rows or column.primary_key or column.foreign_keys or not isinstance(_kind(column), Integer)
                    or (table.name, column.name) == ("campaign", "version")):
                continue
            low, high = int_range(table.name, column)
            value = rng.choice([low, high])
            doing: Doing = rng.choice(["undo", "redo"])
            # Not a row the action itself adds or removes: undo or redo would find it gone.
            touched = {json.dumps(c["key"], sort_keys=True) for c in campaign.event(campaign.undo if doing == "undo" else campaign.redo)["changes"]
                       if c["table"] == table.name}
            untouched = [row for row in rows if json.dumps(_key(table, row), sort_keys=True) not in touched]
            if not untouched:
                continue
            row = rng.choice(untouched)
            change = _value_change(table, row, column.name, value, doing, whole=False)
            number, text = _plant(campaign, doing, change, rng)
            yield Case(f"{doing}: {table.name}.{column.name} = {value}, an end of its range", doing, number, text,
                       NO_VALUE, taken=(table.name, _key(table, row), column.name, value))


def _name(rng: random.Random) -> str:
    return "".join(rng.choice(string.ascii_lowercase + "_") for _ in range(rng.randrange(1, 16)))


def shape_cases(campaign: Campaign, rng: random.Random) -> Iterator[Case]:
    """Keys, tables, columns and changes that are no change a campaign's action makes."""
    from models import table_metadata

    def case(what: str, change: Any, named: Any = NO_VALUE) -> Case:
        doing: Doing = rng.choice(["undo", "redo"])
        number, text = _plant(campaign, doing, change, rng)
        return Case(f"{doing}: {what}", doing, number, text, named)

    unit = campaign.good["tables"]["unit"][0]
    update = {"table": "unit", "key": {"id": unit["id"]}, "before": {"location": "Erfurt"}, "after": {"location": "Lützen"}}
    for table in _writable(table_metadata().tables):
        rows = campaign.good["tables"].get(table.name) or []
        key = _key(table, rows[0] if rows else None)
        column = next(c.name for c in table.columns if not c.primary_key and c.name != "version")
        sides = {"before": {column: None}, "after": {column: None}}
        name, key_column = next(iter(key.items()))
        textual = isinstance(name, str) and isinstance(_kind(table.c[name]), String)
        wrong: Any = 7 if textual else str(key_column)
        for label, value in [("of the wrong type", wrong), ("null", None), ("a list", [key_column]),
                             ("NaN", float("nan")), ("a control character", with_control(rng, "ney") if textual else 2**31),
                             ("beyond INTEGER" if not textual else "an object", 2**31 if not textual else {"a": 1})]:
            named = NO_VALUE if value is None else as_read(value)
            yield case(f"{table.name}'s key {label}", {"table": table.name, "key": {**key, name: value}, **sides}, named)
        yield case(f"{table.name}'s key missing", {"table": table.name, "key": {}, **sides})
        yield case(f"{table.name}'s key with another column", {"table": table.name, "key": {**key, _name(rng) + "_x": 1}, **sides})
        yield case(f"{table.name}'s key changed by an update",
                   {"table": table.name, "key": key, "before": dict(key), "after": {name: wrong}})
        unknown = _name(rng) + "_col"
        yield case(f"{table.name}.{unknown}, no column of it",
                   {"table": table.name, "key": key, "before": {unknown: 1}, "after": {unknown: 2}})
        odd = with_control(rng, column)
        yield case(f"{table.name} with a control character in a column's name",
                   {"table": table.name, "key": key, "before": {odd: 1}, "after": {odd: 2}})
    tables = [_name(rng) for _ in range(3)] + ["event", "alembic_version", "sqlite_master", "unit_search", "", "UNIT", with_control(rng, "unit")]
    for table_name in tables:
        yield case(f"a table named {table_name!r}", {**update, "table": table_name})
    for label, table_value in [("a number", 5), ("null", None), ("a list", ["unit"])]:
        yield case(f"a table named by {label}", {**update, "table": table_value})
    yield case("the campaign's version", {"table": "campaign", "key": {"id": 1}, "before": {"version": 3}, "after": {"version": 4}})
    campaign_row = campaign.good["tables"]["campaign"][0]
    yield case("the campaign's row removed or added", {"table": "campaign", "key": {"id": 1},
                                                       "before": dict(campaign_row), "after": None})
    yield case("the campaign's row added", {"table": "campaign", "key": {"id": 1}, "before": None, "after": dict(campaign_row)})
    for label, change in [
        ("a number for a change", 5), ("text for a change", "unit"), ("a list for a change", [update]), ("null for a change", None),
        ("an empty change", {}), ("a change without its after", {k: v for k, v in update.items() if k != "after"}),
        ("a change with an extra part", {**update, "op": "drop"}), ("a change of nothing", {**update, "before": None, "after": None}),
        ("before as a list", {**update, "before": ["Erfurt"]}), ("after as text", {**update, "after": "Lützen"}),
        ("before and after of other columns", {**update, "before": {"location": "Erfurt"}, "after": {"name": "x"}}),
        ("an update of no column", {**update, "before": {}, "after": {}}),
        ("a row whose id is not its key's", {"table": "unit", "key": {"id": unit["id"]}, "before": {**unit, "id": "other"}, "after": None}),
        ("a row the campaign does not hold", {**update, "key": {"id": _name(rng) + "_nowhere"}}),
        # What a rule set judges of a whole row (models.export_format.ROW_CHECKS): the weather, the options.
        ("a weather the card does not know", {"table": "turn", "key": {"number": 1}, "before": {"weather": _name(rng) + "_storm"},
                                              "after": {"weather": _name(rng) + "_storm"}}),
        ("an option the rule set does not have", {"table": "campaign", "key": {"id": 1}, "before": {"options": {_name(rng) + "_opt": 1}},
                                                  "after": {"options": {_name(rng) + "_opt": 1}}}),
    ]:
        yield case(label, change)


def changes_cases(campaign: Campaign, rng: random.Random) -> Iterator[Case]:
    """An action's whole record of changes that is no list, or no JSON that Adjutant reads."""
    real = dumps(campaign.event(campaign.undo)["changes"])
    texts = ["NaN", "Infinity", "[1e400]", '["\\ud800"]', "garbage", "", "[", real[: rng.randrange(1, len(real))], "5", '"x"', "{}", "null", "true"]
    for text in texts:
        doing: Doing = rng.choice(["undo", "redo"])
        named = NO_VALUE
        try:
            orjson.loads(text)
        except orjson.JSONDecodeError:
            named = NOT_JSON
        yield Case(f"{doing}: the changes {text[:30]!r}", doing, campaign.undo if doing == "undo" else campaign.redo, text, named)


def replay_cases(campaign: Campaign) -> Iterator[Case]:
    """An undo event naming, for redo, what is no undone action: nothing, the creation, a done action, itself."""
    for number in (0, -1, 2**31, 2**40, 2**63, 1, campaign.undo, campaign.undo_event, max(e["id"] for e in campaign.good["tables"]["event"]) + 5):
        yield Case(f"redo: the undo event names event {number}", "redo", campaign.undo_event, json.dumps([{"event": number}]), NO_VALUE)


def corpus(campaign: Campaign, count: int, seed: int) -> list[Case]:
    """The first `count` cases of: each kind of bad value once (on a drawn column), the undo events
    and changes that are no JSON or no list, the controls, the bad keys, tables, columns and
    changes, each column's bad values once more (on every column), then every other bad value
    of every column, drawn."""
    core, more = parts(campaign, seed)
    return (core + more)[:count]


def sample(campaign: Campaign, seed: int, drawn: int) -> list[Case]:
    """The core of the corpus (each kind of bad value once, the undo events and changes that are no
    JSON or no list, the controls) and `drawn` cases drawn from all the rest: the suite's run,
    a different draw with each seed (tests/seeds.py)."""
    core, more = parts(campaign, seed)
    return core + random.Random(seed).sample(more, min(drawn, len(more)))


def parts(campaign: Campaign, seed: int) -> tuple[list[Case], list[Case]]:
    """(core, more): each kind of bad value once, the replays, changes and controls; then the bad
    keys, tables, columns and changes, each column's bad values once more, and every other value."""
    rng = random.Random(seed)
    values = list(value_cases(campaign, rng))
    rng.shuffle(values)
    labels: dict[str, Case] = {}
    columns: dict[str, Case] = {}
    labelled: set[tuple[str, str, int, str]] = set()  # _same of labels' cases: `in` on the list compared 600,000 pairs
    for case in values:
        column, label = case.kind
        if label not in labels:
            labels[label] = case
            labelled.add(_same(case))
        elif column not in columns and _same(case) not in labelled:
            columns[column] = case
    core = [*labels.values(), *replay_cases(campaign), *changes_cases(campaign, rng), *control_cases(campaign, rng)]
    first = [*core, *shape_cases(campaign, rng), *columns.values()]
    chosen = {_same(case) for case in first}
    return core, first[len(core):] + [case for case in values if _same(case) not in chosen]


def _same(case: Case) -> tuple[str, str, int, str]:
    """What makes two cases the same case: the rest (the value named, the kind) is read from these."""
    return case.what, case.doing, case.event, case.changes
