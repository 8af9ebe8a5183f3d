"""campaigns.stacks reads its stacks with plain rows, in one session, with the generals' names
folded once per process: its answers are the old way's (every row read through the ORM, in
separate sessions, every name folded at each call), asked of a played campaign for every
general's id, name, words of a name, case and accents changed, every SIDE@PLACE, names of no
general, and again after the rows change (a general moved and renamed, a unit moved)."""

from __future__ import annotations

import re

from sqlalchemy import select
from sqlmodel import col

from campaigns.errors import CampaignError, plainly
from campaigns.gazetteer import GazetteerError, fold, gazetteer
from campaigns.session import CampaignSession
from campaigns.stacks import Stack, all_stacks, stack_of
from models import General, Nation, Side, Unit
from tests.played import play


def _old_all_stacks(session: CampaignSession, places: set[str] | None = None) -> list[Stack]:
    """all_stacks as it was before the plain rows (session 19)."""
    with plainly(), session.store.read() as db:
        sides = {s.id: s for s in db.scalars(select(Side).order_by(col(Side.position)))}
        nation_side = {n.id: n.side for n in db.scalars(select(Nation))}
        general_query = select(General).order_by(col(General.id))
        unit_query = select(Unit).order_by(col(Unit.id))
        if places is not None:
            general_query = general_query.where(col(General.location).in_(sorted(places)))
            unit_query = unit_query.where(col(Unit.location).in_(sorted(places)))
        generals = list(db.scalars(general_query))
        units = list(db.scalars(unit_query))
    groups: dict[tuple[str, str], tuple[list, list]] = {}
    for g in generals:
        if g.location:
            groups.setdefault((g.location, nation_side[g.nation]), ([], []))[0].append(g)
    for u in units:
        if u.location:
            groups.setdefault((u.location, nation_side[u.nation]), ([], []))[1].append(u)
    order = {sid: i for i, sid in enumerate(sides)}
    return [
        Stack(side, sides[side].name, place, tuple(gs), tuple(us))
        for (place, side), (gs, us) in sorted(groups.items(), key=lambda kv: (kv[0][0], order[kv[0][1]]))
    ]


def _old_stack_of(session: CampaignSession, text: str) -> Stack:
    """stack_of as it was before the plain rows (session 19)."""
    wanted = text.strip()
    if "@" in wanted:
        side, _, place = wanted.partition("@")
        try:
            place = gazetteer().place(place).name
        except GazetteerError as exc:
            raise CampaignError(str(exc)) from None
        for stack in _old_all_stacks(session, {place}):
            if stack.side == side.strip() and stack.place == place:
                return stack
        raise CampaignError(f"side {side.strip()!r} has no stack at {place}")
    key = fold(wanted)
    with plainly(), session.store.read() as db:
        generals = list(db.scalars(select(General).order_by(col(General.id))))
    named = [g for g in generals if g.id == wanted or fold(g.id) == key or fold(g.name) == key]
    if not named and key:
        words = re.compile(rf"(?<!\w){re.escape(key)}(?!\w)")
        named = [g for g in generals if words.search(fold(g.name))]
        if len(named) > 1:
            raise CampaignError(f"{wanted!r} names {len(named)} generals ({', '.join(g.name for g in named[:4])}"
                                f"{'...' if len(named) > 4 else ''}); give more of the name, or the id")
    ids = {g.id for g in named}
    for stack in _old_all_stacks(session, {g.location for g in named if g.location}) if named else ():
        for g in stack.generals:
            if g.id in ids:
                return stack
    if named:
        raise CampaignError(f"{named[0].name} stands at no place of the map")
    raise CampaignError(f"there is no general {wanted!r} (give a general's id or name, or SIDE@PLACE)")


def _seen(stack: Stack) -> tuple:
    """Everything a stack holds, every column of its rows (ORM rows compare by identity)."""
    return (stack.side, stack.side_name, stack.place,
            tuple(g.model_dump() for g in stack.generals), tuple(u.model_dump() for u in stack.units))


def _answer(find, session: CampaignSession, text: str) -> tuple:
    try:
        return ("stack", _seen(find(session, text)))
    except CampaignError as exc:
        return ("refused", str(exc))


def _asked(session: CampaignSession) -> list[str]:
    """Every way of naming a stack worth asking, and some that name none or several."""
    with session.store.read() as db:
        generals = list(db.scalars(select(General)))
    asked = ["", "  ", "nobody", "von", "french@", "@Leipzig", "french@Nowhere-on-the-map", "allies@Weimar"]
    for g in generals:
        asked += [g.id, g.id.upper(), f"  {g.name} ", g.name.upper(), fold(g.name), *g.name.replace("-", " ").split()]
    asked += [f"{s.side}@{s.place}" for s in _old_all_stacks(session)]
    asked += [f" {s.side} @ {s.place.upper()} " for s in _old_all_stacks(session)]
    return asked


def _compare(session: CampaignSession) -> int:
    asked = _asked(session)
    differ = [(text, old, new) for text in asked
              if (old := _answer(_old_stack_of, session, text)) != (new := _answer(stack_of, session, text))]
    assert not differ, (f"{len(differ)} of {len(asked)} differ, first {differ[0][0]!r}:"
                        f" old {str(differ[0][1])[:400]} / new {str(differ[0][2])[:400]}")
    places = sorted({s.place for s in _old_all_stacks(session)})
    for wanted in (None, set(), set(places[:1]), set(places[:3]), set(places), {"Nowhere-on-the-map", *places[-2:]}):
        old = [_seen(s) for s in _old_all_stacks(session, wanted)]
        assert [_seen(s) for s in all_stacks(session, wanted)] == old, f"all_stacks differs at {wanted}"
    return len(asked)


def test_stacks_answer_as_the_old_way_did_before_and_after_the_rows_change(tmp_path):
    session = CampaignSession.open(play(tmp_path / "played.campaign", 4))
    try:
        kinds = [_answer(_old_stack_of, session, text)[0] for text in _asked(session)]
        assert {"stack", "refused"} <= set(kinds)  # the corpus finds stacks and is refused
        assert _compare(session) > 100
        with session.store.read() as db:
            ney = db.get_one(General, "ney")
            elsewhere = next(u for u in db.scalars(select(Unit).order_by(col(Unit.id))) if u.location and u.location != ney.location)
        before = _seen(stack_of(session, "ney"))
        with session.store.action("test: Ney renamed and moved, a unit to where he was") as db:
            moved = db.get_one(General, "ney")
            moved.name, moved.location = "Michel Ney-Zweite", elsewhere.location
            db.get_one(Unit, elsewhere.id).location = ney.location
        after = stack_of(session, "Zweite")
        assert after.place == elsewhere.location and _seen(after) != before
        assert elsewhere.id not in {u.id for u in after.units}
        assert elsewhere.id in {u.id for s in all_stacks(session, {ney.location}) for u in s.units}
        _compare(session)
    finally:
        session.close()
