"""The campaign flow's one error: a sentence for the umpire, whatever layer it came from."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from models.errors import StoreError
from rules.errors import RulesError


class CampaignError(Exception):
    """A wrong value, a rule the action breaks, or a file that cannot be used."""


@contextmanager
def plainly() -> Iterator[None]:
    """Let storage and rules errors reach the umpire as a CampaignError sentence."""
    try:
        yield
    except (StoreError, RulesError) as exc:
        raise CampaignError(str(exc)) from None
