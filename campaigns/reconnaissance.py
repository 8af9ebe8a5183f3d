"""Reconnaissance as an action of its own: cavalry against a screen, on its table."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from sqlalchemy import String, bindparam, text

from campaigns.errors import CampaignError, plainly
from campaigns.knowledge import sight_reconnaissance
from campaigns.session import CampaignSession
from campaigns.words import column
from rules.allemagne1813.reconnaissance import (
    ReconnaissanceStep,
    check_reconnoitring_arms,
    reconnaissance_step,
    resolve_reconnaissance,
)


@dataclass(frozen=True)
class _Unit:
    id: str
    name: str
    kind: str
    strength_points: int
    cohesion: int
    location: str


UNITS = text("SELECT id, name, kind, strength_points, cohesion, location FROM unit WHERE id IN :ids").bindparams(
    bindparam("ids", expanding=True, type_=String)
)
CHUNK = 5000  # ids a query: under every database's limit of parameters


def _units(session: CampaignSession, ids: list[str]) -> list[_Unit]:
    # A stack of a thousand units is marked at once: read in one query, not a unit at a time.
    found: dict[str, _Unit] = {}
    with plainly(), session.store.connect() as db:
        for start in range(0, len(ids), CHUNK):
            found.update((row[0], _Unit(*row)) for row in db.execute(UNITS, {"ids": ids[start : start + CHUNK]}))
    if any(i not in found for i in ids):
        raise CampaignError("one of the chosen units no longer exists")
    return [found[i] for i in ids]


def _average_cohesion(units: list[_Unit]) -> Fraction:
    real = [u for u in units if u.kind != "dummy"]
    return Fraction(sum(u.cohesion for u in real), len(real)) if real else Fraction(0)


def plan(session: CampaignSession, reconnoitring: list[str], screening: list[str]) -> ReconnaissanceStep:
    """The roll to come: the cavalry SP differential's column, the cohesion modifier, the odds."""
    if not reconnoitring:
        raise CampaignError("choose the units making the reconnaissance")
    ours, theirs = _units(session, reconnoitring), _units(session, screening)
    if not any(u.kind != "dummy" for u in ours):
        raise CampaignError("a dummy alone cannot reconnoitre: choose at least one real unit")
    if not any(u.kind != "dummy" for u in theirs):
        # The card subtracts the screen's average cohesion; with no screen it gives no reading.
        raise CampaignError("choose the screening units (at least one real unit): the card reads against a screen")
    cavalry = lambda units: sum(u.strength_points for u in units if u.kind == "cavalry")  # noqa: E731
    with plainly():
        check_reconnoitring_arms([u.kind for u in ours if u.kind != "dummy"], session.options())
        return reconnaissance_step(
            cavalry(ours), cavalry(theirs), _average_cohesion(ours), _average_cohesion(theirs), session.options()
        )


def reconnoitre(
    session: CampaignSession,
    reconnoitring: list[str],
    screening: list[str],
    entered: list[int] | None = None,
    *,
    in_reach: bool = False,
) -> str:
    """Roll the reconnaissance; the roll is stored with the action that names both sides.

    With `in_reach` (the screen's way), the reconnoitring units must be one stack and the
    screen within its reach (check_reach)."""
    if in_reach:
        check_reach(session, reconnoitring, screening)
    step = plan(session, reconnoitring, screening)
    names = ", ".join(u.name for u in _units(session, reconnoitring))
    if step.column is None:
        return f"Reconnaissance by {names}: no cavalry advantage, nothing to roll (no result)"
    with plainly(), session.store.action(f"Reconnaissance by {names}") as db:
        result = resolve_reconnaissance(step, session.store.dice(), entered, session.options())
        # what the result reveals is the reconnoitring side's sighting, undone with the roll
        sight_reconnaissance(db, session.options(), reconnoitring, screening, result.result)
    assert result.record is not None
    mods = "".join(f" {m.value:+d}" for m in step.modifiers)
    return (
        f"Reconnaissance by {names}: column {column(step.column)}, 1d6 = {result.record.raw[0]}{mods} = "
        f"{result.record.result} -> {result.cell} (result {result.result}; see 6.3)"
    )


# -- from a stack on the map against an enemy stack in reach -------------------------


def reach_from(session: CampaignSession, place: str) -> set[str]:
    """The places a reconnaissance from `place` reaches, by the rules option reconnaissance_reach."""
    from campaigns.gazetteer import gazetteer

    reach = {place}
    if session.options()["reconnaissance_reach"] == "one_road" and place in gazetteer().places:
        reach |= gazetteer().neighbours(place)
    return reach


def _reach_words(session: CampaignSession) -> str:
    same = session.options()["reconnaissance_reach"] == "same_place"
    return "at the same place" if same else "at the same place or one road away"


def enemies_in_reach(session: CampaignSession, stack_text: str) -> list:
    """The enemy stacks a stack can reconnoitre, by the rules option reconnaissance_reach."""
    from campaigns.stacks import all_stacks, stack_of

    stack = stack_of(session, stack_text)
    reach = reach_from(session, stack.place)
    return [s for s in all_stacks(session) if s.side != stack.side and s.place in reach]


def from_one_place(session: CampaignSession, reconnoitring: list[str]) -> str | None:
    """The place the marked units reconnoitre from (None when none is marked); a reconnaissance
    is made from one stack, so units at several places get one sentence."""
    places = sorted({(u.location or "").strip() for u in _units(session, reconnoitring)})
    if not places:
        return None
    if len(places) > 1 or not places[0]:
        where = " and ".join(p or "no place" for p in places)
        raise CampaignError(f"a reconnaissance is made from one stack: the units marked stand at {where}")
    return places[0]


def check_reach(session: CampaignSession, reconnoitring: list[str], screening: list[str]) -> None:
    """One sentence unless the reconnoitring units are one stack and the screen is in its reach."""
    place = from_one_place(session, reconnoitring)
    if place is None:
        return
    reach = reach_from(session, place)
    far = next((u for u in _units(session, screening) if u.location not in reach), None)
    if far is not None:
        raise CampaignError(
            f"{far.name} at {far.location or 'no place'} is out of reach of a reconnaissance from {place}: "
            f"it reaches an enemy {_reach_words(session)} (option reconnaissance_reach)"
        )


def reconnoitre_stack(
    session: CampaignSession, stack_text: str, enemy_text: str, entered: list[int] | None = None
) -> str:
    """Reconnaissance by every unit of a stack against an enemy stack in reach (one sentence if not)."""
    from campaigns.stacks import stack_of

    stack, enemy = stack_of(session, stack_text), stack_of(session, enemy_text)
    if enemy.side == stack.side:
        raise CampaignError(f"{enemy.label} is on the same side as {stack.label}")
    if enemy.key not in {s.key for s in enemies_in_reach(session, stack_text)}:
        raise CampaignError(f"{enemy.label} is out of reach of {stack.label}: reconnaissance reaches an enemy {_reach_words(session)}")
    return reconnoitre(session, [u.id for u in stack.units], [u.id for u in enemy.units], entered)
