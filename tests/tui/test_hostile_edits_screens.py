"""The app on a hand-edited campaign file (tests/hostile_edits.py): every screen shows it inert,
or the file is refused (or the app ends) in one sentence; the file keeps its bytes."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from tests import hostile_edits, seeds
from tests.test_hostile_edits import shared_played
from tests.test_hostile_files import folder_state
from tests.tui.test_hostile_screens import visit_every_screen


@pytest.fixture(scope="module")
def real() -> Path:
    return shared_played()


async def test_a_drawn_hand_edit_opens_in_the_app_inert_or_is_refused(real: Path, tmp_path: Path) -> None:
    """One edit drawn with the run's seed (`python -m tests.hostile_edits` runs the commands on all)."""
    seed = seeds.run_seed()
    listed = [edit for edit in hostile_edits.edits(real) if edit.kind != "number"]  # numbers: the corpus's bulk
    edit = random.Random(seed).choice(listed)
    home = tmp_path / "edited"
    home.mkdir()
    path = home / "edited.campaign"
    hostile_edits.make(real, path, edit)
    before = folder_state(home)
    await visit_every_screen(path, f"[{edit.kind}] {edit.what} ({seeds.replay(seed)})")
    assert folder_state(home) == before, f"[{edit.kind}] {edit.what}: the app changed the file"
