"""A real terminal for the end-to-end tests: tmux on a private socket, and a real
sshd on 127.0.0.1 with throwaway keys.

Both are started here and stopped after the test; nothing touches the user's
tmux server, ssh configuration or known hosts. Waiting is by looking at the pane
until the expected text shows, again each time the program has written to it
(a tmux control-mode client tells when: `Control`), never by fixed sleeps.
"""

from __future__ import annotations

import getpass
import os
import queue
import re
import shlex
import shutil
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

import pytest

TIMEOUT = 20.0  # seconds for any one screen to show what it should
# Seconds for a Python program to start: `adjutant serve` listening, or the app it starts for a
# browser showing its first screen. Each imports Textual and more (some 1.5 s of CPU); on a two-core
# machine with the suite's workers and other programs running, that took more than TIMEOUT.
STARTUP = 90.0
# Seconds between looks at the pane before the session is started (no control client yet).
POLL = 0.03
# Seconds a wait goes at most without looking at the pane when it has not written: what tmux
# draws itself (a dead pane's "Pane is dead") comes without output.
LOOK = 0.25


# tmux's names of keys whose bytes begin with ESC: Escape itself, arrows, Home, End, Page Up and
# Down, Insert, Delete, shift+Tab, function keys, each with modifiers; and any key with Meta (M-).
_BEGINS_WITH_ESC = re.compile(
    r"(?:[CS]-)*(?:M-.+|Escape|Up|Down|Left|Right|Home|End|PPage|PageUp|PgUp|NPage|PageDown|PgDn|IC|Insert|DC|Delete|BTab|F\d{1,2})"
)


def exited(shown: str) -> int | None:
    """The exit status the pane's text `shown` reports, or None while the program runs."""
    # Our own echo, or tmux's own line when the echo went to the screen the program left.
    found = re.search(r"\[exited (\d+)\]|Pane is dead \(status (\d+)", shown)
    return int(found.group(1) or found.group(2)) if found else None


def installed_adjutant() -> str:
    """The absolute path of the installed `adjutant` script: next to this Python, or on PATH."""
    beside = Path(sys.executable).parent / "adjutant"
    if beside.exists():
        return str(beside)
    found = shutil.which("adjutant")
    if found is None:
        pytest.skip("`adjutant` is not installed (pip install -e .)")
    return found


def new_campaign_file(path: Path, *, seed: int, manual_dice: bool = False) -> Path:
    """A new spring 1813 campaign at `path`, as `adjutant new spring1813 PATH --seed SEED
    [--manual-dice]` makes it (the same create_campaign), made once per worker in this process
    and copied (tests/templates.py): a test's set-up, not what it checks
    (tests/e2e/test_terminal.py starts the installed `adjutant new`).
    Starting the command cost a second and a half of CPU per test, four of wall under load."""
    from rules.dice import ENTERED, ROLLED
    from tests.templates import new_campaign

    new_campaign(path, seed=seed, dice_mode=ENTERED if manual_dice else ROLLED)
    return path


