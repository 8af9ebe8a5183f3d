"""The rule sets Adjutant knows: plug-ins found through Python entry points.

A rule set is a Python package that declares itself in its distribution's
metadata, as Harlequin finds its database adapters:

    [project.entry-points."adjutant.rulesets"]
    my_rules = "my_rules:PLUGIN"

where `my_rules.PLUGIN` is a `RuleSet`: its id (the entry point's name), its
title, the folder holding its data files (tables/, options.toml,
conversion.toml) and, for a tactical rule set, where its `Resolver` is.
Adjutant's own five are declared the same way in its pyproject.toml; every
list of rule sets (the loader's, the resolver's, the battle screen's, `adjutant
rules list`) is read from here, so a package installed beside Adjutant plays
without a file of Adjutant changed.

Run from a source tree (a checkout on PYTHONPATH, an editable install), the
installed metadata may describe another tree or an older pyproject.toml: there
Adjutant's own entry points are read from the pyproject.toml beside this
package, the declaration the metadata is built from.
"""

from __future__ import annotations

import functools
import importlib
import re
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from rules.errors import RulesError

GROUP = "adjutant.rulesets"
OWN_DISTRIBUTION = "adjutant"
SOURCE_PYPROJECT = Path(__file__).resolve().parent.parent / "pyproject.toml"


@dataclass(frozen=True)
class RuleSet:
    """What a rule-set package declares (its `PLUGIN`)."""

    id: str
    title: str
    folder: Path  # holds tables/*.toml and, where the rule set has them, options.toml and conversion.toml
    # "package.module:ATTRIBUTE" of its tabletop `Resolver`; None: no tabletop resolver
    # (Allemagne 1813's battles use the campaign's own combat tables)
    resolver: str | None = None

    @property
    def tactical(self) -> bool:
        return self.resolver is not None


@dataclass(frozen=True)
class Registered:
    """A rule set as found: the declaration and where it comes from."""

    ruleset: RuleSet
    distribution: str  # the installed distribution that declares it, with its version
    module: str  # the entry point's value ("rules.kallistra_acw:PLUGIN")

    @property
    def origin(self) -> str:
        return f"{self.distribution}, {self.module}"


@dataclass(frozen=True)
class _Found:
    name: str
    value: str
    distribution: str

    def load(self) -> Any:
        """What EntryPoint.load gives: a plain "module:attribute" imported here, without importlib.metadata
        (a tenth of a lookup's time); any other form through EntryPoint itself."""
        plain = re.fullmatch(r"([\w.]+):([\w.]+)", self.value)
        if plain is None:
            from importlib import metadata

            return metadata.EntryPoint(self.name, self.value, GROUP).load()
        return functools.reduce(getattr, plain.group(2).split("."), importlib.import_module(plain.group(1)))


def _source_tree() -> list[_Found] | None:
    """Adjutant's own entry points from the pyproject.toml of the tree this package
    was imported from; None when it is not run from a source tree."""
    try:
        project = tomllib.loads(SOURCE_PYPROJECT.read_text(encoding="utf-8")).get("project", {})
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return None
    if project.get("name") != OWN_DISTRIBUTION:
        return None
    declared = project.get("entry-points", {}).get(GROUP, {})
    label = f"{OWN_DISTRIBUTION} {project.get('version', '')} (source tree)".replace("  ", " ")
    return [_Found(name, str(value), label) for name, value in declared.items()]


@cache
def _own() -> tuple[_Found, ...] | None:
    return None if (own := _source_tree()) is None else tuple(own)


def _entry_points() -> list[_Found]:
    from importlib import metadata  # the installed distributions, read when a lookup needs more than our own

    own = _own()
    found = []
    # A distribution's metadata file read once, not twice for each of its entry points (each read
    # parses the whole file): Adjutant's own declares five.
    named: dict[int, tuple[str, str]] = {}
    for point in metadata.entry_points(group=GROUP):
        dist = point.dist
        if dist is None:
            name, version = "an unnamed distribution", ""
        else:
            if id(dist) not in named:  # the points of one distribution share its object (kept alive by them)
                read = dist.metadata
                named[id(dist)] = (read["Name"], f" {read['Version']}")
            name, version = named[id(dist)]
        if own is not None and name == OWN_DISTRIBUTION:
            continue  # the source tree's own declaration stands for it
        found.append(_Found(point.name, point.value, f"{name}{version}"))
    return [*(own or ())] + found


