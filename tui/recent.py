"""Recently opened campaign files, kept in the user's config directory."""

from __future__ import annotations

import json
import os
from pathlib import Path

KEEP = 10


def config_dir() -> Path:
    override = os.environ.get("ADJUTANT_CONFIG_DIR")
    if override:
        return Path(override)
    from platformdirs import user_config_dir

    return Path(user_config_dir("adjutant"))


def _path() -> Path:
    return config_dir() / "recent.json"


def recent_files() -> list[str]:
    try:
        data = json.loads(_path().read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return []  # no list yet, or a damaged one: start a new list
    return [str(p) for p in data if isinstance(p, str)][:KEEP] if isinstance(data, list) else []


def remember(target: str) -> None:
    """Put `target` first in the list; a list that cannot be written is not worth an error."""
    entry = target if "://" in target else str(Path(target).expanduser().absolute())
    files = [entry] + [f for f in recent_files() if f != entry]
    try:
        _path().parent.mkdir(parents=True, exist_ok=True)
        tmp = _path().with_suffix(".tmp")
        tmp.write_text(json.dumps(files[:KEEP], indent=1), encoding="utf-8")
        os.replace(tmp, _path())
    except OSError:
        pass
