"""The user's settings, read in one place: the ADJUTANT_* environment variables
and config.toml in the user's config folder (ADJUTANT_CONFIG_DIR moves it).

A bad entry never stops the app: it is named in one sentence (key and file)
in `Settings.problems`, and its default is used instead.

pydantic checks config.toml's entries, and is imported only when the file holds
some: its import is some 0.1-0.3 CPU-s, which `adjutant log` or `adjutant check`
(that never need it otherwise) would pay at every start for a file most users
never write.
"""

from __future__ import annotations

import json
import os
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal
from urllib.parse import urlsplit

from campaigns.text import one_line

if TYPE_CHECKING:
    from pydantic import TypeAdapter
    from pydantic_core import ErrorDetails

CONFIG_FILE = "config.toml"
RECENT_FILE = "recent.json"
LOG_FILE = "adjutant.log"
MAX_CONFIG_BYTES = 100_000  # a settings file of a few lines; more is not one worth reading
SHOWN_CHARS = 40  # of a key or value quoted in a sentence: enough to know it again


@dataclass
class FileSettings:
    """What config.toml may hold; any other key is a mistake worth naming.
    Its entries are checked by pydantic against these fields (`_checker`)."""

    theme: str | None = None  # a Textual theme name, remembered when chosen in the palette
    dice_mode: Literal["rolled", "entered"] = "rolled"  # for `adjutant new` and the start screen
    keymap: dict[str, str] = field(default_factory=dict)  # binding id -> keys, as Textual's App.set_keymap takes them


FILE_KEYS = tuple(f.name for f in fields(FileSettings))
KEEP_RECENT = 10


@cache
def _checker() -> TypeAdapter[FileSettings]:
    """pydantic's check of FileSettings, built the first time a config.toml has entries."""
    from pydantic import TypeAdapter

    return TypeAdapter(FileSettings)


ENV_PREFIX = "ADJUTANT_"


@dataclass
class Environment:
    """The environment variables, each ADJUTANT_ + the field's name, in any case.

    pydantic-settings' idea (a model whose fields are read from the environment) by
    hand, and without pydantic: four text variables need no checking."""

    database_url: str | None = None  # the campaign to open when none is named
    config_dir: str | None = None  # where config.toml and recent.json are
    log_dir: str | None = None  # where adjutant.log is
    debug: str | None = None  # any value: Textual's traceback instead of one line

    @classmethod
    def read(cls, environ: Mapping[str, str] | None = None) -> Environment:
        """The fields found in `environ` (os.environ by default); the name's case does not count."""
        known = {f.name for f in fields(cls)}
        found = {}
        for name, value in (os.environ if environ is None else environ).items():
            if name[: len(ENV_PREFIX)].upper() == ENV_PREFIX:
                key = name[len(ENV_PREFIX):].lower()
                if key in known:
                    found[key] = value
        return cls(**found)


class Settings:
    def __init__(self, environment: Environment, file: FileSettings, problems: list[str]) -> None:
        self.environment = environment
        self.file = file
        self.problems = problems  # one sentence per bad entry, for stderr

    @property
    def database_url(self) -> str | None:
        return self.environment.database_url or None

    @property
    def debug(self) -> bool:
        return bool(self.environment.debug)

    @property
    def config_dir(self) -> Path:
        if self.environment.config_dir:
            return Path(self.environment.config_dir)
        from platformdirs import user_config_dir

        return Path(user_config_dir("adjutant"))

    @property
    def config_path(self) -> Path:
        return self.config_dir / CONFIG_FILE

    @property
    def recent_path(self) -> Path:
        return self.config_dir / RECENT_FILE

    @property
    def log_dir(self) -> Path:
        if self.environment.log_dir:
            return Path(self.environment.log_dir)
        from platformdirs import user_log_dir

        return Path(user_log_dir("adjutant"))

    @property
    def log_path(self) -> Path:
        return self.log_dir / LOG_FILE

    @property
    def theme(self) -> str | None:
        return self.file.theme

    @property
    def dice_mode(self) -> str:
        return self.file.dice_mode

    @property
    def keymap(self) -> dict[str, str]:
        return dict(self.file.keymap)


def load_environment() -> Settings:
    """The settings without reading config.toml: where the files are."""
    return Settings(Environment.read(), FileSettings(), [])


def load() -> Settings:
    """The settings as the environment and config.toml give them now."""
    settings = load_environment()
    path = settings.config_path
    values = _read(path, settings.problems)
    settings.file = _validated(values, path, settings.problems)
    return settings


def named(value: object) -> str:
    """`value` quoted for a sentence: one line, no control characters, at most SHOWN_CHARS
    characters (a key or value of config.toml may hold anything, and a sentence is printed)."""
    text = one_line(value)
    return "'" + (text if len(text) <= SHOWN_CHARS else text[: SHOWN_CHARS - 3] + "...") + "'"


def _read(path: Path, problems: list[str]) -> dict[str, Any]:
    try:
        with path.open("rb") as file:
            data = file.read(MAX_CONFIG_BYTES + 1)
    except FileNotFoundError:
        return {}
    except OSError as error:
        problems.append(f"{path} cannot be read ({error.strerror or error}); the default settings are used")
        return {}
    if len(data) > MAX_CONFIG_BYTES:
        problems.append(f"{path} is larger than a settings file can be ({MAX_CONFIG_BYTES:,} bytes); the default settings are used")
        return {}
    try:
        return tomllib.loads(data.decode("utf-8"))
    except UnicodeDecodeError as error:
        problems.append(f"{path} is not UTF-8 text (byte {error.start + 1}); the default settings are used")
    except tomllib.TOMLDecodeError as error:
        problems.append(f"{path} is not valid TOML ({one_line(error)}); the default settings are used")
    except (ValueError, RecursionError):  # a number of thousands of digits, or arrays nested thousands deep
        problems.append(f"{path} is not valid TOML (a value too large or nested too deep); the default settings are used")
    return {}


