"""The gazetteer of 1813: coordinates and roads read back against values typed separately,
spellings that find their place, and a broken file that names itself and the entry."""

from __future__ import annotations

import shutil
import tomllib
from pathlib import Path

import pytest

from campaigns.gazetteer import THEATRE_DIR, GazetteerError, UnknownPlace, gazetteer, split_location
from tests.templates import new_campaign

SCENARIOS = Path(__file__).parents[2] / "campaigns" / "scenarios"

# Typed from the degrees-and-minutes each town's Wikipedia article gives, apart from
# the gazetteer's decimal figures: (latitude, longitude).
INDEPENDENT = {
    "Leipzig": (51 + 20 / 60, 12 + 23 / 60),
    "Dresden": (51 + 3 / 60, 13 + 44 / 60),
    "Berlin": (52 + 31 / 60, 13 + 24 / 60),
    "Breslau": (51 + 6 / 60, 17 + 2 / 60),
    "Prague": (50 + 5 / 60, 14 + 25 / 60),
    "Magdeburg": (52 + 8 / 60, 11 + 37 / 60),
    "Bautzen": (51 + 11 / 60, 14 + 26 / 60),
    "Erfurt": (50 + 59 / 60, 11 + 2 / 60),
    "Kalisch": (51 + 46 / 60, 18 + 5 / 60),
    "Liegnitz": (51 + 12 / 60, 16 + 10 / 60),
    "Lützen": (51 + 16 / 60, 12 + 8 / 60),
    "Torgau": (51 + 34 / 60, 13 + 0 / 60),
    "Wittenberg": (51 + 52 / 60, 12 + 39 / 60),
    "Hamburg": (53 + 33 / 60, 10 + 0 / 60),
    "Stettin": (53 + 26 / 60, 14 + 33 / 60),
    "Teplitz": (50 + 38 / 60, 13 + 50 / 60),
    "Jungbunzlau": (50 + 25 / 60, 14 + 54 / 60),
}
TOLERANCE = 0.03  # degrees: about 3 km, well under a hex


@pytest.mark.parametrize("name", sorted(INDEPENDENT))
def test_a_sample_of_coordinates_agrees_with_an_independent_list(name: str) -> None:
    place = gazetteer().place(name)
    lat, lon = INDEPENDENT[name]
    assert abs(place.lat - lat) <= TOLERANCE and abs(place.lon - lon) <= TOLERANCE


@pytest.mark.parametrize(
    ("a", "b", "kind", "crossings"),
    [
        ("Leipzig", "Lützen", "road", {"Weisse Elster": "bridge"}),  # the Lindenau causeway
        ("Pirna", "Peterswalde", "road", {}),  # the Teplitz chaussée over the Erzgebirge
        ("Altenberg", "Teplitz", "poor_road", {}),  # the Zinnwald pass
        ("Meissen", "Dresden", "road", {}),
        ("Riesa", "Grossenhain", "poor_road", {"Elbe": "ford"}),  # no Elbe bridge at Riesa until 1878
        ("Goldberg", "Liegnitz", "road", {"Katzbach": "bridge"}),
        ("Dessau", "Rosslau", "road", {"Elbe": "bridge"}),
    ],
)
def test_a_sample_of_roads_has_the_kind_and_crossings_typed_here(a: str, b: str, kind: str, crossings: dict) -> None:
    (road,) = [r for r in gazetteer().roads if {r.a, r.b} == {a, b}]
    assert road.kind == kind
    assert {c.river: c.by for c in road.crossings} == crossings


def test_the_theatre_is_a_real_one() -> None:
    g = gazetteer()
    assert len(g.places) >= 100 and len(g.roads) >= 150
    assert {p.kind for p in g.places.values()} == {"town", "fortress", "crossing"}
    assert {"Elbe", "Saale", "Mulde", "Weisse Elster", "Schwarze Elster", "Spree", "Neisse", "Bober", "Katzbach", "Oder", "Havel"} <= set(g.rivers)
    assert g.rivers["Elbe"].size == "major" and g.rivers["Katzbach"].size == "minor"


def test_every_place_a_scenario_names_is_known() -> None:
    g = gazetteer()
    for path in SCENARIOS.glob("*.toml"):
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        for entry in data["general"] + data["unit"]:
            g.place(split_location(entry["location"])[0])


@pytest.mark.parametrize(
    ("typed", "name"),
    [("Lutzen", "Lützen"), ("LUETZEN", "Lützen"), ("Leipsic", "Leipzig"), ("Dresde", "Dresden"),
     ("Gross-Görschen", "Grossgörschen"), ("Wrocław", "Breslau"), ("mlada boleslav", "Jungbunzlau")],
)
def test_spelling_variants_find_the_place(typed: str, name: str) -> None:
    assert gazetteer().place(typed).name == name


def test_an_unknown_place_is_one_sentence_with_the_nearest_names() -> None:
    with pytest.raises(UnknownPlace) as caught:
        gazetteer().place("Baurzen")
    assert "Bautzen" in caught.value.suggestions
    assert str(caught.value) == "there is no place 'Baurzen' in the gazetteer; did you mean " + \
        ", ".join(caught.value.suggestions[:-1]) + " or " + caught.value.suggestions[-1] + "?"


