"""An event's plain changes written from their text give the bytes orjson writes of their value."""

from __future__ import annotations

import json
import random

import orjson
import pytest

from models.export_changes import PLAIN, STAND_IN, spliced
from models.exchange import ROW
from tests.seeds import replay, run_seed

PLAIN_TEXTS = [
    "[]",
    '[{"table": "unit", "key": {"id": "u1"}, "before": {"location": "Jena"}, "after": {"location": "Halle"}}]',
    '[{"table": "unit", "key": {"id": 7}, "before": null, "after": {}}, '
    '{"table": "campaign", "key": {}, "before": {"turn": -3}, "after": {"turn": 0}}]',
    # Text that looks like the structure, inside strings: brackets, braces, separators, DEL, C1.
    '[{"table": "}]", "key": {"[{": "}, {"}, "before": {"}, {": true}, "after": {"x": "]\x7f\u00e9\u0085"}}]',
]

NOT_PLAIN = [
    '[{"table": "unit", "key": {"id": "u1"}, "before": {"a": 1, "b": 2}, "after": null}]',  # two keys: sorted by orjson
    '[{"key": {"id": "u1"}, "table": "unit", "before": null, "after": null}]',  # another order
    '[{"table": "unit", "key": {"id": "u\\u00e9"}, "before": null, "after": null}]',  # an escape
    '[{"table": "unit", "key": {"id": 1.5}, "before": null, "after": null}]',  # a float
    '[{"table": "unit", "key": {"id": -0}, "before": null, "after": null}]',  # -0 is written 0
    '[{"table": "unit", "key": {"id": 1234567890123456789}, "before": null, "after": null}]',  # 19 digits
    '[{"table":"unit", "key": {"id": 1}, "before": null, "after": null}]',  # another spacing
    '[{"table": "unit", "key": {"id": 1}, "before": null, "after": null}] ',
    '[{"event": 3}]',  # an undo's target: read as JSON
    '{"table": "unit"}',
]


def _rows(changes: list[str]) -> list[tuple[object, ...]]:
    return [(number, "2025-01-01 00:00:00.000000", "action", "d", text, 0) for number, text in enumerate(changes)]


def _encoded(values: list[object]) -> bytes:
    rows = [{"id": number, "description": "d", "changes": value} for number, value in enumerate(values)]
    return orjson.dumps({"t": {"t": rows}}, option=ROW)


def _spliced_text(changes: list[str]) -> bytes:
    stood_in = spliced(_rows(changes), 4)
    assert stood_in is not None
    values = [orjson.loads(row[4]) for row in stood_in.raw]
    return stood_in.into(_encoded(values))


@pytest.mark.parametrize("text", PLAIN_TEXTS)
def test_a_plain_text_is_written_as_orjson_writes_its_value(text: str) -> None:
    assert PLAIN.fullmatch(text)
    batch = [PLAIN_TEXTS[1], text, NOT_PLAIN[0], text]
    assert _spliced_text(batch) == _encoded([json.loads(value) for value in batch])


@pytest.mark.parametrize("text", NOT_PLAIN)
def test_any_other_form_is_left_to_be_read_as_json(text: str) -> None:
    assert PLAIN.fullmatch(text) is None
    stood_in = spliced(_rows([text, PLAIN_TEXTS[1]]), 4)
    assert stood_in is not None and stood_in.plain == [1] and stood_in.raw[0][4] == text
    assert stood_in.raw[1][4] == STAND_IN


def test_a_batch_without_plain_text_or_with_a_value_not_text_is_not_spliced() -> None:
    assert spliced(_rows(NOT_PLAIN[:3]), 4) is None
    assert spliced(_rows([PLAIN_TEXTS[1], b"[]"]), 4) is None  # type: ignore[list-item]  # bytes, as a hostile file holds


def test_drawn_plain_changes_give_orjson_bytes() -> None:
    seed = run_seed()
    draw = random.Random(seed)
    alphabet = 'ab }{][,:"\\\n\t\x7f\u00e9\u0085\u2028 0-'

    def scalar() -> object:
        kind = draw.randrange(6)
        if kind == 0:
            return "".join(draw.choice(alphabet) for _ in range(draw.randrange(6)))
        if kind == 1:
            return draw.randrange(-(10**18), 10**18)
        return [True, False, None, 0][kind - 2]

    def obj() -> object:
        kind = draw.randrange(3)
        return None if kind == 0 else {} if kind == 1 else {str(scalar()): scalar()}

    texts = []
    for _ in range(300):
        changes = [
            {"table": str(scalar()), "key": obj(), "before": obj(), "after": obj()} for _ in range(draw.randrange(4))
        ]
        texts.append(json.dumps(changes, ensure_ascii=draw.random() < 0.5))
    if not any(PLAIN.fullmatch(text) for text in texts):
        texts.append(PLAIN_TEXTS[1])
    assert _spliced_text(texts) == _encoded([json.loads(text) for text in texts]), replay(seed)
