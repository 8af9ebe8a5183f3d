"""A club's campaign on a real PostgreSQL: after `adjutant club setup`, a player connecting as the
French role with plain SQL reads no allied unit's name and can change nothing; the umpires' role
plays as before; `club revoke` takes it all back."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest
from psycopg import sql
from sqlalchemy.engine import make_url

from models import table_metadata
from tui.cli import main
from campaigns import command_points, orders, turns, weather
from campaigns.player import open_side
from campaigns.session import CampaignSession
from campaigns.scenario import load_scenario
from campaigns.setup import create_campaign
from models import Unit, open_campaign
from models.access import ACCESS

from tests.club.conftest import ENTERED_BY_HAND, Fought
from tests.templates import new_campaign

SCENARIO = load_scenario("spring1813")
SIDE_OF_NATION = {nation: side.id for side in SCENARIO.sides for nation in side.nations}


def names(side: str) -> set[str]:
    return {u.name for u in SCENARIO.units if SIDE_OF_NATION[u.nation] == side} | {
        g.name for g in SCENARIO.generals if SIDE_OF_NATION[g.nation] == side
    }


@pytest.fixture
def club(postgres_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Iterator[dict]:
    new_campaign(postgres_url, SCENARIO, seed=7)
    secrets = tmp_path / "passwords.toml"
    secrets.write_text('umpire = "u-secret-1"\nfrench = "f-secret-2"\nallies = "a-secret-3"\n')
    assert main(["club", "setup", "--db", postgres_url, "--json", "--password-file", str(secrets)]) == 0
    out = capsys.readouterr().out
    assert "secret" not in out
    yield json.loads(out)
    assert main(["club", "revoke", "--db", postgres_url]) == 0  # roles outlive a dropped database


def libpq(url: str) -> str:
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


def readable_text(connection: psycopg.Connection, role: str) -> dict[str, str]:
    """Every table the role may read: all it reads, as text."""
    seen = {}
    tables = connection.execute("SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY 1").fetchall()
    for (table,) in tables:
        columns = [
            c for (c,) in connection.execute(
                "SELECT column_name FROM information_schema.columns WHERE table_schema = 'public' AND table_name = %s "
                "AND has_column_privilege(%s, quote_ident(table_name), column_name, 'SELECT')",
                (table, role),
            )
        ]
        if columns:
            rows = connection.execute(
                sql.SQL("SELECT {} FROM {}").format(sql.SQL(", ").join(map(sql.Identifier, columns)), sql.Identifier(table))
            ).fetchall()
            seen[table] = repr(rows)
    return seen


def test_every_table_is_classified():
    """A new table must be given a rule in models/access.py: nobody forgets to hide it."""
    tables = set(table_metadata().tables) | {"alembic_version"}
    assert tables - set(ACCESS) == set()


def test_the_french_read_their_own_and_nothing_of_the_allies(club: dict, postgres_url: str):
    umpire = CampaignSession.open(club["umpire"]["url"])
    try:  # rolls of both sides: the weather's, each army's command points
        weather.roll(umpire, [2])
        for army in command_points.turn_points(umpire):
            command_points.roll(umpire, army.army, [3])
    finally:
        umpire.close()
    assert set(club) == {"umpire", "french", "allies"}
    french = club["french"]
    assert "@" in french["url"] and ":" not in make_url(french["url"]).username and make_url(french["url"]).password is None
    with psycopg.connect(libpq(french["url"]), autocommit=True) as player:
        assert player.execute("SELECT current_user").fetchone() == (french["role"],)
        seen = readable_text(player, french["role"])
    everything = "\n".join(seen.values())
    allied_only = names("allies") - names("french")  # both sides field units named "Dummy"
    allied_ids = {f"'{u.id}'" for u in SCENARIO.units if SIDE_OF_NATION[u.nation] == "allies"}
    assert len(allied_only) > 20
    assert sorted(text for text in allied_only | allied_ids if text in everything) == []
    assert names("french") <= {name for name in names("french") if name in everything}  # it does read its own
    assert {"campaign", "turn", "side", "unit", "general"} <= set(seen)
    # the umpire's alone: the player's screens may query them, and find them empty, as in a side file
    assert [seen[table] for table in ("event", "event_note", "pontoon")] == ["[]"] * 3
    with psycopg.connect(libpq(french["url"]), autocommit=True) as player:
        rolls = {i for (i,) in player.execute("SELECT id FROM dice_roll")}
    with psycopg.connect(libpq(postgres_url), autocommit=True) as owner:
        everyone = {i for (i,) in owner.execute("SELECT id FROM dice_roll")}
        ours = {i for (i,) in owner.execute(
            "SELECT dice_roll FROM turn WHERE dice_roll IS NOT NULL UNION SELECT r.dice_roll FROM command_point_roll r "
            "JOIN army a ON a.id = r.army WHERE a.side = 'french' AND r.dice_roll IS NOT NULL")}
    assert rolls == ours and len(ours) == 3 and everyone - ours  # the weather's and its own armies' rolls only
    with psycopg.connect(libpq(french["url"]), autocommit=True) as player:
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            player.execute("SELECT dice_seed FROM campaign")


def test_the_french_role_can_change_nothing(club: dict):
    assert_changes_nothing(club["french"]["url"])


def assert_changes_nothing(url: str) -> None:
    """Every INSERT, UPDATE, DELETE and TRUNCATE on every table, and a CREATE, refused to the role."""
    with psycopg.connect(libpq(url), autocommit=True) as player:
        tables = [t for (t,) in player.execute("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")]
        assert len(tables) >= len(ACCESS) - 2  # every table of the campaign (fog's two may be absent)
        for table in tables:
            name = sql.Identifier(table)
            for statement in (
                sql.SQL("INSERT INTO {} DEFAULT VALUES").format(name),
                sql.SQL("UPDATE {} SET {} = {}").format(name, *[sql.Identifier(_first_column(player, table))] * 2),
                sql.SQL("DELETE FROM {}").format(name),
                sql.SQL("TRUNCATE {}").format(name),
            ):
                with pytest.raises(psycopg.errors.InsufficientPrivilege):
                    player.execute(statement)
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            player.execute("CREATE TABLE mine (x int)")


def _first_column(connection: psycopg.Connection, table: str) -> str:
    return connection.execute(
        # pg_attribute, not information_schema: that lists only the columns the role may read
        "SELECT attname FROM pg_attribute WHERE attrelid = %s::regclass AND attnum > 0 ORDER BY attnum LIMIT 1",
        (f'"{table}"',),
    ).fetchone()[0]


def test_the_umpires_role_plays_as_before(club: dict):
    first = SCENARIO.units[0]
    with open_campaign(club["umpire"]["url"]) as store:
        with store.action("to Naumburg") as session:
            session.get_one(Unit, first.id).location = "Naumburg"
        store.undo()
        with store.read() as session:
            assert session.get_one(Unit, first.id).location == first.location
            assert len(list(session.exec(table_metadata().tables["unit"].select()))) == len(SCENARIO.units)


def test_a_table_no_rule_names_is_the_umpires_alone(club: dict, postgres_url: str, capsys: pytest.CaptureFixture[str]):
    with psycopg.connect(libpq(postgres_url), autocommit=True) as owner:
        owner.execute("CREATE TABLE later (secret text)")
        owner.execute("INSERT INTO later VALUES ('Blücher marches at dawn')")
    assert main(["club", "setup", "--db", postgres_url]) == 0
    said = capsys.readouterr().out
    for who, place in club.items():  # run again: the passwords of the first setup stay, unprinted
        assert f"  {who}: role {place['role']} (password unchanged), connects as {place['url']}\n" in said
    with psycopg.connect(libpq(club["french"]["url"]), autocommit=True) as player:
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            player.execute("SELECT * FROM later")
    with psycopg.connect(libpq(club["umpire"]["url"]), autocommit=True) as umpire:
        assert umpire.execute("SELECT secret FROM later").fetchall() == [("Blücher marches at dawn",)]


def test_setup_twice_then_revoke(club: dict, postgres_url: str, capsys: pytest.CaptureFixture[str]):
    assert main(["club", "setup", "--db", postgres_url, "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == club
    roles = sorted(r["role"] for r in club.values())
    with psycopg.connect(libpq(postgres_url), autocommit=True) as owner:
        policies = owner.execute("SELECT count(*) FROM pg_policies WHERE policyname LIKE 'adjutant_%'").fetchone()[0]
        assert policies > 0
    assert main(["club", "revoke", "--db", postgres_url]) == 0
    assert ", ".join(roles) in capsys.readouterr().out
    with psycopg.connect(libpq(postgres_url), autocommit=True) as owner:
        left = owner.execute("SELECT rolname FROM pg_roles WHERE rolname = ANY(%s)", (roles,)).fetchall()
        assert left == []
        assert owner.execute("SELECT count(*) FROM pg_policies WHERE policyname LIKE 'adjutant_%'").fetchone()[0] == 0
        assert owner.execute("SELECT count(*) FROM pg_tables WHERE schemaname = 'public' AND rowsecurity").fetchone()[0] == 0
    with pytest.raises(psycopg.OperationalError):
        psycopg.connect(libpq(club["french"]["url"])).close()
    assert main(["club", "revoke", "--db", postgres_url]) == 0  # nothing left: still fine


def test_a_role_adjutant_did_not_make_is_left_alone(postgres_url: str, capsys: pytest.CaptureFixture[str]):
    new_campaign(postgres_url, SCENARIO, seed=7)
    database = make_url(postgres_url).database
    with psycopg.connect(libpq(postgres_url), autocommit=True) as owner:
        owner.execute(sql.SQL("CREATE ROLE {}").format(sql.Identifier(f"{database}_french")))
    try:
        assert main(["club", "setup", "--db", postgres_url]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and f"a role named {database}_french already exists" in err
        with psycopg.connect(libpq(postgres_url), autocommit=True) as owner:  # nothing half-done
            assert owner.execute("SELECT count(*) FROM pg_policies").fetchone()[0] == 0
    finally:
        with psycopg.connect(libpq(postgres_url), autocommit=True) as owner:
            owner.execute(sql.SQL("DROP ROLE {}").format(sql.Identifier(f"{database}_french")))


def test_a_campaign_file_has_no_roles(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    assert main(["club", "setup", "--db", str(tmp_path / "x.campaign")]) == 2
    assert "a club needs the campaign on PostgreSQL" in capsys.readouterr().err


def test_fog_of_war_tables_a_side_reads_its_sightings_and_writes_only_its_own_orders(club: dict, postgres_url: str):
    """Issue 17's tables (migration 0006): a side reads its own sightings and queues its own
    orders, and nothing more; the dice salt stays the umpires'."""
    sighted = (
        "INSERT INTO sighting (side, turn, place, enemy_side, source, learned, note) "
        "VALUES (%s, 1, %s, %s, 'umpire', '{}', %s)"
    )
    with psycopg.connect(libpq(postgres_url), autocommit=True) as owner:
        owner.execute(sighted, ("french", "Halle", "allies", "cossacks at Halle"))
        owner.execute(sighted, ("allies", "Lützen", "french", "Ney at Lützen"))
    queue = (
        "INSERT INTO side_order (side, turn, kind, stack, place, detail, text, status, ruling, written) "
        "VALUES (%s, 1, 'note', '', '', '{}', %s, %s, %s, now())"
    )
    with psycopg.connect(libpq(club["french"]["url"]), autocommit=True) as player:
        assert player.execute("SELECT note FROM sighting").fetchall() == [("cossacks at Halle",)]
        player.execute(queue, ("french", "Ney to Leipzig", "queued", ""))
        for refused in (
            ("allies", "Blücher retires", "queued", ""),  # not its side
            ("french", "Ney takes Dresden", "applied", ""),  # not the umpire
            ("french", "Ney takes Dresden", "queued", "granted"),
        ):
            with pytest.raises(psycopg.errors.InsufficientPrivilege):  # row-level security
                player.execute(queue, refused)
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            player.execute("UPDATE side_order SET text = 'Ney stays'")
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            player.execute(sighted, ("french", "Halle", "allies", "nothing"))
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            player.execute("SELECT dice_salt FROM campaign")
    with psycopg.connect(libpq(club["allies"]["url"]), autocommit=True) as player:
        assert player.execute("SELECT text FROM side_order").fetchall() == []
    with psycopg.connect(libpq(club["umpire"]["url"]), autocommit=True) as umpire:
        assert umpire.execute("SELECT side, text FROM side_order").fetchall() == [("french", "Ney to Leipzig")]


