"""`adjutant club setup|revoke --db URL`: a club's shared campaign, each side's role kept to what
its side knows by PostgreSQL itself (models.access).

Run by the campaign's owner (or a superuser) with the right to create roles.
Passwords come from `--password-file` (TOML: `umpire = "..."`, `french = "..."`)
or, at a terminal, a prompt for each role; they are sent to the server only as
SCRAM verifiers and never printed. Errors are one sentence and exit code 2, as
for every command (campaigns/cli.py).
"""

from __future__ import annotations

import argparse
import getpass
import json
import sys
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any

from campaigns import settings
from campaigns.text import has_control, shown
from campaigns.userfile import read_text

DATABASE_VARIABLE = "ADJUTANT_DATABASE_URL"

OK = 0
PASSWORD_LIMIT = 1024
PASSWORD_FILE_LIMIT = 64 * 1024


def _url(args: argparse.Namespace):
    from models.targets import to_url

    given = args.db or settings.load_environment().database_url
    if not given:
        raise ValueError(f"name the campaign's database with --db URL or {DATABASE_VARIABLE}")
    url = to_url(given if "://" in given else Path(given))
    if url.get_backend_name() != "postgresql":
        raise ValueError("a club needs the campaign on PostgreSQL (--db postgresql://...): a .campaign file has no roles")
    return url


RETRIES = 5
RETRIED = {"40P01", "40001"}  # deadlock detected, serialization failure


def _in_transaction(args: argparse.Namespace, work: Callable[[Any], Any]) -> Any:
    """Run `work` on a connection of the campaign's database, in one transaction."""
    from sqlalchemy import exc

    from models import open_campaign
    from models.access import AccessError
    from models.engine import writer

    with open_campaign(_url(args)) as store:  # an Adjutant campaign at this version's schema, or a refusal
        try:
            for attempt in range(RETRIES):
                try:
                    with writer(store.engine).begin() as connection:
                        return work(connection)
                except exc.DBAPIError as error:
                    # Roles live in the whole cluster: a setup of another database at the same moment
                    # (the advisory lock only orders setups of this one) may deadlock on the shared
                    # catalogs. PostgreSQL rolled the whole transaction back, so it is run again.
                    if getattr(error.orig, "sqlstate", None) not in RETRIED or attempt == RETRIES - 1:
                        raise
        except AccessError as error:
            raise ValueError(str(error)) from None
        except exc.DBAPIError as error:
            first = (str(error.orig).strip().splitlines() or [type(error.orig).__name__])[0]
            raise ValueError(f"PostgreSQL refused: {first} (run this as the campaign's owner, with CREATEROLE)") from None


def _setup(args: argparse.Namespace) -> int:
    from models.access import club_roles, set_up

    given = _password_file(Path(args.password_file)) if args.password_file else None

    def work(connection: Any) -> Any:
        roles = club_roles(connection)
        known = {r.who for r in roles}
        if given is not None:
            unknown = sorted(set(given) - known)
            if unknown:
                raise ValueError(
                    f"{args.password_file} names {unknown[0]!r}, which is neither the umpire nor a side of this "
                    f"campaign ({', '.join(sorted(known))})"
                )
        passwords = given if given is not None else _prompt(roles)
        return set_up(connection, passwords), passwords

    roles, passwords = _in_transaction(args, work)
    url = _url(args)
    places = {r.who: {"role": r.role, "url": url.set(username=r.role, password=None).render_as_string(hide_password=True)} for r in roles}
    if args.json:
        print(json.dumps(places, indent=2, ensure_ascii=True))
        return OK
    print(shown(f"Club roles for {url.render_as_string(hide_password=True)}:"))
    for each in roles:
        password = (
            "password set" if each.who in passwords
            else "no password: it logs in only where pg_hba.conf trusts it" if each.created
            else "password unchanged"
        )
        print(shown(f"  {each.who}: role {each.role} ({password}), connects as {places[each.who]['url']}"))
    print("Each side's role reads only what that side knows; the umpires' reads and changes everything.")
    return OK


def _revoke(args: argparse.Namespace) -> int:
    from models.access import tear_down

    removed = _in_transaction(args, tear_down)
    if removed:
        print(shown(f"Removed the roles {', '.join(removed)} and every club policy."))
    else:
        print("No club roles to remove; the club policies are gone.")
    return OK


def _password_file(path: Path) -> dict[str, str]:
    """The passwords of a TOML file: a string of 1 to PASSWORD_LIMIT printable characters for each name."""
    text = read_text(path, "passwords", PASSWORD_FILE_LIMIT)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise ValueError(f"{path} is not a TOML file of passwords: {str(error).splitlines()[0]}") from None
    except RecursionError:  # arrays nested thousands deep
        raise ValueError(f"{path} is not a TOML file of passwords: it nests too deep") from None
    if not data:
        raise ValueError(f"{path} holds no passwords (umpire = \"...\", and one line a side)")
    for who, password in data.items():
        name = repr(who) if len(who) <= 40 else repr(who[:40] + "...")
        if not isinstance(password, str) or not password or len(password) > PASSWORD_LIMIT:
            raise ValueError(f"{path}: the password of {name} must be a non-empty string of at most {PASSWORD_LIMIT} characters")
        if has_control(password) or "\t" in password or "\n" in password:
            # libpq takes a password as a C string (a NUL would cut it short), and no prompt types the others
            raise ValueError(f"{path}: the password of {name} holds a control character (a NUL, an escape, a line break...)")
    return data


def _prompt(roles: list[Any]) -> dict[str, str]:
    """At a terminal, ask for each role's password (empty: leave it as it is); elsewhere set none."""
    if not sys.stdin.isatty():
        return {}
    passwords = {}
    for each in roles:
        password = getpass.getpass(f"Password for {each.who} (role {each.role}; empty keeps the one it has): ")
        if password:
            passwords[each.who] = password
    return passwords
