"""Named rules options: a changeable default wherever a card is silent or contradicts itself."""

from __future__ import annotations

import textwrap
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache

from types import SimpleNamespace
from typing import Any

from rules.errors import RulesError
from rules.loader import DataFileError, data_file


@dataclass(frozen=True)
class RuleOption:
    id: str
    title: str
    choices: dict[str, str]
    default: str
    reason: str
    source: str
    card: tuple[str, ...] = ()  # the card's words this reading rests on, exactly as printed (damage included)


@cache
def load_options(ruleset: str) -> dict[str, RuleOption]:
    path = data_file(ruleset, "options.toml")
    if not path.exists():
        return {}
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise DataFileError(f"{path}: cannot be read as TOML ({exc})") from None
    spec = plain_options_file(data)
    if spec is None:  # not plainly sound: the schema takes it or names its fault
        from pydantic import ValidationError

        from rules.schema import OptionsFile

        try:
            spec = OptionsFile.model_validate(data)
        except ValidationError as exc:
            raise DataFileError(_fault(path, data, exc)) from None
    options: dict[str, RuleOption] = {}
    for raw in spec.option:
        where = f"{path}: option {raw.id}"
        if raw.default not in raw.choices:
            raise DataFileError(f"{where}: default {raw.default!r} is not one of its choices")
        options[raw.id] = RuleOption(
            raw.id, raw.title, dict(raw.choices), raw.default, raw.reason, raw.source, _card_words(raw.card, where),
        )
    return options


# OptionsFile (rules/schema.py) in strict mode, unknown keys refused: here as plain tests that
# say yes only where the schema says yes, with the same fields and defaults
# (tests/rules/test_plain_options_file.py holds them to it). The first screen to ask for a
# campaign's options (a forced march's odds) no longer builds pydantic's models for it. A no
# here is no verdict: the schema judges the file.
_OPTION_KEYS = frozenset({"id", "title", "choices", "default", "reason", "source"})


def _plain_option(value: Any) -> Any:
    if type(value) is not dict or not _OPTION_KEYS <= value.keys() <= _OPTION_KEYS | {"card"}:
        return None
    if not all(type(value[key]) is str for key in _OPTION_KEYS - {"choices"}):
        return None
    choices, card = value["choices"], value.get("card", [])
    if type(choices) is not dict or not choices or not all(type(k) is str and type(v) is str for k, v in choices.items()):
        return None
    if type(card) is not str and not (type(card) is list and all(type(words) is str for words in card)):
        return None
    return SimpleNamespace(
        id=value["id"], title=value["title"], choices=choices, default=value["default"],
        reason=value["reason"], source=value["source"], card=card,
    )


def plain_options_file(data: Any) -> Any:
    """The fields of an options file the schema (OptionsFile) plainly takes, defaults filled in
    as it fills them; None for any other file, which the schema itself judges."""
    if type(data) is not dict or not data.keys() <= {"option"}:
        return None
    listed = data.get("option", [])
    if type(listed) is not list:
        return None
    option = [_plain_option(item) for item in listed]
    if any(item is None for item in option):
        return None
    return SimpleNamespace(option=option)


def _fault(path: object, data: dict[str, object], error: Any) -> str:
    """One sentence naming the file, the option and the key at fault (`error`: pydantic's ValidationError)."""
    from rules.schema import OptionsFile, faults, keys_at, where_in_file

    (kind, loc, message), extra = faults(error)
    if extra is not None:
        loc, kind = extra, "extra_forbidden"
    where = f"{path}"
    options = data.get("option")
    if loc[:1] == ("option",) and len(loc) >= 2 and isinstance(options, list):
        raw = options[int(loc[1])]
        name = raw.get("id") if isinstance(raw, dict) else None
        where += f": option {name if isinstance(name, str) else int(loc[1]) + 1}"
        loc = loc[2:]
    if kind == "extra_forbidden":
        allowed = keys_at(OptionsFile, ("option",)) if where != f"{path}" else keys_at(OptionsFile, ())
        return f"{where}: unknown key {loc[-1]!r} (the keys there are {', '.join(allowed)})"
    if kind == "missing":
        return f"{where}: missing {loc[-1]}"
    return f"{where}, {where_in_file(loc)}: {message}"


def _card_words(raw: object, where: str) -> tuple[str, ...]:
    """`card` is one quotation or a list of them."""
    words = [raw] if isinstance(raw, str) else raw
    if not isinstance(words, (list, tuple)) or not all(isinstance(w, str) and w.strip() for w in words):
        raise DataFileError(f"{where}: card is the card's words, a string or a list of strings")
    return tuple(words)


def resolve_options(ruleset: str, overrides: Mapping[str, str] | None = None) -> dict[str, str]:
    """Every option of the rule set with its chosen value: the default unless overridden."""
    options = load_options(ruleset)
    chosen = {o.id: o.default for o in options.values()}
    for key, value in (overrides or {}).items():
        if key not in options:
            raise RulesError(f"rule set {ruleset} has no option {key!r}")
        if value not in options[key].choices:
            raise RulesError(
                f"option {key} is one of " + ", ".join(options[key].choices) + f", not {value!r}"
            )
        chosen[key] = value
    return chosen


def render_options(ruleset: str, chosen: Mapping[str, str] | None = None, width: int = 100) -> str:
    """Every named reading of the rule set: its choices, the default and why, the card's words.

    `chosen` marks a campaign's own choice where it differs from the default.
    """
    options = load_options(ruleset)
    if not options:
        raise RulesError(f"rule set {ruleset} has no named options")
    picked = resolve_options(ruleset, chosen)
    lines: list[str] = [f"Rules options of {ruleset}: where the card is silent, damaged or contradicts itself"]
    for option in options.values():
        lines += ["", f"{option.id}: {option.title}"]
        for key, text in option.choices.items():
            marks = (" (default)" if key == option.default else "") + (" (chosen)" if key == picked[option.id] != option.default else "")
            lines.extend(textwrap.wrap(f"- {key}{marks}: {text}", width, initial_indent="  ", subsequent_indent="      "))
        for words in option.card:
            lines.extend(textwrap.wrap(f"Card: {' '.join(words.split())}", width, initial_indent="  ", subsequent_indent="    "))
        lines.extend(textwrap.wrap(f"Source: {option.source}", width, initial_indent="  ", subsequent_indent="    "))
        lines.extend(textwrap.wrap(f"Reason: {option.reason}", width, initial_indent="  ", subsequent_indent="    "))
    return "\n".join(lines)
