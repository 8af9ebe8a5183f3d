"""`adjutant serve FILE|--db URL [--side SIDE] [--host H] [--port N]`: the app in a browser.

textual-serve (the optional `web` extra) runs one `adjutant` process per
browser tab and carries its terminal over a websocket. Adjutant stands in front
of it:

- Bound to 127.0.0.1 by default. Any other address needs a password
  (`--password-file`, ADJUTANT_SERVE_PASSWORD, or a prompt at a terminal); without
  one the server does not start.
- With a password, every request (page, scripts, websocket) must carry it as
  HTTP basic auth, checked here before textual-serve sees the request, so no app
  process starts for a stranger. Basic auth sends the password in the clear:
  beyond a trusted network, put TLS in front (a reverse proxy) or use SSH.
- A websocket opened by a page from another origin is refused (a web page the
  player visits must not drive the campaign), and so is, on a local bind, a
  request whose Host is not a local name (DNS rebinding).

With --side, each tab gets that side's player view (campaigns.player.open_side): on
a club's campaign the URL is the side's role's, so the database itself keeps the
browser to what the side knows.

A campaign database URL reaches the app processes through ADJUTANT_DATABASE_URL,
never on a command line that `ps` shows.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import getpass
import hmac
import ipaddress
import os
import shlex
import socket
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from rules.commandline import UsageError

LOCAL_HOSTS = {"127.0.0.1", "::1", "localhost"}
PASSWORD_VARIABLE = "ADJUTANT_SERVE_PASSWORD"
DATABASE_VARIABLE = "ADJUTANT_DATABASE_URL"
REFUSAL_DELAY = 1.0  # seconds a wrong password waits: guessing is slow
REALM = 'Basic realm="Adjutant", charset="UTF-8"'
PASSWORD_FILE_LIMIT = 64 * 1024


class Refusal(Exception):
    """One sentence for stderr, and exit code 2."""


def guarded(work: Callable[[], int], argv: Sequence[str]) -> int:
    """Run `adjutant serve` (its arguments are in the command table, tui/cli.py):
    every refusal is one sentence on stderr and exit 2."""
    from campaigns.text import one_line  # a file name or a value typed may hold escapes: printed inert

    try:
        return work()
    except UsageError as error:
        print(f"adjutant: {one_line(error)} (see adjutant serve --help)", file=sys.stderr)
        return 2
    except Refusal as refusal:
        print(f"adjutant: {one_line(refusal)}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


def serve(args: argparse.Namespace) -> int:
    if not 0 < args.port < 65536:
        raise Refusal(f"--port {args.port} is not a port (1-65535)")
    password = _password(args)
    if password is None and not is_local(args.host):
        raise Refusal(
            f"serving on {args.host} lets other machines in: give a password (--password-file F or {PASSWORD_VARIABLE}), "
            "or keep the default --host 127.0.0.1"
        )
    command, environment = _app_command(args)
    try:
        from textual_serve.server import Server  # noqa: F401
    except ImportError:
        raise Refusal("adjutant serve needs the web extra: pip install 'adjutant[web]'") from None
    try:  # the address is tried first, so that a port in use is said before "Serving..."
        socket.create_server((args.host, args.port)).close()
    except OSError as error:
        raise Refusal(f"cannot listen on {args.host}:{args.port}: {error.strerror or error}") from None
    os.environ.update(environment)  # the app processes inherit it (textual-serve copies os.environ)
    server = _server_class()(command, host=args.host, port=args.port, title="Adjutant", password=password)
    try:
        server.serve()
    except OSError as error:
        raise Refusal(f"cannot listen on {args.host}:{args.port}: {error.strerror or error}") from None
    return 0


def is_local(host: str) -> bool:
    if host in LOCAL_HOSTS:
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _password(args: argparse.Namespace) -> str | None:
    if args.password_file:
        from campaigns.text import has_control
        from campaigns.userfile import FileRefused, read_text

        try:  # a FIFO, /dev/zero, a directory or a huge file is refused before it hangs or fills memory
            lines = read_text(args.password_file, "the password", PASSWORD_FILE_LIMIT).splitlines()
        except FileRefused as refused:
            raise Refusal(str(refused)) from None
        password = lines[0] if lines else ""
        if has_control(password) or "\t" in password:  # no browser's password box types these
            raise Refusal(f"the password in {args.password_file} holds a control character (a NUL, an escape, a tab...)")
    elif os.environ.get(PASSWORD_VARIABLE):
        password = os.environ.pop(PASSWORD_VARIABLE)  # not handed on to the app processes
    elif not is_local(args.host) and sys.stdin.isatty():
        password = getpass.getpass(f"Password for the browsers on {args.host}:{args.port}: ")
    else:
        return None
    if not password:
        raise Refusal("the password is empty; a server others can reach needs a real one")
    return password


def _app_command(args: argparse.Namespace) -> tuple[str, dict[str, str]]:
    """The command textual-serve runs for each browser, and what its environment needs."""
    from campaigns.errors import CampaignError
    from campaigns.session import CampaignSession

    if args.file and args.db:
        raise Refusal("give a campaign FILE or --db URL, not both")
    url = args.db or (args.file if args.file and "://" in args.file else None) or (None if args.file else os.environ.get(DATABASE_VARIABLE))
    if not url and not args.file:
        raise Refusal(f"name a campaign FILE, or a database with --db URL or {DATABASE_VARIABLE}")
    target = url or str(Path(args.file).absolute())
    try:  # a campaign (or a side) that will not open is refused now, not in every browser tab
        if args.side is None:
            CampaignSession.open(target).close()
        else:
            from campaigns.player import open_side

            open_side(target, args.side).close()
    except CampaignError as error:
        raise Refusal(str(error)) from None
    argv = [sys.executable, "-m", "tui.cli"]
    environment = {}
    if url:
        environment[DATABASE_VARIABLE] = url
    else:
        argv.append(target)
    if args.side is not None:
        argv += ["--side", args.side]
    return shlex.join(argv), environment


def _server_class() -> type:
    from aiohttp import web
    from textual_serve.server import Server

    class AdjutantServer(Server):
        """textual-serve with Adjutant's checks in front of every request."""

        def __init__(self, *args: Any, password: str | None, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self.password = password

        def initialize_logging(self) -> None:
            """textual-serve's own log is for its developers; the one line below says what matters."""

        async def on_startup(self, app: web.Application) -> None:
            guarded = "a password" if self.password else "no password: this machine only"
            print(f"Serving Adjutant on http://{_url_host(self.host)}:{self.port} ({guarded}); ctrl+c stops.", flush=True)

        async def _make_app(self) -> web.Application:
            app = await super()._make_app()
            app.middlewares.append(self._check)
            return app

        @web.middleware
        async def _check(self, request: web.Request, handler: Any) -> web.StreamResponse:
            if is_local(self.host) and (request.url.host or "") not in LOCAL_HOSTS and not _loopback(request.url.host):
                raise web.HTTPForbidden(text="This server answers only to this machine's own names.")
            if request.path == "/ws" and not _same_origin(request):
                raise web.HTTPForbidden(text="A page from another site may not open this campaign.")
            if self.password is not None and not _authorised(request.headers.get("Authorization", ""), self.password):
                if "Authorization" in request.headers:
                    await asyncio.sleep(REFUSAL_DELAY)
                raise web.HTTPUnauthorized(headers={"WWW-Authenticate": REALM}, text="Adjutant needs the club's password.")
            return await handler(request)

        async def handle_index(self, request: web.Request) -> web.StreamResponse:
            # The page's websocket URL from the address the browser used, not the one bound
            # (0.0.0.0 is no address to connect to).
            self.public_url = f"{request.scheme}://{request.host}"
            return await super().handle_index(request)

    return AdjutantServer


def _authorised(header: str, password: str) -> bool:
    scheme, _, encoded = header.partition(" ")
    if scheme.lower() != "basic":
        return False
    try:
        _user, _, given = base64.b64decode(encoded, validate=True).decode("utf-8").partition(":")
    except (ValueError, UnicodeDecodeError):
        return False
    return hmac.compare_digest(given.encode(), password.encode())  # any user name: the password is the club's


def _same_origin(request: Any) -> bool:
    origin = request.headers.get("Origin")
    return origin is None or urlsplit(origin).netloc == request.host


def _loopback(host: str | None) -> bool:
    return host is not None and host != "" and is_local(host.strip("[]"))


def _url_host(host: str) -> str:
    return f"[{host}]" if ":" in host else host
