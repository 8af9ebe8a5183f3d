"""The user's keymap (config.toml's [keymap]): which binding ids exist, and the keys
each one has once remapped, for the help screen."""

from __future__ import annotations

import pkgutil
from importlib import import_module

from campaigns.settings import Settings, drop_keymap
from tui.commands import ACTIONS, SCREENS


def binding_ids() -> set[str]:
    """Every binding id of the app, its screens and widgets."""
    from textual.binding import Binding

    import tui.screens
    import tui.widgets

    ids = {c.id for c in SCREENS + ACTIONS}
    for package in (tui.screens, tui.widgets):
        for module in pkgutil.iter_modules(package.__path__, package.__name__ + "."):
            for value in vars(import_module(module.name)).values():
                for binding in getattr(value, "BINDINGS", None) or () if isinstance(value, type) else ():
                    if isinstance(binding, Binding) and binding.id:
                        ids.add(binding.id)
    return ids


def check_keymap(settings: Settings) -> None:
    """Name and drop the keymap entries no binding has. The screens are imported
    only when an id is not one of the app's own, so a plain start stays fast."""
    own = {c.id for c in SCREENS + ACTIONS}
    if set(settings.file.keymap) - own:
        drop_keymap(settings, binding_ids())


def shown_key(keymap: dict[str, str], binding_id: str | None, key: str) -> str:
    """The key as the help screen shows it: the user's when remapped."""
    if binding_id and binding_id in keymap:
        key = keymap[binding_id]
    return key.replace("question_mark", "?")
