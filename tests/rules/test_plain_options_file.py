"""The plain reading of an options file (rules.options.plain_options_file) against the schema.

A campaign's options are read without pydantic where the file is plainly sound; the schema
(rules.schema.OptionsFile, strict, unknown keys refused) judges every other file. So the
plain reading may say no to a file the schema takes (it is then merely slower), but it must
never take one the schema refuses, and what it takes must read as the schema reads it: the
same fields, with the same defaults. Every options file of every rule set, and each of them
spoilt in every way drawn here, new each run.
"""

from __future__ import annotations

import random
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from rules import registry
from rules.options import plain_options_file
from rules.schema import OptionsFile
from tests import seeds
from tests.rules.test_plain_table_file import plain, spoilt


def options_files() -> list[Path]:
    found = (f.ruleset.folder / "options.toml" for f in registry.registered().values())
    return sorted(path for path in found if path.exists())


def verdict(data: Any) -> Any:
    try:
        return plain(OptionsFile.model_validate(data))
    except ValidationError:
        return "refused"


def test_every_options_file_is_read_plainly_as_the_schema_reads_it() -> None:
    files = options_files()
    assert len(files) >= 5
    for path in files:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        taken = plain_options_file(data)
        assert taken is not None, f"{path}: left to the schema"
        assert plain(taken) == verdict(data), path


def test_a_spoilt_options_file_is_never_taken_where_the_schema_refuses_it() -> None:
    seed = seeds.run_seed()
    print(seeds.replay(seed))
    rng = random.Random(seed)
    seen = {"taken": 0, "left": 0, "refused by both": 0}
    for path in options_files():
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        for _ in range(60):
            changed = spoilt(data, rng)
            taken, schema = plain_options_file(changed), verdict(changed)
            if taken is not None:
                assert plain(taken) == schema, f"{path}: {changed}"
                seen["taken"] += 1
            else:
                seen["left" if schema != "refused" else "refused by both"] += 1
    assert seen["taken"] > 20 and seen["refused by both"] > 100, seen


def test_the_few_shapes_the_schema_takes_are_taken_alike() -> None:
    option: dict[str, Any] = {"id": "a", "title": "A", "choices": {"x": "X"}, "default": "x", "reason": "r", "source": "s"}
    taken: tuple[dict[str, Any], ...] = (
        {}, {"option": []}, {"option": [option]}, {"option": [option | {"card": "words"}]},
        {"option": [option | {"card": ["one", "two"]}]}, {"option": [option | {"card": []}]},
    )
    for data in taken:
        assert plain(plain_options_file(data)) == verdict(data), data
    refused: tuple[dict[str, Any], ...] = (
        {"option": {}}, {"options": []}, {"option": [option | {"choices": {}}]}, {"option": [option | {"card": ["a", 1]}]},
        {"option": [option | {"default": 1}]}, {"option": [{k: v for k, v in option.items() if k != "source"}]},
    )
    for data in refused:
        assert plain_options_file(data) is None and verdict(data) == "refused", data


def test_reading_the_options_imports_no_pydantic() -> None:
    """A forced march's odds ask for the campaign's options: pydantic's models are not built for it."""
    code = (
        "import sys; from rules.options import resolve_options; resolve_options('allemagne1813', {'contact': 'adjacent'}); "
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('pydantic', 'pydantic_core') or m == 'rules.schema'))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.splitlines()[-1] == "[]", out
