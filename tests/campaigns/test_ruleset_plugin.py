"""A rule set from outside Adjutant (tests/fixtures/example_ruleset, a package of its
own with its entry point, tables, conversion, options and resolver) is found through
the "adjutant.rulesets" entry points and plays a resolution, no file of Adjutant changed.

The package is made visible as pip would leave it, without the time pip takes: its
folder on sys.path and a dist-info holding the entry points of its own pyproject.toml,
which importlib.metadata reads."""

from __future__ import annotations

import sys
import tomllib
from fractions import Fraction
from pathlib import Path

import pytest

from campaigns import tabletop
from campaigns.session import CampaignSession
from rules import registry
from rules.errors import RulesError
from rules.resolver import get_resolver, tactical_rulesets
from tui.cli import main as adjutant
from tests.templates import new_campaign

EXAMPLE = Path(__file__).resolve().parent.parent / "fixtures" / "example_ruleset"


def dist_info(where: Path, name: str, version: str, entry_points: dict[str, str]) -> None:
    folder = where / f"{name.replace('-', '_')}-{version}.dist-info"
    folder.mkdir(parents=True)
    (folder / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n", encoding="utf-8")
    lines = [f"{key} = {value}" for key, value in entry_points.items()]
    (folder / "entry_points.txt").write_text("[adjutant.rulesets]\n" + "\n".join(lines) + "\n", encoding="utf-8")


@pytest.fixture
def installed(tmp_path, monkeypatch):
    project = tomllib.loads((EXAMPLE / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    dist_info(tmp_path / "site", project["name"], project["version"], project["entry-points"]["adjutant.rulesets"])
    monkeypatch.syspath_prepend(str(EXAMPLE))
    monkeypatch.syspath_prepend(str(tmp_path / "site"))
    registry.reload()
    yield tmp_path / "site"
    monkeypatch.undo()
    for name in [m for m in sys.modules if m.startswith("adjutant_example_skirmish")]:
        del sys.modules[name]
    registry.reload()


@pytest.fixture
def session(tmp_path):
    s = CampaignSession.open(new_campaign(tmp_path / "x.campaign", "spring1813", seed=1813))
    yield s
    s.close()


def test_the_example_is_listed_with_where_it_comes_from(installed, capsys):
    assert "example_skirmish" in tactical_rulesets()
    assert adjutant(["rules", "list"]) == 0
    out = capsys.readouterr().out
    assert ("example_skirmish: Example skirmish rules (tabletop resolver; from adjutant-example-skirmish 0.1.0, "
            "adjutant_example_skirmish:PLUGIN)") in out
    assert "  fire(roll, range)  Fire: stands lost" in out
    # Adjutant's own rule sets are declared the same way
    assert "kallistra_acw: Kallistra ACW hex rules (tabletop resolver; from adjutant 0.1.0" in out
    assert adjutant(["rules", "lookup", "example_skirmish", "fire", "roll=6", "range=4"]) == 0
    assert capsys.readouterr().out.strip() == "1"


def test_the_example_plays_a_resolution_in_a_campaign(installed, session):
    game = tabletop.new_game(session, "example_skirmish", "Gettysburg")
    tabletop.add_unit(session, game, {"name": "Rifles", "side": "attacker", "arm": "infantry", "size": "3", "quality": "veteran"})
    tabletop.add_unit(session, game, {"name": "Line", "side": "defender", "arm": "infantry", "size": "3"})
    table = tabletop.load(session, game)
    assert table.resolver is get_resolver("example_skirmish")
    assert table.options == {"beyond_six": "nearest"}  # its options.toml
    prepared = tabletop.prepare(table, tabletop.request(table, "fire", "a1", "d1", numbers={"range": 2}))
    # a veteran's d6+1: 1-2 read 1-3 (nothing), 3-4 read 4-5 (1 stand), 5-6 read 6 (a 7 by beyond_six)
    assert dict(prepared.odds)["Stands lost"] == {"-": Fraction(1, 3), "1": Fraction(1, 3), "2": Fraction(1, 3)}
    said = tabletop.resolve(session, game, "fire", "a1", "d1", numbers={"range": 2}, entered=[5])
    assert said == "Fire, Rifles [5]: 2 stands lost"
    after = tabletop.load(session, game)
    assert after.units["d1"].size == 1 and after.units["d1"].lost == 2
    assert after.log[-1]["dice"] == "1d6" and after.log[-1]["raw"] == [5]


def test_a_broken_plug_in_is_named_and_the_others_still_load(installed, capsys):
    dist_info(installed, "adjutant-broken", "2.0", {"broken_rules": "no_such_module:PLUGIN"})
    registry.reload()
    assert "broken_rules" not in registry.ruleset_ids()
    assert "example_skirmish" in registry.ruleset_ids()
    assert adjutant(["rules", "list"]) == 0
    assert ("not loaded: rule set 'broken_rules' (adjutant-broken 2.0, no_such_module:PLUGIN) cannot be loaded: "
            "ModuleNotFoundError") in capsys.readouterr().out


def test_without_the_package_the_rule_set_is_unknown():
    registry.reload()
    assert "example_skirmish" not in registry.ruleset_ids()
    with pytest.raises(RulesError, match="has no tabletop resolver"):
        get_resolver("example_skirmish")
