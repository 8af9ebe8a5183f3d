"""Reconnaissance as an action of its own: cavalry against a screen, on its table."""

from __future__ import annotations

from fractions import Fraction

from campaigns.errors import CampaignError, plainly
from campaigns.knowledge import sight_reconnaissance
from campaigns.session import CampaignSession
from campaigns.words import column
from models import Unit
from rules.allemagne1813.reconnaissance import (
    ReconnaissanceStep,
    check_reconnoitring_arms,
    reconnaissance_step,
    resolve_reconnaissance,
)


def _units(session: CampaignSession, ids: list[str]) -> list[Unit]:
    with plainly(), session.store.read() as db:
        units = [db.get(Unit, i) for i in ids]
    if any(u is None for u in units):
        raise CampaignError("one of the chosen units no longer exists")
    return [u for u in units if u is not None]


def _average_cohesion(units: list[Unit]) -> Fraction:
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
    session: CampaignSession, reconnoitring: list[str], screening: list[str], entered: list[int] | None = None
) -> str:
    """Roll the reconnaissance; the roll is stored with the action that names both sides."""
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


def enemies_in_reach(session: CampaignSession, stack_text: str) -> list:
    """The enemy stacks a stack can reconnoitre, by the rules option reconnaissance_reach."""
    from campaigns.gazetteer import gazetteer
    from campaigns.stacks import all_stacks, stack_of

    stack = stack_of(session, stack_text)
    reach = {stack.place}
    if session.options()["reconnaissance_reach"] == "one_road" and stack.place in gazetteer().places:
        reach |= gazetteer().neighbours(stack.place)
    return [s for s in all_stacks(session) if s.side != stack.side and s.place in reach]


def reconnoitre_stack(
    session: CampaignSession, stack_text: str, enemy_text: str, entered: list[int] | None = None
) -> str:
    """Reconnaissance by every unit of a stack against an enemy stack in reach (one sentence if not)."""
    from campaigns.stacks import stack_of

    stack, enemy = stack_of(session, stack_text), stack_of(session, enemy_text)
    if enemy.side == stack.side:
        raise CampaignError(f"{enemy.label} is on the same side as {stack.label}")
    if enemy.key not in {s.key for s in enemies_in_reach(session, stack_text)}:
        reach = "at the same place" if session.options()["reconnaissance_reach"] == "same_place" else "at the same place or one road away"
        raise CampaignError(f"{enemy.label} is out of reach of {stack.label}: reconnaissance reaches an enemy {reach}")
    return reconnoitre(session, [u.id for u in stack.units], [u.id for u in enemy.units], entered)
