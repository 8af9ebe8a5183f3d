"""The luck ledger on a campaign whose dice were all typed in, checked against the arithmetic by hand.

The script (spring 1813, April, dice typed in):
  weather      1d6 = 2, +1 (April)                      = 3  -> Clear
  command pts  Russo-Prussian Army: 1d6 = 6 + CV 2       = 8
  command pts  Army of the Main:    1d6 = 1 + CV 4       = 5
  forced march Langeron's divisions (4 SP): 6 -1 -1      = 4  -> 0 SP
  battle at Lützen, French attack:
    round 1 attacker 5 +1 = 6 -> 1 SP    round 1 defender 2 +3 = 5 -> 0 SP
    round 2 attacker 6 +1 = 7 -> 1 SP    round 2 defender 1 +3 = 4 -> 0 SP
"""

from __future__ import annotations

import itertools
import json
import re
from fractions import Fraction
from pathlib import Path

import pytest

from campaigns import battles, command_points, forced_march, luck, oob, weather
from campaigns.session import CampaignSession
from tui.cli import main
from tests.templates import new_campaign

@pytest.fixture(scope="module")
def scripted(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("luck") / "typed.campaign"
    s = CampaignSession.new("spring1813", path, manual_dice=True)
    try:
        weather.roll(s, [2])
        armies = {a.army: a for a in command_points.turn_points(s)}
        assert (armies["allied_army"].command_value, armies["army_of_the_main"].command_value) == (2, 4)
        command_points.roll(s, "allied_army", [6])
        command_points.roll(s, "army_of_the_main", [1])
        stack = forced_march.stacks(s)[0]
        langeron = forced_march.plan(s, stack)[0]
        assert (langeron.unit.strength_points, langeron.modifier) == (4, -2)
        forced_march.march(s, stack, [langeron.unit.id], {langeron.unit.id: [6]})
        tree = oob.tree(s)
        french = [u.id for u in oob.side_units(tree[0]) if u.kind == "infantry"][:2]
        allies = [u.id for u in oob.side_units(tree[1]) if u.kind == "infantry"][:2]
        draft = battles.Draft("Lützen", french, allies, battles.leaders_at(s, french), battles.leaders_at(s, allies), {}, override="a test battle between forces placed by hand")
        battle = battles.begin(s, draft)
        expected_steps = [
            ("attacker", "7-10", 1, {0: Fraction(2, 3), 1: Fraction(1, 3)}),
            ("defender", "7-10", 3, {0: Fraction(1, 3), 1: Fraction(2, 3)}),
            ("attacker", "7-10", 1, {0: Fraction(2, 3), 1: Fraction(1, 3)}),
            ("defender", "4-6", 3, {0: Fraction(1, 2), 1: Fraction(1, 2)}),
        ]
        for die, (side, column, modifier, odds) in zip([5, 2, 6, 1], expected_steps):
            step = battles.load(s, battle).next_step
            assert (step.side, step.column, step.modifier, step.loss_odds) == (side, column, modifier, odds)
            battles.roll_step(s, battle, [die])
    finally:
        s.close()
    return path


def ledger_json(path: Path, capsys: pytest.CaptureFixture[str], *extra: str) -> dict:
    assert main(["luck", str(path), "--json", *extra]) == 0
    return json.loads(capsys.readouterr().out)


def test_each_roll_has_its_mid_rank_percentile_and_expected_value(scripted, capsys):
    data = ledger_json(scripted, capsys)
    got = [(r["kind"], Fraction(r["percentile_exact"]), r["effects"]) for r in data["rolls"]]
    assert [(kind, pct) for kind, pct, _ in got] == [
        ("weather", Fraction(3, 12)),  # 3 on 1d6+1 (2..7): P(<3) = 1/6, + (1/6)/2 = 3/12
        ("command points", Fraction(11, 12)),  # 8 on 1d6+2: 5/6 + 1/12
        ("command points", Fraction(1, 12)),  # 5 on 1d6+4: 0 + 1/12
        ("forced march", Fraction(11, 12)),  # 4 on 1d6-2 (-1..4): the highest
        ("battle", Fraction(9, 12)),  # 6 on 1d6+1: 4/6 + 1/12
        ("battle", Fraction(3, 12)),  # 5 on 1d6+3 (4..9): 1/6 + 1/12
        ("battle", Fraction(11, 12)),  # 7 on 1d6+1: the highest
        ("battle", Fraction(1, 12)),  # 4 on 1d6+3: the lowest
    ]
    weather_mp = got[0][2][0]
    # April, 1d6+1: 2, 3, 4 Clear (6 MP), 5, 6, 7 Rain or Rain* (5 MP): expected 5.5, Clear gave 6
    assert (weather_mp["side"], weather_mp["unit"], weather_mp["actual"], weather_mp["expected"]) == (None, "MP", 6, 5.5)
    # the forced march at 4 SP, modifier -2: no modified roll reaches the 5 that costs a unit under 5 SP anything
    assert got[3][2] == [{"side": "allies", "unit": "SP lost", "actual": 0, "expected": 0}]


def test_per_side_sums_are_actual_minus_expected(scripted, capsys):
    totals = {t["side"]: t for t in ledger_json(scripted, capsys)["totals"]}
    french, allies = totals["french"], totals["allies"]
    # PC: Army of the Main 5 - (3.5 + 4) = -2.5; Russo-Prussian Army 8 - (3.5 + 2) = +2.5
    assert french["sums"]["PC"] == -2.5 and allies["sums"]["PC"] == 2.5
    # SP inflicted by the French: (1 - 1/3) + (1 - 1/3) = 4/3; lost by them: (0 - 2/3) + (0 - 1/2) = -7/6
    assert french["sums"]["SP inflicted"] == pytest.approx(4 / 3, abs=1e-6)
    assert french["sums"]["SP lost"] == pytest.approx(-7 / 6, abs=1e-6)
    # the Allies: the mirror, plus their forced march (0 - 0)
    assert allies["sums"]["SP lost"] == pytest.approx(4 / 3, abs=1e-6)
    assert allies["sums"]["SP inflicted"] == pytest.approx(-7 / 6, abs=1e-6)
    # French rolls, each turned so that high is good for them:
    #   PC 1/12; their attacks 9/12, 11/12; the Allies' rolls against them 1 - 3/12, 1 - 1/12
    #   = (1 + 9 + 11 + 9 + 11) / 12 = 41/12 over 5 rolls
    assert french["rolls"] == 5 and french["mean_percentile"] == pytest.approx(41 / 60, abs=1e-6)
    # Allied: PC 11/12; forced march 1 - 11/12; the French attacks 1 - 9/12, 1 - 11/12; theirs 3/12, 1/12
    #   = (11 + 1 + 3 + 1 + 3 + 1) / 12 = 20/12 over 6 rolls
    assert allies["rolls"] == 6 and allies["mean_percentile"] == pytest.approx(20 / 72, abs=1e-6)
    # The p-value, exact: all the rolls are single d6, so count the 6^5 (6^6) equally likely runs
    # whose sum of twelfths is at least (at most) as far out as the one rolled, and double it.
    for side, observed, n in (("french", 41, 5), ("allies", 20, 6)):
        sums = [sum(run) for run in itertools.product(range(1, 12, 2), repeat=n)]
        tail = min(sum(x >= observed for x in sums), sum(x <= observed for x in sums))
        assert totals[side]["p_value"] == pytest.approx(min(1, 2 * tail / 6**n), abs=1e-6)
        assert totals[side]["method"].startswith("exact")
    assert french["verdict"] == "lucky" and allies["verdict"] == "unlucky"


def test_by_turn_and_one_side(scripted, capsys):
    data = ledger_json(scripted, capsys, "--side", "allies")
    assert [t["side"] for t in data["totals"]] == ["allies"]
    assert [(t["side"], t["turn"]) for t in data["by_turn"]] == [("allies", 1)]
    assert {r["kind"] for r in data["rolls"]} == {"command points", "forced march", "battle"}


def test_text_and_refusals(scripted, capsys, tmp_path):
    assert main(["luck", str(scripted)]) == 0
    out = capsys.readouterr().out
    assert "Russia and Prussia: SP lost +1.33, SP inflicted -1.17, PC +2.50; 6 rolls" in out
    assert re.search(r"^both sides: MP [-+]\d\.\d\d; 1 roll, mean percentile", out, re.M), out  # not "1 rolls"
    assert main(["luck", str(scripted), "--side", "prussia"]) == 2
    assert capsys.readouterr().err == "adjutant: there is no side 'prussia'; the sides are french, allies\n"
    junk = tmp_path / "junk.campaign"
    junk.write_bytes(b"not a database")
    assert main(["luck", str(junk)]) == 2
    assert capsys.readouterr().err.count("\n") == 1


def test_a_run_of_sixes_is_unusual():
    from rules.luck import EXACT, run_p_value
    from rules.odds import roll_distribution

    d6 = roll_distribution("1d6")
    run = run_p_value([(d6, 6)] * 4)
    # four sixes: the sum of twelfths is 44, the most there is: P = 1/6^4, doubled
    assert run.p_value == Fraction(2, 6**4) and run.method == EXACT
    # low being good turns the same dice into the worst luck, with the same p-value
    assert run_p_value([(d6, 6)] * 4, [-1] * 4).mean == Fraction(1, 12)


def test_the_examples_in_rules_luck_hold():
    import doctest

    import rules.luck

    assert doctest.testmod(rules.luck).failed == 0


def test_a_tabletop_resolution_counts_for_the_side_of_the_unit_that_acted(tmp_path):
    from campaigns import tabletop

    s = CampaignSession.open(new_campaign(tmp_path / "t.campaign", "spring1813", seed=1813))
    try:
        weather.roll(s, [2])
        tree = oob.tree(s)
        french = [u.id for u in oob.side_units(tree[0]) if u.kind == "infantry"][:2]
        allies = [u.id for u in oob.side_units(tree[1]) if u.kind == "infantry"][:2]
        draft = battles.Draft("Lützen", french, allies, battles.leaders_at(s, french), battles.leaders_at(s, allies), {}, override="a test battle between forces placed by hand")
        battle = battles.begin(s, draft, resolver="kallistra_acw")
        tabletop.start(s, battle)
        while tabletop.load(s, battle).phase.id != "simultaneous_fire":
            tabletop.next_phase(s, battle)
        shooter = tabletop.load(s, battle).side_units("attacker")[0]
        target = tabletop.load(s, battle).side_units("defender")[0]
        tabletop.resolve(s, battle, "small_arms_fire", shooter.id, target.id, numbers={"range": 2}, entered=[12, 12, 1])
        roll = next(r for r in luck.ledger(s).rolls if r.kind == "tabletop")
    finally:
        s.close()
    count, _, at_least = roll.dice.partition("d12>=")
    # a pool of 3 d12, each a hit at `at_least` or more: 12 - at_least + 1 faces of 12 hit;
    # two 12s hit and a 1 misses: 2 hits against an expected 3 * (13 - at_least) / 12
    assert count == "3" and roll.result == 2
    assert roll.favours == (("french", 1),)  # the attacker's unit is French: more hits are good for them
    assert roll.effects[0].side == "french"
    assert roll.effects[0].expected == Fraction(3 * (13 - int(at_least)), 12)
