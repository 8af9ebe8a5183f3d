"""The umpire's reason typed for a move through the enemy (option enemy_held_place) or a retreat
into an enemy-held place (option loser_retreat) goes into the history as written: a generated
corpus of control characters, escape sequences and overlong text is each refused in one
sentence and changes nothing."""

from __future__ import annotations

import random

import pytest
from sqlmodel import func, select

from campaigns import movement
from campaigns.errors import CampaignError
from models import Event, Unit
from tests.campaigns.test_aftermath import _applied
from tests.campaigns.test_aftermath import session as session  # noqa: F401 - the fixture
from tests.hostile import ESCAPES

CONTROLS = [chr(n) for n in (*range(0x00, 0x20), 0x7F, *range(0x80, 0xA0))]


def corpus(seed: int = 16) -> list[str]:
    """Every C0 and C1 control and DEL alone and inside words, the escape sequences a terminal
    would act on, and text one character past the limit; a seeded mix of them."""
    rng = random.Random(seed)
    cases = [*CONTROLS, *(f"night{c}march" for c in CONTROLS), ESCAPES, f"by the ford{ESCAPES}", "x" * 201, " " + "y" * 201]
    for _ in range(40):
        cases.append("".join(rng.choice([*CONTROLS, "a", " ", "é", "\u202e"]) for _ in range(rng.randint(1, 30))) + rng.choice(CONTROLS))
    return cases


def test_the_corpus_holds_every_kind():
    cases = corpus()
    assert all(any(c in case for case in cases) for c in CONTROLS)
    assert any(len(case.strip()) > 200 for case in cases) and ESCAPES in cases


def _events(session) -> int:
    with session.store.read() as db:
        return db.exec(select(func.count()).select_from(Event)).one()


def test_a_reason_to_pass_the_enemy_is_refused_in_one_sentence(session):
    before = _events(session)
    for bad in corpus():
        for attempt in (movement.plan_move, movement.move):
            with pytest.raises(CampaignError) as refused:
                attempt(session, "marmont", "Weimar", override=bad)
            said = str(refused.value)
            assert "\n" not in said and not any(c in said for c in CONTROLS), repr(said)
            assert "the umpire's reason" in said, said
    assert _events(session) == before


def test_a_reason_to_retreat_into_the_enemy_is_refused_in_one_sentence(session):
    from campaigns.aftermath import retreat

    battle_id, french, _allies = _applied(session)
    with session.store.action("test: a French unit at Eisleben") as db:
        db.get_one(Unit, french[0]).location = "Eisleben"
    before = _events(session)
    for bad in corpus():
        with pytest.raises(CampaignError) as refused:
            retreat(session, battle_id, "Eisleben", reason=bad)
        said = str(refused.value)
        assert "\n" not in said and not any(c in said for c in CONTROLS) and "the umpire's reason" in said, repr(said)
    assert _events(session) == before
