"""`adjutant retreat` and `adjutant result`: what R on the battles screen and t on a battle's
screen do, from the command line; and a generated corpus of hostile arguments, each refused
in one sentence with the campaign left as it was, or taken as data."""

from __future__ import annotations

import random
import shutil
from pathlib import Path

import pytest

from campaigns import battles, weather
from campaigns.session import CampaignSession
from models import General, Unit
from tests import hostile_inputs
from tests.campaigns.test_aftermath import PLACE, _forces, _fought, _general_at
from tests.campaigns.test_reasons_typed import CONTROLS
from tests.hostile import ESCAPES
from tests.templates import new_campaign
from tests.test_hostile_files import run
from tests.test_hostile_inputs import judge


def _campaign(folder: Path, *, applied: bool, enemy_at: str | None = None) -> tuple[Path, int, list[str], tuple[str, str]]:
    """A campaign whose battle at Querfurt the French win on the tabletop (the allies losing 1
    SP), applied or with its result still to type; an allied general who did not fight there."""
    path = new_campaign(folder / "c.campaign", "spring1813", seed=1813)
    session = CampaignSession.open(path)
    try:
        weather.roll(session, [2])
        french, allies = _forces(session)
        alone = _general_at(session, PLACE, allies)
        if applied:
            battle_id = _fought(session, french, allies, defender_lost="1")
            battles.apply(session, battle_id)
        else:
            draft = battles.Draft(PLACE, french, allies, battles.leaders_at(session, french), battles.leaders_at(session, allies))
            battle_id = battles.begin(session, draft, resolver="kallistra_acw")
        if enemy_at:
            with session.store.action(f"test: a French unit at {enemy_at}") as db:
                db.get_one(Unit, french[0]).location = enemy_at
    finally:
        session.close()
    return path, battle_id, allies, alone


def _where(path: Path, table, row_id: str) -> str:
    session = CampaignSession.open(path)
    try:
        with session.store.read() as db:
            return db.get_one(table, row_id).location
    finally:
        session.close()


def test_retreat_moves_the_loser_and_the_general_left_alone(tmp_path):
    path, battle_id, allies, (alone, name) = _campaign(tmp_path, applied=True)
    code, out, err = run("retreat", str(path), str(battle_id), "sangerhausen")  # any spelling the gazetteer knows
    assert (code, err) == (0, ""), err
    said = out.decode()
    assert said.startswith("The defender retreats from Querfurt to Sangerhausen: ") and f"left alone at Querfurt: {name}" in said
    assert [_where(path, Unit, u) for u in allies] == ["Sangerhausen"] * len(allies)
    assert _where(path, General, alone) == "Sangerhausen"
    code, out, err = run("retreat", str(path), str(battle_id), "Eisleben")
    assert code == 2 and out == b"" and err.startswith("adjutant: the defender retreated from Battle #1 at Querfurt already")


def test_retreat_into_the_enemy_needs_the_reason(tmp_path):
    path, battle_id, allies, _ = _campaign(tmp_path, applied=True, enemy_at="Eisleben")
    code, out, err = run("retreat", str(path), str(battle_id), "Eisleben")
    assert code == 2 and err == "adjutant: the enemy holds Eisleben: a retreat there needs the umpire's reason\n"
    code, out, err = run("retreat", str(path), str(battle_id), "Eisleben", "--reason", "cut through at night")
    assert code == 0 and "the umpire's reason: cut through at night" in out.decode()
    assert _where(path, Unit, allies[0]) == "Eisleben"


def test_result_records_the_tabletop_result_and_refuses_a_cell(tmp_path):
    path, battle_id, _, _ = _campaign(tmp_path, applied=False)
    code, out, err = run("result", str(path), str(battle_id), "--cell", "3*")
    assert code == 2 and "fought on the tabletop: give --attacker-lost, --defender-lost and --winner" in err
    code, out, err = run("result", str(path), str(battle_id), "--attacker-lost", "0", "--defender-lost", "1")
    assert code == 2 and err == "adjutant: say who held the field: attacker or defender\n"
    code, out, err = run("result", str(path), str(battle_id), "--attacker-lost", "0", "--defender-lost", "1", "--winner", "attacker")
    assert (code, err) == (0, "")
    assert out.decode() == "Recorded: attacker lost 0 SP, defender 1 SP; the attacker held the field\n"
    session = CampaignSession.open(path)
    try:
        assert battles.load(session, battle_id).tabletop == {"attacker": 0, "defender": 1, "winner": "attacker"}
    finally:
        session.close()


