"""Print the exact version of every package `adjutant[test]` installs, for constraints.txt:
    python .ci/constraints.py > constraints.txt
after a deliberate upgrade, once the suite passes with it."""

import importlib.metadata as md
import re

from packaging.requirements import Requirement

seen: dict[str, str] = {}


def walk(name: str, extras: tuple[str, ...] = ()) -> None:
    key = re.sub(r"[-_.]+", "-", name).lower()
    if key in seen:
        return
    try:
        dist = md.distribution(name)
    except md.PackageNotFoundError:
        return
    seen[key] = dist.version
    for r in dist.requires or []:
        req = Requirement(r)
        ok = req.marker is None or any(req.marker.evaluate({"extra": e}) for e in ("", *extras))
        if ok:
            walk(req.name, tuple(req.extras))


walk("adjutant", ("test",))
seen.pop("adjutant", None)
print("# The versions the suite last passed with; .ci/run installs exactly these.")
print("# Made by: python .ci/constraints.py > constraints.txt")
for k, v in sorted(seen.items()):
    print(f"{k}=={v}")
