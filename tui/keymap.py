"""The user's keymap and theme (config.toml's [keymap] and theme): which binding ids
exist, whether each entry names keys a terminal can send and a key no other binding of
its screen already has, whether the theme is one the app has, and the keys each binding
has once remapped, for the help screen and the key line."""

from __future__ import annotations

import argparse
import pkgutil
from collections.abc import Iterable, Iterator
from importlib import import_module
from typing import TYPE_CHECKING

from campaigns.settings import Settings, drop_keymap, named
from tui.commands import ACTIONS, SCREENS

if TYPE_CHECKING:
    from textual.binding import Binding

MODIFIERS = ("ctrl", "shift", "alt", "meta", "super", "hyper")
MAX_KEYS = 8  # keys for one binding: a few aliases at most


def binding_ids() -> set[str]:
    """Every binding id of the app, its screens, forms and widgets."""
    return {c.id for c in SCREENS + ACTIONS} | {b.id for _, bindings in _scopes() for b in bindings if b.id}


def _scopes() -> Iterator[tuple[str, list[Binding]]]:
    """(class name, its bindings with those it inherits) for each screen and widget class
    of the app that declares bindings with an id: a binding of one never clashes with one
    of another, but may with one of its own class or its bases (Textual's Screen: tab,
    shift+tab, ctrl+c)."""
    import tui.modals
    import tui.screens
    import tui.widgets

    for package in (tui.screens, tui.modals, tui.widgets):
        for module in pkgutil.iter_modules(package.__path__, package.__name__ + "."):
            for value in vars(import_module(module.name)).values():
                if isinstance(value, type) and value.__module__ == module.name and _declared(value):
                    yield value.__qualname__, _bindings(value)


def _declared(cls: type) -> bool:
    from textual.binding import Binding

    return any(isinstance(b, Binding) and b.id for b in cls.__dict__.get("BINDINGS", None) or ())


def _bindings(cls: type) -> list[Binding]:
    """The bindings of `cls` and its bases, each key its own Binding, as Textual merges them."""
    from textual.binding import Binding

    found: list[Binding] = []
    for base in reversed(cls.__mro__):
        for binding in base.__dict__.get("BINDINGS", None) or ():
            if isinstance(binding, Binding):
                found += list(Binding.make_bindings([binding]))
    return found


def key_problem(keys: str) -> str | None:
    """Why `keys` (comma separated, as Binding and set_keymap take them) is not keys a
    terminal sends, or None: each is modifiers ("ctrl+", "shift+", "alt+"...) and one key,
    a character ("w", "?") or a key's name as Textual writes it ("f7", "enter", "question_mark")."""
    from textual.keys import KEY_NAME_REPLACEMENTS, Keys, key_to_character

    given = [k.strip() for k in keys.split(",")]
    if len(given) > MAX_KEYS:
        return f"holds {len(given)} keys, more than the {MAX_KEYS} one binding may have"
    names = {k.value.rpartition("+")[2] for k in Keys if not k.value.startswith("<")} | set(KEY_NAME_REPLACEMENTS.values())
    for key in given:
        *modifiers, name = key.split("+") if key != "+" else ["+"]
        bad = [m for m in modifiers if m not in MODIFIERS]
        if bad or len(set(modifiers)) < len(modifiers):
            return f"{named(key)} has a modifier Textual does not know (known: {', '.join(MODIFIERS)})"
        if not (len(name) == 1 and name.isprintable() or name in names or key_to_character(name) is not None):
            return f"{named(key)} is not a key Textual knows (a character, or a name such as f7, enter, question_mark)"
    return None


def _plain(key: str) -> str:
    """One spelling for one key: "?" and "question_mark" are the same key to Textual."""
    from textual.keys import key_to_character

    *modifiers, name = key.strip().split("+") if key.strip() != "+" else ["+"]
    return "+".join([*modifiers, key_to_character(name) or name]) if modifiers else key_to_character(name) or name


