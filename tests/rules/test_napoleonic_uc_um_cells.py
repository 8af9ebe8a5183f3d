"""Cell-by-cell check of the French UC/UM card (seed 003) against `rules.lookup`.

Every expected value below is read from the text copy of the card,
../shared/seeds/003_49b400ab842f5a33.txt, whose printed lines are quoted above
each grid (tabs shown as ' | '). The grids are this reader's reconstruction; where
the text copy ran tables together, the comment says how it was taken apart.
A blank cell is written "-" as `Cell.text` gives it.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from rules import RulesError, get_table, lookup
from rules.napoleonic_uc_um.rolls import pool_odds
from tests.rules.cards import NAPOLEONIC_UC_UM, card_text, needs_card

RS = "napoleonic_uc_um"
B = "-"
EXPERIENCES = ["elite", "veteran", "aguerri", "conscrit"]


def _squash(text: str) -> str:
    return "".join(text.split())


def _values(table_id: str, axis: str) -> list:
    table = get_table(RS, table_id)
    ax = next(a for a in table.axes if a.name == axis)
    return [v for b in ax.bands for v in b.names] if not ax.numeric else [b.label for b in ax.bands]


# ---------------------------------------------------------------------------
# TIR et CORPS A CORPS (to_hit)
#
#   Expérience : Elite | 2 + | Expérience : Aguerri | 4 +
#   Expérience : Vétéran | 3 + | Expérience : Conscrit | 5 +
#
# Two to a line: the left pair read down (Elite, Vétéran), then the right
# (Aguerri, Conscrit). One number for fire and melee alike.
# ---------------------------------------------------------------------------
TO_HIT = {"elite": "2 +", "veteran": "3 +", "aguerri": "4 +", "conscrit": "5 +"}


@pytest.mark.parametrize("experience, expected", TO_HIT.items())
def test_to_hit(experience, expected):
    assert lookup(RS, "to_hit", experience=experience).text == expected


def test_to_hit_has_exactly_the_four_levels():
    assert _values("to_hit", "experience") == EXPERIENCES


def test_to_hit_gets_harder_as_experience_falls():
    numbers = [int(TO_HIT[e].split()[0]) for e in EXPERIENCES]
    assert numbers == sorted(numbers) and len(set(numbers)) == 4


# ---------------------------------------------------------------------------
# SAUVEGARDES (save)
#
#   SAUVEGARDES : | | Infanterie, Artillerie et Cavalerie |
#   | | 3+ au tir et 4+ au combat |
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("attack, expected", [("fire", "3+"), ("melee", "4+")])
def test_save(attack, expected):
    assert lookup(RS, "save", attack=attack).text == expected


def test_save_has_only_fire_and_melee():
    assert _values("save", "attack") == ["fire", "melee"]
    with pytest.raises(RulesError):
        lookup(RS, "save", attack="artillery")


# ---------------------------------------------------------------------------
# MORAL (morale)
#
#   Résultat à atteindre : | Intrépide | | Confiant | | Hésitant |
#   | 3 + | | 4 + | | 5 + |
# ---------------------------------------------------------------------------
MORALE = {"intrepide": "3 +", "confiant": "4 +", "hesitant": "5 +"}


@pytest.mark.parametrize("temperament, expected", MORALE.items())
def test_morale(temperament, expected):
    assert lookup(RS, "morale", temperament=temperament).text == expected


def test_morale_has_exactly_three_temperaments_growing_harder():
    assert _values("morale", "temperament") == list(MORALE)
    numbers = [int(v.split()[0]) for v in MORALE.values()]
    assert numbers == [3, 4, 5]


# ---------------------------------------------------------------------------
# DISTANCE DE COMMANDEMENT POUR LES UC AU SEIN D'UNE UM (command_distance)
#
#   ELITE | | VETERAN | | AGUERRI | | CONSCRIT |
#   Cavalerie | Infanterie | Cavalerie | Infanterie | Cavalerie | Infanterie | Cavalerie | Infanterie
#   25 cm | 20 cm | 20 cm | 15 cm | 15 cm | 10 cm | 10 cm | 5 cm
#
# Eight cells under four headings of two sub-headings each, left to right.
# ---------------------------------------------------------------------------
COMMAND = {
    ("elite", "cavalry"): "25 cm",
    ("elite", "infantry"): "20 cm",
    ("veteran", "cavalry"): "20 cm",
    ("veteran", "infantry"): "15 cm",
    ("aguerri", "cavalry"): "15 cm",
    ("aguerri", "infantry"): "10 cm",
    ("conscrit", "cavalry"): "10 cm",
    ("conscrit", "infantry"): "5 cm",
}


@pytest.mark.parametrize("key, expected", COMMAND.items())
def test_command_distance(key, expected):
    experience, arm = key
    assert lookup(RS, "command_distance", experience=experience, arm=arm).text == expected


def test_command_distance_reads_the_printed_line_left_to_right():
    line = [COMMAND[(e, a)] for e in EXPERIENCES for a in ("cavalry", "infantry")]
    assert _squash(" ".join(line)) == _squash("25 cm 20 cm 20 cm 15 cm 15 cm 10 cm 10 cm 5 cm")


def test_command_distance_shrinks_with_experience_and_cavalry_reaches_further():
    for arm in ("cavalry", "infantry"):
        cm = [int(COMMAND[(e, arm)].split()[0]) for e in EXPERIENCES]
        assert cm == sorted(cm, reverse=True)
    for e in EXPERIENCES:
        assert int(COMMAND[(e, "cavalry")].split()[0]) - int(COMMAND[(e, "infantry")].split()[0]) == 5


def test_command_distance_has_no_artillery_column():
    assert _values("command_distance", "arm") == ["cavalry", "infantry"]
    with pytest.raises(RulesError):
        lookup(RS, "command_distance", experience="elite", arm="artillery")


# ---------------------------------------------------------------------------
# SEQUENCE DE JEU, Phase 2 (experience_actions)
#
#   ELITE | Mouvement* | ET | Changement de formation* | ...
#   VETERAN | Mouvement** | ET | Changement de formation** | ...
#   AGUERRI | Mouvement** | OU | Changement de formation** | ...
#   CONSCRIT | Mouvement*** | OU | Changement de formation*** | ...
#   * Tir ET Charge | | | | ** Tir OU Charge
#   | | | | *** PAS de Tir
#
# The fourth column spells out the footnote of each row's mark.
# ---------------------------------------------------------------------------
ACTIONS = {
    "elite": ["Mouvement*", "ET", "Changement de formation*", "Tir ET Charge"],
    "veteran": ["Mouvement**", "ET", "Changement de formation**", "Tir OU Charge"],
    "aguerri": ["Mouvement**", "OU", "Changement de formation**", "Tir OU Charge"],
    "conscrit": ["Mouvement***", "OU", "Changement de formation***", "PAS de Tir"],
}
ACTION_AXIS = ["move", "and_or", "change_formation", "fire_charge"]
PRINTED_ACTIONS = {
    "elite": "ELITE Mouvement* ET Changement de formation*",
    "veteran": "VETERAN Mouvement** ET Changement de formation**",
    "aguerri": "AGUERRI Mouvement** OU Changement de formation**",
    "conscrit": "CONSCRIT Mouvement*** OU Changement de formation***",
}


@pytest.mark.parametrize("experience", EXPERIENCES)
def test_experience_actions(experience):
    got = [lookup(RS, "experience_actions", experience=experience, action=a).text for a in ACTION_AXIS]
    assert got == ACTIONS[experience]


@pytest.mark.parametrize("experience", EXPERIENCES)
def test_experience_actions_read_back_as_the_printed_lines(experience):
    name = PRINTED_ACTIONS[experience].split()[0]
    assert _squash(PRINTED_ACTIONS[experience]) == _squash(name + "".join(ACTIONS[experience][:3]))


def test_experience_action_marks_match_their_footnotes():
    footnote = {"*": "Tir ET Charge", "**": "Tir OU Charge", "***": "PAS de Tir"}
    for cells in ACTIONS.values():
        mark = cells[0][len("Mouvement"):]
        assert cells[2].endswith(mark) and cells[3] == footnote[mark]


# ---------------------------------------------------------------------------
# MOUVEMENT, Vitesse en cm (speed)
#
#   Vitesse en cm | GG | | BGo | | Vitesse en cm | GG | | BGo
#   | Généraux, Cavalerie légère | 30 | 20 | Artilerie à pied attelée, Infanterie en colonne d'attaque | | 15 | 10
#   Autres Cavalerie, Artillerie à cheval attelée, Cavalerie légère en repli | 25 | 15 | Infanterie en ligne,
#       Artillerie irrégulière attelée, Infanterie en carré plein, Infanterie en poursuite | 10 | 5
#   Infanterie en colonne de marche, Infanterie et Cavalerie en repli, Cavalerie en poursuite | 20 | 10 |
#       Infanterie en carré creux, Artillerie dételée | 5 | 3
#
# Two tables side by side: left lines (30/20, 25/15, 20/10), then right lines
# (15/10, 10/5, 5/3). Every kind of unit on a line has that line's speeds.
# ---------------------------------------------------------------------------
SPEED_LINES = [
    ("Généraux, Cavalerie légère", ["general", "light_cavalry"], "30", "20"),
    (
        "Autres Cavalerie, Artillerie à cheval attelée, Cavalerie légère en repli",
        ["cavalry", "horse_artillery_limbered", "light_cavalry_retreating"],
        "25",
        "15",
    ),
    (
        "Infanterie en colonne de marche, Infanterie et Cavalerie en repli, Cavalerie en poursuite",
        ["infantry_march_column", "infantry_retreating", "cavalry_retreating", "cavalry_pursuing", "light_cavalry_pursuing"],
        "20",
        "10",
    ),
    ("Artilerie à pied attelée, Infanterie en colonne d'attaque", ["foot_artillery_limbered", "infantry_attack_column"], "15", "10"),
    (
        "Infanterie en ligne, Artillerie irrégulière attelée, Infanterie en carré plein, Infanterie en poursuite",
        ["infantry_line", "irregular_artillery_limbered", "infantry_solid_square", "infantry_pursuing"],
        "10",
        "5",
    ),
    ("Infanterie en carré creux, Artillerie dételée", ["infantry_hollow_square", "artillery_unlimbered"], "5", "3"),
]
SPEEDS = [(kind, gg, bgo) for _, kinds, gg, bgo in SPEED_LINES for kind in kinds]


@pytest.mark.parametrize("kind, gg, bgo", SPEEDS)
def test_speed(kind, gg, bgo):
    assert lookup(RS, "speed", unit=kind, going="gg").text == gg
    assert lookup(RS, "speed", unit=kind, going="bgo").text == bgo


def test_speed_lists_every_kind_once_in_the_card_order():
    assert _values("speed", "unit") == [kind for kind, _, _ in SPEEDS]
    assert _values("speed", "going") == ["gg", "bgo"]


def test_speed_row_labels_are_the_printed_kinds():
    labels = [b.label.split(" (")[0] for b in get_table(RS, "speed").rows.bands]
    printed = ", ".join(line for line, _, _, _ in SPEED_LINES)
    assert ", ".join(labels) == printed


def test_bad_going_is_never_faster_and_speeds_fall_line_by_line():
    for _, _, gg, bgo in SPEED_LINES:
        assert int(bgo) < int(gg)
    gg_by_line = [int(gg) for _, _, gg, _ in SPEED_LINES]
    assert gg_by_line == sorted(gg_by_line, reverse=True)


# ---------------------------------------------------------------------------
# ARMES A FEU (weapons, artillery_effectiveness)
#
#   ARMES A FEU | Efficacité * | Portée | Longue portée | |
#   Mousquet | 2 | 20 | 10 + | Longue portée / Cible en charge *** | +2
#   Carabine | 2 | 30 | 20 + | Cible cachée / ... | +1
#   Autres armes | 1 | 20 | 7,5 + | Colonne / Carré / ... | -1
#   Artillerie lourde | 1 à 4 ** | 80 | 40 + | *** Tous les facteurs ...
#   Artillerie moyenne | | 60 | 30 + | * Efficacité = 1 si ...
#   Artillerie légère | | 40 | 20 + | |
#   ** Artillerie « Elite » = 4 ; Artillerie « Vétéran » = 3 ;
#    Artillerie « Aguerri » = 2 ; Artillerie « Conscrit » = 1.
#
# The fire modifiers at the right of the first rows are their own table. The
# empty effectiveness of medium and light artillery is the '1 à 4 **' merged
# down the three artillery rows.
# ---------------------------------------------------------------------------
WEAPONS = {
    "musket": ["2", "20", "10 +"],
    "rifle": ["2", "30", "20 +"],
    "other": ["1", "20", "7,5 +"],
    "heavy_artillery": ["1 à 4 **", "80", "40 +"],
    "medium_artillery": ["1 à 4 **", "60", "30 +"],
    "light_artillery": ["1 à 4 **", "40", "20 +"],
}
STATS = ["effectiveness", "range", "long_range"]


@pytest.mark.parametrize("weapon, cells", WEAPONS.items())
def test_weapons(weapon, cells):
    assert [lookup(RS, "weapons", weapon=weapon, stat=s).text for s in STATS] == cells


def test_weapons_rows_and_columns():
    assert _values("weapons", "weapon") == list(WEAPONS)
    assert _values("weapons", "stat") == STATS


def test_long_range_starts_inside_the_range():
    for range_cm, long_cm in ((c[1], c[2]) for c in WEAPONS.values()):
        assert 0 < float(long_cm.rstrip(" +").replace(",", ".")) < int(range_cm)


def test_artillery_effectiveness_mark_points_to_the_footnote():
    cell = lookup(RS, "weapons", weapon="light_artillery", stat="effectiveness")
    assert cell.marks == ("**",)
    assert "Conscrit » = 1" in cell.meaning[0]


@pytest.mark.parametrize("experience, expected", zip(EXPERIENCES, ["4", "3", "2", "1"]))
def test_artillery_effectiveness(experience, expected):
    assert lookup(RS, "artillery_effectiveness", experience=experience).text == expected


# ---------------------------------------------------------------------------
# Fire modifiers (fire_modifiers), printed at the right of ARMES A FEU
#
#   Longue portée / Cible en charge *** | +2
#   Cible cachée / Cible artillerie déployée / Mauvaise discipline de feu / Cible avec
#     tirailleurs non en charge / Tireur avec Efficacité de 1 et ayant bougé / Tireur en
#     désordre / Cible Cavalerie ILh *** | +1
#   Colonne / Carré / Cible Cavalerie / Artillerie attelée / Bonne discipline de feu /
#     Unité avec artillerie régimentaire / Artillerie chargée *** | -1
#
# Each factor between '/' is a modifier of its own with its line's value.
# ---------------------------------------------------------------------------
FIRE_LINES = [
    ("Longue portée / Cible en charge *** +2", [("long_range", "Longue portée"), ("target_charging", "Cible en charge")], "+2"),
    (
        (
            "Cible cachée / Cible artillerie déployée / Mauvaise discipline de feu / Cible avec tirailleurs non en charge / "
            "Tireur avec Efficacité de 1 et ayant bougé / Tireur en désordre / Cible Cavalerie ILh *** +1"
        ),
        [
            ("target_hidden", "Cible cachée"),
            ("target_deployed_artillery", "Cible artillerie déployée"),
            ("poor_fire_discipline", "Mauvaise discipline de feu"),
            ("target_with_skirmishers", "Cible avec tirailleurs non en charge"),
            ("firer_moved_effectiveness_one", "Tireur avec Efficacité de 1 et ayant bougé"),
            ("firer_disordered", "Tireur en désordre"),
            ("target_irregular_light_horse", "Cible Cavalerie ILh"),
        ],
        "+1",
    ),
    (
        (
            "Colonne / Carré / Cible Cavalerie / Artillerie attelée / Bonne discipline de feu / "
            "Unité avec artillerie régimentaire / Artillerie chargée *** -1"
        ),
        [
            ("target_column", "Colonne"),
            ("target_square", "Carré"),
            ("target_cavalry", "Cible Cavalerie"),
            ("target_limbered_artillery", "Artillerie attelée"),
            ("good_fire_discipline", "Bonne discipline de feu"),
            ("regimental_artillery", "Unité avec artillerie régimentaire"),
            ("artillery_charged", "Artillerie chargée"),
        ],
        "-1",
    ),
]


def _modifier_cases(lines):
    return [(fid, factor, value) for _, factors, value in lines for fid, factor in factors]


@pytest.mark.parametrize("factor_id, factor, value", _modifier_cases(FIRE_LINES))
def test_fire_modifiers(factor_id, factor, value):
    assert lookup(RS, "fire_modifiers", modifier=factor_id, part="factor").text == factor
    assert lookup(RS, "fire_modifiers", modifier=factor_id, part="value").text == value


@pytest.mark.parametrize("printed, factors, value", FIRE_LINES)
def test_fire_modifier_lines_read_back(printed, factors, value):
    cells = [lookup(RS, "fire_modifiers", modifier=fid, part="factor").text for fid, _ in factors]
    assert _squash(printed) == _squash(" / ".join(cells) + " *** " + value)


def test_fire_modifiers_have_exactly_the_printed_factors():
    assert _values("fire_modifiers", "modifier") == [fid for fid, _, _ in _modifier_cases(FIRE_LINES)]


# ---------------------------------------------------------------------------
# TIR CIBLES PRIORITAIRES (fire_priority)
#
#   - a) Les unités qui chargent l'unité qui tire.
#    b) Une unité ennemie à 10 cm ou - et capable de charger ou de tirer l'unité qui tire.
#    c) Les unités qui chargent des unités amies à 10 cm ou -.
#    d) L'unité de son choix pour l'artillerie avec un général d'artillerie ou son divisionnaire à 5 cm.
#    e) L'unité ennemie la plus proche.
# ---------------------------------------------------------------------------
PRIORITIES = {
    "a": "Les unités qui chargent l'unité qui tire.",
    "b": "Une unité ennemie à 10 cm ou - et capable de charger ou de tirer l'unité qui tire.",
    "c": "Les unités qui chargent des unités amies à 10 cm ou -.",
    "d": "L'unité de son choix pour l'artillerie avec un général d'artillerie ou son divisionnaire à 5 cm.",
    "e": "L'unité ennemie la plus proche.",
}


@pytest.mark.parametrize("letter, text", PRIORITIES.items())
def test_fire_priority(letter, text):
    assert lookup(RS, "fire_priority", priority=letter).text == text


def test_fire_priorities_run_a_to_e():
    assert _values("fire_priority", "priority") == list("abcde")


# ---------------------------------------------------------------------------
# CORPS A CORPS (melee_elements, melee_modifiers)
#
#   1 ^{er} Tour : | Uniquement les éléments au contact | + 2 ^{ème} rang si Colonne avec
#     doctrine Française ayant chargée ou contre-chargée.
#   Autres tours : | Tous les éléments à 5 cm d'un élément ennemi combattant. |
#   Cavalerie contre infanterie non en carré ou infanterie en carré et en désordre | - 2 |
#   Lanciers ou Cuirassiers, non en désordre, contre infanterie non en carré ou infanterie
#     en carré et en désordre | - 1 |
#   Cavalerie ou Infanterie contre Cuirassiers | +1 |
#   Unité en désordre et combattant | +1 |
#   Combattant une unité à couvert et n'ayant pas contre-chargée (uniquement 1 ^{er} tour
#     de combat) | +1 |
#   Cavalerie contre infanterie en carré plein et en ordre | +1 |
#   Cavalerie contre infanterie en carré creux et en ordre | +2 |
# ---------------------------------------------------------------------------
MELEE_ELEMENTS = {
    1: ["Uniquement les éléments au contact", "+ 2ème rang si Colonne avec doctrine Française ayant chargée ou contre-chargée."],
    2: ["Tous les éléments à 5 cm d'un élément ennemi combattant.", B],
}


@pytest.mark.parametrize("round_number", [1, 2, 3, 7])
def test_melee_elements(round_number):
    expected = MELEE_ELEMENTS[min(round_number, 2)]
    got = [lookup(RS, "melee_elements", round=round_number, elements=e).text for e in ("fighting", "second_rank")]
    assert got == expected


def test_melee_has_no_round_zero():
    with pytest.raises(RulesError):
        lookup(RS, "melee_elements", round=0, elements="fighting")


MELEE_LINES = [
    ("Cavalerie contre infanterie non en carré ou infanterie en carré et en désordre - 2",
     [("cavalry_vs_open_infantry", "Cavalerie contre infanterie non en carré ou infanterie en carré et en désordre")], "- 2"),
    ("Lanciers ou Cuirassiers, non en désordre, contre infanterie non en carré ou infanterie en carré et en désordre - 1",
     [("lancers_cuirassiers_vs_open_infantry",
       "Lanciers ou Cuirassiers, non en désordre, contre infanterie non en carré ou infanterie en carré et en désordre")], "- 1"),
    ("Cavalerie ou Infanterie contre Cuirassiers +1", [("against_cuirassiers", "Cavalerie ou Infanterie contre Cuirassiers")], "+1"),
    ("Unité en désordre et combattant +1", [("disordered", "Unité en désordre et combattant")], "+1"),
    ("Combattant une unité à couvert et n'ayant pas contre-chargée (uniquement 1er tour de combat) +1",
     [("enemy_in_cover", "Combattant une unité à couvert et n'ayant pas contre-chargée (uniquement 1er tour de combat)")], "+1"),
    ("Cavalerie contre infanterie en carré plein et en ordre +1",
     [("cavalry_vs_solid_square", "Cavalerie contre infanterie en carré plein et en ordre")], "+1"),
    ("Cavalerie contre infanterie en carré creux et en ordre +2",
     [("cavalry_vs_hollow_square", "Cavalerie contre infanterie en carré creux et en ordre")], "+2"),
]


@pytest.mark.parametrize("factor_id, factor, value", _modifier_cases(MELEE_LINES))
def test_melee_modifiers(factor_id, factor, value):
    assert lookup(RS, "melee_modifiers", modifier=factor_id, part="factor").text == factor
    assert lookup(RS, "melee_modifiers", modifier=factor_id, part="value").text == value


@pytest.mark.parametrize("printed, factors, value", MELEE_LINES)
def test_melee_modifier_lines_read_back(printed, factors, value):
    (fid, _), = factors
    cell = lookup(RS, "melee_modifiers", modifier=fid, part="factor").text
    assert _squash(printed) == _squash(cell + value)


def test_melee_modifiers_have_exactly_the_printed_factors():
    assert _values("melee_modifiers", "modifier") == [fid for fid, _, _ in _modifier_cases(MELEE_LINES)]


# ---------------------------------------------------------------------------
# MORAL, modifiers (morale_modifiers)
#
#   Divisionnaire ou Brigadier de l'unité à 5 cm de l'unité / A couvert | - 1 |
#       Carré creux en ordre chargé par ou au contact de la Cavalerie | - 2
#   Unité en désordre et chargée / Infanterie chargeant de la Cavalerie* | + 1 |
#       Carré plein en ordre chargé par ou au contact de la Cavalerie | - 1
#   Unité chargeant de l'artillerie* ou chargée par des Cuirassiers | + 1 |
#       Inf. non en carré ou en désordre et chargée/contact avec la Cavalerie | + 1
#   Cavalerie chargeant de la Cavalerie | - 2 |
#       Artillerie ayant une UC en ordre à 5 cm ou - de son flanc | - 1/flanc
#   Cavalerie chargeant ou en contact avec de l'artillerie ou de l'infanterie non en
#     carré ou en désordre | - 2 | Infanterie chargeant une infanterie en ligne et en ordre | + 1
#   | | Caractéristique nationale | - 1
#   * sauf sur le flanc ou les arrières
#
# Two columns side by side: the left five lines, then the right six (the last
# under an empty left cell). '/' and the 'ou' between two situations separate
# factors of their own.
# ---------------------------------------------------------------------------
MORALE_LINES = [
    ("Divisionnaire ou Brigadier de l'unité à 5 cm de l'unité / A couvert - 1",
     [("general_near", "Divisionnaire ou Brigadier de l'unité à 5 cm de l'unité"), ("in_cover", "A couvert")], "- 1", " / "),
    ("Unité en désordre et chargée / Infanterie chargeant de la Cavalerie* + 1",
     [("disordered_and_charged", "Unité en désordre et chargée"), ("infantry_charging_cavalry", "Infanterie chargeant de la Cavalerie*")],
     "+ 1", " / "),
    ("Unité chargeant de l'artillerie* ou chargée par des Cuirassiers + 1",
     [("charging_artillery", "Unité chargeant de l'artillerie*"), ("charged_by_cuirassiers", "chargée par des Cuirassiers")], "+ 1", " ou "),
    ("Cavalerie chargeant de la Cavalerie - 2", [("cavalry_charging_cavalry", "Cavalerie chargeant de la Cavalerie")], "- 2", ""),
    ("Cavalerie chargeant ou en contact avec de l'artillerie ou de l'infanterie non en carré ou en désordre - 2",
     [("cavalry_vs_guns_or_open_infantry",
       "Cavalerie chargeant ou en contact avec de l'artillerie ou de l'infanterie non en carré ou en désordre")], "- 2", ""),
    ("Carré creux en ordre chargé par ou au contact de la Cavalerie - 2",
     [("hollow_square_vs_cavalry", "Carré creux en ordre chargé par ou au contact de la Cavalerie")], "- 2", ""),
    ("Carré plein en ordre chargé par ou au contact de la Cavalerie - 1",
     [("solid_square_vs_cavalry", "Carré plein en ordre chargé par ou au contact de la Cavalerie")], "- 1", ""),
    ("Inf. non en carré ou en désordre et chargée/contact avec la Cavalerie + 1",
     [("open_infantry_vs_cavalry", "Inf. non en carré ou en désordre et chargée/contact avec la Cavalerie")], "+ 1", ""),
    ("Artillerie ayant une UC en ordre à 5 cm ou - de son flanc - 1/flanc",
     [("artillery_flank_covered", "Artillerie ayant une UC en ordre à 5 cm ou - de son flanc")], "- 1/flanc", ""),
    ("Infanterie chargeant une infanterie en ligne et en ordre + 1",
     [("infantry_charging_line", "Infanterie chargeant une infanterie en ligne et en ordre")], "+ 1", ""),
    ("Caractéristique nationale - 1", [("national_characteristic", "Caractéristique nationale")], "- 1", ""),
]


@pytest.mark.parametrize("factor_id, factor, value", [(f, t, v) for _, fs, v, _ in MORALE_LINES for f, t in fs])
def test_morale_modifiers(factor_id, factor, value):
    assert lookup(RS, "morale_modifiers", modifier=factor_id, part="factor").text == factor
    assert lookup(RS, "morale_modifiers", modifier=factor_id, part="value").text == value


@pytest.mark.parametrize("printed, factors, value, joiner", MORALE_LINES)
def test_morale_modifier_lines_read_back(printed, factors, value, joiner):
    cells = [lookup(RS, "morale_modifiers", modifier=fid, part="factor").text for fid, _ in factors]
    assert _squash(printed) == _squash(joiner.join(cells) + value)


def test_morale_modifiers_have_exactly_the_printed_factors():
    assert _values("morale_modifiers", "modifier") == [f for _, fs, _, _ in MORALE_LINES for f, _ in fs]


def test_only_the_two_charges_carry_the_flank_and_rear_star():
    starred = [f for _, fs, _, _ in MORALE_LINES for f, text in fs if text.endswith("*")]
    assert starred == ["infantry_charging_cavalry", "charging_artillery"]


# ---------------------------------------------------------------------------
# SEQUENCE DE JEU (sequence_of_play)
#
#   Phase 1: | | | | Phase 3:
#   Tester les UC puis les UM qui ont perdus + de la moitié de ses effectifs | | | | Tir et Sauvegardes adverses
#   Tester la Division si elle a perdu + de la moitié des ses UM | | | | Charge pour les UC qui sont à 5 cm d'un ennemi
#   Remplacement des généraux de brigade tués ou capturés | | | | (a) Test de moral pour les UC à pied chargeant frontalement la Cavalerie ***
#   Phase 2: | | | | (b) Test de moral pour les UC chargés ***
#   Comblent les rangs des UC qui ont eu des pertes | | | | Tir défensif ou contre-attaque des UC chargés
#   Déterminer les UC non commandés | | | | Sauvegarde pour les UC chargeants si tir défensif
#   Mouvement des UC non commandés vers leur général de brigade | | | | Test de moral pour les UC chargeants
#   Mouvement des autres UC et des Indépendants | | | | (c) Déterminer les touches et faire les sauvegardes
#   ELITE ... | Test de moral, si réussi repli ou poursuite du combat allez à (c) sinon rupture
#   VETERAN ... | Mouvement de poursuite/consolidation pour le vainqueur
#   AGUERRI ... | Si nouveau contact allez à (a) sinon les autres UC du UM peuvent avancer 10cm
#   CONSCRIT ... | Enlever les pions de désordre et de ralliement pour les UC immobiles
#   ... | *** Non cumulable
#
# Left column (Phases 1 and 2) down, then the right column (Phase 3).
# ---------------------------------------------------------------------------
SEQUENCE = {
    "1.1": "Tester les UC puis les UM qui ont perdus + de la moitié de ses effectifs",
    "1.2": "Tester la Division si elle a perdu + de la moitié des ses UM",
    "1.3": "Remplacement des généraux de brigade tués ou capturés",
    "2.1": "Comblent les rangs des UC qui ont eu des pertes",
    "2.2": "Déterminer les UC non commandés",
    "2.3": "Mouvement des UC non commandés vers leur général de brigade",
    "2.4": "Mouvement des autres UC et des Indépendants",
    "3.1": "Tir et Sauvegardes adverses",
    "3.2": "Charge pour les UC qui sont à 5 cm d'un ennemi",
    "3.3": "(a) Test de moral pour les UC à pied chargeant frontalement la Cavalerie ***",
    "3.4": "(b) Test de moral pour les UC chargés ***",
    "3.5": "Tir défensif ou contre-attaque des UC chargés",
    "3.6": "Sauvegarde pour les UC chargeants si tir défensif",
    "3.7": "Test de moral pour les UC chargeants",
    "3.8": "(c) Déterminer les touches et faire les sauvegardes",
    "3.9": "Test de moral, si réussi repli ou poursuite du combat allez à (c) sinon rupture",
    "3.10": "Mouvement de poursuite/consolidation pour le vainqueur",
    "3.11": "Si nouveau contact allez à (a) sinon les autres UC du UM peuvent avancer 10cm",
    "3.12": "Enlever les pions de désordre et de ralliement pour les UC immobiles",
}


@pytest.mark.parametrize("step, text", SEQUENCE.items())
def test_sequence_of_play(step, text):
    assert lookup(RS, "sequence_of_play", step=step).text == text


def test_sequence_has_every_step_in_order():
    assert _values("sequence_of_play", "step") == list(SEQUENCE)


def test_only_tests_a_and_b_are_marked_not_cumulative():
    marked = [s for s in SEQUENCE if lookup(RS, "sequence_of_play", step=s).marks == ("***",)]
    assert marked == ["3.3", "3.4"]


# ---------------------------------------------------------------------------
# Every table carries its source and notes; every lookup value is known.
# ---------------------------------------------------------------------------
ALL_TABLES = [
    "to_hit", "save", "morale", "command_distance", "experience_actions", "speed", "weapons",
    "artillery_effectiveness", "fire_modifiers", "fire_priority", "melee_elements", "melee_modifiers",
    "morale_modifiers", "sequence_of_play",
]


def test_the_rule_set_has_exactly_these_tables():
    from rules import load_ruleset

    assert sorted(load_ruleset(RS)) == sorted(ALL_TABLES)


@pytest.mark.parametrize("table_id", ALL_TABLES)
def test_every_table_names_its_source_and_readings(table_id):
    table = get_table(RS, table_id)
    assert table.source_file == "003_49b400ab842f5a33.txt"
    assert table.source_heading and table.notes


@pytest.mark.parametrize("experience", ["Elite", "expert", "", "vétéran"])
def test_unknown_experience_is_one_sentence(experience):
    with pytest.raises(RulesError, match="experience"):
        lookup(RS, "to_hit", experience=experience)


@pytest.mark.parametrize(
    "table_id, axis, values",
    [("to_hit", "experience", TO_HIT), ("save", "attack", {"fire": "3+", "melee": "4+"}), ("morale", "temperament", MORALE)],
)
def test_the_odds_of_each_number_needed_sum_to_one(table_id, axis, values):
    assert [lookup(RS, table_id, **{axis: v}).text for v in values] == list(values.values())
    for text in values.values():
        need = int(text.rstrip("+ "))
        odds = pool_odds(1, need)
        assert sum(odds.values()) == 1
        assert odds[1] == Fraction(7 - need, 6)


@needs_card(NAPOLEONIC_UC_UM)
@pytest.mark.parametrize("table_id", ALL_TABLES)
def test_every_french_cell_is_words_of_the_card(table_id):
    """A slip of transcription (an accent, an agreement) shows as a cell not on the card."""

    def norm(text: str) -> str:
        return _squash(text.replace("^{er}", "er").replace("^{ème}", "ème"))

    card = norm(card_text(NAPOLEONIC_UC_UM))
    table = get_table(RS, table_id)
    for _, grid in table.grids():
        for row in grid:
            for cell in row:
                assert not cell or norm(cell) in card, cell


@needs_card(NAPOLEONIC_UC_UM)
def test_the_choice_lists_show_the_card_s_words_with_their_accents():
    # issue 24: 'attack_column', 'heavy_artillery', 'unlimbered' were shown as identifiers
    from rules.resolver import get_resolver

    text = card_text(NAPOLEONIC_UC_UM).lower()
    for attribute in get_resolver("napoleonic_uc_um").attributes:
        if attribute.kind != "choice":
            continue
        for choice in attribute.choices:
            shown = attribute.label_of(choice)
            assert "_" not in shown, (attribute.id, choice)
            if (attribute.id, choice) == ("fire_discipline", "ordinary"):
                continue  # the card prints only 'Bonne' and 'Mauvaise discipline de feu'
            french = shown.split(" (")[0]
            # the French as the card prints it ('Cavalerie ILh' is 'Cible Cavalerie ILh')
            assert all(part.lower() in text for part in french.split("/")), (attribute.id, french)