def test_a_marching_note_is_split_from_the_place() -> None:
    assert split_location("Kalisch (on the march from Thorn)") == ("Kalisch", "on the march from Thorn")
    assert split_location("Dresden") == ("Dresden", "")


def test_a_road_length_comes_from_the_hex_size_unless_the_road_gives_it(tmp_path: Path) -> None:
    (road,) = [r for r in gazetteer().roads if {r.a, r.b} == {"Leipzig", "Lützen"}]
    # Leipzig-Lützen is about 18 km as the crow flies: 18/6 = 3 hexes of 6 km, 18/8 = 2.3 -> 2 of 8 km.
    assert 17 < road.km < 19.5
    assert road.hexes(6) == 3 and road.hexes(8) == 2
    folder = _broken(tmp_path, "roads.toml", 'to = "Lützen", kind = "road"', 'to = "Lützen", kind = "road", hexes = 5')
    (club,) = [r for r in gazetteer(folder).roads if {r.a, r.b} == {"Leipzig", "Lützen"}]
    assert club.hexes(6) == club.hexes(8) == 5


def _broken(tmp_path: Path, file: str, old: str, new: str) -> Path:
    folder = tmp_path / "theatre"
    shutil.copytree(THEATRE_DIR, folder)
    text = (folder / file).read_text(encoding="utf-8")
    assert old in text
    (folder / file).write_text(text.replace(old, new, 1), encoding="utf-8")
    return folder


@pytest.mark.parametrize(
    ("file", "old", "new", "message"),
    [
        ("roads.toml", '{ from = "Lützen", to = "Weissenfels"', '{ from = "Lutzen", to = "Weissenfels"',
         "roads.toml: road 2 (Lutzen-Weissenfels): 'Lutzen' is not a place of the gazetteer"),
        ("saxony.toml", 'name = "Pegau"', 'name = "Leipzig"', "saxony.toml: place Leipzig: the name is used twice"),
        ("saxony.toml", 'variants = ["Dresde"]', 'variants = ["Dresde", "Leipsic"]',
         "saxony.toml: place Leipzig: 'Leipsic' already names Dresden"),
        ("saxony.toml", "lat = 51.17, lon = 12.25", "lat = 12.25, lon = 51.17",
         "saxony.toml: place Pegau: 12.25, 51.17 lies outside the theatre (49.5-54.8 N, 8.4-19.0 E)"),
        ("roads.toml", 'cross = { Mulde = "bridge" } },\n    { from = "Taucha", to = "Wurzen"',
         'cross = { Mulde = "plank" } },\n    { from = "Taucha", to = "Wurzen"', "roads.toml: road 13 (Taucha-Eilenburg): cross.Mulde: Input should be"),
        ("bohemia.toml", 'kind = "fortress", lat = 50.51', 'kind = "castle", lat = 50.51', "bohemia.toml: place Theresienstadt: kind: Input should be"),
    ],
)
def test_a_broken_file_names_the_file_and_the_entry(tmp_path: Path, file: str, old: str, new: str, message: str) -> None:
    with pytest.raises(GazetteerError) as caught:
        gazetteer(_broken(tmp_path, file, old, new))
    assert str(caught.value).startswith(message)
    assert "\n" not in str(caught.value)


def test_a_scenario_naming_an_unknown_place_is_refused_with_suggestions(tmp_path: Path) -> None:
    from campaigns.scenario import ScenarioError, load_scenario

    text = (SCENARIOS / "spring1813.toml").read_text(encoding="utf-8")
    (tmp_path / "spring1813.toml").write_text(text.replace('location = "Merseburg"', 'location = "Merseberg"', 1), encoding="utf-8")
    with pytest.raises(ScenarioError) as caught:
        load_scenario(tmp_path / "spring1813.toml")
    assert "there is no place 'Merseberg' in the gazetteer; did you mean Merseburg" in str(caught.value)
    assert str(caught.value).startswith("spring1813.toml: ")


def test_scenario_locations_are_places_with_their_marching_notes() -> None:
    from campaigns.scenario import load_scenario

    scenario = load_scenario("spring1813")
    marching = {(u.location, u.march_note) for u in scenario.units if u.march_note}
    assert ("Kalisch", "on the march from Thorn") in marching
    places = gazetteer().places
    assert all(g.location in places for g in scenario.generals) and all(u.location in places for u in scenario.units)


def test_editing_a_location_takes_a_variant_and_refuses_an_unknown_place(tmp_path: Path) -> None:
    from campaigns.errors import CampaignError
    from campaigns.oob import edit_unit
    from campaigns.session import CampaignSession
    from models import Unit

    session = CampaignSession.open(new_campaign(tmp_path / "c.campaign", "spring1813", seed=1))
    try:
        values = {"name": "III Corps", "kind": "infantry", "strength_points": "5", "cohesion": "3",
                  "artillery_bonus": "0", "cavalry_bonus": "0"}
        edit_unit(session, "iii_souham", {**values, "location": "Lutzen (marching from Weissenfels)"})
        with session.store.read() as db:
            unit = db.get_one(Unit, "iii_souham")
            assert (unit.location, unit.march_note) == ("Lützen", "marching from Weissenfels")
        with pytest.raises(CampaignError, match="there is no place 'Lutzn' in the gazetteer; did you mean Lützen"):
            edit_unit(session, "iii_souham", {**values, "location": "Lutzn"})
    finally:
        session.close()
