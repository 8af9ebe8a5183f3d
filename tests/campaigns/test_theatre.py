"""The theatre in play: places, routes priced by the card, activation, moves, contact and the map,
through the `adjutant` commands and the campaign functions behind them."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

import pytest
from sqlmodel import select

from campaigns import battles, command_points, movement
from campaigns.contact import contacts
from campaigns.errors import CampaignError
from campaigns.session import CampaignSession
from models import Activation, CommandPointSpend, General, Turn, Unit
from tui.cli import main
from tests.templates import new_campaign


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


def new(tmp_path: Path, scenario: str = "spring1813") -> Path:
    path = tmp_path / f"{scenario}.campaign"
    new_campaign(path, scenario, seed=1813)
    return path


def set_weather(path: Path, weather: str) -> None:
    session = CampaignSession.open(path)
    try:
        with session.store.action(f"The umpire sets the weather: {weather}") as db:
            turn = db.get_one(Turn, 1)
            turn.weather, turn.weather_source = weather, "set"
    finally:
        session.close()


def place(path: Path, location: str, generals: list[str] = (), units: list[str] = ()) -> None:  # type: ignore[assignment]
    session = CampaignSession.open(path)
    try:
        with session.store.action(f"Put {', '.join([*generals, *units])} at {location}") as db:
            for g in generals:
                db.get_one(General, g).location = location
            for u in units:
                db.get_one(Unit, u).location = location
    finally:
        session.close()


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


# -- adjutant places ------------------------------------------------------------


def test_places_lists_each_place_with_its_stacks_one_line_a_place(tmp_path, capsys):
    path = new(tmp_path)
    code, out, err = run(capsys, "places", path)
    assert code == 0 and err == ""
    lines = out.splitlines()
    weimar = [line for line in lines if line.startswith("Weimar ")]
    assert weimar == ["Weimar (town): French Empire and allies: Marshal Ney (III Corps), 5 units, 24 SP"]
    assert len(lines) == len({line.split(" (")[0] for line in lines})  # one line a place
    assert any(line.startswith("Kalisch (town): Russia and Prussia") for line in lines)


def test_an_unknown_place_anywhere_is_one_sentence_with_suggestions(tmp_path, capsys):
    path = new(tmp_path)
    code, out, err = run(capsys, "route", path, "ney", "Lutzn")
    assert (code, out) == (2, "")
    assert err == "adjutant: there is no place 'Lutzn' in the gazetteer; did you mean Lützen, Laun or Bautzen?\n"
    place(path, "Lutzn", generals=["bessieres"])  # a location stored by hand, before the gazetteer
    code, out, err = run(capsys, "places", path)
    assert code == 1 and "Weimar (town)" in out
    assert err == "adjutant: 'Lutzn' is not a place of the gazetteer; did you mean Lützen, Laun, Bautzen?\n"


# -- adjutant route -----------------------------------------------------------------


def test_route_prints_route_cost_by_type_and_verdict_and_changes_nothing(tmp_path, capsys):
    path = new(tmp_path)
    set_weather(path, "Clear")
    before = digest(path)
    code, out, err = run(capsys, "route", path, "Marshal Ney (III Corps)", "Naumburg")
    assert code == 0 and err == ""
    assert "Route: Weimar - Eckartsberga - Kösen - Naumburg (Clear)" in out
    assert "Cost: 5 MP" in out
    assert "  generals: costs 5 MP of 8 (movement table: 8 MP): can march it" in out
    assert "  infantry: costs 5 MP of 6 (movement table: 6 MP): can march it" in out
    assert "[Terrain effects by weather, Clear, Road: '1 MP']" in out and "teRRain" not in out
    # within every type's MP, but Ney's 4 infantry are over the card's stacking without the commander-in-chief
    assert out.rstrip().endswith("Refused: 4 infantry and 0 cavalry units (and 1 dummy) would stand together at Naumburg "
                                 "without a commander-in-chief; the card allows at most 2 infantry + 1 cavalry, "
                                 "1 infantry + 2 cavalry or 3 cavalry; and the stack is not activated this turn.")
    assert "Allowed" not in out and "Not activated" not in out  # one verdict, said once
    assert digest(path) == before


def test_a_missing_argument_after_the_file_is_named_not_the_file(tmp_path, capsys, monkeypatch):
    """FILE is optional (--db instead): `move lutzen.campaign ney` read the file as the STACK and
    said "name a campaign FILE, or a database..." to an umpire who had named it."""
    monkeypatch.delenv("ADJUTANT_DATABASE_URL", raising=False)
    path = new(tmp_path)
    before = digest(path)
    for args, read_as in ((["move", path, "ney"], "STACK"), (["route", path, "ney"], "STACK"), (["activate", path], "STACK")):
        code, out, err = run(capsys, *args)
        assert code == 2 and out == ""
        assert err.startswith(f"adjutant: '{path}' was read as {read_as}, not as the campaign FILE: an argument after it is missing"), err
    code, _, err = run(capsys, "move", "ney", "Leipzig")  # no file at all: the sentence that asks for one
    assert code == 2 and "name a campaign FILE, or a database" in err
    assert digest(path) == before


def test_route_beyond_the_mp_but_within_a_forced_march_says_so(tmp_path, capsys):
    """Two of Ney's divisions to Weissenfels: 7 MP against infantry's 6. `move` says a forced
    march can carry it; before, `route` only said "Refused", as for a route no march can make."""
    path = new(tmp_path)
    set_weather(path, "Clear")
    code, out, err = run(capsys, "route", path, "ney", "Weissenfels", "--only", "iii_brenier_girard,iii_marchand")
    assert code == 0 and err == ""
    assert "Cost: 7 MP" in out and "Refused: the route costs 7 MP and infantry have 6 MP left in Clear" in out
    assert out.rstrip().endswith("A forced march can carry it: 1 MP beyond, each unit rolls on the forced march table "
                                 "(adjutant move --forced).")
    code, out, err = run(capsys, "route", path, "ney", "Leipzig", "--only", "iii_brenier_girard,iii_marchand")
    assert code == 0 and "Refused" in out and "forced march" not in out  # too far for one


def test_mud_costs_more_than_clear_on_the_same_route(tmp_path, capsys):
    path = new(tmp_path, "autumn1813")  # Ney's Army of the Bober at Liegnitz
    set_weather(path, "Clear")
    _, clear, _ = run(capsys, "route", path, "ney", "Wahlstatt")
    path_mud = tmp_path / "mud.campaign"
    path_mud.write_bytes(path.read_bytes())
    session = CampaignSession.open(path_mud)
    with session.store.action("Mud") as db:
        db.get_one(Turn, 1).weather = "Mud"
    session.close()
    _, mud, _ = run(capsys, "route", path_mud, "ney", "Wahlstatt")
    route = "Route: Liegnitz - Wahlstatt"
    assert route in clear and route in mud
    # Mud: infantry 6 - 1 = 5 MP, cavalry 8 - 2 = 6 (movement table, Weather effects).
    assert "  infantry: costs 3 MP of 5 (movement table: 6 MP, weather -1): can march it" in mud
    cost = re.compile(r"Cost: (\d+) MP")
    # The Katzbach forded: teRRain effectS, MiNOR RiveR, Mud +1.
    assert int(cost.search(mud)[1]) == int(cost.search(clear)[1]) + 1
    assert "the Katzbach without a bridge = 1 MP  [Terrain effects by weather, Mud, Minor river: '+1']" in mud


def test_a_major_river_without_a_bridge_is_refused(tmp_path, capsys):
    path = new(tmp_path)
    set_weather(path, "Clear")
    place(path, "Genthin", generals=["bulow"], units=["bulow_corps"])  # east of the Elbe; Tangermünde is west
    # The way round passes Magdeburg, which the French hold (option enemy_held_place): no route.
    code, _, err = run(capsys, "route", path, "bulow", "Tangermünde")
    assert code != 0
    assert "the road Genthin-Tangermünde crosses the Elbe, a major river, without a bridge" in err
    assert "Genthin - Burg - Magdeburg - Stendal - Tangermünde passes Magdeburg; a move stops at the first one" in err
    run(capsys, "options", path, "--set", "enemy_held_place=pass_through")
    code, out, _ = run(capsys, "route", path, "bulow", "Tangermünde")
    assert code == 0
    assert "Refused: the road Genthin-Tangermünde crosses the Elbe, a major river, without a bridge" in out
    assert "the way round by Genthin - Burg - Magdeburg - Stendal - Tangermünde costs" in out


# -- activation and movement -----------------------------------------------------------


@pytest.fixture
def session(tmp_path):
    path = new(tmp_path)
    set_weather(path, "Clear")
    s = CampaignSession.open(path)
    command_points.roll(s, "army_of_the_main", [3])  # 3 + Napoleon's CV
    command_points.roll(s, "allied_army", [4])
    yield s
    s.close()


def balance(session, army: str) -> int:
    return next(p.balance for p in command_points.turn_points(session) if p.army == army)


def test_moving_a_stack_that_was_not_activated_is_refused(session):
    with pytest.raises(CampaignError, match=r"^Marshal Ney \(III Corps\)'s stack at Weimar has not been activated this turn"):
        movement.move(session, "ney", "Jena")


def test_a_subordinate_without_a_loc_costs_1_pc_and_with_one_nothing(session, tmp_path):
    before = balance(session, "allied_army")
    assert "(valid LOC): 0 PC" in movement.activate(session, "blucher")
    assert balance(session, "allied_army") == before
    # Yorck alone at Kosel, whose one road (to Oppeln) a French stack holds: no LOC to Wittgenstein.
    with session.store.action("Yorck rides to Kosel; Oudinot to Oppeln") as db:
        db.get_one(General, "yorck").location = "Kosel"
        for unit in ("yorck_infantry", "yorck_cavalry"):
            db.get_one(Unit, unit).location = "Kosel"
        db.get_one(General, "oudinot").location = "Oppeln"
        for unit in ("xii_french", "xii_bavarian"):
            db.get_one(Unit, unit).location = "Oppeln"
    said = movement.activate(session, "yorck")
    assert "Activate a subordinate general with a stack of units (no valid LOC): 1 PC" in said
    assert balance(session, "allied_army") == before - 1
    with session.store.read() as db:
        spend = db.exec(select(CommandPointSpend).order_by(CommandPointSpend.id.desc())).first()
        assert (spend.army, spend.action, spend.cost) == ("allied_army", "activate_general", 1)


def test_the_umpire_may_rule_the_loc_with_a_reason_which_is_recorded(session):
    with pytest.raises(CampaignError, match="needs a reason"):
        movement.activate(session, "blucher", ruling=False)
    said = movement.activate(session, "blucher", ruling=False, reason="Cossacks on the road to Leipzig")
    assert "ruled the LOC cut: Cossacks on the road to Leipzig" in said
    with session.store.read() as db:
        row = db.exec(select(Activation)).one()
        assert (row.loc, row.cost, row.ruling) == ("none", 1, "Cossacks on the road to Leipzig")


def test_short_points_refuse_an_activation(session):
    with session.store.action("Spend everything") as db:
        for p in command_points.turn_points(session):
            if p.army == "allied_army":
                db.add(CommandPointSpend(turn=1, army="allied_army", action="entrench", cost=p.balance, balance=0))
    with session.store.action("Cut Blücher off") as db:
        db.get_one(General, "wittgenstein").location = ""
    with pytest.raises(CampaignError, match=r"^Russo-Prussian Army \(Wittgenstein\) has 0 PC left; activating .* costs 1$"):
        movement.activate(session, "blucher")


def test_a_move_is_one_action_in_the_log_with_route_and_cost_and_undo_puts_it_back(session, capsys):
    movement.activate(session, "marmont")
    said = movement.move(session, "marmont", "Erfurt")
    assert said == "Move Marshal Marmont (VI Corps)'s stack at Gotha to Erfurt by Gotha - Erfurt: 3 MP (Clear)"
    with session.store.read() as db:
        assert {u.location for u in db.exec(select(Unit).where(Unit.general == "marmont"))} == {"Erfurt"}
    code, out, _ = run(capsys, "log", session.where)
    assert code == 0 and said in out
    session.undo()
    with session.store.read() as db:
        assert {u.location for u in db.exec(select(Unit).where(Unit.general == "marmont"))} == {"Gotha"}
        assert db.get_one(General, "marmont").location == "Gotha"


def test_a_move_beyond_the_mp_is_refused_with_the_reason(session):
    movement.activate(session, "marmont")
    with pytest.raises(CampaignError, match=r"cannot move to Leipzig: the route costs \d+ MP and infantry have 6 MP left in Clear"):
        movement.move(session, "marmont", "Leipzig")
    movement.move(session, "marmont", "Erfurt")  # 3 MP, 3 left
    marmont = ["marmont", "vi_compans_bonet", "vi_friederichs"]  # without Napoleon's stack, not activated
    with pytest.raises(CampaignError, match=r"^Napoleon's stack at Erfurt has not been activated"):
        movement.move(session, "marmont", "Jena")
    with pytest.raises(CampaignError, match=r"infantry have 3 MP left in Clear \(3 MP marched already this turn\)"):
        movement.move(session, "marmont", "Jena", only=marmont)


def test_stacking_is_checked_where_the_move_ends_except_with_the_commander_in_chief(session):
    movement.activate(session, "marmont")  # 2 infantry
    movement.activate(session, "bertrand")  # 3 infantry at Saalfeld
    with pytest.raises(CampaignError, match=r"cannot end its move at Rudolstadt: .*at most 2 infantry \+ 1 cavalry"):
        movement.move(session, "bertrand", "Rudolstadt", only=["bertrand", "iv_morand", "iv_peyri", "iv_franquemont"])
    movement.move(session, "bertrand", "Rudolstadt", only=["bertrand", "iv_morand", "iv_peyri"])
    # Marmont's 2 infantry join Napoleon's stack at Erfurt: no limit with the commander-in-chief.
    assert movement.move(session, "marmont", "Erfurt").startswith("Move Marshal Marmont")


def test_the_route_says_refused_when_the_stack_could_not_stand_where_it_ends(session):
    # Bertrand's 3 infantry at Saalfeld: 1 MP to Rudolstadt, within every MP, but over the card's
    # 2 infantry + 1 cavalry without the commander-in-chief; the route said "Allowed." and the move refused.
    movement.activate(session, "bertrand")
    report = movement.plan_move(session, "bertrand", "Rudolstadt")
    assert report.shortfall == 0 and not report.allowed and not report.forcible(session.options())
    assert report.lines()[-1].startswith("Refused: 3 infantry and 0 cavalry units would stand together at Rudolstadt")
    two = movement.plan_move(session, "bertrand", "Rudolstadt", only=["bertrand", "iv_morand", "iv_peyri"])
    assert two.allowed and two.lines()[-1] == "Allowed."
    assert movement.plan_move(session, "napoleon", "Weimar").allowed  # no limit with the commander-in-chief


def test_a_stack_is_named_by_its_general_as_a_user_types_him(session):
    # Only the id ("latour_maubourg") or the whole name ("General Latour-Maubourg (I Cavalry Corps)")
    # were taken: "Latour-Maubourg", "Ney" and "Blücher" were "no general".
    for typed, leader in (("Latour-Maubourg", "latour_maubourg"), ("latour maubourg", "latour_maubourg"),
                          ("Ney", "ney"), ("Blücher", "blucher"), ("blucher", "blucher"), ("Bessieres", "bessieres")):
        assert leader in {g.id for g in movement.stack_of(session, typed).generals}, typed
    with pytest.raises(CampaignError, match=r"^'Marshal' names \d+ generals \(.*\); give more of the name, or the id$"):
        movement.stack_of(session, "Marshal")
    with pytest.raises(CampaignError, match=r"^there is no general 'Murat'"):
        movement.stack_of(session, "Murat")


# -- contact and battles ------------------------------------------------------------------


def test_a_battle_between_stacks_not_in_contact_is_refused_unless_the_umpire_overrides(session):
    ney = [u.id for u in movement.stack_of(session, "ney").units if u.kind == "infantry"]
    blucher = [u.id for u in movement.stack_of(session, "blucher").units if u.kind == "infantry"]
    draft = battles.Draft("Altenburg", ney, blucher)  # Ney at Weimar, Blücher at Altenburg
    with pytest.raises(CampaignError, match=r"stands at Weimar, not at Altenburg: a battle is fought between stacks in contact"):
        battles.begin(session, draft)
    draft.override = "Ney's corps marched through the night"
    battle_id = battles.begin(session, draft)
    fight = battles.load(session, battle_id)
    assert fight.setup["override"] == "Ney's corps marched through the night"
    with session.store.read() as db:
        from models import Event

        last = db.exec(select(Event).order_by(Event.id.desc())).first()
        assert last.description == "Battle of Altenburg begins (allemagne1813); the umpire overrides contact: Ney's corps marched through the night"


def test_stacks_at_the_same_place_are_in_contact_and_listed_for_battle(session):
    assert contacts(session) == []
    with session.store.action("Ney reaches Altenburg") as db:
        db.get_one(General, "ney").location = "Altenburg"
        for unit in db.exec(select(Unit).where(Unit.general == "ney")):
            unit.location = "Altenburg"
    (contact,) = contacts(session)
    assert contact.place == "Altenburg" and {s.side for s in contact.stacks} == {"french", "allies"}
    from campaigns.contact import forces_at

    assert {(s.side, s.place) for s in forces_at(session, "Altenburg")} == {("french", "Altenburg"), ("allies", "Altenburg")}
    from campaigns.theatre_map import map_data

    assert map_data(session).contacts == ("Altenburg",)
    # Winzingerode at Weissenfels and Macdonald at Merseburg are one road apart: in contact only
    # by the option contact = adjacent.
    assert "Weissenfels" not in {c.place for c in contacts(session)}
    with session.store.action("Contact one road apart") as db:
        from models import Campaign

        db.get_one(Campaign, 1).options = {"contact": "adjacent"}
    assert {"Weissenfels", "Merseburg"} <= {c.place for c in contacts(session)}
    ney = [u.id for u in movement.stack_of(session, "ney").units if u.kind == "infantry"]
    blucher = [u.id for u in movement.stack_of(session, "blucher").units if u.kind == "infantry"]
    assert battles.begin(session, battles.Draft("Altenburg", ney, blucher)) > 0


# -- the map for the club --------------------------------------------------------------


def test_map_writes_an_svg_naming_every_place_that_holds_a_stack(tmp_path, capsys):
    path = new(tmp_path)
    code, out, _ = run(capsys, "map", path, "-o", tmp_path / "map.svg")
    assert code == 0 and out == f"Wrote {tmp_path / 'map.svg'}.\n"
    svg = (tmp_path / "map.svg").read_text(encoding="utf-8")
    assert svg.startswith("<?xml") and "<svg" in svg
    _, places, _ = run(capsys, "places", path)
    held = [line.split(" (")[0] for line in places.splitlines()]
    assert len(held) > 15
    for name in held:
        assert f">{name}</text>" in svg


def test_map_of_an_earlier_turn_shows_the_stacks_where_they_stood(tmp_path, capsys):
    from campaigns import turns

    path = new(tmp_path)
    set_weather(path, "Clear")
    s = CampaignSession.open(path)
    command_points.roll(s, "army_of_the_main", [3])
    movement.activate(s, "marmont")
    movement.move(s, "marmont", "Erfurt")
    while s.campaign().turn == 1:
        turns.advance(s, anyway=True)
    with s.store.action("Marmont back to Gotha on turn 2") as db:
        db.get_one(General, "marmont").location = "Gotha"
    s.close()
    from campaigns.theatre_map import map_data

    s = CampaignSession.open(path)
    try:
        then = map_data(s, 1)
        assert any(g.id == "marmont" for st in then.at("Erfurt").stacks for g in st.generals)
        now = map_data(s)
        assert any(g.id == "marmont" for st in now.at("Gotha").stacks for g in st.generals)
    finally:
        s.close()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["map", "{f}", "-o", "{d}/map.png"], "adjutant: the map is written to a .svg file, not map.png\n"),
        (["map", "{f}", "--turn", "9", "-o", "{d}/m.svg"], "adjutant: turn 9 has not been played yet (this is turn 1)\n"),
        (["map", "{f}", "--turn", "0", "-o", "{d}/m.svg"],
         "adjutant: argument --turn: '0' is too small for a turn number (at least 1) (see adjutant map --help)\n"),
        (["map", "{f}", "-o", "{d}/nowhere/m.svg"], "adjutant: there is no folder {d}/nowhere to write the map in\n"),
        (["places", "{d}/missing.campaign"], None),
        (["route", "{f}", "ney", "Naumburg", "--only", "oudinot"], "adjutant: 'oudinot' is not a general or unit of Marshal Ney (III Corps)'s stack at Weimar\n"),
        (["pontoon", "{f}", "Leipzig", "Dresden"], "adjutant: no road joins Leipzig and Dresden\n"),
        (["route", "{f}", "nobody", "Leipzig"], "adjutant: there is no general 'nobody' (give a general's id or name, or SIDE@PLACE)\n"),
        (["activate", "{f}", "ney", "--loc", "cut"], "adjutant: an umpire's ruling on the LOC needs a reason\n"),
        (["move", "{f}", "ney", "Jena"], "adjutant: Marshal Ney (III Corps)'s stack at Weimar has not been activated this turn; activate it before it moves\n"),
        (["route", "{d}/missing.campaign", "ney", "Jena"], None),
    ],
)
def test_hostile_input_is_one_sentence_and_exit_2_and_changes_nothing(tmp_path, capsys, args, message):
    path = new(tmp_path)
    before = digest(path)
    code, out, err = run(capsys, *[a.format(f=path, d=tmp_path) for a in args])
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("adjutant: ") and "Traceback" not in err
    if message is not None:
        assert err == message.format(d=tmp_path)
    assert digest(path) == before
    assert not (tmp_path / "map.png").exists()


# -- reconnaissance from a stack ------------------------------------------------------------


def test_reconnaissance_is_made_from_a_stack_against_an_enemy_stack_in_reach(session):
    from campaigns import reconnaissance

    # Winzingerode's cavalry at Weissenfels; Ney at Weimar is three roads away, Macdonald at Merseburg one.
    with pytest.raises(CampaignError, match=r"^Marshal Ney \(III Corps\)'s stack at Weimar is out of reach of .*one road away$"):
        reconnaissance.reconnoitre_stack(session, "winzingerode", "ney")
    assert "Macdonald" in " ".join(g.name for s in reconnaissance.enemies_in_reach(session, "winzingerode") for g in s.generals)
    said = reconnaissance.reconnoitre_stack(session, "winzingerode", "macdonald", [4])
    assert said.startswith("Reconnaissance by ")


def test_a_move_a_little_beyond_the_mp_is_offered_as_a_forced_march(session):
    movement.activate(session, "marmont")
    # Gotha - Erfurt - Weimar: 3 + 3 = 6 MP would fit; to Apolda 8 MP, 2 beyond infantry's 6.
    with pytest.raises(CampaignError, match=r"a forced march can carry it \(2 MP beyond, each unit rolls on the forced march table\)$"):
        movement.move(session, "marmont", "Apolda")
    with session.store.read() as db:
        before = {u.id: u.strength_points for u in db.exec(select(Unit).where(Unit.general == "marmont"))}
    # Forced march table, SP 9+ column, roll 6: 2 SP lost; Marmont's CV 3 gives -1: 6 - 1 = 5 -> 1 SP.
    said = movement.move(session, "marmont", "Apolda", forced=True, entered={u: [6] for u in before})
    assert said.startswith("Forced march: move Marshal Marmont (VI Corps)'s stack at Gotha to Apolda by ")
    assert "1d6 = 6 -1" in said
    with session.store.read() as db:
        after = {u.id: (u.strength_points, u.location) for u in db.exec(select(Unit).where(Unit.general == "marmont"))}
    assert all(loc == "Apolda" for _, loc in after.values())
    assert sum(before.values()) > sum(sp for sp, _ in after.values())
    session.undo()
    with session.store.read() as db:
        assert {u.id: u.strength_points for u in db.exec(select(Unit).where(Unit.general == "marmont"))} == before


def test_a_pontoon_built_at_a_ford_carries_the_road_over_a_major_river(tmp_path, capsys):
    path = new(tmp_path)
    set_weather(path, "Clear")
    place(path, "Genthin", generals=["bulow"], units=["bulow_corps"])
    code, out, err = run(capsys, "pontoon", path, "Magdeburg", "Stendal")
    assert code == 2 and err.startswith("adjutant: a pontoon is built at a ford (card 6.4); the road Magdeburg-Stendal crosses no river")
    code, out, _ = run(capsys, "pontoon", path, "Tangermunde", "Genthin", "--note", "Bülow's pioneers")
    assert (code, out) == (0, "Pontoon over the Elbe between Genthin and Tangermünde: Bülow's pioneers\n")
    code, out, _ = run(capsys, "route", path, "bulow", "Tangermünde")
    assert "Route: Genthin - Tangermünde (Clear)" in out and "the Elbe by pontoon = 0 MP" in out
    # Bülow is not activated: the verdict says what the route needs, not "Allowed." after "Not activated"
    assert out.splitlines()[-1] == "Allowed once activated: the stack is not activated this turn; activate it, then move."
    assert "Allowed." not in out and "Refused" not in out
    code, _, err = run(capsys, "pontoon", path, "Tangermünde", "Genthin")
    assert code == 2 and "already a pontoon over the Elbe" in err


def test_entrenching_a_stack_charges_its_army_2_pc(session):
    before = balance(session, "army_of_the_main")
    assert movement.entrench(session, "ney").startswith("Entrench Marshal Ney (III Corps)'s stack at Weimar: 2 PC")
    assert balance(session, "army_of_the_main") == before - 2
    with session.store.read() as db:
        assert all(u.entrenched for u in db.exec(select(Unit).where(Unit.location == "Weimar")))


def test_one_unit_entrenched_from_the_order_of_battle_pays_the_same_price_and_only_that_way(session):
    from campaigns import oob

    cost = movement.entrench_cost()  # the card's command points table: an entrenchment 2 PC
    assert cost == 2
    with pytest.raises(CampaignError, match="it is done by Entrench, not marked"):
        oob.set_unit_flags(session, "iii_souham", entrenched=True)  # no free way round the price
    before = balance(session, "army_of_the_main")
    said = movement.entrench_unit(session, "iii_souham")
    assert said.startswith("Entrench III Corps") and f": {cost} PC" in said
    assert balance(session, "army_of_the_main") == before - cost
    with session.store.read() as db:
        assert db.get_one(Unit, "iii_souham").entrenched
        assert not db.get_one(Unit, "iii_ricard").entrenched  # the rest of Ney's stack is not
    oob.set_unit_flags(session, "iii_souham", entrenched=False)  # leaving the works costs nothing
    assert balance(session, "army_of_the_main") == before - cost
    # Points short: one sentence, nothing stored.
    while balance(session, "army_of_the_main") >= cost:
        movement.entrench_unit(session, "iii_ricard")
    left = balance(session, "army_of_the_main")
    with pytest.raises(CampaignError, match=rf"has {left} PC left; an entrenchment costs {cost}$"):
        movement.entrench_unit(session, "iii_souham")
    with session.store.read() as db:
        assert not db.get_one(Unit, "iii_souham").entrenched


def test_off_road_marches_are_a_named_option_priced_as_poor_road(session):
    from campaigns.routes import find_route

    options = session.options()
    by_road = find_route("Grossbeeren", "Mittenwalde", "clear", options)
    assert by_road.places[0] == "Grossbeeren" and len(by_road.places) > 2  # no road joins them
    across = find_route("Grossbeeren", "Mittenwalde", "clear", {**options, "off_road": "as_poor_road"})
    # 19 km straight: 2 hexes of 8 km, at the poor road's 2 MP a hex.
    assert across.places == ("Grossbeeren", "Mittenwalde") and across.mp == 4 < by_road.mp
    assert across.off_road and not by_road.off_road


def test_an_off_road_route_says_the_umpire_rules_on_the_rivers_on_the_way(session):
    from campaigns import rules_options

    with session.store.action("Ney and Souham to Grossbeeren") as db:
        db.get_one(General, "ney").location = "Grossbeeren"
        db.get_one(Unit, "iii_souham").location = "Grossbeeren"
    road = movement.plan_move(session, "ney", "Mittenwalde")
    assert not any("umpire rules" in line for line in road.lines())
    rules_options.choose(session, "off_road", "as_poor_road")
    across = movement.plan_move(session, "ney", "Mittenwalde")
    assert "Route: Grossbeeren - Mittenwalde (Clear)" in across.lines()
    assert any(
        line.strip().startswith("off road (option off_road = as_poor_road)") and "the umpire rules" in line
        for line in across.lines()
    )


@pytest.mark.parametrize("scenario", ["spring1813", "autumn1813"])
def test_the_stacks_counted_by_the_database_are_the_stacks_read_unit_by_unit(tmp_path, scenario):
    """The map and the contacts count a stack's units and sum their SP in SQL; what they show
    is what reading every unit gives: the same stacks, in the same order, with the same
    generals, units and SP (a unit split off its general, one taken off the map), and the
    same leader: the counted stacks' generals are plain rows (models.oob_rows.GeneralRow), not ORM objects."""
    from campaigns.stacks import all_stacks, counted_stacks, stacks_at

    session = CampaignSession.open(new(tmp_path, scenario))
    try:
        with session.store.action("A brigade detached; another off the map") as db:
            first, second = db.exec(select(Unit).order_by(Unit.id)).all()[:2]
            first.general, first.location = None, "Dresden"
            second.location = ""

        def shown(stacks) -> list[tuple]:
            return [(s.side, s.side_name, s.place, tuple(g.id for g in s.generals), s.unit_count, s.strength_points,
                     s.badge(), s.summary(), s.label, s.leader.army if s.leader else None) for s in stacks]

        read = all_stacks(session)
        assert shown(counted_stacks(session)) == shown(read)
        assert any(s.place == "Dresden" for s in read) and sum(s.unit_count for s in read) > 0
        assert [s.units for s in stacks_at(session, "Dresden")] == [s.units for s in read if s.place == "Dresden"]
    finally:
        session.close()


