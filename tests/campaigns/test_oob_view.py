"""The order of battle read lazily (campaigns.oob_view) holds what the whole tree
(campaigns.oob.tree) holds: the same chain of command, totals and units, in the same order."""

from __future__ import annotations

import pytest

from campaigns import oob, oob_view
from campaigns.session import CampaignSession
from models import Unit


@pytest.fixture
def session(campaign_target: str):
    session = CampaignSession.new("spring1813", campaign_target, seed=5)
    sides = oob.tree(session)
    general = sides[0].armies[0].generals[0].general
    with session.store.action("more units, some without a general") as db:
        for n in range(12):
            kind = ("infantry", "cavalry", "artillery", "dummy")[n % 4]
            db.add(Unit(id=f"extra_{n}", name=f"Aa extra {n}", nation=general.nation, kind=kind,
                        general=None if n % 3 == 0 else general.id, strength_points=0 if kind == "dummy" else n,
                        cohesion=3))
    oob.remove_general(session, sides[1].armies[0].generals[0].subordinates[0].general.id)  # his units pass up
    yield session
    session.close()


def ids(units) -> list[str]:
    return [u.id for u in units]


def test_the_same_chain_of_command_totals_and_units_in_the_same_order(session) -> None:
    whole = oob.tree(session)
    lazy = oob_view.skeleton(session)
    assert [s.side.id for s in lazy] == [s.side.id for s in whole]
    everything = [u for s in whole for u in oob.side_units(s)]
    assert oob_view.combined(s.totals for s in lazy) == oob.totals(everything)
    assert ids(oob_view.listed(session, None, lazy, 10_000)) == ids(everything)
    for old, new in zip(whole, lazy):
        assert new.totals == oob.totals(oob.side_units(old))
        assert new.unattached == oob.totals(old.unattached)
        assert ids(oob_view.unattached_units(session, new.side.id)) == ids(old.unattached)
        for limit in (1, 7, 200, 10_000):  # the first page stops part way through a general
            assert ids(oob_view.listed(session, new, lazy, limit)) == ids(oob.side_units(old))[:limit]
        loose = oob_view.Unattached(new.side.id, new.unattached)
        assert ids(oob_view.listed(session, loose, lazy, 5)) == ids(old.unattached)[:5]
        assert [a.army.id for a in new.armies] == [a.army.id for a in old.armies]
        for old_army, new_army in zip(old.armies, new.armies):
            assert new_army.totals == oob.totals(oob.army_units(old_army))
            assert ids(oob_view.listed(session, new_army, lazy, 9)) == ids(oob.army_units(old_army))[:9]
            old_generals = oob_view.all_generals(old_army.generals)  # type: ignore[arg-type]
            new_generals = oob_view.all_generals(new_army.generals)
            assert [g.general.id for g in new_generals] == [g.general.id for g in old_generals]
            for old_general, new_general in zip(old_generals, new_generals):
                assert new_general.totals == oob.totals(oob.units_under(old_general))  # type: ignore[arg-type]
                assert new_general.units == len(old_general.units)
                assert ids(oob_view.units_of(session, new_general.general.id)) == ids(old_general.units)
                assert ids(oob_view.listed(session, new_general, lazy, 4)) == ids(oob.units_under(old_general))[:4]  # type: ignore[arg-type]


def test_a_unit_is_located_by_its_general_and_side(session) -> None:
    lazy = oob_view.skeleton(session)
    assert oob_view.locate(session, "extra_0") == (None, lazy[0].side.id)
    assert oob_view.locate(session, "extra_1") == (lazy[0].armies[0].generals[0].general.id, lazy[0].side.id)
    assert oob_view.locate(session, "nobody") is None
