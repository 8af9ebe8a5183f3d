"""One change of a tabletop battle (campaigns.tabletop._changing): the battle is read once, in
the change's own action, so what the action records must still be the battle as it was
before and as it is after, and a change refused there must write nothing."""

import pytest
from sqlalchemy import func, select

from campaigns import tabletop
from campaigns.errors import CampaignError
from campaigns.session import CampaignSession
from models import Battle, Event
from tests.templates import new_campaign


@pytest.fixture
def game(tmp_path):
    session = CampaignSession.open(new_campaign(tmp_path / "g.campaign", "spring1813", seed=1813))
    battle_id = tabletop.new_game(session, "kallistra_acw", "Lützen")
    for n, side in enumerate(("attacker", "defender", "attacker")):
        tabletop.add_unit(session, battle_id, {"name": f"Line #{n}", "side": side, "arm": "infantry", "size": "4"})
    yield session, battle_id
    session.close()


def stored(session, battle_id):
    with session.store.read() as db:
        events = db.exec(select(func.count()).select_from(Event)).one()
        return session.store.stored_version(), events, db.get_one(Battle, battle_id).detail


def test_a_change_records_the_battle_as_it_was_and_as_it_is(game):
    session, battle_id = game
    state = tabletop.load(session, battle_id).resolver.states[0].id
    for on in (True, False, True):
        _, _, before = stored(session, battle_id)
        tabletop.set_state(session, battle_id, "a1", state, on)
        _, _, after = stored(session, battle_id)
        with session.store.read() as db:
            last = db.scalars(select(Event).order_by(Event.id.desc())).first()  # type: ignore[union-attr]
        changed = [c for c in last.changes if c["table"] == "battle"]
        assert before != after and [(c["before"], c["after"]) for c in changed] == [({"detail": before}, {"detail": after})], on
        assert last.description == f"Battle #{battle_id} at Lützen: {state} {'on' if on else 'off'} a1"
        assert (state in tabletop.load(session, battle_id).units["a1"].states) == on


def test_a_change_refused_in_its_action_writes_nothing(game):
    session, battle_id = game
    with session.store.action("the battle ended, its status not yet moved on") as db:  # as a campaign battle once ended
        row = db.get_one(Battle, battle_id)
        row.detail = {**row.detail, "tactical": {**row.detail["tactical"], "ended": {"winner": "attacker"}}}
    session.store.reload()
    was = stored(session, battle_id)
    for change in (lambda: tabletop.next_phase(session, battle_id),
                   lambda: tabletop.add_unit(session, battle_id, {"name": "Late", "side": "defender", "arm": "infantry", "size": "4"})):
        with pytest.raises(CampaignError, match=f"battle {battle_id} is over"):
            change()
        assert stored(session, battle_id) == was
    with pytest.raises(CampaignError, match="there is no battle 999"):
        tabletop.next_phase(session, 999)
    assert stored(session, battle_id) == was