class Control:
    """A tmux control-mode client (`tmux -C attach`) on the test's session: one process for the
    whole test, through which every later tmux command goes and which tells when the pane wrote.

    A command through it costs the tmux server about 0.1 ms and no process; one `tmux` process
    per command cost about 6 ms of CPU (the client's start, the fork, the server's side) and 25 ms
    of wall on a loaded machine, and a test looked at its pane thousands of times. The pane's
    output comes as `%output` lines: a wait looks again when the pane has written, not every
    few milliseconds (tmux's control mode: man tmux, CONTROL MODE)."""

    def __init__(self, socket: str) -> None:
        self.process = subprocess.Popen(
            ["tmux", "-S", socket, "-C", "attach-session", "-t", "e2e"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
        )
        self.replies: queue.Queue[tuple[bool, str] | None] = queue.Queue()
        self.wrote = threading.Event()  # set when the pane has written since it was cleared
        self.lock = threading.Lock()  # one command at a time: replies come in order
        threading.Thread(target=self._read, daemon=True).start()
        self._reply("attach-session")  # the attach's own reply comes first

    def _read(self) -> None:
        assert self.process.stdout is not None
        block: list[bytes] | None = None
        begun: list[bytes] = []
        for line in self.process.stdout:
            if block is not None:
                # A reply ends with %end or %error and the time and number its %begin had.
                if line.startswith((b"%end ", b"%error ")) and line.split()[1:3] == begun:
                    self.replies.put((line.startswith(b"%end "), b"".join(block).decode("utf-8", "replace")))
                    block = None
                else:
                    block.append(line)
            elif line.startswith(b"%begin "):
                block, begun = [], line.split()[1:3]
            elif line.startswith((b"%output ", b"%extended-output ")):
                self.wrote.set()
        self.replies.put(None)  # the server ended, or the client
        self.wrote.set()

    def _reply(self, command: str) -> str:
        try:
            reply = self.replies.get(timeout=10)
        except queue.Empty:
            raise AssertionError(f"tmux {command}: no answer in 10 s") from None
        if reply is None:
            raise AssertionError(f"tmux {command}: the tmux server is gone")
        done, out = reply
        if not done:
            raise AssertionError(f"tmux {command} failed: {out}")
        return out

    def run(self, *args: str) -> str:
        command = " ".join(_quoted(arg) for arg in args)
        with self.lock:
            assert self.process.stdin is not None
            self.process.stdin.write(command.encode() + b"\n")
            self.process.stdin.flush()
            return self._reply(command)

    def close(self) -> None:
        if self.process.stdin is not None:
            self.process.stdin.close()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


def _quoted(arg: str) -> str:
    """`arg` as one argument on a tmux command line: in single quotes nothing is special."""
    if "'" not in arg:
        return f"'{arg}'"
    return '"' + arg.replace("\\", "\\\\").replace('"', '\\"').replace("$", "\\$") + '"'


class Tmux:
    """One tmux session of a given size on a server of its own.

    The pane may show a frame older than the app: a frame reaches tmux late and in pieces, so a
    wait for a text can be met by a frame drawn before the last key was handled. A key sent in
    answer to what the pane shows is sent once the pane shows what only the state after the
    key before it can show; a place on the map is gone to by name (/), not by counting n."""

    def __init__(self, folder: Path, width: int = 80, height: int = 24) -> None:
        self.socket = str(folder / "tmux.sock")
        self.width, self.height = width, height
        self.started = float("-inf")  # when the program in the pane was started (time.monotonic)
        self.control: Control | None = None  # once the session is started
        self.server: int | None = None  # the tmux server's process id, once started

    def run(self, *args: str) -> str:
        if self.control is not None:
            return self.control.run(*args)
        done = subprocess.run(["tmux", "-S", self.socket, *args], capture_output=True, text=True, timeout=10, check=False)
        if done.returncode != 0:
            raise AssertionError(f"tmux {' '.join(args)} failed: {done.stderr}")
        return done.stdout

    def start(self, command: str) -> None:
        """Run `command` in the pane; when it ends, the pane says how ("[exited N]") and stays."""
        shell = f"{command}; echo \"[exited $?]\""
        self.started = time.monotonic()
        self.run(
            "-f", "/dev/null", "new-session", "-d", "-s", "e2e", "-x", str(self.width), "-y", str(self.height),
            "sh", "-c", shell,
            ";", "set-option", "-t", "e2e", "remain-on-exit", "on",
            ";", "set-option", "-s", "escape-time", "0",
        )
        self.control = Control(self.socket)
        self.server = int(self.run("display-message", "-p", "#{pid}"))

    def screen(self) -> str:
        return self.run("capture-pane", "-p", "-t", "e2e")

    def keys(self, *keys: str) -> None:
        """Send keys as tmux names them: "w", "Enter", "Down", "C-p"; one send-keys call each."""
        for key in keys:
            self.burst(key)

    def burst(self, *keys: str) -> None:
        """All `keys` in one send-keys call: they reach the app as fast as the terminal writes them."""
        self._after_escape(keys)
        self.run("send-keys", "-t", "e2e", *keys)

    def type(self, text: str) -> None:
        self._after_escape([text])
        self.run("send-keys", "-t", "e2e", "-l", text)

    _escape_unread = False  # the last key sent was an Escape, and nothing has been waited for since

    def _after_escape(self, keys: Sequence[str]) -> None:
        """Refuse a key sent right after an Escape, unless it begins with ESC itself.

        An Escape alone reaches the app as the byte that also begins every arrow, function key
        and alt+key, so Textual reads it as Escape only once nothing has followed it for
        ESCDELAY (0.1 s); a key sent within that time is read with it as one (Escape then q:
        alt+q; then ctrl+r: ctrl+r, the Escape lost), as from any terminal. After an Escape a
        test waits for what it does before the next key, or sends next, in the same call, a
        key that begins with ESC (an arrow): that ends the Escape at once."""
        previous = "Escape" if self._escape_unread else ""
        for key in keys:
            if previous == "Escape" and not _BEGINS_WITH_ESC.fullmatch(key):
                raise AssertionError(f"{key!r} sent right after an Escape would be read with it as one key: wait for what the Escape does first")
            previous = key
        self._escape_unread = previous == "Escape"

    def wait_for(self, *texts: str, timeout: float = TIMEOUT) -> str:
        """Wait until every one of `texts` is on the pane; the pane's text."""
        return self.wait_until(lambda shown: all(t in shown for t in texts), repr(texts), timeout=timeout)

    def wait_until(self, shows: Callable[[str], object], what: str, *, timeout: float = TIMEOUT) -> str:
        """Look at the pane until `shows(its text)` is true, again each time the pane has
        written; the pane's text.

        What a test checks on the screen is waited for, never read once after waiting for
        something else: a frame reaches tmux in pieces, and a screen is often drawn in
        more than one frame (a notice after the line it tells of, a list after its title)."""
        # The program's first screen may take STARTUP: it is still starting.
        deadline = max(time.monotonic() + timeout, self.started + STARTUP)
        while True:
            self.changed()
            shown = self.screen()
            if shows(shown):
                self._escape_unread = False
                return shown
            if exited(shown) is not None or time.monotonic() > deadline:
                raise AssertionError(f"waited for {what}; the terminal shows:\n{shown}")
            self.wait_for_output(deadline - time.monotonic())

    def changed(self) -> bool:
        """Whether the pane has written since the last call (before the first look: True)."""
        if self.control is None:
            return True
        wrote = self.control.wrote.is_set()
        self.control.wrote.clear()
        return wrote

    def wait_for_output(self, seconds: float) -> None:
        """Wait until the pane writes, `seconds` at most; and no longer than LOOK at a time:
        what tmux draws itself (a dead pane's line) comes with no output."""
        seconds = max(0.0, min(seconds, LOOK))
        if self.control is None:
            time.sleep(min(seconds, POLL))
        else:
            self.control.wrote.wait(seconds)

    def exit_status(self) -> int | None:
        """The exit status of the program in the pane, or None while it runs."""
        return exited(self.screen())

    def wait_until_exit(self, timeout: float = TIMEOUT) -> int:
        deadline = time.monotonic() + timeout
        while True:
            self.changed()
            if (status := self.exit_status()) is not None:
                return status
            if time.monotonic() > deadline:
                raise AssertionError(f"the program did not end; the terminal shows:\n{self.screen()}")
            self.wait_for_output(deadline - time.monotonic())

    def kill(self) -> None:
        """Stop the tmux server and wait until it has ended: the program in its pane with it, and
        tests/cpu_report.py counts its CPU with this test's."""
        subprocess.run(["tmux", "-S", self.socket, "kill-server"], capture_output=True, timeout=10, check=False)
        if self.control is not None:
            self.control.close()
            self.control = None
        if self.server is not None:
            deadline = time.monotonic() + 10
            while _running(self.server) and time.monotonic() < deadline:
                time.sleep(0.01)
            self.server = None


def _running(pid: int) -> bool:
    """Whether process `pid` runs (an ended one waiting to be collected does not)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat[stat.rfind(")") + 2] != "Z"


def result_shown(shown: str) -> bool:
    """A battle's tabletop result on its screen with what follows it: the pursuit to roll, or
    the losses to apply (the lines under the result, which may reach tmux after it)."""
    return "Tabletop result" in shown and ("Pursuit on the winner's" in shown or "a applies this to the campaign" in shown)


@pytest.fixture
def tmux(tmp_path: Path) -> Iterator[Tmux]:
    if shutil.which("tmux") is None:
        pytest.skip("tmux is not installed (apt-get install tmux)")
    terminal = Tmux(tmp_path)
    try:
        yield terminal
    finally:
        terminal.kill()


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _sshd() -> str | None:
    return shutil.which("sshd") or next((p for p in ("/usr/sbin/sshd", "/usr/local/sbin/sshd") if Path(p).exists()), None)


class SshServer:
    def __init__(self, port: int, user: str, key: Path, log: Path) -> None:
        self.port, self.user, self.key, self.log = port, user, key, log

    def command(self, remote: str) -> str:
        """The local command line that runs `remote` over ssh in a terminal (-tt)."""
        return shlex.join(
            [
                "ssh", "-tt", "-i", str(self.key), "-p", str(self.port),
                "-o", "StrictHostKeyChecking=no", "-o", "UserKnownHostsFile=/dev/null",
                "-o", "IdentitiesOnly=yes", "-o", "LogLevel=ERROR", "-F", "/dev/null",
                f"{self.user}@127.0.0.1", remote,
            ]
        )


@pytest.fixture
def sshd(tmp_path: Path) -> Iterator[SshServer]:
    """A real sshd on 127.0.0.1, on a free port, that lets in one throwaway key."""
    with running_sshd(tmp_path / "sshd") as server:
        yield server


@contextmanager
def running_sshd(folder: Path, force_command: str | None = None) -> Iterator[SshServer]:
    """sshd on 127.0.0.1 with keys and a config of its own in `folder`; with `force_command`, every
    login runs that and nothing else (sshd_config's ForceCommand, as a club server sets it)."""
    binary = _sshd()
    missing = [name for name, path in (("sshd", binary), ("ssh", shutil.which("ssh")), ("ssh-keygen", shutil.which("ssh-keygen"))) if not path]
    if missing:
        pytest.skip(f"{', '.join(missing)} not installed (apt-get install openssh-server openssh-client)")
    folder.mkdir()
    for name in ("host_key", "user_key"):
        subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(folder / name)], check=True)
    shutil.copy(folder / "user_key.pub", folder / "authorized_keys")
    user = getpass.getuser()
    port = _free_port()
    config = folder / "sshd_config"
    config.write_text(
        "\n".join(
            [
                f"Port {port}",
                "ListenAddress 127.0.0.1",
                f"HostKey {folder / 'host_key'}",
                f"PidFile {folder / 'sshd.pid'}",
                f"AuthorizedKeysFile {folder / 'authorized_keys'}",
                "PermitRootLogin yes",
                "PubkeyAuthentication yes",
                "PasswordAuthentication no",
                "KbdInteractiveAuthentication no",
                "UsePAM no",
                "StrictModes no",
                "PrintMotd no",
                *([f"ForceCommand {force_command}"] if force_command else []),
                "",
            ]
        )
    )
    if os.geteuid() == 0:
        Path("/run/sshd").mkdir(exist_ok=True)  # sshd's privilege separation directory, as the Debian service makes it
    log = folder / "sshd.log"
    server = subprocess.Popen([binary, "-D", "-e", "-f", str(config)], stdout=subprocess.DEVNULL, stderr=log.open("w"))
    try:
        deadline = time.monotonic() + TIMEOUT
        while True:
            if server.poll() is not None:
                pytest.fail(f"sshd did not start (exit {server.returncode}): {log.read_text()}")
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if time.monotonic() > deadline:
                    pytest.fail(f"sshd never listened on port {port}: {log.read_text()}")
                time.sleep(0.05)
        yield SshServer(port, user, folder / "user_key", log)
    finally:
        server.terminate()
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()
