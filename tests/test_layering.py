"""Imports only point down: tui -> campaigns -> models, rules. rules imports nothing of ours."""

import ast
import json
import subprocess
import sys
import unicodedata
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
ALLOWED = {
    "rules": {"rules"},
    "models": {"models", "rules"},
    "campaigns": {"campaigns", "models", "rules"},
    # Screens reach storage only through campaigns/: no ORM rows of their own.
    "tui": {"tui", "campaigns", "rules"},
}
FORBIDDEN_THIRD_PARTY = {"rules": {"textual", "sqlmodel", "sqlalchemy"}, "models": {"textual"}, "campaigns": {"textual"}}


def imported(path: Path, *, only: set[str] | None = None) -> set[str]:
    """The top-level packages `path` imports by name (absolute imports, anywhere in the file).

    With `only`, a file whose text names none of them (as Python reads names: NFKC) is not
    parsed: an import of a package names it, so the file imports none of `only`, and an empty
    set is the answer for them. Walking every parsed file's tree cost some 0.6 CPU-s."""
    text = path.read_text(encoding="utf-8")
    if only is not None:
        read = unicodedata.normalize("NFKC", text)
        if not any(name in read for name in only):
            return set()
    tree = ast.parse(text)
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
    return names


@pytest.mark.parametrize("layer", sorted(ALLOWED))
def test_imports_point_down(layer):
    ours = set(ALLOWED)
    refused = (ours - ALLOWED[layer]) | FORBIDDEN_THIRD_PARTY.get(layer, set())
    for path in (ROOT / layer).rglob("*.py"):
        names = imported(path, only=refused)
        upward = (names & ours) - ALLOWED[layer]
        assert not upward, f"{path.relative_to(ROOT)} imports {sorted(upward)}"
        banned = names & FORBIDDEN_THIRD_PARTY.get(layer, set())
        assert not banned, f"{path.relative_to(ROOT)} imports {sorted(banned)}"


# The layers imported one after another in one fresh interpreter, each looked at once it is in:
# what a layer brings in stays, so textual found after `models` was brought in by models or by
# rules, which was looked at alone before it (a process each cost two interpreters more).
LAYERS_IN_TURN = ["rules", "models", "campaigns"]
IMPORT_IN_TURN = """
import importlib, json, pkgutil, sys, traceback
for package in sys.argv[1:]:
    try:
        for m in pkgutil.walk_packages(importlib.import_module(package).__path__, package + "."):
            if ".migrations." in m.name: continue
            importlib.import_module(m.name)
    except BaseException:
        print(json.dumps({package: traceback.format_exc()}))
        break
    print(json.dumps({package: sorted(n for n in ("textual", "tui") if n in sys.modules)}))
"""


@pytest.fixture(scope="module")
def at_run_time() -> dict[str, object]:
    done = subprocess.run([sys.executable, "-c", IMPORT_IN_TURN, *LAYERS_IN_TURN], capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    return {k: v for line in done.stdout.splitlines() for k, v in json.loads(line).items()}


@pytest.mark.parametrize("package", LAYERS_IN_TURN)
def test_no_textual_at_run_time(package, at_run_time):
    """As Harlequin does: import the whole layer in a fresh interpreter and look at sys.modules."""
    assert package in at_run_time, f"not imported: a layer before it failed ({at_run_time})"
    assert at_run_time[package] == [], at_run_time[package]
