"""Several dice expressions in one resolution, each side's dice named (issue 24): a melee
rolls the attacker's and the defender's dice, an initiative each commander's die. Each
is its own record in the campaign's dice records, named; the log, the account and the
luck ledger show (and credit) each one; dice typed in are asked for each expression."""

from __future__ import annotations

import pytest
from sqlmodel import select

from campaigns import account, battles, luck, oob, tabletop, weather
from campaigns.errors import CampaignError
from campaigns.session import CampaignSession
from models import DiceRoll
from models.dice_log import to_record
from rules.dice import verify
from tests.templates import new_campaign


@pytest.fixture
def session(tmp_path):
    s = CampaignSession.open(new_campaign(tmp_path / "x.campaign", "spring1813", seed=1813))
    yield s
    s.close()


def rolls(session) -> list[DiceRoll]:
    with session.store.read() as db:
        return list(db.exec(select(DiceRoll).order_by(DiceRoll.id)))


def melee_13phase(session) -> int:
    """An Elite column of 8 figures (8 dice) in contact with a Veteran line of 9 (4 dice), phase 6."""
    bid = tabletop.new_game(session, "napoleonic_13phase", "Leipzig")
    tabletop.add_unit(session, bid, dict(name="8e Ligne", side="attacker", arm="infantry", size="8",
                                         unit_type="infantry_column", quality="elite"))
    tabletop.add_unit(session, bid, dict(name="IR 4", side="defender", arm="infantry", size="9", unit_type="infantry_line"))
    tabletop.rule_contact(session, bid, "a1", "d1", True, "the column charged home")
    while tabletop.load(session, bid).phase.id != "phase_6":
        tabletop.next_phase(session, bid)
    return bid


def test_a_13phase_melee_rolls_each_side_s_dice_named(session):
    bid = melee_13phase(session)
    table = tabletop.load(session, bid)
    prepared = tabletop.prepare(table, tabletop.request(table, "melee", "a1", "d1"))
    assert prepared.dice_text() == "attacker 8e Ligne 8d6; defender IR 4 4d6"
    # the attacker's 4 4 4 score 3 (4+), the defender's 6 6 score 2: the defender loses
    text = tabletop.resolve(session, bid, "melee", "a1", "d1", entered=[[4, 4, 4, 1, 1, 1, 1, 1], [6, 6, 1, 1]])
    assert "[attacker 8e Ligne 8d6: 4 4 4 1 1 1 1 1; defender IR 4 4d6: 6 6 1 1]" in text
    assert "Attacker inflicts 3, defender inflicts 2: defender loses" in text
    stored = rolls(session)
    assert [(r.dice, list(r.raw)) for r in stored] == [("8d6", [4, 4, 4, 1, 1, 1, 1, 1]), ("4d6", [6, 6, 1, 1])]
    assert "attacker 8e Ligne's dice" in stored[0].purpose and "defender IR 4's dice" in stored[1].purpose
    entry = tabletop.load(session, bid).log[-1]
    assert [(r["id"], r["side"], r["dice"]) for r in entry["rolls"]] == [("attacker", "attacker", "8d6"),
                                                                         ("defender", "defender", "4d6")]
    tabletop.next_phase(session, bid)  # phase 7: the loser, the defender's unit, checks morale
    with pytest.raises(CampaignError, match=r"phase is not finished: .*IR 4.* \(r on the unit resolves it\)"):
        tabletop.next_phase(session, bid)  # the refusal names the key that does what is missing
    tabletop.resolve(session, bid, "morale", "d1")
    lines = "\n".join(account.account(session, bid))
    assert ("8e Ligne (attacker), melee at IR 4 [attacker 8e Ligne 8d6: 4 4 4 1 1 1 1 1; "
            "defender IR 4 4d6: 6 6 1 1]") in lines
    # every step names the side that acted, not whose turn it is: the defender's test is the defender's
    assert "turn 1, phase 7: IR 4 (defender), morale" in lines


def test_dice_typed_in_go_to_each_expression_by_name_or_in_order(session):
    bid = melee_13phase(session)
    # by the expression's id
    tabletop.resolve(session, bid, "melee", "a1", "d1", entered={"attacker": [1] * 8, "defender": [6, 6, 6, 6]})
    assert tabletop.load(session, bid).units["a1"].size == 4  # the defender's 4 dice all hit
    tabletop.take_back(session, bid)
    # one list, the attacker's dice first, as before the dice were named
    tabletop.resolve(session, bid, "melee", "a1", "d1", ruling="the melee again, for the test",
                     entered=[6] * 8 + [1, 1, 1, 1])
    assert tabletop.load(session, bid).units["d1"].size == 1
    tabletop.take_back(session, bid)
    with pytest.raises(CampaignError, match=r"attacker 8e Ligne 8d6 and defender IR 4 4d6: 12 dice typed in, not 3"):
        tabletop.resolve(session, bid, "melee", "a1", "d1", ruling="again", entered=[1, 2, 3])
    with pytest.raises(CampaignError, match="2 dice expressions are rolled .* not 3"):
        tabletop.resolve(session, bid, "melee", "a1", "d1", ruling="again", entered=[[1] * 8, [1] * 4, [1]])
    with pytest.raises(CampaignError, match="type the dice of defender IR 4 too"):
        tabletop.resolve(session, bid, "melee", "a1", "d1", ruling="again", entered={"attacker": [1] * 8})
    with pytest.raises(CampaignError, match="8d6 needs 8 dice typed in, not 2"):
        tabletop.resolve(session, bid, "melee", "a1", "d1", ruling="again", entered=[[1, 1], [1] * 4])


def test_d10_initiative_each_commander_s_die_is_credited_to_his_side(session):
    weather.roll(session, [2])
    tree = oob.tree(session)
    french = [u.id for u in oob.side_units(tree[0]) if u.kind == "infantry"][:1]
    allies = [u.id for u in oob.side_units(tree[1]) if u.kind == "infantry"][:1]
    draft = battles.Draft("Lützen", french, allies, battles.leaders_at(session, french),
                          battles.leaders_at(session, allies), override="forces placed by hand for the test")
    bid = battles.begin(session, draft, resolver="napoleonic_d10")
    tabletop.start(session, bid)
    text = tabletop.resolve(session, bid, "initiative", "a1")  # rolled by the dice service
    assert "[the attacker's commander 1d10: " in text and "; the defender's commander 1d10: " in text
    stored = rolls(session)[-2:]
    assert [r.stream_index for r in stored] == [stored[0].stream_index, stored[0].stream_index + 1]
    assert verify(1813, [to_record(r) for r in stored]) == []  # each replays from the seed on its own
    book = luck.ledger(session)
    favours = {r.roll_id: r.favours for r in book.rolls}
    assert favours[stored[0].id] == (("french", 1),) and favours[stored[1].id] == (("allies", 1),)
