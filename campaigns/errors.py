"""The campaign flow's one error: a sentence for the umpire, whatever layer it came from."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace

from models.errors import ConcurrentEditError, StoreError
from rules.errors import RulesError
from rules.numbers import Span


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


def typed_number(raw: object, span: Span, noun: str | None = None) -> int:
    """A number typed in a form, spaces around it dropped, as its kind of number (rules.numbers):
    otherwise CampaignError in the kind's one sentence, `noun` naming it ("figures (size)").
    ASCII digits only ("²" is a digit to str.isdigit, and int() refuses it), and never a number
    beyond the kind's range, so none reaches a store that would refuse it (PostgreSQL's INTEGER)."""
    try:
        return (span if noun is None else replace(span, noun=noun)).read(str(raw).strip())
    except RulesError as error:
        raise CampaignError(str(error)) from None
