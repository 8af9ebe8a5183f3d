"""New campaigns for tests that need one to work on, built once per worker and copied.

Building a campaign runs every migration and writes the order of battle: about
0.15 s of CPU on a file and more on PostgreSQL, against a few milliseconds to copy
a file or to create a database from a template. Hundreds of tests start from a new
campaign without testing how it is made, so each kind they ask for (scenario, seed,
dice mode, name) is made once per worker by the real create_campaign and copied:
a `.campaign` file byte for byte (shutil.copyfile), a PostgreSQL database with
`CREATE DATABASE ... TEMPLATE`. The copies of one kind share the campaign's random
identity, dice salt and creation time; a test about those, or about making a
campaign at all (tests/campaigns/test_setup.py, `adjutant new`, the migrations),
makes its own with create_campaign.

Measured with -n 0, the tree before and after run side by side (CPU seconds of
pytest and its children; the PostgreSQL server's not counted): tests/campaigns 128.7
to 100.9, tests/models 89.1 to 78.8, tests/club 29.4 to 27.6. A campaign on
PostgreSQL: 1.5 s of wall time and 0.29 CPU-s in the test against 0.23 s and 0.003
(medians of 8, alternately, on a loaded machine).

tests/tui/conftest.py keeps its own copy of the same idea for the app tests.
"""

from __future__ import annotations

import atexit
import itertools
import os
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from sqlalchemy.engine import URL

from campaigns.scenario import Scenario, load_scenario
from campaigns.setup import create_campaign
from models.targets import sqlite_path, to_url
from rules.dice import ROLLED

T = TypeVar("T")

_Key = tuple[str, int, str, str | None]
_files: dict[_Key, Path] = {}
_databases: dict[tuple[str, _Key], str] = {}
_numbers = itertools.count(1)


def new_campaign(
    target: str | Path,
    scenario: str | Scenario = "spring1813",
    *,
    seed: int,
    dice_mode: str = ROLLED,
    name: str | None = None,
) -> str | Path:
    """Put a new campaign of `scenario` at `target` (a `.campaign` path, or the URL of
    an empty PostgreSQL database from the postgres_url fixture) and return `target`.

    The seed is required: a campaign made with a random seed is one a test wants new."""
    scenario_id = scenario if isinstance(scenario, str) else scenario.id
    key: _Key = (scenario_id, seed, dice_mode, name)
    url = to_url(target)
    path = sqlite_path(url)
    if path is not None:
        shutil.copyfile(_template_file(key), path)
    else:
        _copy_database(url.set(database="postgres"), url.database or "", key)
    return target


def _make(target: str | Path, key: _Key) -> None:
    scenario_id, seed, dice_mode, name = key
    create_campaign(target, load_scenario(scenario_id), seed=seed, dice_mode=dice_mode, name=name).close()


def _template_file(key: _Key) -> Path:
    made = _files.get(key)
    if made is None:
        folder = Path(tempfile.mkdtemp(prefix="adjutant-template-"))
        atexit.register(shutil.rmtree, folder, True)
        made = folder / "template.campaign"
        _make(made, key)
        assert [p.name for p in folder.iterdir()] == [made.name], "a new campaign is more than one file: copy them all"
        _files[key] = made
    return made


def _copy_database(server: URL, name: str, key: _Key) -> None:
    """Replace the empty database `name` by a copy of the template database of `key`."""
    import psycopg

    libpq = server.set(drivername="postgresql").render_as_string(hide_password=False)
    where = (libpq, key)
    template = _databases.get(where)
    with psycopg.connect(libpq, autocommit=True) as connection:
        if template is None:
            template = f"adjutant_template_{os.getpid()}_{next(_numbers)}"
            connection.execute(f'CREATE DATABASE "{template}"')
            _make(server.set(drivername="postgresql+psycopg", database=template).render_as_string(hide_password=False), key)
            atexit.register(_drop, libpq, template)
            _databases[where] = template
        connection.execute(f'DROP DATABASE "{name}"')
        connection.execute(f'CREATE DATABASE "{name}" TEMPLATE "{template}"')


def _drop(libpq: str, name: str) -> None:
    """Drop a template database at exit, when the server still runs (one named by
    ADJUTANT_TEST_POSTGRES_URL; the suite's own is gone by then, with its data)."""
    import psycopg

    try:
        with psycopg.connect(libpq, autocommit=True, connect_timeout=2) as connection:
            connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    except psycopg.Error:
        pass


_built: dict[tuple[str, str], tuple[str, object]] = {}  # (server, name) -> (template database, what build returned)


def database_built_once(postgres_url: str, name: str, build: Callable[[str], T]) -> T:
    """The empty database of `postgres_url` replaced by a copy of one `build(url)` filled once per
    worker and server under `name` (CREATE DATABASE ... TEMPLATE, as new campaigns are copied
    here); what `build` returned then. For a fixture that plays the same actions before each of
    its tests (the club's turn, a battle fought): with the dice from a fixed seed or typed in,
    they make the same rows every time but for the times the actions were stamped with."""
    import psycopg
    from sqlalchemy.engine import make_url

    url = make_url(postgres_url)
    server = url.set(drivername="postgresql", database="postgres").render_as_string(hide_password=False)
    with psycopg.connect(server, autocommit=True) as connection:
        made = _built.get((server, name))
        if made is None:
            template = f"adjutant_{name}_{os.getpid()}"
            connection.execute(f'CREATE DATABASE "{template}"')
            atexit.register(_drop, server, template)
            made = _built[(server, name)] = (template, build(url.set(database=template).render_as_string(hide_password=False)))
        connection.execute(f'DROP DATABASE "{url.database}"')
        connection.execute(f'CREATE DATABASE "{url.database}" TEMPLATE "{made[0]}"')
    return made[1]  # type: ignore[return-value]  # what build returned under this name (object in the dict)
