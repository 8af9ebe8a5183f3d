"""A campaign file that goes while it is open is not made again, empty, in its place.

SQLite creates the file a connection names when it is not there. A view of the past is a
private copy in a temporary folder that closing removes; a screen still reading it as it
closed opened a new connection after the copy was removed and before its folder was, made
an empty `past.campaign` there, and the folder stayed on disk for good (2 of 400 closings
with a thread reading, h18-tuiflakes). The store's connections now open the file only if it
is there (models.engine.make_engine's `existing`), so a new connection on a file gone is a
sentence and nothing is written."""

from __future__ import annotations

from pathlib import Path

import pytest

from campaigns.past import moment, open_past
from campaigns.session import CampaignSession
from campaigns.errors import CampaignError
from tests.templates import new_campaign


def test_a_campaign_file_deleted_while_open_is_refused_and_not_made_again(tmp_path: Path):
    path = Path(new_campaign(tmp_path / "a campaign %20.campaign", seed=1))
    session = CampaignSession.open(path)
    try:
        session.version()  # connected once
        session.store.engine.dispose()  # the pool's connections closed: the next read connects anew
        path.unlink()
        with pytest.raises(CampaignError, match="unable to open"):
            session.version()
        assert not path.exists()
        assert list(tmp_path.iterdir()) == []
    finally:
        session.close()


def test_a_view_of_the_past_read_as_it_is_removed_leaves_no_file_behind(tmp_path: Path):
    path = Path(new_campaign(tmp_path / "spring.campaign", seed=2))
    present = CampaignSession.open(path)
    try:
        past = open_past(present, moment(present, turn=1))
    finally:
        present.close()
    copy = past.folder / "past.campaign"
    assert copy.exists()
    past.store.engine.dispose()
    copy.unlink()  # where closing is between removing the copy and removing its folder
    with pytest.raises(CampaignError):
        past.version()  # a screen's read at that moment
    assert list(past.folder.iterdir()) == []
    past.close()
    assert not past.folder.exists()