def test_a_side_queues_orders_for_the_turn_now_only(club: dict, postgres_url: str):
    """The app dates a club player's order with the campaign's turn (campaigns.orders.write);
    through psql the same role may queue one for no other turn, gone or to come."""
    queue = (
        "INSERT INTO side_order (side, turn, kind, stack, place, detail, text, status, ruling, written) "
        "VALUES ('french', %s, 'note', '', '', '{}', %s, 'queued', '', now())"
    )
    with psycopg.connect(libpq(club["french"]["url"]), autocommit=True) as player:
        player.execute(queue, (1, "Ney to Leipzig"))  # turn 1: the campaign's turn now
        for turn in (0, 2, 20, -1):
            with pytest.raises(psycopg.errors.InsufficientPrivilege, match="row-level security"):
                player.execute(queue, (turn, f"for turn {turn}"))
    umpire = CampaignSession.open(postgres_url)
    try:
        while turns.status(umpire).turn == 1:  # phase by phase to turn 2
            turns.advance(umpire, anyway=True)
    finally:
        umpire.close()
    with psycopg.connect(libpq(club["french"]["url"]), autocommit=True) as player:
        with pytest.raises(psycopg.errors.InsufficientPrivilege, match="row-level security"):
            player.execute(queue, (1, "too late for turn 1"))
        player.execute(queue, (2, "Ney to Leipzig, again"))
    french = open_side(club["french"]["url"], "french")  # the app's own path, as the role
    try:
        orders.write(french, "note", text="Ney holds the Saale")
    finally:
        french.close()
    with psycopg.connect(libpq(club["umpire"]["url"]), autocommit=True) as umpire_sql:
        assert umpire_sql.execute("SELECT turn, text FROM side_order ORDER BY id").fetchall() == [
            (1, "Ney to Leipzig"), (2, "Ney to Leipzig, again"), (2, "Ney holds the Saale")]


