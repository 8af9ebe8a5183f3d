"""A turn's report holds the umpire's notes on every entry of the turn, as the whole
campaign's report does: a note on a redo entry too."""

from __future__ import annotations

from sqlalchemy import select

from campaigns import notes, weather
from campaigns.session import CampaignSession
from models import Event
from tests.templates import new_campaign
from tui.cli import main

NOTE = "redone after the players agreed the die had rolled off the table"


def marks(capsys, path, *args: str) -> str:
    assert main(["report", str(path), *args, "--format", "txt", "-o", "-"]) == 0, capsys.readouterr().err
    return capsys.readouterr().out.split("Bookmarks and notes")[1].split("The plots")[0]


def test_a_note_on_a_redo_entry_is_in_the_turns_report(tmp_path, capsys):
    path = tmp_path / "x.campaign"
    session = CampaignSession.open(new_campaign(path, "spring1813", seed=1813))
    try:
        weather.roll(session, [2])
        session.undo()
        session.redo()
        with session.store.read() as db:
            redo = db.scalars(select(Event.id).where(Event.kind == "redo")).one()
        notes.add_note(session, redo, NOTE)
    finally:
        session.close()
    assert NOTE in marks(capsys, path)  # the whole campaign's report
    assert NOTE in marks(capsys, path, "--turn", "1")  # and turn 1's, the turn it was written in
