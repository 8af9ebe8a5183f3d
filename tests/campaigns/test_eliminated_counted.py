"""Units eliminated at 0 SP (option zero_sp_unit) are no longer present: the overview, the
order of battle and the after-action report count the units present and say the
eliminated apart, "12 (+3 eliminated)", and agree with each other."""

import pytest

from campaigns import battles, oob, oob_view, weather
from campaigns.report import build, render
from campaigns.rules_options import choose
from campaigns.session import CampaignSession
from tests.campaigns.test_aftermath import _all_sp, _forces, _fought
from tests.templates import new_campaign


@pytest.fixture
def session(tmp_path):
    s = CampaignSession.open(new_campaign(tmp_path / "a.campaign", "spring1813", seed=1813))
    weather.roll(s, [2])
    yield s
    s.close()


def _counts(session):
    """(units present, eliminated) of the allies, as the overview, the order of battle read
    in SQL (oob_view) and the order of battle read as objects (oob.tree) each count them;
    and the same for each allied army."""
    view = session.overview()
    side = view.sides[1]
    lazy = oob_view.skeleton(session)[1]
    tree = oob.tree(session)[1]
    whole = oob.totals(oob.side_units(tree))
    counted = {
        "overview": (side.units - side.dummies, side.eliminated),
        "oob_view": (lazy.totals.units, lazy.totals.eliminated),
        "oob": (whole.units, whole.eliminated),
    }
    armies = {}
    for node, entry in zip(tree.armies, lazy.armies):
        glanced = next(a for a in view.armies if a.id == node.army.id)
        total = oob.totals(oob.army_units(node))
        armies[node.army.id] = {(glanced.units, glanced.eliminated), (entry.totals.units, entry.totals.eliminated),
                                (total.units, total.eliminated)}
    return counted, armies


def _army_of(session, unit_id):
    for node in oob.tree(session)[1].armies:
        if unit_id in {u.id for u in oob.army_units(node)}:
            return node.army
    raise AssertionError(f"{unit_id} is in no allied army")


def test_the_eliminated_are_counted_apart_from_the_units_present(session):
    before, _ = _counts(session)
    present = before["overview"][0]
    assert set(before.values()) == {(present, 0)}
    french, allies = _forces(session)
    battle_id = _fought(session, french, allies, defender_lost=str(_all_sp(session, allies)))  # every allied SP
    battles.apply(session, battle_id)
    after, armies = _counts(session)
    # Both allied units off the map at 0 SP: two fewer present, two eliminated, in all three counts.
    assert set(after.values()) == {(present - 2, 2)}
    for army, counted in armies.items():
        assert len(counted) == 1, (army, counted)  # overview, oob_view and oob agree army by army
    army = _army_of(session, allies[0])
    (units, eliminated), = armies[army.id]
    assert eliminated >= 1
    # The report's forces: the same army, its units present and the eliminated apart.
    told = render(build(session), "txt")
    named = army.name.split(" (")[0]  # the cell wraps the rest of the name onto the next line
    row = next(line for line in told.splitlines() if named in line and "│" in line)
    assert f"{units} (+{eliminated} eliminated)" in row
    # One unit's own totals: none present, one eliminated.
    with session.store.read() as db:
        from models import Unit

        unit = db.get_one(Unit, allies[0])
    row_unit = oob_view.oob_rows.unit(session.store, unit.id)
    assert row_unit is not None
    assert oob_view.unit_totals(row_unit)[1:] == (0, 0, 1)
    session.undo()
    assert set(_counts(session)[0].values()) == {(present, 0)}


def test_units_left_on_the_map_at_0_sp_are_present(session):
    """Option zero_sp_unit = umpire_decides: the units stay on the map at 0 SP, the umpire's to
    remove; until then they are present."""
    before, _ = _counts(session)
    french, allies = _forces(session)
    choose(session, "zero_sp_unit", "umpire_decides")
    battle_id = _fought(session, french, allies, defender_lost=str(_all_sp(session, allies)))
    battles.apply(session, battle_id)
    assert _counts(session)[0] == before
    assert "eliminated)" not in render(build(session), "txt")