def test_role_names_fit_postgresql_and_stay_apart():
    from models.access import role_name

    assert role_name("Lutzen-1813", "french") == "lutzen_1813_french"
    long_a, long_b = role_name("a" * 70, "french"), role_name("a" * 71, "french")
    assert len(long_a) == len(long_b) == 63 and long_a != long_b


def test_a_database_name_with_colons_and_quotes(postgres_server: str, capsys: pytest.CaptureFixture[str]):
    name = "club:1813's"
    server = make_url(postgres_server)
    with psycopg.connect(libpq(postgres_server), autocommit=True) as admin:
        admin.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    url = server.set(database=name).render_as_string(hide_password=False)
    try:
        create_campaign(url, SCENARIO, seed=7).close()
        assert main(["club", "setup", "--db", url, "--json"]) == 0
        roles = json.loads(capsys.readouterr().out)
        assert roles["french"]["role"] == "club_1813_s_french"
        with psycopg.connect(libpq(roles["french"]["url"]), autocommit=True) as player:
            assert player.execute("SELECT count(*) FROM unit").fetchone()[0] == sum(
                SIDE_OF_NATION[u.nation] == "french" for u in SCENARIO.units
            )
        assert main(["club", "revoke", "--db", url]) == 0
    finally:
        with psycopg.connect(libpq(postgres_server), autocommit=True) as admin:
            admin.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))


