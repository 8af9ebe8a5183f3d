"""The overview of a campaign: where play stands, what the phase still needs, the
weather now and next, and each army's strength and command points.

Read in one go from models.glance, without the SQLModel classes, so that the
app's first screen is drawn before they are built.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from campaigns.errors import plainly
from campaigns.phases import Phase, phase
from campaigns.session import CampaignSession
from models.glance import Overview

if TYPE_CHECKING:
    from rules.dice import Modifier


FORCED_MUD = "Mud (forced by Rain*)"
NOT_ROLLED = "not rolled"


def weather_now(weather: str | None, before: str | None) -> str:
    """This turn's weather as the overview and the status line say it: as rolled, Mud forced
    by the turn before's Rain* (known before it is taken), or not rolled."""
    if weather:
        return weather
    if before is not None:  # the rule set's weather module only when Mud may be forced
        from rules.allemagne1813.weather import mud_is_forced

        if mud_is_forced(before):
            return FORCED_MUD
    return NOT_ROLLED


@dataclass(frozen=True)
class Glance:
    view: Overview
    phase: Phase
    outstanding: tuple[str, ...]  # what the current phase still needs, in words
    month_modifier: Modifier
    next_weather: str  # as the overview says it: rolled, forced, to be rolled, or none
    weather_now: str = NOT_ROLLED  # this turn's: rolled, Mud forced by the Rain* before (not taken yet), or not rolled


def outstanding(current: Phase, view: Overview) -> tuple[str, ...]:
    """What `current` still needs before play moves on, in words."""
    missing = []
    for need in current.needs:
        if need == "weather_set" and not view.weather:
            missing.append("roll (or take the forced) weather for this turn")
        elif need == "command_points_rolled":
            waiting = [a.name for a in view.armies if a.commander_id is not None and a.points_rolled is None]
            if waiting:
                missing.append("roll command points for " + ", ".join(waiting))
        elif need == "no_pending_battle":
            pending = view.pending_battles_this_turn
            if pending:
                missing.append(f"finish {pending} pending battle{'s' if pending > 1 else ''}")
    return tuple(missing)


def glance(session: CampaignSession) -> Glance:
    # The rule set's weather tables are imported here, not with this module: the
    # overview (the app's first screen) imports `outstanding` and draws its first
    # frame without them, then calls this in a worker.
    from rules.allemagne1813.weather import month_modifier, mud_is_forced

    with plainly():
        view = session.overview()
    current = phase(view.phase)
    if not view.next_turn:
        following = "none: last turn"
    elif view.next_weather:
        following = view.next_weather
    else:
        following = FORCED_MUD if mud_is_forced(view.weather) else "to be rolled"
    # Before it is taken, this turn's Mud is known all the same: the turn before was Rain*.
    now = weather_now(view.weather, view.weather_before)
    return Glance(view, current, outstanding(current, view), month_modifier(view.date.month), following, now)