def test_result_of_a_battle_fought_with_the_tables_takes_a_cell_alone(tmp_path):
    path = new_campaign(tmp_path / "c.campaign", "spring1813", seed=1813)
    session = CampaignSession.open(path)
    try:
        weather.roll(session, [2])
        french, allies = _forces(session)
        draft = battles.Draft(PLACE, french, allies, battles.leaders_at(session, french), battles.leaders_at(session, allies))
        battle_id = battles.begin(session, draft)
    finally:
        session.close()
    code, out, err = run("result", str(path), str(battle_id), "--winner", "attacker")
    assert code == 2 and "fought with the campaign's tables: give the umpire's reading of the roll with --cell alone" in err
    code, out, err = run("result", str(path), str(battle_id), "--cell", "2")  # no roll off the table to read
    assert code == 2 and out == b"" and err.count("\n") == 1, err


# -- hostile arguments -------------------------------------------------------------------------


def words(seed: int) -> list[str]:
    """Controls alone and inside words (C0, C1, DEL), terminal escapes, overlong text, places no
    gazetteer knows or that lie farther than a road, option-like words, and seeded mixes of
    them. (Every control is tried on the typed reason itself in test_reasons_typed.py.)"""
    rng = random.Random(seed)
    controls = ["\x00", "\x07", "\t", "\n", "\r", "\x1b", "\x7f", "\x85", "\x9b"]
    made = [*controls, *(f"night{c}march" for c in controls), ESCAPES, f"by the ford{ESCAPES}", "x" * 201, "x" * 5000]
    made += ["", " ", "Dresden", "Atlantis", "Quer furt", "-", "--", "--reason", "🦅", "\u202eGLEDE"]
    made += ["".join(rng.choice([*controls, "a", "é", " ", "-", "*", "3"]) for _ in range(rng.randint(1, 30))) for _ in range(8)]
    return made


def plain(word: str) -> bool:
    """What a typed name or reason may be: no control character, 1 to 200 characters."""
    return not any(c in CONTROLS for c in word) and 0 < len(word.strip()) <= 200


def test_the_corpus_holds_every_kind():
    cases = words(17)
    assert any(len(case) > 200 for case in cases) and ESCAPES in cases and "" in cases
    assert any(not plain(case) for case in cases) and any(plain(case) for case in cases)


@pytest.mark.parametrize("command", ["retreat", "result"])
def test_hostile_arguments_are_refused_in_one_sentence_or_taken(tmp_path, command):
    path, battle_id, _, _ = _campaign(tmp_path, applied=command == "retreat", enemy_at="Eisleben")
    pristine = tmp_path / "pristine.campaign"
    shutil.copyfile(path, pristine)
    battle = str(battle_id)
    whole = hostile_inputs.is_whole
    if command == "retreat":  # (argv, whether it may be taken)
        lines = [(["retreat", str(path), battle, word], False) for word in words(17)]  # no place one road away
        lines += [(["retreat", str(path), battle, "Eisleben", "--reason", word], plain(word)) for word in words(18)]
        lines += [(["retreat", str(path), number, "Sangerhausen"], whole(number)) for number in hostile_inputs.numbers(6, 19)]
    else:
        result = ["result", str(path), battle]
        lines = [([*result, "--cell", word], False) for word in words(17)]  # a tabletop battle takes no cell
        # typed as the form takes it: spaces around the number are no part of it
        lines += [([*result, "--attacker-lost", number, "--defender-lost", "1", "--winner", "attacker"], whole(number.strip()))
                  for number in hostile_inputs.numbers(6, 18)]
        lines += [([*result, "--attacker-lost", "0", "--defender-lost", "1", "--winner", word], False) for word in words(19)]
        lines += [([*result[:2], number, "--cell", "2"], False) for number in hostile_inputs.numbers(6, 20)]
    taken = 0
    for argv, may in lines:
        code, _err = judge(argv, command, path)
        if code == 0:
            assert may, f"taken: adjutant {argv}"
            taken += 1
            shutil.copyfile(pristine, path)
    assert len(lines) > 90 and taken >= 1, taken
