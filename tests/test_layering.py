"""Imports only point down: tui -> campaigns -> models, rules. rules imports nothing of ours."""

import ast
import subprocess
import sys
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


def imported(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
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
    for path in (ROOT / layer).rglob("*.py"):
        names = imported(path)
        upward = (names & ours) - ALLOWED[layer]
        assert not upward, f"{path.relative_to(ROOT)} imports {sorted(upward)}"
        banned = names & FORBIDDEN_THIRD_PARTY.get(layer, set())
        assert not banned, f"{path.relative_to(ROOT)} imports {sorted(banned)}"


@pytest.mark.parametrize("package", ["rules", "models", "campaigns"])
def test_no_textual_at_run_time(package):
    """As Harlequin does: import the whole layer in a fresh interpreter and look at sys.modules."""
    code = (
        "import importlib, pkgutil, sys\n"
        f"import {package}\n"
        f"for m in pkgutil.walk_packages({package}.__path__, '{package}.'):\n"
        "    if '.migrations.' in m.name: continue\n"
        "    importlib.import_module(m.name)\n"
        "print(sorted(n for n in ('textual', 'tui') if n in sys.modules))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"

