"""Who may read and write what in a club's shared campaign: PostgreSQL roles and row-level security.

A player who can run SQL must see no more than the screens show, so the
database itself keeps each side to its own rows. `ACCESS` classifies every
table of a campaign: how a side's rows are found, which columns it may not read,
whether it may write there. A table it does not list is the umpires' alone
(deny by default), and tests/club/test_access.py fails when a table of
models.tables is not classified, so a new table is decided on, not forgotten.

`set_up` makes (idempotently) one role per side and one for the umpires, then on
every table: row-level security enabled and forced (the owner too goes through
a policy), the umpires' role reading and writing everything, each side's role
reading the rows its condition finds and writing only where `writes` says.
`tear_down` undoes all of it. Both run in one transaction.

Roles are cluster-wide in PostgreSQL, so their names carry the database's
(`lutzen_french`, `lutzen_umpire`), and each is marked with a comment naming
its database and side: setup never takes over, and revoke never drops, a role
Adjutant did not make for this campaign.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, replace

from sqlalchemy import Connection, text

SIDE = "{side}"  # in a condition: the side's id, as a quoted literal
UMPIRE = "umpire"
POLICY_PREFIX = "adjutant_"
MARK = "adjutant club: {database} / {who}"
NAME_LIMIT = 63  # PostgreSQL's identifiers
SIDE_ID = re.compile(r"[a-z][a-z0-9_]{0,30}")


@dataclass(frozen=True)
class Rule:
    """What a side's role may do with a table.

    `reads`: a condition over the row (SQL, `{side}` standing for the side's id),
    None when the side reads nothing there. `hidden`: columns no side may read even
    in rows it sees (a column the table does not have yet is skipped). `writes`: a
    condition every row the side inserts must meet; None, it inserts nothing. No side
    updates or deletes anything.
    """

    reads: str | None
    why: str
    hidden: tuple[str, ...] = ()
    writes: str | None = None


def nothing(why: str) -> Rule:
    """The side may query the table and finds it empty, as its side file holds it: the screens
    that list such rows (the history, the overview's last actions) show none, instead of failing."""
    return Rule("false", why)


_OWN_NATIONS = f"nation IN (SELECT id FROM nation WHERE side = {SIDE})"
_OWN_ARMIES = f"army IN (SELECT id FROM army WHERE side = {SIDE})"
# Up to the campaign's turn now, as models.visibility keeps a despatch to its turn (:turn).
_TURN_NOW = "(SELECT turn FROM campaign WHERE id = 1)"
_SO_FAR = f"turn <= {_TURN_NOW}"
# A battle the side fought: it is named in the battle's participants (the attacker's or the defender's).
_FOUGHT = f"{_SO_FAR} AND EXISTS (SELECT 1 FROM json_each(participants) AS part WHERE part.value ->> 'side' = {SIDE})"

ACCESS: dict[str, Rule] = {
    "alembic_version": Rule("true", "the schema version: opening a campaign reads it first"),
    "campaign": Rule(
        "true",
        "name, calendar, turn and phase are shared; the dice seed and its salt are the umpire's secret",
        hidden=("dice_seed", "dice_salt"),  # the salt would let a player try seeds against the commitment
    ),
    "side": Rule("true", "both camps' names are public"),
    "nation": Rule(f"side = {SIDE}", "its own nations (they find its units), as in its side file"),
    "turn": Rule("true", "the calendar and the weather: both sides live under the same sky"),
    "army": Rule(f"side = {SIDE}", "its own armies"),
    # By nation, not by army: a general or unit detached from any army is still its nation's.
    "general": Rule(_OWN_NATIONS, "its own generals"),
    "unit": Rule(_OWN_NATIONS, "its own units"),
    "command_point_roll": Rule(f"{_OWN_ARMIES} AND {_SO_FAR}", "its own armies' command points"),
    "command_point_spend": Rule(f"{_OWN_ARMIES} AND {_SO_FAR}", "its own armies' ledger"),
    "activation": Rule(f"side = {SIDE} AND {_SO_FAR}", "its own stacks' activations"),
    "battle": Rule(_FOUGHT, "the battles it fought, with their accounts: it met the enemy there"),
    "pontoon": nothing("no side is recorded as its builder; the umpire tells the players"),
    # As models.visibility: the weather's rolls, its own command points, and the rolls made for the
    # battles it fought (dice_roll.battle, migration 0008); a tabletop game outside the campaign is no side's.
    "dice_roll": Rule(
        "id IN (SELECT dice_roll FROM turn WHERE number <= (SELECT turn FROM campaign WHERE id = 1))"
        f" OR id IN (SELECT dice_roll FROM command_point_roll WHERE {_OWN_ARMIES} AND {_SO_FAR})"
        f" OR battle IN (SELECT id FROM battle WHERE {_FOUGHT})",
        "the weather's rolls, its own command points and its battles' dice, up to the turn now",
    ),
    # The dice counted ahead (models.tally): both sides' rolls; a side's luck counts the rolls it reads.
    "dice_tally": nothing("it counts every roll of both sides"),
    "event": nothing("the history holds every move of both sides"),
    "event_note": nothing("the umpire's bookmarks and notes on the history"),
    "event_unit": nothing("the units each event changed: every move of both sides"),
    # Fog of war (issue 17): what a side saw, and the orders it sends. Skipped where absent.
    "sighting": Rule(f"side = {SIDE} AND {_SO_FAR}", "what the side has seen of the enemy"),
    "side_order": Rule(
        f"side = {SIDE}",
        "the side's own orders: the one table it writes, and only as orders waiting for the umpire",
        # For the turn now, as campaigns.orders.write dates every order the app writes (the club's
        # player session reads the campaign's turn): no order queued for a turn gone or to come.
        writes=f"side = {SIDE} AND status = 'queued' AND ruling = '' AND turn = {_TURN_NOW}",
    ),
}


class AccessError(Exception):
    """A refusal of setup or revoke, as one sentence."""


@dataclass(frozen=True)
class ClubRole:
    who: str  # a side's id, or "umpire"
    role: str
    created: bool = False  # by this setup


def role_name(database: str, who: str) -> str:
    """`DATABASE_WHO`, lower case, within PostgreSQL's 63 characters (a hash keeps long names apart)."""
    name = re.sub(r"[^a-z0-9_]", "_", f"{database}_{who}".lower())
    if len(name) <= NAME_LIMIT:
        return name
    digest = hashlib.sha256(name.encode()).hexdigest()[:8]
    return f"{name[: NAME_LIMIT - 9]}_{digest}"


def club_roles(connection: Connection) -> list[ClubRole]:
    """The umpires' role and one role per side of the campaign, sides in their order."""
    database = _database(connection)
    sides = list(connection.execute(text("SELECT id FROM side ORDER BY position, id")).scalars())
    for side in sides:
        if not SIDE_ID.fullmatch(side) or side == UMPIRE:
            raise AccessError(
                f"the side id {side!r} cannot name a database role (lower-case letters, digits and _, "
                f"at most 31, not {UMPIRE!r})"
            )
    return [ClubRole(who, role_name(database, who)) for who in (UMPIRE, *sides)]


def set_up(connection: Connection, passwords: dict[str, str]) -> list[ClubRole]:
    """Create or update the roles and policies; `passwords` maps "umpire" or a side's id to
    the password to set (a role left out keeps the one it has). Returns the roles."""
    _lock(connection)
    roles = club_roles(connection)
    database = _database(connection)
    q = _quoter(connection)
    for number, each in enumerate(roles):
        roles[number] = each = replace(each, created=_ensure_role(connection, database, each))
        if each.who in passwords:
            verifier = _verifier(connection, passwords[each.who], each.role)
            _ddl(connection, f"ALTER ROLE {q(each.role)} PASSWORD {_literal(verifier)}")
        _ddl(connection, f"GRANT CONNECT ON DATABASE {q(database)} TO {q(each.role)}")
        _ddl(connection, f"GRANT USAGE ON SCHEMA public TO {q(each.role)}")
        # Start from nothing, so a setup run again leaves exactly what ACCESS says.
        _ddl(connection, f"REVOKE ALL ON ALL TABLES IN SCHEMA public FROM {q(each.role)}")
        _ddl(connection, f"REVOKE ALL ON ALL SEQUENCES IN SCHEMA public FROM {q(each.role)}")
    # What PUBLIC holds every role holds: no table of the campaign is read through it, and
    # nobody but the owner makes objects beside them (PostgreSQL before 15 let everyone).
    _ddl(connection, "REVOKE ALL ON ALL TABLES IN SCHEMA public FROM PUBLIC")
    _ddl(connection, "REVOKE ALL ON ALL SEQUENCES IN SCHEMA public FROM PUBLIC")
    _ddl(connection, "REVOKE CREATE ON SCHEMA public FROM PUBLIC")
    umpire, sides = roles[0], roles[1:]
    for table, owner in _tables(connection):
        _drop_policies(connection, table)
        _ddl(connection, f"ALTER TABLE {q(table)} ENABLE ROW LEVEL SECURITY")
        _ddl(connection, f"ALTER TABLE {q(table)} FORCE ROW LEVEL SECURITY")
        # Forced, the owner (who migrates the campaign) is held to the policies too: it gets its own.
        _policy(connection, table, "owner", "ALL", owner, using="true", check="true")
        _ddl(connection, f"GRANT SELECT, INSERT, UPDATE, DELETE ON {q(table)} TO {q(umpire.role)}")
        _policy(connection, table, UMPIRE, "ALL", umpire.role, using="true", check="true")
        rule = ACCESS.get(table)
        if rule is None or rule.reads is None:
            continue
        columns = _columns(connection, table)
        for side in sides:
            condition = rule.reads.replace(SIDE, _literal(side.who))
            shown = ", ".join(q(c) for c in columns if c not in rule.hidden)
            _ddl(connection, f"GRANT SELECT ({shown}) ON {q(table)} TO {q(side.role)}")
            _policy(connection, table, f"read_{side.who}", "SELECT", side.role, using=condition)
            if rule.writes is not None:
                _ddl(connection, f"GRANT INSERT ON {q(table)} TO {q(side.role)}")
                _policy(connection, table, f"write_{side.who}", "INSERT", side.role, check=rule.writes.replace(SIDE, _literal(side.who)))
                for sequence in _sequences(connection, table):
                    _ddl(connection, f"GRANT USAGE ON SEQUENCE {sequence} TO {q(side.role)}")
    _ddl(connection, f"GRANT USAGE, SELECT, UPDATE ON ALL SEQUENCES IN SCHEMA public TO {q(umpire.role)}")
    return roles


def tear_down(connection: Connection) -> list[str]:
    """Remove every policy and every role setup made for this database; the roles removed."""
    _lock(connection)
    q = _quoter(connection)
    for table, _owner in _tables(connection):
        _drop_policies(connection, table)
        _ddl(connection, f"ALTER TABLE {q(table)} NO FORCE ROW LEVEL SECURITY")
        _ddl(connection, f"ALTER TABLE {q(table)} DISABLE ROW LEVEL SECURITY")
    removed = made_roles(connection)
    database = _database(connection)
    for role in removed:
        # What set_up granted, taken back by name: DROP OWNED needs the role's privileges, which
        # the README's owner (CREATEROLE, no superuser) does not hold ("permission denied to
        # drop objects"). A table's REVOKE takes its columns' grants with it.
        _ddl(connection, f"REVOKE ALL ON ALL TABLES IN SCHEMA public FROM {q(role)}")
        _ddl(connection, f"REVOKE ALL ON ALL SEQUENCES IN SCHEMA public FROM {q(role)}")
        _ddl(connection, f"REVOKE ALL ON SCHEMA public FROM {q(role)}")
        _ddl(connection, f"REVOKE ALL ON DATABASE {q(database)} FROM {q(role)}")
        if connection.execute(text("SELECT pg_has_role(:role, 'USAGE')"), {"role": role}).scalar():
            _ddl(connection, f"DROP OWNED BY {q(role)}")  # and anything else, where we may
        _ddl(connection, f"DROP ROLE {q(role)}")
    return removed


def made_roles(connection: Connection) -> list[str]:
    """The roles setup made for this database, found by their mark."""
    prefix = MARK.format(database=_database(connection), who="")
    return list(
        connection.execute(
            text(
                "SELECT rolname FROM pg_roles WHERE starts_with(shobj_description(oid, 'pg_authid'), :prefix) "
                "ORDER BY rolname"
            ),
            {"prefix": prefix},
        ).scalars()
    )


def _ensure_role(connection: Connection, database: str, each: ClubRole) -> bool:
    """Make the role, or check an existing one is the one setup made; True when made now."""
    q = _quoter(connection)
    mark = MARK.format(database=database, who=each.who)
    found = connection.execute(
        text("SELECT shobj_description(oid, 'pg_authid') FROM pg_roles WHERE rolname = :name"), {"name": each.role}
    ).first()
    if found is None:
        _ddl(connection, f"CREATE ROLE {q(each.role)}")
        _ddl(connection, f"COMMENT ON ROLE {q(each.role)} IS {_literal(mark)}")
    elif found[0] != mark:
        raise AccessError(
            f"a role named {each.role} already exists and was not made by `adjutant club setup` for "
            f"{database}; drop or rename it first"
        )
    # Whatever the role was given since, a player's login can do nothing more than its grants.
    # SUPERUSER, REPLICATION and BYPASSRLS are named only when the role has one: naming them at
    # all (even to take them away) is a superuser's statement, and the README's owner has only
    # CREATEROLE (PostgreSQL 15 refuses "must be superuser to ... change superuser attribute").
    powers = connection.execute(
        text("SELECT rolsuper, rolreplication, rolbypassrls FROM pg_roles WHERE rolname = :name"), {"name": each.role}
    ).one()
    taken = [word for word, held in zip(("NOSUPERUSER", "NOREPLICATION", "NOBYPASSRLS"), powers) if held]
    if taken and not connection.execute(text("SELECT rolsuper FROM pg_roles WHERE rolname = current_user")).scalar():
        raise AccessError(
            f"the role {each.role} has {', '.join(w[2:] for w in taken)}, which only a superuser can take away: "
            f"ALTER ROLE {each.role} {' '.join(taken)}, then run setup again"
        )
    _ddl(connection, f"ALTER ROLE {q(each.role)} {' '.join(['LOGIN', *taken, 'NOCREATEDB', 'NOCREATEROLE', 'NOINHERIT'])}")
    return found is None


def _policy(
    connection: Connection, table: str, name: str, command: str, role: str, *, using: str | None = None, check: str | None = None
) -> None:
    q = _quoter(connection)
    sql = f"CREATE POLICY {q(POLICY_PREFIX + name)} ON {q(table)} FOR {command} TO {q(role)}"
    if using is not None:
        sql += f" USING ({using})"
    if check is not None:
        sql += f" WITH CHECK ({check})"
    _ddl(connection, sql)


def _drop_policies(connection: Connection, table: str) -> None:
    q = _quoter(connection)
    names = connection.execute(
        text(
            "SELECT policyname FROM pg_policies WHERE schemaname = current_schema() AND tablename = :table "
            "AND starts_with(policyname, :prefix)"
        ),
        {"table": table, "prefix": POLICY_PREFIX},
    ).scalars()
    for name in list(names):
        _ddl(connection, f"DROP POLICY {q(name)} ON {q(table)}")


def _tables(connection: Connection) -> list[tuple[str, str]]:
    """(table, owner) of every table of the campaign's schema, listed in ACCESS or not."""
    return [
        (row[0], row[1])
        for row in connection.execute(
            text("SELECT tablename, tableowner FROM pg_tables WHERE schemaname = current_schema() ORDER BY tablename")
        )
    ]


def _columns(connection: Connection, table: str) -> list[str]:
    return list(
        connection.execute(
            text(
                "SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema() "
                "AND table_name = :table ORDER BY ordinal_position"
            ),
            {"table": table},
        ).scalars()
    )


def _sequences(connection: Connection, table: str) -> list[str]:
    """The sequences that number a table's rows (a serial or identity column), as qualified names."""
    return [
        name
        for column in _columns(connection, table)
        if (name := connection.execute(text("SELECT pg_get_serial_sequence(:t, :c)"), {"t": table, "c": column}).scalar())
    ]


def _ddl(connection: Connection, statement: str) -> None:
    """Run a statement built here: its colons (a SCRAM verifier's, a quoted name's) are text, not
    bind parameters."""
    connection.execute(text(statement.replace(":", "\\:")))


def _database(connection: Connection) -> str:
    return str(connection.execute(text("SELECT current_database()")).scalar_one())


def _lock(connection: Connection) -> None:
    """Two setups (or a setup and a revoke) at once take turns."""
    connection.execute(text("SELECT pg_advisory_xact_lock(hashtext('adjutant club'))"))


def _verifier(connection: Connection, password: str, role: str) -> str:
    """The SCRAM verifier of the password, made by libpq here: the password itself never
    reaches the server, its logs or its statistics."""
    raw = connection.connection.dbapi_connection
    return raw.pgconn.encrypt_password(password.encode(), role.encode(), b"scram-sha-256").decode()  # type: ignore[union-attr]  # a psycopg connection here (PostgreSQL only)


def _quoter(connection: Connection):
    return connection.dialect.identifier_preparer.quote_identifier


def _literal(value: str) -> str:
    return "'" + value.replace("'", "''") + "'"
