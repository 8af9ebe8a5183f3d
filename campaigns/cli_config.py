"""`adjutant config`: where the settings file and the log are, and what the settings hold."""

from __future__ import annotations

import argparse
import sys
from dataclasses import asdict

from campaigns import settings as settings_file
from campaigns.text import shown


def config(args: argparse.Namespace, settings: settings_file.Settings | None = None) -> int:
    """Print the settings: `settings` as the app checked them (tui.keymap.config), or as read."""
    if settings is None:
        settings = settings_file.load()
    path = settings.config_path
    print(shown(f"Settings file: {path}" + ("" if path.exists() else " (not there yet: the defaults are used)")))
    print(shown(f"Log file: {settings.log_path} (attach it to a bug report)"))
    print()
    values = {key: value for key, value in asdict(settings.file).items() if value is not None}
    print(shown(settings_file.dumps(values).rstrip("\n")))
    if not settings.keymap:
        print("# [keymap]: no key remapped (binding id = \"keys\"; see the README)")
    if settings.theme is None:
        print("# theme: not chosen yet (ctrl+p, then 'theme', in the app)")
    recent = settings_file.recent_files()
    print()
    print(shown(f"Recent files ({settings.recent_path}):"))
    for entry in recent or ["(none yet)"]:
        print(shown(f"  {entry}"))
    for problem in settings.problems:
        print(shown(f"adjutant: {problem}"), file=sys.stderr)
    return 1 if settings.problems else 0
