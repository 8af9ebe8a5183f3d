"""The loader's plain reading of a table file (rules.loader.plain_table_file) against the schema.

A lookup reads its tables without pydantic where the file is plainly sound; the schema
(rules.schema.TableFile, strict, unknown keys refused) judges every other file. So the plain
reading may say no to a file the schema takes (it is then merely slower), but it must never
take one the schema refuses, and what it takes must read as the schema reads it: the same
fields, with the same defaults. Every table of every rule set, and each of them spoilt in
every way drawn here (a key dropped, a key unknown, a value of another type), new each run.
"""

from __future__ import annotations

import copy
import random
import subprocess
import sys
import tomllib
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from pydantic import BaseModel, ValidationError

from rules import registry
from rules.loader import plain_table_file
from rules.schema import TableFile
from tests import seeds

STRANGE = ["", "x", 0, 7, -1, 1.5, True, False, [], ["a"], [1], {}, {"label": "a"}, {"label": "a", "values": []},
           {"label": "a", "values": ["b", 2]}, {"axis": "roll"}, {"file": "f", "heading": "h"}, 1 << 63, [True],
           "more_than", "sometimes", {"a": 1}, {"a": "b"}, [{"band": "1", "cells": ["a"]}]]


def plain(value: Any) -> Any:
    """A reading as plain data: pydantic's models and the loader's namespaces alike."""
    if isinstance(value, BaseModel):
        return {name: plain(getattr(value, name)) for name in type(value).model_fields}
    if isinstance(value, SimpleNamespace):
        return {name: plain(item) for name, item in vars(value).items()}
    if isinstance(value, list):
        return [plain(item) for item in value]
    if isinstance(value, dict):
        return {key: plain(item) for key, item in value.items()}
    return value


def table_files() -> list[Path]:
    return sorted(path for found in registry.registered().values() for path in (found.ruleset.folder / "tables").glob("*.toml"))


def places(data: Any, where: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every key and item of a file's data, as a path from the top."""
    found = [where]
    if isinstance(data, dict):
        for key, item in data.items():
            found += places(item, (*where, key))
    elif isinstance(data, list):
        for index, item in enumerate(data):
            found += places(item, (*where, index))
    return found


def spoilt(data: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """The file with one thing changed: a key dropped or renamed, an unknown key, a value replaced."""
    changed = copy.deepcopy(data)
    where = rng.choice(places(changed)[1:])
    parent = changed
    for part in where[:-1]:
        parent = parent[part]
    last, how = where[-1], rng.random()
    if isinstance(parent, dict) and how < 0.2:
        del parent[last]
    elif isinstance(parent, dict) and how < 0.35:
        parent[f"{last}s"] = parent.pop(last)
    elif isinstance(parent, dict) and how < 0.45:
        parent["unknown"] = rng.choice(STRANGE)
    else:
        parent[last] = copy.deepcopy(rng.choice(STRANGE))
    return changed


def verdict(data: Any) -> Any:
    try:
        return plain(TableFile.model_validate(data))
    except ValidationError:
        return "refused"


def test_every_table_file_is_read_plainly_as_the_schema_reads_it() -> None:
    files = table_files()
    assert len(files) > 40
    for path in files:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        taken = plain_table_file(data)
        assert taken is not None, f"{path}: left to the schema"
        assert plain(taken) == verdict(data), path


def test_a_spoilt_table_file_is_never_taken_where_the_schema_refuses_it() -> None:
    seed = seeds.run_seed()
    print(seeds.replay(seed))
    rng = random.Random(seed)
    seen = {"taken": 0, "left": 0, "refused by both": 0}
    for path in table_files():
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        for _ in range(40):
            changed = spoilt(data, rng)
            taken, schema = plain_table_file(changed), verdict(changed)
            if taken is not None:
                assert plain(taken) == schema, f"{path}: {changed}"
                seen["taken"] += 1
            else:
                seen["left" if schema != "refused" else "refused by both"] += 1
    assert seen["taken"] > 100 and seen["refused by both"] > 500, seen


def test_a_lookup_imports_no_pydantic() -> None:
    """`adjutant rules lookup` on sound tables: pydantic's import was most of its time."""
    code = (
        "import sys; from tui.cli import main; main(['rules', 'lookup', 'allemagne1813', 'combat', 'roll=8', 'sp=35']); "
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('pydantic', 'pydantic_core', 'sqlalchemy', 'textual')))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.splitlines()[-1] == "[]", out


@pytest.mark.parametrize("target", ["at_least", "nearly"])
def test_a_target_is_one_the_schema_knows(target: str) -> None:
    data = tomllib.loads(table_files()[0].read_text(encoding="utf-8")) | {"target": target}
    assert (plain_table_file(data) is not None) == (verdict(data) != "refused")
