"""`adjutant serve`: the app in a browser, through textual-serve, with Adjutant's checks in front.

A real server on a free port: the first page over HTTP, one websocket session
driven as a browser drives it (keys in, the app's screen out), and the
refusals: a non-local bind without a password, a wrong password, a page from
another site.
"""

from __future__ import annotations

import asyncio
import base64
import io
import os
import re
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.e2e.conftest import STARTUP, TIMEOUT, _free_port
from tests.e2e.test_terminal import new_campaign

aiohttp = pytest.importorskip("aiohttp")
pytest.importorskip("textual_serve", reason="adjutant serve needs the web extra: pip install -e '.[web]'")

ROOT = Path(__file__).resolve().parents[2]
ESCAPES = re.compile(rb"\x1b\[[0-9;?:]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[()][A-Z0-9]|\x1b[=>]")


def adjutant(*args: str, **popen: object) -> subprocess.Popen:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "ADJUTANT_CONFIG_DIR": str(popen.pop("config"))}
    return subprocess.Popen([sys.executable, "-m", "tui.cli", *args], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **popen)  # type: ignore[arg-type]


def listening(server: subprocess.Popen, port: int) -> None:
    deadline = time.monotonic() + STARTUP
    while True:
        if server.poll() is not None:
            raise AssertionError(f"adjutant serve ended ({server.returncode}): {server.stderr.read()}")  # type: ignore[union-attr]
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            if time.monotonic() > deadline:
                raise AssertionError(f"adjutant serve never listened on {port}") from None
            time.sleep(0.05)


def stop(server: subprocess.Popen) -> None:
    server.terminate()
    try:
        server.wait(timeout=10)
    except subprocess.TimeoutExpired:
        server.kill()
        server.wait()


@pytest.fixture
def campaign(tmp_path: Path) -> Path:
    return new_campaign(tmp_path)


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[int]:
    """One server for the tests that only read through it, as browsers do one after another:
    each start of `adjutant serve` costs some 2 CPU-s (Textual, SQLAlchemy, aiohttp)."""
    folder = tmp_path_factory.mktemp("served")
    port = _free_port()
    server = adjutant("serve", str(new_campaign(folder)), "--port", str(port), config=folder / "config")
    try:
        listening(server, port)
        yield port
    finally:
        stop(server)


def fetch(url: str, **headers: str) -> tuple[int, dict, str]:
    return fetch_all((url, headers))[0]


def fetch_all(*requests: tuple[str, dict[str, str]]) -> list[tuple[int, dict, str]]:
    """GET each (url, headers) at the same time; each answer's status, headers and text."""
    async def get(client: aiohttp.ClientSession, url: str, headers: dict[str, str]) -> tuple[int, dict, str]:
        async with client.get(url, headers=headers) as answer:
            return answer.status, dict(answer.headers), await answer.text()

    async def every() -> list[tuple[int, dict, str]]:
        async with aiohttp.ClientSession() as client:
            return list(await asyncio.gather(*(get(client, url, headers) for url, headers in requests)))

    return asyncio.run(every())


def screen_text(data: bytes) -> str:
    return ESCAPES.sub(b"", data).decode("utf-8", "replace")


async def drive(url: str, first: tuple[str, ...] = ("Turn 1 of 20",), weather: tuple[str, ...] = ("Weather track",), **headers: str) -> list[str]:
    """What a browser does: open the websocket at 80x24, wait for the first screen (every one of
    `first` on it), press w for the weather track (`weather`), then q; what the app showed at each
    step. What a test checks is waited for: a screen comes in more than one frame."""
    shown: list[str] = []
    async with aiohttp.ClientSession() as client, client.ws_connect(url + "/ws?width=80&height=24", headers=headers) as ws:
        received = b""

        async def until(texts: tuple[str, ...], seconds: float) -> None:
            nonlocal received
            deadline = time.monotonic() + seconds
            while not all(text in screen_text(received) for text in texts):
                message = await asyncio.wait_for(ws.receive(), max(0.1, deadline - time.monotonic()))
                assert message.type in (aiohttp.WSMsgType.BINARY, aiohttp.WSMsgType.TEXT), f"the session ended waiting for {texts!r}"
                if message.type == aiohttp.WSMsgType.BINARY:
                    received += message.data
            shown.append(screen_text(received))
            received = b""

        await until(first, STARTUP)  # the app's own process is started for this browser
        await ws.send_json(["stdin", "w"])
        await until(weather, TIMEOUT)
        await ws.send_json(["stdin", "q"])
        while (await asyncio.wait_for(ws.receive(), TIMEOUT)).type not in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED):
            pass  # the app quits and textual-serve closes the socket
    return shown


