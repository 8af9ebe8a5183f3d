"""The registry of rule sets (rules/registry.py): entry points in, one sentence for
each plug-in that cannot be used, and Adjutant's own five declared like any other."""

from __future__ import annotations

import sys
import tomllib
from pathlib import Path

import pytest

from rules import registry
from rules.errors import RulesError

ROOT = Path(__file__).resolve().parent.parent.parent


def plugin(where: Path, dist: str, package: str, entry: str, body: str) -> None:
    """A package and the dist-info pip would leave for it, in `where`."""
    (where / package).mkdir(parents=True)
    (where / package / "tables").mkdir()
    (where / package / "__init__.py").write_text(body, encoding="utf-8")
    info = where / f"{dist.replace('-', '_')}-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {dist}\nVersion: 1.0\n", encoding="utf-8")
    (info / "entry_points.txt").write_text(f"[adjutant.rulesets]\n{entry}\n", encoding="utf-8")


def declared(ruleset_id: str, resolver: str | None = None) -> str:
    return ("from pathlib import Path\nfrom rules.registry import RuleSet\n"
            f"PLUGIN = RuleSet({ruleset_id!r}, 'A test', Path(__file__).parent, {resolver!r})\n")


@pytest.fixture
def site(tmp_path, monkeypatch):
    monkeypatch.syspath_prepend(str(tmp_path))
    registry.reload()
    yield tmp_path
    monkeypatch.undo()
    for name in [m for m in sys.modules if m.startswith("plug_")]:
        del sys.modules[name]
    registry.reload()


def test_every_rule_set_package_of_adjutant_is_declared_in_pyproject():
    """A folder under rules/ with tables is a rule set only once pyproject.toml names it."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    points = project["entry-points"]["adjutant.rulesets"]
    folders = sorted(p.parent.name for p in (ROOT / "rules").glob("*/tables"))
    assert sorted(points) == folders
    assert all(value == f"rules.{name}:PLUGIN" for name, value in points.items())
    assert registry.ruleset_ids() == folders
    for found in registry.registered().values():
        assert found.distribution.startswith("adjutant ")


def test_an_unknown_rule_set_is_one_sentence():
    with pytest.raises(RulesError, match="unknown rule set 'warhammer'; known rule sets: allemagne1813, kallistra_acw"):
        registry.get_ruleset("warhammer")


@pytest.mark.parametrize(
    "package, entry, body, problem",
    [
        ("plug_wrong_id", "plug_a = plug_wrong_id:PLUGIN", declared("plug_b"),
         "declares the id 'plug_b': the entry point's name and the id must agree"),
        ("plug_not_one", "plug_c = plug_not_one:PLUGIN", "PLUGIN = 'kallistra_acw'\n", "is not a rules.registry.RuleSet"),
        ("plug_raises", "plug_d = plug_raises:PLUGIN", "raise RuntimeError('half installed')\n",
         "cannot be loaded: RuntimeError: half installed"),
        ("plug_again", "kallistra_acw = plug_again:PLUGIN", declared("kallistra_acw"),
         "is declared again; adjutant"),
    ],
)
def test_a_plug_in_that_cannot_be_used_is_named_and_the_rest_load(site, package, entry, body, problem):
    plugin(site, f"adjutant-{package.replace('_', '-')}", package, entry, body)
    registry.reload()
    assert any(problem in sentence and f"{package}:PLUGIN" in sentence for sentence in registry.broken())
    assert registry.registered()["kallistra_acw"].module == "rules.kallistra_acw:PLUGIN"
    assert "allemagne1813" in registry.ruleset_ids()


def test_a_resolver_that_is_not_one_is_refused(site):
    plugin(site, "adjutant-plug-e", "plug_e", "plug_e = plug_e:PLUGIN", declared("plug_e", "plug_e:NOTHING"))
    registry.reload()
    from rules.resolver import get_resolver, tactical_rulesets

    assert "plug_e" in tactical_rulesets()
    with pytest.raises(RulesError, match=r"the resolver of plug_e \(plug_e:NOTHING\) cannot be loaded"):
        get_resolver("plug_e")


def test_two_rule_sets_of_one_distribution_each_name_it_and_its_version(site):
    """The distribution's metadata is read once for all its entry points: each still names it."""
    plugin(site, "adjutant-plug-pair", "plug_f", "plug_f = plug_f:PLUGIN\nplug_g = plug_g:PLUGIN", declared("plug_f"))
    (site / "plug_g").mkdir()
    (site / "plug_g" / "tables").mkdir()
    (site / "plug_g" / "__init__.py").write_text(declared("plug_g"), encoding="utf-8")
    plugin(site, "adjutant-plug-other", "plug_h", "plug_h = plug_h:PLUGIN", declared("plug_h"))
    registry.reload()
    found = registry.registered()
    assert {found["plug_f"].origin, found["plug_g"].origin} == {
        "adjutant-plug-pair 1.0, plug_f:PLUGIN", "adjutant-plug-pair 1.0, plug_g:PLUGIN",
    }
    assert found["plug_h"].origin == "adjutant-plug-other 1.0, plug_h:PLUGIN"


def test_finding_the_rule_sets_reads_no_card_data() -> None:
    """Every list of rule sets imports each plug-in for its PLUGIN: the French card's data
    (rules.toml, terms.toml and their pydantic models) waits until a rule asks for it."""
    import subprocess

    code = (
        "import sys; from rules import registry; ids = registry.ruleset_ids(); "
        "print('napoleonic_uc_um' in ids, 'rules.napoleonic_uc_um.data' in sys.modules); "
        "from rules.napoleonic_uc_um import english, quality; "
        "print(english('UC'), quality('aguerri/confiant'), 'rules.napoleonic_uc_um.data' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT).stdout
    lines = out.splitlines()
    assert lines[0] == "True False" and lines[1].startswith("combat unit (unité de combat") and lines[1].endswith("('aguerri', 'confiant') True"), out