@cache
def _declared() -> tuple[_Found, ...]:
    return tuple(_entry_points())


def _in_order() -> Iterator[_Found]:
    """`_declared()`, with the source tree's own declarations first read on their own: a lookup of one
    of Adjutant's rule sets that loads needs no scan of every installed distribution."""
    own = _own()
    yield from own or ()
    yield from _declared()[len(own or ()):]


@cache
def _loaded(point: _Found) -> Registered | str:
    """The rule set an entry point names, or the sentence saying why it cannot be used."""
    where = f"rule set {point.name!r} ({point.distribution}, {point.value})"
    try:
        plugin = point.load()
    except Exception as exc:  # noqa: BLE001 - a broken plug-in is named, never a traceback
        return f"{where} cannot be loaded: {type(exc).__name__}: {exc}"
    if not isinstance(plugin, RuleSet):
        return f"{where} is not a rules.registry.RuleSet"
    if plugin.id != point.name:
        return f"{where} declares the id {plugin.id!r}: the entry point's name and the id must agree"
    if not (plugin.folder / "tables").is_dir():
        return f"{where} has no tables folder in {plugin.folder}"
    return Registered(plugin, point.distribution, point.value)


def _first(name: str) -> Registered | str | None:
    """The first usable declaration of `name` (or the first one's fault); None: none."""
    fault = None
    for point in _in_order():
        if point.name == name:
            found = _loaded(point)
            if isinstance(found, Registered):
                return found
            fault = fault or found
    return fault


@cache
def _scan() -> tuple[dict[str, Registered], tuple[str, ...]]:
    found: dict[str, Registered] = {}
    broken: list[str] = []
    for point in _declared():
        first = _first(point.name)
        if isinstance(first, Registered) and first.module == point.value:
            found[point.name] = first
        elif isinstance(first, Registered):
            # another package declares a taken id (the same package twice on the path is no fault)
            broken.append(f"rule set {point.name!r} ({point.distribution}, {point.value}) is declared again; "
                          f"{first.origin} is used")
        else:
            fault = _loaded(point)
            if isinstance(fault, str) and fault not in broken:
                broken.append(fault)
    return dict(sorted(found.items())), tuple(broken)


def registered() -> dict[str, Registered]:
    """Every rule set found, by id, in id order."""
    return _scan()[0]


def broken() -> tuple[str, ...]:
    """One sentence for each plug-in declared but not usable."""
    return _scan()[1]


def ruleset_ids() -> list[str]:
    return list(registered())


def tactical_ids() -> list[str]:
    """The rule sets played on the tabletop resolver."""
    return [key for key, found in registered().items() if found.ruleset.tactical]


def get_ruleset(ruleset: str) -> RuleSet:
    """The rule set `ruleset`; only its own package is imported (a lookup answers at once)."""
    found = _first(ruleset)
    if isinstance(found, Registered):
        return found.ruleset
    if found is not None:
        raise RulesError(found)
    raise RulesError(f"unknown rule set {ruleset!r}; known rule sets: " + ", ".join(registered()))


def load_resolver(ruleset: str) -> Any:
    """The object the rule set names as its resolver (rules.resolver checks it)."""
    plugin = get_ruleset(ruleset)
    if plugin.resolver is None:
        raise RulesError(
            f"{ruleset!r} has no tabletop resolver; the rule sets with one are {', '.join(tactical_ids())}"
        )
    module, _, attribute = plugin.resolver.partition(":")
    try:
        return getattr(importlib.import_module(module), attribute or "RESOLVER")
    except (ImportError, AttributeError) as exc:
        raise RulesError(f"the resolver of {ruleset} ({plugin.resolver}) cannot be loaded: {exc}") from None


def reload() -> None:
    """Look for plug-ins again (after installing one while running: the tests)."""
    for cached in (_own, _declared, _loaded, _scan):
        cached.cache_clear()
