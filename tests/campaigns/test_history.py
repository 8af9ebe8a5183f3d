"""The history screen's reading: newest first, filtered in the database."""

from campaigns import history, oob, weather
from campaigns.session import CampaignSession


def test_filter_finds_old_changes_and_rolls(tmp_path):
    session = CampaignSession.new("spring1813", tmp_path / "h.campaign", seed=3)
    weather.roll(session, [4])
    unit = oob.side_units(oob.tree(session)[0])[1]
    for n in range(history.LIMIT + 5):  # more recent actions than one screenful
        oob.set_unit_flags(session, unit.id, fatigued=n % 2 == 0)
    everything = history.entries(session)
    assert len([e for e in everything if e.ref.startswith("#")]) == history.LIMIT
    assert not any("Weather" in e.text for e in everything)  # the oldest have scrolled away
    found = history.entries(session, "weather")
    assert [e.text for e in found][:2] == ["Weather for turn 1", "  " + found[1].text.strip()]
    assert "dice #1: weather 1d6 = 4" in found[1].text
    assert [e.ref for e in history.entries(session, "weather", dice_only=True)] == ["d1"]
    session.close()
