"""Showing the battles imports no SQLModel class: the list of battles and the stacks in
contact are read as plain rows (campaigns.battles `battles`, campaigns.stacks
`counted_stacks`), so a first visit does not wait for the ORM and models.tables
(150-250 ms on a quiet machine); setting up a battle, an action, imports them when it runs."""

from __future__ import annotations

from tests.tui.helpers import imports_on_showing

STEPS = """
await app.run_action("show('battles')")
await until(pilot, lambda: type(app.screen).__name__ == "BattlesScreen" and "contact" in str(app.screen.query_one("#contacts").render())
            and not app.keys_held, "the battles shown")
await app.workers.wait_for_complete()
out["contacts"] = str(app.screen.query_one("#contacts").render()).splitlines()[0]
"""


def test_showing_the_battles_imports_no_sqlmodel_class(campaign_file):
    shown = imports_on_showing(STEPS, str(campaign_file))
    assert shown["shown"] == []
    assert shown["contacts"].startswith(("Stacks in contact", "No stacks in contact"))