def test_a_crowded_place_opened_on_the_map_reads_only_the_units_its_lines_name(tmp_path):
    """Opening the stacks of a place (the map's Enter) reads each stack's first units by id,
    as many as a line names (theatre_map.NAMED_UNITS), and counts the rest as the map does:
    the same stacks, generals, first units, count and SP as reading every unit gives."""
    from campaigns.stacks import stacks_at
    from campaigns.theatre_map import NAMED_UNITS, opened

    def generals(stack) -> list[tuple]:  # a counted stack's are plain rows (GeneralRow), a read one's ORM objects
        return [(g.id, g.name, g.army, g.rank, g.command_value) for g in stack.generals]

    session = CampaignSession.open(new(tmp_path))
    try:
        with session.store.action("Every unit to Dresden") as db:
            for unit in db.exec(select(Unit)).all():
                unit.location = "Dresden"
        read = {s.key: s for s in stacks_at(session, "Dresden")}
        found = opened(session, "Dresden").stacks
        assert list(found) == list(read) and len(found) == 2
        assert any(len(s.units) > NAMED_UNITS for s in read.values())  # crowded: some units left unread
        for key, stack in found.items():
            whole = read[key]
            assert stack.units == whole.units[:NAMED_UNITS]
            assert (stack.unit_count, stack.strength_points, generals(stack)) == (whole.unit_count, whole.strength_points, generals(whole))
    finally:
        session.close()


def test_the_map_says_this_turns_mud_forced_by_the_rain_before(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Turn 1 Rain*, turn 2 begun, its weather not taken yet: the map's header and its SVG say the Mud
    the card forces, as the overview and the status line do (before: "weather not rolled")."""
    from campaigns import theatre_map, turns, weather

    path = new(tmp_path)
    session = CampaignSession.open(path)
    try:
        weather.roll(session, entered=[5])  # 5 +1 (April) = 6: Rain*
        while session.overview().turn == 1:
            turns.advance(session, anyway=True)
        assert theatre_map.map_data(session).weather == "Mud (forced by Rain*)"
        assert theatre_map.map_data(session, 1).weather == "Rain*"  # the turn before, as rolled
    finally:
        session.close()
    svg = tmp_path / "turn2.svg"
    assert run(capsys, "map", path, "-o", svg)[0] == 0
    assert "Mud (forced by Rain*)" in svg.read_text()
    (tmp_path / "fresh").mkdir()
    fresh = new(tmp_path / "fresh")  # turn 1: nothing before it, nothing forced
    session = CampaignSession.open(fresh)
    try:
        assert theatre_map.map_data(session).weather is None
    finally:
        session.close()
