"""A generated corpus of bad config.toml files, each read as `adjutant config` and
`adjutant FILE` read it: every damage (TOML that does not parse, a number or a nesting
too large, a file too large, not UTF-8, a folder, a file that cannot be read, an unknown
key, a value of the wrong kind, an unknown binding id, keys Textual cannot read, a key
another binding has, an unknown theme) on every entry it can touch, and hostile text
(escape sequences, bidi controls, Rich markup, line breaks, huge values) in every place a
key or a value can hold it. Each bad entry is one sentence naming the key and the file,
printed inert, never a traceback; the app goes on with the defaults for it."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from campaigns import settings as config
from campaigns.text import has_control
from tests.tui.test_settings import write_config
from tui.cli import main as adjutant
from tui.keymap import check_settings

HOSTILE = {
    "escape": "\x1b[2J\x1b]0;owned\x07",
    "bidi": "\u202eetoN",
    "markup": "[/bogus][b]x",
    "line break": "a\nb",
    "huge": "x" * 40_000,
}
RAW = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


@dataclass(frozen=True)
class Case:
    name: str
    content: bytes | None  # None: made by `make` (a folder, a file that cannot be read)
    named: str  # what the sentence must name: the key, or for a whole file its path
    problems: int = 1
    make: str = ""
    also: str = ""  # what else the sentence names: the binding whose key was taken


def toml(text: str) -> str:
    """`text` as a TOML basic string."""
    return json.dumps(text)  # JSON's escapes are TOML's


def cases() -> Iterator[Case]:
    # The whole file.
    yield Case("not TOML", b'theme = "nord\n', "")
    yield Case("not UTF-8", b'theme = "\xff\xfe"\n', "")
    yield Case("a number of 5000 digits", b"theme = " + b"9" * 5000 + b"\n", "")
    yield Case("arrays 5000 deep", b"theme = " + b"[" * 5000 + b"]" * 5000 + b"\n", "")
    yield Case("over 100 KB", b'theme = "' + b"x" * 200_000 + b'"\n', "")
    yield Case("a folder", None, "", make="folder")
    yield Case("a link to itself", None, "", make="loop")
    # Each key of the file, with a value of each wrong kind.
    for kind, value in {"a number": "3", "a boolean": "true", "a list": "[1]", "a date": "2024-05-01",
                        "a table": "{ x = 1 }"}.items():
        yield Case(f"theme is {kind}", f"theme = {value}\n".encode(), "'theme'")
        yield Case(f"dice_mode is {kind}", f"dice_mode = {value}\n".encode(), "'dice_mode'")
        if kind != "a table":
            yield Case(f"keymap is {kind}", f"keymap = {value}\n".encode(), "'keymap'")
            yield Case(f"a keymap entry is {kind}", f'[keymap]\n"app.undo" = {value}\n'.encode(), "'app.undo'")
    yield Case("dice_mode not a mode", b'dice_mode = "sometimes"\n', "'dice_mode'")
    yield Case("an unknown key", b'colour = "red"\n', "'colour'")
    yield Case("an unknown theme", b'theme = "nosuchtheme"\n', "'nosuchtheme'")
    yield Case("an unknown binding id", b'[keymap]\n"screen.nowhere" = "f9"\n', "'screen.nowhere'")
    yield Case("an empty key", b'[keymap]\n"app.undo" = ""\n', "'app.undo'")
    # Keys Textual cannot read, on an app binding and on a screen's.
    for keys in ["ctrl+", "not a key", "cmd+z", "ctrl+ctrl+z", ",", "f7,", "f99", ",".join(f"f{n}" for n in range(1, 13))]:
        for binding in ["app.undo", "weather.roll"]:
            yield Case(f"{binding} = {keys!r}", f"[keymap]\n{toml(binding)} = {toml(keys)}\n".encode(), f"'{binding}'")
    # A key another binding has: of the app, of Textual's app, of the same screen; and two entries on one key.
    for binding, key, other in [("screen.weather", "o", "screen.overview"), ("screen.weather", "q", "app.quit"),
                                ("app.undo", "ctrl+p", "command palette"), ("app.redo", "ctrl+q", "Quit"),
                                ("screen.luck", "?", "app.help"), ("weather.roll", "e", "weather.enter"),
                                ("oob.add_unit", "tab", "Focus Next")]:
        yield Case(f"{binding} = {key!r}, taken", f"[keymap]\n{toml(binding)} = {toml(key)}\n".encode(), f"'{binding}'",
                   also=other)
    yield Case("two entries on one key", b'[keymap]\n"screen.weather" = "f9"\n"screen.overview" = "f9"\n',
               "'screen.overview'", also="'screen.weather'")
    # Hostile text in each place a key or a value can hold it.
    for kind, text in HOSTILE.items():
        yield Case(f"{kind} in an unknown key", f"{toml(text)} = 1\n".encode(), "")
        yield Case(f"{kind} in the theme", f"theme = {toml(text)}\n".encode(), "")
        yield Case(f"{kind} in dice_mode", f"dice_mode = {toml(text)}\n".encode(), "'dice_mode'")
        yield Case(f"{kind} in a binding id", f"[keymap]\n{toml(text)} = \"f9\"\n".encode(), "")
        yield Case(f"{kind} in a key", f"[keymap]\n\"app.undo\" = {toml(text)}\n".encode(), "'app.undo'")


CASES = list(cases())


def made(case: Case, folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "config.toml"
    if case.make == "folder":
        path.mkdir()
    elif case.make == "loop":
        path.symlink_to(path.name)
    else:
        assert case.content is not None
        path.write_bytes(case.content)
    return path


def check_sentences(lines: list[str], path: Path, case: Case) -> None:
    assert len(lines) == case.problems, lines
    for line in lines:
        assert str(path) in line, line
        assert case.named in line and case.also in line, line
        assert not RAW.search(line) and "Traceback" not in line, line
        assert len(line) < 400, line


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_each_bad_config_is_one_sentence_naming_the_key_and_the_file(case, still_world, capsys):
    path = made(case, still_world)
    settings = config.load()
    check_settings(settings, every_screen=True)
    check_sentences(settings.problems, path, case)
    # The defaults where the entry was bad, and only values of the right kind.
    assert settings.dice_mode in ("rolled", "entered")
    assert settings.theme is None
    assert all(isinstance(k, str) and not has_control(v) and len(v) < 100 for k, v in settings.keymap.items())

    assert adjutant(["config"]) == 1
    out, err = capsys.readouterr()
    check_sentences(err.splitlines(), path, case)
    assert not RAW.search(out)

    # `adjutant FILE` says the same before it opens the file (a missing one: refused after them).
    assert adjutant([str(still_world / "missing.campaign")]) == 2
    lines = capsys.readouterr().err.splitlines()
    assert lines[-1].endswith("does not exist")
    check_sentences(lines[:-1], path, case)


def test_a_swap_of_two_keys_is_no_clash(still_world):
    write_config(still_world, '[keymap]\n"screen.weather" = "o"\n"screen.overview" = "w"\n"app.help" = "question_mark,f2"\n')
    settings = config.load()
    check_settings(settings, every_screen=True)
    assert settings.problems == []
    assert settings.keymap == {"screen.weather": "o", "screen.overview": "w", "app.help": "question_mark,f2"}


def test_a_good_theme_and_good_keys_pass(still_world):
    write_config(still_world, 'theme = "nord"\n[keymap]\n"weather.roll" = "ctrl+r"\n"map.zoom_in" = "plus,="\n"app.undo" = "ctrl+shift+z"\n')
    settings = config.load()
    check_settings(settings, every_screen=True)
    assert settings.problems == [] and settings.theme == "nord" and len(settings.keymap) == 3


def test_every_binding_id_is_screen_dot_action_and_every_id_the_readme_names_exists():
    """A user writes the ids the README gives: each must be one (`oob.add_unit` was once
    `_edits().add_unit`, left by a rename of the code, and no keymap could reach it)."""
    from tui.keymap import binding_ids

    ids = binding_ids()
    assert [i for i in ids if not re.fullmatch(r"[a-z]+\.[a-z_]+", i)] == []
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    section = readme[readme.index("### Settings"):readme.index("### The log")]
    named = set(re.findall(r"[`\"]([a-z]+\.[a-z_]+)[`\"]", section)) - {"config.toml"}  # a file, not an id
    assert named and named - ids == set()