def _validated(values: dict[str, Any], path: Path, problems: list[str]) -> FileSettings:
    """Drop each bad entry, naming it, and keep the good ones."""
    for key in [k for k in values if k not in FILE_KEYS]:
        problems.append(f"{path}: unknown key {named(key)} (known: {', '.join(FILE_KEYS)}); it is ignored")
        del values[key]
    keymap = values.get("keymap")
    if isinstance(keymap, dict):
        keymap = values["keymap"] = dict(_flat(keymap))  # screen.overview = "O" unquoted is a table in TOML
        for binding, keys in list(keymap.items()):
            if not isinstance(keys, str) or not keys.strip():
                problems.append(f"{path}: keymap {named(binding)} must be keys as text, such as \"ctrl+w\"; its default key is used")
                del keymap[binding]
    if not values:
        return FileSettings()
    from pydantic import ValidationError

    while True:
        try:
            return _checker().validate_python(values)  # the unknown keys are gone: dropped above
        except ValidationError as error:
            first = error.errors()[0]
            key = str(first["loc"][0])
            problems.append(f"{path}: '{key}': {_reason(first)}; its default is used")
            values.pop(key, None)


def _flat(table: dict[str, Any], prefix: str = "") -> Any:
    for key, value in table.items():
        if isinstance(value, dict):
            yield from _flat(value, f"{prefix}{key}.")
        else:
            yield f"{prefix}{key}", value


def _reason(error: ErrorDetails) -> str:
    if error["type"] == "literal_error":
        return f"must be {error['ctx']['expected']}"
    return error["msg"][0].lower() + error["msg"][1:]


def drop_keymap(settings: Settings, known: set[str]) -> None:
    """Keep only the keymap entries whose binding id exists, naming the others."""
    for binding in [b for b in settings.file.keymap if b not in known]:
        settings.problems.append(
            f"{settings.config_path}: keymap {named(binding)} is not a binding id (the README's Settings section lists them); it is ignored"
        )
        del settings.file.keymap[binding]


def recent_files() -> list[str]:
    """The campaigns opened last, newest first."""
    try:
        data = json.loads(load_environment().recent_path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return []  # no list yet, or a damaged one: start a new list
    return [str(p) for p in data if isinstance(p, str)][:KEEP_RECENT] if isinstance(data, list) else []


def remember(target: str) -> None:
    """Put `target` first in the recent files; a list that cannot be written is not worth an error.
    A database URL that holds a password is not kept: recent.json is no place for one (libpq's
    ~/.pgpass or PGPASSWORD keep it, and the URL without it then opens the campaign)."""
    if "://" in target:
        try:
            if urlsplit(target).password is not None:
                return
        except ValueError:  # not a URL urllib can read: not one worth keeping either
            return
    entry = target if "://" in target else str(Path(target).expanduser().absolute())
    files = [entry] + [f for f in recent_files() if f != entry]
    path = load_environment().recent_path
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp")
        tmp.write_text(json.dumps(files[:KEEP_RECENT], indent=1), encoding="utf-8")
        os.replace(tmp, path)
    except OSError:
        pass


def remember_theme(theme: str) -> None:
    """Write the theme into config.toml, keeping what else it holds as it was (its comments too)."""
    path = load_environment().config_path
    problems: list[str] = []
    values = _read(path, problems)
    if problems:
        return  # a file the user must mend first: never overwrite it
    text = path.read_text(encoding="utf-8") if path.exists() else ""
    values["theme"] = theme
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    tmp.write_text(_with_theme(text, theme, values), encoding="utf-8")
    os.replace(tmp, path)


_THEME_LINE = re.compile(r'^(?P<key>[ \t]*theme[ \t]*=[ \t]*)(?P<value>"(?:[^"\\\n]|\\.)*"|\S+)(?P<rest>[ \t]*(?:#.*)?)$', re.M)
_TABLE_LINE = re.compile(r"^[ \t]*\[", re.M)


def _with_theme(text: str, theme: str, values: dict[str, Any]) -> str:
    """config.toml's `text` with its theme line set to `theme`, every other line (the user's
    comments too) as it was: the theme line replaced, or a new one put first. When the result
    would not read back as `values` (a file laid out some other way), the values written anew."""
    first_table = _TABLE_LINE.search(text)
    top = text[: first_table.start()] if first_table else text
    line = _THEME_LINE.search(top)
    if line:
        edited = text[: line.start("value")] + _value(theme) + text[line.end("value"):]
    else:
        edited = f"theme = {_value(theme)}\n" + text
    try:
        if tomllib.loads(edited) == values:
            return edited
    except tomllib.TOMLDecodeError:
        pass
    return dumps(values)


def dumps(values: dict[str, Any]) -> str:
    """TOML for what config.toml holds: strings, numbers, lists of them and one level of tables."""
    plain = [(k, v) for k, v in values.items() if not isinstance(v, dict)]
    tables = [(k, v) for k, v in values.items() if isinstance(v, dict) and v]
    lines = [f"{_key(k)} = {_value(v)}" for k, v in plain]
    for name, table in tables:
        lines += ["", f"[{_key(name)}]"] + [f"{_key(k)} = {_value(v)}" for k, v in table.items()]
    return "\n".join(lines) + "\n"


def _key(key: str) -> str:
    return key if key.replace("_", "").replace("-", "").isalnum() and key.isascii() else json.dumps(key)


def _value(value: Any) -> str:
    # A JSON string with ASCII escapes is a TOML basic string too.
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, list):
        return "[" + ", ".join(_value(v) for v in value) + "]"
    return json.dumps(str(value))
