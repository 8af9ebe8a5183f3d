"""The weather track: every turn's weather, rolling this turn's, and what it does."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from sqlalchemy import Date, select, text

from campaigns.errors import CampaignError, plainly
from campaigns.session import CampaignSession
from rules.allemagne1813.weather import MUD, month_modifier, mud_is_forced, roll_weather, weather_name
from rules.dice import Modifier

UNIT_TYPES = ("general", "cavalry", "infantry", "artillery")


@dataclass(frozen=True)
class TurnWeather:
    number: int
    date: date
    weather: str | None  # as printed: Clear, Rain, Rain*, Snow, Mud; None still to come
    source: str | None  # rolled, forced, set
    current: bool


# The track and this turn are read as plain rows, not as the SQLModel classes: the
# weather screen is often the first to ask for them, and building the classes' ORM
# machinery and an object a turn (300 on a long calendar) took more than drawing it.
CURRENT = text("SELECT turn FROM campaign WHERE id = 1")
TRACK = text("SELECT number, date, weather, weather_source FROM turn ORDER BY number").columns(date=Date)
TURNS = text(
    "SELECT number, date, weather, weather_source FROM turn WHERE number BETWEEN :turn - 1 AND :turn"
).columns(date=Date)


def track(session: CampaignSession) -> list[TurnWeather]:
    with plainly(), session.store.connect() as db:
        current = db.execute(CURRENT).scalar_one()
        return [
            TurnWeather(number, day, weather, source, number == current)
            for number, day, weather, source in db.execute(TRACK)
        ]


@dataclass(frozen=True)
class WeatherNow:
    turn: int
    date: date
    weather: str | None
    source: str | None
    forced_mud: bool  # the turn before was Rain*: this turn is Mud without a roll
    month_modifier: Modifier
    next_forced_mud: bool


def now(session: CampaignSession) -> WeatherNow:
    with plainly(), session.store.connect() as db:
        current = db.execute(CURRENT).scalar_one()
        turns = {row.number: row for row in db.execute(TURNS, {"turn": current})}
    turn, before = turns[current], turns.get(current - 1)
    previous = before.weather if before else None
    return WeatherNow(
        turn=turn.number,
        date=turn.date,
        weather=turn.weather,
        source=turn.weather_source,
        forced_mud=mud_is_forced(previous),
        month_modifier=month_modifier(turn.date.month),
        next_forced_mud=mud_is_forced(turn.weather),
    )


def roll(session: CampaignSession, entered: list[int] | None = None) -> str:
    """Set this turn's weather: Mud when forced by Rain*, else 1d6 + the month's modifier."""
    state = now(session)
    if state.weather:
        raise CampaignError(f"turn {state.turn} already has its weather ({state.weather}); undo to roll again")
    description = f"Weather for turn {state.turn}"
    # The SQLModel classes (models.tables, 0.1-0.3 s to build) only for the roll: showing the
    # track and this turn reads plain rows, and the weather screen is often the first to ask.
    from sqlmodel import col

    from models import DiceRoll, Turn

    with plainly(), session.store.action(description) as db:
        turn = db.get_one(Turn, state.turn)
        before = db.get(Turn, state.turn - 1)
        result = roll_weather(
            session.store.dice(), turn.date.month, before.weather if before else None, entered=entered
        )
        turn.weather = result.printed
        turn.weather_source = "forced" if result.forced else "rolled"
        if result.record is not None:
            db.flush()
            turn.dice_roll = db.scalars(
                select(col(DiceRoll.id)).where(col(DiceRoll.event) == session.store.current_event).order_by(col(DiceRoll.id).desc())
            ).first()
    if result.forced:
        return f"Turn {state.turn}: {MUD}, forced by the Rain* of the turn before (no roll)"
    record = result.record
    assert record is not None
    mods = "".join(f" {m.value:+d} ({m.label})" for m in record.modifiers)
    return f"Turn {state.turn}: {result.printed} (1d6 = {record.raw[0]}{mods} = {record.result})"


def effects(weather: str | None, options: dict[str, str] | None = None) -> list[str]:
    """What the weather does to movement, combat and pursuit, in the card's words."""
    if not weather:
        return ["The weather of this turn is not known yet."]
    # The rules of movement and combat only once there is a weather to tell of.
    from rules.allemagne1813.combat import artillery_modifiers, battle_rounds, pursuit_modifiers
    from rules.allemagne1813.movement import movement_points

    name = weather_name(weather)
    lines = []
    mp = [movement_points(u, name, options=options) for u in UNIT_TYPES]
    lines.append("Movement: " + ", ".join(f"{m.unit} {m.total} MP ({m.weather:+d})" if m.weather else f"{m.unit} {m.total} MP" for m in mp))
    rounds = battle_rounds(name, options)
    art = artillery_modifiers(name)
    lines.append(
        f"Combat: {rounds} round{'s' if rounds != 1 else ''} a battle"
        + (f"; artillery {art[0].value:+d} to the dice" if art else "")
    )
    pursuit = pursuit_modifiers(name)
    if pursuit is None:
        lines.append("Pursuit: none in Mud")
    else:
        lines.append("Pursuit: " + (f"{pursuit[0].value:+d} to the dice" if pursuit else "no modifier"))
    if weather.endswith("*"):
        lines.append("Rain*: the next turn is Mud, without a roll.")
    return lines