def test_after_battles_the_french_read_the_enemy_they_fought_and_no_allied_name_they_did_not_sight(
    fought_club: Fought, postgres_url: str
):
    """The judged property once battles are fought: a battle shows each side the whole enemy force it
    fights (campaigns/knowledge.py), so the French read the names of Blücher's brigades they fought,
    in the battles, their dice and their sightings; every other allied name, including those the
    umpire gave the units of a game outside the campaign, stays out of every text they can read.
    And they still change nothing."""
    with psycopg.connect(libpq(postgres_url), autocommit=True) as owner:
        sighted = {
            unit["name"] for (learned,) in owner.execute("SELECT learned FROM sighting WHERE side = 'french'")
            for unit in learned.get("units", [])
        } | {name for (learned,) in owner.execute("SELECT learned FROM sighting WHERE side = 'french'")
             for name in learned.get("generals", [])}
        game_purposes = [p for (p,) in owner.execute("SELECT purpose FROM dice_roll WHERE battle = %s", (fought_club.game,))]
        battle_dice = owner.execute(
            "SELECT id FROM dice_roll WHERE battle IN (%s, %s) ORDER BY id", (fought_club.tables, fought_club.d10)).fetchall()
    assert sighted == {"Blücher's Corps: Brigade Klüx", "Blücher's Corps: Brigade Zieten"}
    assert any(ENTERED_BY_HAND[0] in p for p in game_purposes)  # the game's rolls name its units
    french = fought_club.roles["french"]
    with psycopg.connect(libpq(french["url"]), autocommit=True) as player:
        seen = readable_text(player, french["role"])
        fought = player.execute("SELECT id FROM battle ORDER BY id").fetchall()
        rolled = player.execute("SELECT id FROM dice_roll WHERE battle IS NOT NULL ORDER BY id").fetchall()
    assert fought == [(fought_club.tables,), (fought_club.d10,)]
    assert rolled == battle_dice and len(rolled) == 4  # two steps at Lützen, two commanders' dice at Zeitz
    everything = "\n".join(seen.values())
    unsighted = (names("allies") - names("french") - sighted) | set(ENTERED_BY_HAND)
    assert sorted(name for name in unsighted if name in everything) == []
    assert sighted <= {name for name in sighted if name in seen["battle"] and name in seen["sighting"]}
    assert_changes_nothing(french["url"])


