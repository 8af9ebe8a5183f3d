"""Reconnaissance as an action of its own: cavalry against a screen, on its table."""

from __future__ import annotations

from fractions import Fraction

from campaigns.errors import CampaignError, plainly
from campaigns.session import CampaignSession
from campaigns.words import column
from models import Unit
from rules.allemagne1813.reconnaissance import ReconnaissanceStep, reconnaissance_step, resolve_reconnaissance


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
    with plainly(), session.store.action(f"Reconnaissance by {names}") as _db:
        result = resolve_reconnaissance(step, session.store.dice(), entered, session.options())
    assert result.record is not None
    mods = "".join(f" {m.value:+d}" for m in step.modifiers)
    return (
        f"Reconnaissance by {names}: column {column(step.column)}, 1d6 = {result.record.raw[0]}{mods} = "
        f"{result.record.result} -> {result.cell} (result {result.result}; see 6.3)"
    )
