"""End to end: the installed `adjutant` in tmux at 80x24, locally and over ssh.

An umpire plays turn 1 with the keyboard only (weather, phases, command
points for every army, the command palette), quits with q, and the campaign
file holds what was done. Locally, without colour, the weather's notice is
looked at on the way: it sits above the status line and the key bar, which
stay whole and readable while it shows (Textual keeps one line for a footer;
Adjutant's bottom bar has two).
"""

from __future__ import annotations

import atexit
import fcntl
import os
import re
import shlex
import shutil
import subprocess
import tempfile
from pathlib import Path

from sqlalchemy import select

from models import Campaign, CommandPointRoll, Turn, open_campaign
from tests.e2e.conftest import SshServer, Tmux, installed_adjutant

ARMIES = 3  # in the spring 1813 scenario
ROOT = Path(__file__).resolve().parents[2]
_made: list[Path] = []  # the campaign `adjutant new` made in this worker


def new_campaign(folder: Path) -> Path:
    """`adjutant new spring1813 FILE --seed 1813`, run once per run by the installed command (the
    first worker to need it makes it, in the run's own temporary folder, the others wait for it
    there); each test gets a copy of the file it made (a start of the command costs 1.5 CPU-s).
    `folder` is the test's, under pytest's temporary folder."""
    path = folder / "spring.campaign"
    if not _made:
        _made.append(_made_once(_run_folder(folder)))
    shutil.copyfile(_made[0], path)
    return path


def _run_folder(folder: Path) -> Path | None:
    """The temporary folder all the workers of this run share (xdist's `popen-gwN` folders are
    in it), or None without workers."""
    return next((above.parent for above in folder.parents if re.fullmatch(r"popen-gw\d+", above.name)), None)