def test_a_browser_gets_the_page_and_plays_over_the_websocket(served: int):
    status, _headers, page = fetch(f"http://127.0.0.1:{served}/")
    assert status == 200
    assert f'data-session-websocket-url="ws://127.0.0.1:{served}/ws"' in page
    # What each screen should show, waited for: the wait fails if it never comes.
    asyncio.run(drive(f"http://127.0.0.1:{served}", ("Turn 1 of 20", "Phase: Weather"), ("Weather track", "not rolled yet")))
    # A second browser gets an app of its own: the server outlives the first one's quitting.
    assert asyncio.run(drive(f"http://127.0.0.1:{served}"))[0]


def test_a_page_from_another_site_may_not_open_the_campaign(served: int):
    async def attempt() -> int:
        async with aiohttp.ClientSession() as client:
            try:
                async with client.ws_connect(f"http://127.0.0.1:{served}/ws", headers={"Origin": "http://evil.example"}):
                    return 101
            except aiohttp.WSServerHandshakeError as refused:
                return refused.status

    assert asyncio.run(attempt()) == 403
    assert fetch(f"http://127.0.0.1:{served}/", Host="evil.example")[0] == 403  # DNS rebinding


def refused_in_process(
    argv: list[str], config: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> tuple[int, str, str]:
    """`adjutant serve ARGV` run in this process (tui.cli.main, as the installed command runs it)
    as a process of its own would run it (a config folder of the test's, no terminal to ask a
    password on, none in the environment), its --port held by this test meanwhile: a process
    cost 0.3-1.6 CPU-s (Python, and for a side its database driver), against 0.03-0.06 here.
    Were the refusal looked for lost, the serve could never start: it would be refused as
    "cannot listen", another sentence, and return."""
    from tui.cli import main

    monkeypatch.setenv("ADJUTANT_CONFIG_DIR", str(config))
    monkeypatch.setattr(sys, "stdin", io.StringIO())  # as from /dev/null: not a terminal
    monkeypatch.delenv("ADJUTANT_SERVE_PASSWORD", raising=False)  # serve takes it out of the environment
    port = argv[argv.index("--port") + 1]
    with socket.create_server(("127.0.0.1", int(port))):
        capsys.readouterr()
        status = main(argv)
        out, err = capsys.readouterr()
    assert "cannot listen" not in err, err
    return status, out, err


def test_a_bind_beyond_this_machine_needs_a_password(
    campaign: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
):
    port = _free_port()
    argv = ["serve", str(campaign), "--host", "0.0.0.0", "--port", str(port)]
    status, _out, err = refused_in_process(argv, tmp_path / "config", capsys, monkeypatch)
    assert status == 2
    assert err.count("\n") == 1 and err.startswith("adjutant: serving on 0.0.0.0 lets other machines in: give a password")
    with pytest.raises(OSError):
        socket.create_connection(("127.0.0.1", port), timeout=1).close()


def test_with_a_password_every_request_needs_it(campaign: Path, tmp_path: Path):
    secret = tmp_path / "password"
    secret.write_text("la garde meurt\n")
    port = _free_port()
    server = adjutant(
        "serve", str(campaign), "--host", "0.0.0.0", "--port", str(port), "--password-file", str(secret),
        config=tmp_path / "config",
    )
    try:
        listening(server, port)
        base = f"http://127.0.0.1:{port}"
        status, headers, _ = fetch(base + "/")
        assert status == 401 and headers["WWW-Authenticate"].startswith("Basic")
        wrong = base64.b64encode(b"umpire:la garde se rend").decode()
        # Both at once: each answer waits its REFUSAL_DELAY (a second) on the server.
        refused = fetch_all((base + "/", {"Authorization": f"Basic {wrong}"}), (base + "/ws", {"Authorization": f"Basic {wrong}"}))
        assert [status for status, _, _ in refused] == [401, 401]  # no app is started for the websocket's
        right = {"Authorization": "Basic " + base64.b64encode(b"anyone:la garde meurt").decode()}
        assert fetch(base + "/", **right)[0] == 200
        asyncio.run(drive(base, ("Turn 1 of 20", "Phase: Weather"), **right))  # waited for: fails if it never shows
    finally:
        stop(server)


def test_a_club_campaign_on_postgresql_in_a_browser(postgres_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    """The shared campaign, served as the umpires' role of `adjutant club setup`."""
    import json

    from tui.cli import main

    new_campaign_at(postgres_url, seed=1813)
    assert main(["club", "setup", "--db", postgres_url, "--json"]) == 0
    umpire = json.loads(capsys.readouterr().out)["umpire"]["url"]
    port = _free_port()
    server = adjutant("serve", "--db", umpire, "--port", str(port), config=tmp_path / "config")
    try:
        listening(server, port)
        asyncio.run(drive(f"http://127.0.0.1:{port}", ("Turn 1 of 20", "Phase: Weather")))  # waited for: fails if it never shows
    finally:
        stop(server)
        assert main(["club", "revoke", "--db", postgres_url]) == 0


def test_a_player_in_a_browser_gets_their_side_as_its_role(
    postgres_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
):
    """`serve --side french --db URL`: every tab is the French player view, connected as the French role;
    a side the role is not is refused before the server starts."""
    import json

    from tui.cli import main
    from campaigns.scenario import load_scenario

    scenario = load_scenario("spring1813")
    new_campaign_at(postgres_url, seed=1813)
    assert main(["club", "setup", "--db", postgres_url, "--json"]) == 0
    french = json.loads(capsys.readouterr().out)["french"]["url"]
    port = _free_port()
    try:
        argv = ["serve", "--db", french, "--side", "allies", "--port", str(port)]
        status, out, err = refused_in_process(argv, tmp_path / "config", capsys, monkeypatch)
        assert (status, out) == (2, "") and err.count("\n") == 1
        assert err.startswith("adjutant: connected as ") and "(the french role), not the allies side's role" in err
        server = adjutant("serve", "--db", french, "--side", "french", "--port", str(port), config=tmp_path / "config")
        try:
            listening(server, port)
            # The French player's view, waited for: the wait fails if it never shows.
            shown = asyncio.run(drive(f"http://127.0.0.1:{port}", ("Turn 1 of 20", "CLUB: French Empire and allies (orders only)", "Russia and Prussia: known only by")))
        finally:
            stop(server)
        side_of = {nation: side.id for side in scenario.sides for nation in side.nations}
        allied = {u.name for u in scenario.units if side_of[u.nation] == "allies"} - {u.name for u in scenario.units if side_of[u.nation] == "french"}
        assert [name for name in allied if any(name in screen for screen in shown)] == []
    finally:
        assert main(["club", "revoke", "--db", postgres_url]) == 0


def test_a_port_in_use_is_one_sentence(campaign: Path, capsys: pytest.CaptureFixture[str]):
    """Run in this process (tui.cli.main, as the installed command runs it): a process of its own
    cost 1.2-1.5 CPU-s. With the port taken the server cannot start, whatever the refusal does; the
    other refusals run here too with their port taken (refused_in_process): none can serve for ever."""
    from tui.cli import main

    with socket.create_server(("127.0.0.1", 0)) as taken:
        port = taken.getsockname()[1]
        capsys.readouterr()
        status = main(["serve", str(campaign), "--port", str(port)])
        out, err = capsys.readouterr()
    assert (status, out) == (2, "")
    assert err.startswith(f"adjutant: cannot listen on 127.0.0.1:{port}: ") and err.count("\n") == 1


def test_the_app_command_carries_the_side_and_keeps_the_database_url_off_the_command_line(campaign: Path, postgres_url: str):
    import argparse
    import shlex

    from tui.serve import _app_command

    def args(**given: object) -> argparse.Namespace:
        return argparse.Namespace(**{"file": None, "db": None, "side": None, **given})

    from tui.cli import main

    side_file = campaign.with_name("french.campaign")
    assert main(["despatch", str(campaign), "--side", "french", "-o", str(side_file)]) == 0
    command, environment = _app_command(args(file=str(side_file), side="french"))
    assert shlex.split(command)[-3:] == [str(side_file), "--side", "french"] and environment == {}
    new_campaign_at(postgres_url, seed=1)
    command, environment = _app_command(args(db=postgres_url))
    assert postgres_url not in command and environment == {"ADJUTANT_DATABASE_URL": postgres_url}


def new_campaign_at(url: str, *, seed: int) -> None:
    """A new spring 1813 campaign in the empty database at `url`: a copy of one made once per
    worker by create_campaign (tests/templates.py)."""
    from tests.templates import new_campaign

    new_campaign(url, seed=seed)