def test_the_readmes_owner_with_createrole_only_sets_the_club_up(postgres_url: str, capsys: pytest.CaptureFixture[str]):
    """The README's owner is "a PostgreSQL user with CREATEROLE", not a superuser: setup and revoke
    run as that user (PostgreSQL 15 refused the roles' ALTER ROLE ... NOSUPERUSER from anyone but a
    superuser), and a side's role it finds with a superuser's power is one sentence, not taken."""
    database = make_url(postgres_url).database
    owner_role = f"{database}_owner"
    with psycopg.connect(libpq(postgres_url), autocommit=True) as superuser:
        superuser.execute(sql.SQL("CREATE ROLE {} LOGIN CREATEROLE").format(sql.Identifier(owner_role)))
        superuser.execute(sql.SQL("ALTER DATABASE {} OWNER TO {}").format(sql.Identifier(database), sql.Identifier(owner_role)))
    as_owner = make_url(postgres_url).set(username=owner_role).render_as_string(hide_password=False)
    try:
        create_campaign(as_owner, SCENARIO, seed=7).close()  # as the README: the owner makes it
        assert main(["club", "setup", "--db", as_owner, "--json"]) == 0, capsys.readouterr().err
        roles = json.loads(capsys.readouterr().out)
        with psycopg.connect(libpq(roles["french"]["url"])) as french:
            assert french.execute("SELECT count(*) FROM unit").fetchone()[0] > 0
        with psycopg.connect(libpq(postgres_url), autocommit=True) as superuser:
            superuser.execute(sql.SQL("ALTER ROLE {} BYPASSRLS").format(sql.Identifier(roles["allies"]["role"])))
        assert main(["club", "setup", "--db", as_owner]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and f"the role {roles['allies']['role']} has BYPASSRLS" in err, err
        with psycopg.connect(libpq(postgres_url), autocommit=True) as superuser:
            superuser.execute(sql.SQL("ALTER ROLE {} NOBYPASSRLS").format(sql.Identifier(roles["allies"]["role"])))
        assert main(["club", "revoke", "--db", as_owner]) == 0, capsys.readouterr().err
    finally:  # the owner's tables go with the database, then the roles can go
        with psycopg.connect(libpq(make_url(postgres_url).set(database="postgres").render_as_string(hide_password=False)), autocommit=True) as superuser:
            superuser.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(database)))
            for who in ("umpire", "french", "allies"):
                superuser.execute(sql.SQL("DROP ROLE IF EXISTS {}").format(sql.Identifier(f"{database}_{who}")))
            superuser.execute(sql.SQL("DROP ROLE IF EXISTS {}").format(sql.Identifier(owner_role)))
