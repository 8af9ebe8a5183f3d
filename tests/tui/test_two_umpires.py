"""Two umpires on one campaign: the second is told, shown the change with F5, and goes on."""

from __future__ import annotations

from campaigns import weather
from campaigns.session import CampaignSession
from models import Turn
from tests.tui.helpers import key, stored, wait_for, wait_for_notice
from tui.app import AdjutantApp


def reinforce(session) -> None:
    """An umpire's action: one more SP for the first French unit."""
    from campaigns import oob

    u = oob.side_units(oob.tree(session)[0])[1]
    oob.edit_unit(session, u.id, {
        "name": u.name, "kind": u.kind, "location": u.location or "",
        "strength_points": str(u.strength_points + 1), "cohesion": str(u.cohesion),
        "artillery_bonus": str(u.artillery_bonus), "cavalry_bonus": str(u.cavalry_bonus),
    })


async def test_a_change_by_another_umpire_is_refused_then_reloaded(campaign_file, make_app):
    app = make_app(campaign_file)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("w")
        await wait_for(pilot, "Weather track")
        other = CampaignSession.open(campaign_file)  # the other umpire, at another terminal
        try:
            reinforce(other)
        finally:
            other.close()
        await pilot.press("r")  # this umpire rolls the weather on what it last saw
        notice = await wait_for_notice(pilot, "Another umpire changed the campaign")
        assert notice.endswith("reload and try again. F5 shows their change."), notice  # two sentences, not one run on
        with stored(campaign_file) as db:
            assert db.get_one(Turn, 1).weather is None  # nothing written
        await pilot.press(key(AdjutantApp, "app.reload"))
        await wait_for_notice(pilot, "Reloaded")
        await pilot.press("r")
        await wait_for_notice(pilot, "Turn 1:")  # the roll told (the line "Turn 1, 26 April 1813: " shows before it too)
    with stored(campaign_file) as db:
        assert db.get_one(Turn, 1).weather


def test_the_campaign_layer_names_the_other_umpire(campaign_file):
    from campaigns.errors import OtherUmpireError

    first, second = CampaignSession.open(campaign_file), CampaignSession.open(campaign_file)
    try:
        weather.roll(first, [2])
        try:
            reinforce(second)
        except OtherUmpireError as exc:
            assert "reload and try again" in str(exc)
        else:
            raise AssertionError("the second umpire's change was written over the first's")
        second.reload()
        reinforce(second)  # built on what the first umpire did
    finally:
        first.close()
        second.close()
