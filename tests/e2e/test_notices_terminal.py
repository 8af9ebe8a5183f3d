"""A notice in a real terminal at 80x24 sits above the status line and the key bar,
which stay whole and readable while it shows (Textual keeps one line for a footer;
Adjutant's bottom bar has two)."""

from __future__ import annotations

import shlex
from pathlib import Path

from tests.e2e.conftest import Tmux, installed_adjutant
from tests.e2e.test_terminal import new_campaign


def test_a_notice_leaves_the_status_line_and_key_bar_readable(tmux: Tmux, tmp_path: Path):
    path = new_campaign(tmp_path)
    config = tmp_path / "config"
    tmux.start(shlex.join(["env", "NO_COLOR=1", f"ADJUTANT_CONFIG_DIR={config}", installed_adjutant(), str(path)]))
    tmux.wait_for("Overview", "Phase: Weather")
    tmux.keys("w")
    tmux.wait_for("Weather track")
    tmux.keys("r")

    def bottom(shown: str) -> tuple[str, str, str]:
        *_, above, status, keys = shown.rstrip("\n").split("\n")
        return above, status, keys

    def drawn(shown: str) -> bool:
        # The notice (the roll's), the status line that tells the roll and the notice's left
        # edge just above that line: drawn in more than one frame, each reaching tmux in pieces.
        # The key line is waited for too: it may reach tmux after the rest.
        above, status, keys = bottom(shown)
        return ("Turn 1: Clear" in shown and "| Weather | Clear" in status and "▌" in above
                and keys.startswith(" r Roll weather") and keys.rstrip().endswith("? all keys"))

    # A notice drawn over the status line never shows all of them: the wait ends in a failure.
    _above, status, keys = bottom(tmux.wait_until(drawn, "the notice of the roll above the status line and the keys"))
    assert status.startswith(" 26 Apr 1813 | turn 1/20 | Weather | Clear") and "▌" not in status
    assert keys.startswith(" r Roll weather") and keys.rstrip().endswith("? all keys") and "▌" not in keys
