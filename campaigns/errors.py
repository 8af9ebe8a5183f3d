"""The campaign flow's one error: a sentence for the umpire, whatever layer it came from."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from models.errors import ConcurrentEditError, StoreError
from rules.errors import RulesError


# Errors a person can cause, stored or of the rules: the UI tells each in one sentence.
STATED_ERRORS = (StoreError, RulesError)


class CampaignError(Exception):
    """A wrong value, a rule the action breaks, or a file that cannot be used."""


class OtherUmpireError(CampaignError):
    """Another umpire committed since this one last looked: nothing was written."""


@contextmanager
def plainly() -> Iterator[None]:
    """Let storage and rules errors reach the umpire as a CampaignError sentence."""
    try:
        yield
    except ConcurrentEditError as exc:
        raise OtherUmpireError(str(exc)) from None
    except (StoreError, RulesError) as exc:
        raise CampaignError(str(exc)) from None
