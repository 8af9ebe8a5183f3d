"""constraints.txt pins every package `adjutant[test]` installs, at the version installed
(the one the suite runs with), and nothing else; each pin is within pyproject.toml's bounds;
.ci/run and the README's install install from it, in one line."""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from pathlib import Path

from packaging.requirements import Requirement

ROOT = Path(__file__).resolve().parent.parent


def pins() -> dict[str, str]:
    text = (ROOT / "constraints.txt").read_text(encoding="utf-8")
    return {re.sub(r"[-_.]+", "-", n).lower(): v for n, v in re.findall(r"^([\w.-]+)==(\S+)$", text, re.M)}


def test_constraints_pin_exactly_what_is_installed_for_the_suite():
    made = subprocess.run([sys.executable, ".ci/constraints.py"], cwd=ROOT, capture_output=True, text=True, check=True)
    assert made.stdout == (ROOT / "constraints.txt").read_text(encoding="utf-8"), (
        "constraints.txt is not what is installed: after a deliberate upgrade, python .ci/constraints.py > constraints.txt"
    )


def test_each_pin_is_within_the_bounds_of_pyproject():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    pinned = pins()
    for line in project["dependencies"] + [r for extra in project["optional-dependencies"].values() for r in extra]:
        requirement = Requirement(line)
        version = pinned.get(re.sub(r"[-_.]+", "-", requirement.name).lower())
        assert version is not None and requirement.specifier.contains(version, prereleases=True), (line, version)


def test_ci_and_the_readme_install_from_the_constraints_in_one_line():
    assert re.search(r"^pip install -q -c constraints\.txt -e '\.\[test\]'$", (ROOT / ".ci" / "run").read_text(), re.M)
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    install = readme[readme.index("## Install and start"):readme.index("## Run the tests")]
    (block,) = re.findall(r"```sh\n(.*?)```", install, re.S)
    assert block.count("\n") == 1 and block.startswith("pip install -c constraints.txt -e . ")