def _made_once(shared: Path | None) -> Path:
    if shared is None:
        shared = Path(tempfile.mkdtemp(prefix="adjutant-e2e-new-"))
        atexit.register(shutil.rmtree, shared, True)
    made = shared / "adjutant-new-spring1813.campaign"
    with open(shared / "adjutant-new.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # one worker makes it; a worker waiting here then finds it
        if not made.exists():
            new = Path(tempfile.mkdtemp(prefix="adjutant-e2e-new-", dir=shared))
            subprocess.run([installed_adjutant(), "new", "spring1813", str(new / "s.campaign"), "--seed", "1813"], check=True, capture_output=True)
            assert [p.name for p in new.iterdir()] == ["s.campaign"], "a new campaign is more than one file: copy them all"
            os.replace(new / "s.campaign", made)  # whole or not at all
            new.rmdir()
    return made


def app_command(path: Path, config: Path, *environment: str) -> str:
    """`adjutant FILE` with a config directory of the test's own, by absolute paths,
    so that a bare remote shell runs it too; PYTHONPATH: this checkout's code, also there;
    `environment`: more NAME=VALUE for it."""
    return shlex.join(["env", f"PYTHONPATH={ROOT}", f"ADJUTANT_CONFIG_DIR={config}", *environment, installed_adjutant(), str(path)])


def bottom(shown: str) -> tuple[str, str, str]:
    """The pane's last three lines: the one above the status line, the status line, the key bar."""
    *_, above, status, keys = shown.rstrip("\n").split("\n")
    return above, status, keys


def notice_leaves_the_bottom_bar_readable(term: Tmux) -> None:
    """The weather just rolled (Clear): its notice sits above the status line and the key bar,
    which stay whole and readable while it shows. Looked at without colour (NO_COLOR)."""

    def drawn(shown: str) -> bool:
        # The notice (the roll's), the status line that tells the roll and the notice's left
        # edge just above that line: drawn in more than one frame, each reaching tmux in pieces.
        # The key line is waited for too: it may reach tmux after the rest.
        above, status, keys = bottom(shown)
        return ("Turn 1: Clear" in shown and "| Weather | Clear" in status and "▌" in above
                and keys.startswith(" r Roll weather") and keys.rstrip().endswith("? all keys"))

    # A notice drawn over the status line never shows all of them: the wait ends in a failure.
    _above, status, keys = bottom(term.wait_until(drawn, "the notice of the roll above the status line and the keys"))
    assert status.startswith(" 26 Apr 1813 | turn 1/20 | Weather | Clear") and "▌" not in status
    assert keys.startswith(" r Roll weather") and keys.rstrip().endswith("? all keys") and "▌" not in keys


def play_turn_one(term: Tmux, *, look_at_the_notice: bool = False) -> None:
    term.wait_for("Overview", "Turn 1 of 20", "Phase: Weather")
    term.keys("w")
    term.wait_for("Weather track", "not rolled yet")
    term.keys("r")
    # The roll told, and "not rolled yet" gone: lines of the old frame stay in tmux until the
    # new one reaches them, so its going is waited for too (it never goes: the wait fails).
    term.wait_until(
        lambda shown: "Turn 1, 26 April 1813: " in shown and "Movement:" in shown and "not rolled yet" not in shown,
        "the weather rolled, and not rolled no more",
    )
    if look_at_the_notice:
        notice_leaves_the_bottom_bar_readable(term)

    term.keys("t")
    term.wait_for("> 1. Weather", "Nothing more is needed in this phase")
    term.keys("n")  # nothing outstanding: it moves on without a question
    term.wait_for("> 2. Command points")

    term.keys("c")
    term.wait_for("Ledger of")
    for _ in range(ARMIES):
        term.keys("r", "Down")
    term.keys("t")
    term.wait_for("> 2. Command points", "Nothing more is needed in this phase")
    for phase in ("3. Activations and movement", "4. Reconnaissance", "5. Battles", "6. End of turn"):
        term.keys("n")
        term.wait_for(f"> {phase}")
    term.keys("n")
    term.wait_for("Turn 2 of 20, 28 April 1813", "> 1. Weather")

    # Any screen by name: the command palette.
    term.keys("C-p")
    term.wait_for("Search for commands")
    term.type("Order of battle")
    # Only the order of battle offered (its help, and not the Orders screen's that "Order"
    # matched on the way): Enter on a list of one picks it; on a list of two it only highlights.
    term.wait_until(
        lambda shown: "Sides, armies, generals and units" in shown and "A side file's orders" not in shown,
        "the order of battle alone in the palette",
    )
    term.keys("Enter")
    term.wait_for("All sides:", "Add unit")
    term.keys("q")
    assert term.wait_until_exit() == 0


def check_turn_one_was_played(path: Path) -> None:
    with open_campaign(path) as store, store.read() as db:
        campaign = db.get_one(Campaign, 1)
        assert (campaign.turn, campaign.phase) == (2, "weather")
        assert db.get_one(Turn, 1).weather
        rolls = list(db.scalars(select(CommandPointRoll).where(CommandPointRoll.turn == 1)))
        assert len(rolls) == ARMIES


def test_a_turn_in_tmux_and_a_notice_leaves_the_status_line_and_key_bar_readable(tmux: Tmux, tmp_path: Path):
    """One app for both (a start costs some 1.3 CPU-s): the notice is the weather's, on the way."""
    path = new_campaign(tmp_path)
    tmux.start(app_command(path, tmp_path / "config", "NO_COLOR=1"))
    play_turn_one(tmux, look_at_the_notice=True)
    check_turn_one_was_played(path)


def test_a_turn_over_ssh(tmux: Tmux, sshd: SshServer, tmp_path: Path):
    path = new_campaign(tmp_path)
    tmux.start(sshd.command(app_command(path, tmp_path / "config")))
    play_turn_one(tmux)
    check_turn_one_was_played(path)
    assert "Accepted publickey" in sshd.log.read_text()  # it was the ssh session that played
