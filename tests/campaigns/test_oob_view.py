"""The order of battle read lazily (campaigns.oob_view) holds what the whole tree
(campaigns.oob.tree) holds: the same chain of command, totals and units, in the same order."""

from __future__ import annotations

import pytest

from campaigns import oob, oob_view
from campaigns.session import CampaignSession
from models import Unit
from tests.templates import new_campaign


@pytest.fixture
def session(campaign_target: str):
    session = CampaignSession.open(new_campaign(campaign_target, "spring1813", seed=5))
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


def test_the_plain_rows_hold_what_the_tables_hold(session) -> None:
    oob.set_unit_flags(session, "extra_1", fatigued=True, out_of_command=True)
    whole = oob.tree(session)
    units = {u.id: u for s in whole for u in oob.side_units(s)}
    rows = oob_view.listed(session, None, oob_view.skeleton(session), 10_000)
    assert len(rows) == len(units)
    for row in rows:  # every field, of the same type (the flags booleans, not SQLite's 0 and 1)
        assert row._asdict() == {k: getattr(units[row.id], k) for k in row._fields}
        assert all(type(v) is type(getattr(units[row.id], k)) for k, v in row._asdict().items())
    assert rows[[r.id for r in rows].index("extra_1")].fatigued is True
    orm_generals = {g.general.id: g.general for s in whole for a in s.armies for g in oob_view.all_generals(a.generals)}  # type: ignore[arg-type]
    for side in oob_view.skeleton(session):
        for army in side.armies:
            assert army.army._asdict() == {k: getattr(next(a.army for s in whole for a in s.armies if a.army.id == army.army.id), k) for k in army.army._fields}
            for entry in oob_view.all_generals(army.generals):
                general = orm_generals[entry.general.id]
                assert entry.general._asdict() == {k: getattr(general, k) for k in entry.general._fields}


def test_search_finds_names_holding_the_text_ignoring_case_and_like_wildcards(session) -> None:
    nation = oob_view.listed(session, None, oob_view.skeleton(session), 1)[0].nation
    with session.store.action("names with LIKE's wildcards") as db:
        for ident, name in (("percent", "100% Guard"), ("under", "Guard_b"), ("slash", "Guard/b")):
            db.add(Unit(id=ident, name=name, nation=nation, kind="infantry", strength_points=1, cohesion=3))
    assert [r.id for r in oob_view.search(session, "  AA EXTRA 1 ")] == ["extra_1", "extra_10", "extra_11"]
    assert [r.id for r in oob_view.search(session, "%")] == ["percent"]
    assert [r.id for r in oob_view.search(session, "_")] == ["under"]
    assert [r.id for r in oob_view.search(session, "/b")] == ["slash"]
    assert oob_view.search(session, "   ") == []
    general = oob_view.skeleton(session)[0].armies[0].generals[0].general
    assert general.id in [r.id for r in oob_view.search(session, general.name.upper())]
