"""A stack moved in parts (option split_stack_march): each part is charged its own march."""

from __future__ import annotations

from sqlmodel import select

from campaigns import movement
from campaigns.rules_options import choose
from models import Activation
from tests.campaigns.test_theatre import session  # noqa: F401  (the fixture: spring 1813, Clear, PC rolled)

FIRST = ["bertrand", "iv_morand", "iv_peyri"]  # Bertrand and two of his three infantry at Saalfeld


def test_the_part_left_behind_is_not_charged_the_first_parts_march(session):  # noqa: F811
    movement.activate(session, "bertrand")
    said = movement.move(session, "bertrand", "Rudolstadt", only=FIRST)
    assert ": 1 MP" in said
    rest = movement.plan_move(session, "french@Saalfeld", "Rudolstadt")
    assert rest.activation is not None and rest.spent == 0  # not the first part's 1 MP
    again = movement.plan_move(session, "bertrand", "Saalfeld")
    assert again.spent == 1  # the part that moved keeps its own march
    with session.store.read() as db:
        rows = list(db.exec(select(Activation).order_by(Activation.id)))
    assert [r.cost for r in rows] == [rows[0].cost, 0]  # the activation is paid once
    assert set(rows[1].members) == {"general:bertrand", "unit:iv_morand", "unit:iv_peyri"}
    session.undo()  # the move and the split together
    with session.store.read() as db:
        assert len(list(db.exec(select(Activation)))) == 1


def test_the_option_shared_charges_every_part_the_march(session):  # noqa: F811
    choose(session, "split_stack_march", "shared")
    movement.activate(session, "bertrand")
    movement.move(session, "bertrand", "Rudolstadt", only=FIRST)
    assert movement.plan_move(session, "french@Saalfeld", "Rudolstadt").spent == 1
