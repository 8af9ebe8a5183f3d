"""campaigns.stacks reads its stacks with plain rows, in one session, with the generals' names
folded once per process: its answers are the old way's (every row read through the ORM, in
separate sessions, every name folded at each call), asked of a campaign played ten turns for
Ney and a seeded draw of generals (tests/seeds.py) by id, name, words of the name, case and
accents changed, for a draw of SIDE@PLACE, names of no general or of several, and again after
the rows change (a general moved and renamed, another taken off the map, a unit moved)."""

from __future__ import annotations

import random
import re
from typing import Any

from sqlalchemy import select
from sqlmodel import col

from campaigns.errors import CampaignError, plainly
from campaigns.gazetteer import GazetteerError, fold, gazetteer
from campaigns.session import CampaignSession
from campaigns.stacks import Stack, all_stacks, stack_of
from models import General, Nation, Side, Unit
from tests import seeds
from tests.played import play

DRAWN = 5  # generals and stacks drawn a run, each asked every way


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
            tuple(_columns(g) for g in stack.generals), tuple(_columns(u) for u in stack.units))


def _columns(row: Any) -> dict[str, Any]:
    return row.model_dump()


def _answer(find, session: CampaignSession, text: str) -> tuple:
    try:
        return ("stack", _seen(find(session, text)))
    except CampaignError as exc:
        return ("refused", str(exc))


def _asked(session: CampaignSession, rng: random.Random) -> list[str]:
    """Every way of naming a stack worth asking, and some that name none or several: each way
    for Ney and a seeded draw of the other generals and stacks (every kind every run)."""
    with session.store.read() as db:
        generals = list(db.scalars(select(General).order_by(col(General.id))))
    asked = ["", "  ", "nobody", "Marshal", "marshal ", "french@", "@Leipzig", "french@Nowhere-on-the-map", "allies@Weimar"]
    for g in [g for g in generals if g.id == "ney"] + rng.sample(generals, min(DRAWN, len(generals))):
        asked += [g.id, g.id.upper(), f"  {g.name} ", g.name.upper(), fold(g.name), *g.name.replace("-", " ").split()]
    stacks = _old_all_stacks(session)
    for s in rng.sample(stacks, min(DRAWN, len(stacks))):
        asked += [f"{s.side}@{s.place}", f" {s.side} @ {s.place.upper()} "]
    return asked


KINDS = {  # the answers stack_of gives, by what the sentence says
    "no general": "there is no general", "several": " generals (", "no stack there": "has no stack at",
    "no such place": "in the gazetteer", "at no place": "stands at no place of the map",
}


def _kinds(said: list[tuple]) -> set[str]:
    return {"stack" if kind == "stack" else next((k for k, words in KINDS.items() if words in answer), answer)
            for kind, answer in said}


def _compare(session: CampaignSession, asked: list[str]) -> list[tuple]:
    """Ask both ways; the old way's answers, once the new way has given the same."""
    said = [(text, _answer(_old_stack_of, session, text), _answer(stack_of, session, text)) for text in asked]
    differ = [(text, old, new) for text, old, new in said if old != new]
    assert not differ, (f"{len(differ)} of {len(asked)} differ, first {differ[0][0]!r}:"
                        f" old {str(differ[0][1])[:400]} / new {str(differ[0][2])[:400]}")
    places = sorted({s.place for s in _old_all_stacks(session)})
    for wanted in (None, set(), set(places[:1]), set(places[:3]), set(places), {"Nowhere-on-the-map", *places[-2:]}):
        old = [_seen(s) for s in _old_all_stacks(session, wanted)]
        assert [_seen(s) for s in all_stacks(session, wanted)] == old, f"all_stacks differs at {wanted}"
    return [old for _text, old, _new in said]


def test_stacks_answer_as_the_old_way_did_before_and_after_the_rows_change(tmp_path):
    seed = seeds.run_seed()
    print(seeds.replay(seed))
    rng = random.Random(seed)
    session = CampaignSession.open(play(tmp_path / "ten.campaign", 10))
    try:
        asked = _asked(session, rng)
        said = _compare(session, asked)
        assert _kinds(said) >= set(KINDS) - {"at no place"}, _kinds(said)  # every kind of answer
        with session.store.read() as db:
            ney = db.get_one(General, "ney")
            placeless = next(g.id for g in db.scalars(select(General).order_by(col(General.id))) if g.location and g.id != "ney")
            elsewhere = next(u for u in db.scalars(select(Unit).order_by(col(Unit.id))) if u.location and u.location != ney.location)
        before = _seen(stack_of(session, "ney"))
        with session.store.action("test: Ney renamed and moved, a unit to where he was") as db:
            moved = db.get_one(General, "ney")
            moved.name, moved.location = "Michel Ney-Zweite", elsewhere.location
            db.get_one(Unit, elsewhere.id).location = ney.location
            db.get_one(General, placeless).location = ""
        after = stack_of(session, "Zweite")
        assert after.place == elsewhere.location and _seen(after) != before
        assert elsewhere.id not in {u.id for u in after.units}
        assert elsewhere.id in {u.id for s in all_stacks(session, {ney.location}) for u in s.units}
        said = _compare(session, ["ney", "Zweite", "Michel Ney-Zweite", placeless, f"french@{ney.location}",
                                  f"french@{elsewhere.location}", *asked])
        assert "at no place" in _kinds(said)
    finally:
        session.close()