def clashes(keymap: dict[str, str], bindings: Iterable[Binding]) -> Iterator[tuple[str, str, str]]:
    """(binding id of keymap, key, the other binding) for each key the keymap gives a binding
    that another binding of the same bindings (one screen's, or the app's) answers to,
    as remapped: that key would reach one of them only."""
    holders: dict[str, list[tuple[str | None, str, str]]] = {}  # key -> (id, action, what it is)
    for binding in bindings:
        keys = keymap[binding.id] if binding.id in keymap else binding.key
        what = f"'{binding.id}'" if binding.id else f"Textual's {binding.description or binding.action} ({binding.key})"
        for key in keys.split(","):
            holders.setdefault(_plain(key), []).append((binding.id, binding.action, what))
    for key, held in holders.items():
        for number, (binding_id, action, _) in enumerate(held):
            if binding_id in keymap:
                others = [w for i, a, w in held[:number] + held[number + 1:] if a != action and i != binding_id]
                if others:
                    yield binding_id, key, others[0]


def app_bindings() -> list[Binding]:
    """The app's own bindings (every screen and action of tui.commands) and Textual's App's
    (ctrl+q, ctrl+c, ctrl+p for the palette), without importing the app."""
    from textual.app import App
    from textual.binding import Binding

    from tui.commands import browser_safe

    return _bindings(App) + [Binding(App.COMMAND_PALETTE_BINDING, "command_palette", "command palette")] + [
        Binding(browser_safe(c.key), c.action, c.name, id=c.id) for c in SCREENS + ACTIONS
    ]


def check_keymap(settings: Settings, *, every_screen: bool = False) -> None:
    """Name and drop the keymap entries no binding has, that are not keys, or that take a key
    another binding of the same screen (or of the app) has: each keeps its default keys.
    The screens are imported only when an id is not one of the app's own (or `every_screen`),
    so a plain start stays fast."""
    keymap = settings.file.keymap
    if not keymap:
        return
    own = {c.id for c in SCREENS + ACTIONS}
    path = settings.config_path
    screens = every_screen or bool(set(keymap) - own)
    if screens:
        drop_keymap(settings, binding_ids())
    for binding_id, keys in list(keymap.items()):
        problem = key_problem(keys)
        if problem:
            settings.problems.append(f"{path}: keymap {named(binding_id)}: {problem}; its default key is used")
            del keymap[binding_id]
    scopes = [app_bindings()] + ([b for _, b in _scopes()] if screens else [])
    for bindings in scopes:
        while True:
            found = next(clashes(keymap, bindings), None)
            if found is None:
                break
            binding_id, key, other = found
            settings.problems.append(
                f"{path}: keymap {named(binding_id)}: {named(key)} is already the key of {other}; its default key is used"
            )
            del keymap[binding_id]


def check_theme(settings: Settings) -> None:
    """Name a theme the app does not have; the default one is used."""
    theme = settings.file.theme
    if theme is None:
        return
    from textual.theme import BUILTIN_THEMES

    if theme not in BUILTIN_THEMES:
        settings.problems.append(
            f"{settings.config_path}: theme {named(theme)} is not a theme of the app (ctrl+p, then 'theme', lists them); "
            "the default is used"
        )
        settings.file.theme = None


def check_settings(settings: Settings, *, every_screen: bool = False) -> None:
    """What config.toml holds that only the app can judge: its keymap and its theme."""
    check_keymap(settings, every_screen=every_screen)
    check_theme(settings)


def config(args: argparse.Namespace) -> int:
    """`adjutant config`: the settings checked as the app checks them, every screen's keys too."""
    from campaigns.cli_config import config as show
    from campaigns.settings import load

    settings = load()
    check_settings(settings, every_screen=True)
    return show(args, settings)


def shown_key(keymap: dict[str, str], binding_id: str | None, key: str) -> str:
    """The key as the help screen shows it: the user's when remapped."""
    if binding_id and binding_id in keymap:
        key = keymap[binding_id]
    return key.replace("question_mark", "?")


def keys_said(keymap: dict[str, str], binding_id: str | None, key: str) -> str:
    """The keys of a binding as the palette says them ("? or f1", "/"): the user's when remapped."""
    from textual.keys import format_key

    return " or ".join(format_key(k.strip()) for k in shown_key(keymap, binding_id, key).split(","))
