"""Independent cross-check of the napoleonic_uc_um tables (seed 003).

Read from ../shared/seeds/003_49b400ab842f5a33.txt alone, without the
rule set's data, code or tests, for the tables issue 8 names under "Tables
checked by lookup": to_hit, save, morale and command_distance. Each grid
below is this reading, written out in full; every cell is checked through
``rules.lookup``, whose ``.text`` is the cell as printed on the card (so the
card's own spacing is kept: "2 +" in the experience and morale tables, "3+"
in the saves sentence, "25 cm" in the command distances).

Where this reading disagrees with the code, the case is kept with this
reading's value and marked ``xfail(strict=True)`` with both readings.
"""

import pytest

import rules

RULESET = "napoleonic_uc_um"


def _cases(items, disagree, n_axes):
    """pytest params from (axes, expected) pairs; a disagreement is xfail."""
    params = []
    for key, expected in items:
        axes = key if isinstance(key, tuple) else (key,)
        assert len(axes) == n_axes
        marks = []
        if key in disagree:
            marks.append(pytest.mark.xfail(strict=True, reason=disagree[key]))
        params.append(pytest.param(*axes, expected, marks=marks, id="-".join(axes)))
    return params


# ---------------------------------------------------------------------------
# to_hit(experience)
#
# The card, as extracted (under "TIR et CORPS A CORPS"):
#
#   Expérience : Elite     2 +    Expérience : Aguerri   4 +
#   Expérience : Vétéran   3 +    Expérience : Conscrit  5 +
#
# Reading. Two label/value pairs per line, nothing lost: four cells. The same
# number serves fire and melee (the heading is "Tir et corps à corps"); the
# modifiers and "on touche toujours sur 6" are procedures, not cells here.

TO_HIT = {
    "elite": "2 +",
    "veteran": "3 +",
    "aguerri": "4 +",
    "conscrit": "5 +",
}
TO_HIT_DISAGREE: dict = {}


@pytest.mark.parametrize("experience, expected", _cases(TO_HIT.items(), TO_HIT_DISAGREE, 1))
def test_to_hit(experience, expected):
    assert rules.lookup(RULESET, "to_hit", experience=experience).text == expected


# ---------------------------------------------------------------------------
# save(attack)
#
# The card, as extracted:
#
#   SAUVEGARDES :          Infanterie, Artillerie et Cavalerie
#                          3+ au tir et 4+ au combat
#
# Reading. One save for every arm (infantry, artillery and cavalry alike):
# 3+ against fire ("au tir"), 4+ in melee ("au combat").

SAVE = {
    "fire": "3+",
    "melee": "4+",
}
SAVE_DISAGREE: dict = {}


@pytest.mark.parametrize("attack, expected", _cases(SAVE.items(), SAVE_DISAGREE, 1))
def test_save(attack, expected):
    assert rules.lookup(RULESET, "save", attack=attack).text == expected


# ---------------------------------------------------------------------------
# morale(temperament)
#
# The card, as extracted (under "MORAL"):
#
#   Résultat à atteindre :  Intrépide        Confiant        Hésitant
#                           3 +              4 +             5 +
#
# Reading. Three headings over three values in the same order; nothing lost.

MORALE = {
    "intrepide": "3 +",
    "confiant": "4 +",
    "hesitant": "5 +",
}
MORALE_DISAGREE: dict = {}


@pytest.mark.parametrize("temperament, expected", _cases(MORALE.items(), MORALE_DISAGREE, 1))
def test_morale(temperament, expected):
    assert rules.lookup(RULESET, "morale", temperament=temperament).text == expected


# ---------------------------------------------------------------------------
# command_distance(experience, arm)
#
# The card, as extracted:
#
#   DISTANCE DE COMMANDEMENT POUR LES UC AU SEIN D'UNE UM (Unité de Manœuvre)
#
#   ELITE                VETERAN              AGUERRI              CONSCRIT
#   Cavalerie Infanterie Cavalerie Infanterie Cavalerie Infanterie Cavalerie Infanterie
#   25 cm     20 cm      20 cm     15 cm      15 cm     10 cm      10 cm     5 cm
#
# Reading. Four experience headings each spanning two sub-columns (Cavalerie,
# Infanterie): eight sub-headings over eight values, no blank cell lost. The
# values fall by 5 cm per step of experience and cavalry is always 5 cm more
# than infantry, which confirms the pairing.

COMMAND_DISTANCE = {
    ("elite", "cavalry"): "25 cm",
    ("elite", "infantry"): "20 cm",
    ("veteran", "cavalry"): "20 cm",
    ("veteran", "infantry"): "15 cm",
    ("aguerri", "cavalry"): "15 cm",
    ("aguerri", "infantry"): "10 cm",
    ("conscrit", "cavalry"): "10 cm",
    ("conscrit", "infantry"): "5 cm",
}
COMMAND_DISTANCE_DISAGREE: dict = {}


@pytest.mark.parametrize(
    "experience, arm, expected",
    _cases(COMMAND_DISTANCE.items(), COMMAND_DISTANCE_DISAGREE, 2),
)
def test_command_distance(experience, arm, expected):
    cell = rules.lookup(RULESET, "command_distance", experience=experience, arm=arm)
    assert cell.text == expected


# ---------------------------------------------------------------------------
# Values off the card are refused, not guessed.


@pytest.mark.parametrize(
    "table, axes",
    [
        ("to_hit", {"experience": "garde"}),
        ("save", {"attack": "charge"}),
        ("morale", {"temperament": "brave"}),
        ("command_distance", {"experience": "elite", "arm": "artillery"}),
        ("command_distance", {"experience": "garde", "arm": "cavalry"}),
    ],
)
def test_values_off_the_card_are_refused(table, axes):
    with pytest.raises(rules.RulesError):
        rules.lookup(RULESET, table, **axes)
