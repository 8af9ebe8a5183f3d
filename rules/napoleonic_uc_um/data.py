"""The card's numbers and factor rules (rules.toml) and terms (terms.toml), checked
on load against the tables, so that a factor named in one file exists in the other."""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, Literal

from pydantic import ValidationError

from rules.errors import RulesError
from rules.loader import DataFileError, get_table
from rules.schema import Frozen, refusal

RULESET = "napoleonic_uc_um"
HERE = Path(__file__).parent
PATH = HERE / "rules.toml"
TERMS = HERE / "terms.toml"

ARMS = ("infantry", "cavalry", "artillery")
# The three modifier tables and the section of rules.toml describing their factors.
Check = Literal["fire", "melee", "morale"]
FACTOR_TABLES: dict[Check, str] = {"fire": "fire_modifiers", "melee": "melee_modifiers", "morale": "morale_modifiers"}


@dataclass(frozen=True)
class Factor:
    """One factor of a modifier table: its card words, English label, value and limits."""

    id: str
    check: Check
    printed: str  # the factor as printed, French
    english: str
    value: int
    derived: str | None = None  # worked out by the procedure, never ticked
    arms: tuple[str, ...] = ()
    kinds: tuple[str, ...] = ()
    weapons: tuple[str, ...] = ()
    implies: tuple[str, ...] = ()
    excludes: tuple[str, ...] = ()
    rounds: tuple[int, ...] = ()
    front_only: bool = False
    per: str | None = None
    max: int = 1

    @property
    def label(self) -> str:
        """French as printed, English beside it."""
        return f"{self.printed} ({self.english})"


class _Section(Frozen):
    printed: str | tuple[str, ...] = ()  # the card's words
    notes: tuple[str, ...] = ()  # the readings taken where the card is unclear


class DiceSpec(_Section):
    sides: int


class ToHit(_Section):
    always_hits: int


class MoraleTest(_Section):
    always_passes: int
    always_fails: int
    steps: tuple[str, ...]  # the steps of the sequence that call for a test


class Effectiveness(_Section):
    reduced: int


class Weapons(_Section):
    artillery: tuple[str, ...]
    artillery_cell: str  # how the artillery rows print their effectiveness


class Distances(_Section):
    """In cm."""

    charge_reach: int
    advance_after_melee: int
    priority_close: int
    priority_artillery_general: int
    melee_later_rounds: int


class LossTest(_Section):
    numerator: int
    denominator: int


class ChargeSteps(_Section):
    """The steps of the sequence of play a charge runs through."""

    not_cumulative: tuple[str, ...]
    foot_charging_cavalry: str
    charged: str
    chargers: str
    melee: str
    after_melee: str
    pursuit: str
    new_contact: str


class Words(_Section):
    """The card's French words for results, as the log shows them."""

    hit: str
    hits: str
    save: str
    saves: str
    loss: str
    losses: str
    passed: str
    failed: str
    rout: str
    fall_back: str
    fight_on: str


class Card(Frozen):
    """rules.toml as typed frozen objects, with the factors of the three modifier tables."""

    source: str
    dice: DiceSpec
    to_hit: ToHit
    morale_test: MoraleTest
    effectiveness: Effectiveness
    weapons: Weapons
    distances: Distances
    loss_test: LossTest
    charge: ChargeSteps
    words: Words
    # the factor descriptions as written (checked against their tables into `factors`)
    fire: Mapping[str, Mapping[str, Any]]
    melee: Mapping[str, Mapping[str, Any]]
    morale: Mapping[str, Mapping[str, Any]]
    factors: Mapping[str, Mapping[str, Factor]] = {}  # check -> id -> factor


def cell_value(text: str) -> int:
    """A printed modifier as a number: '- 2' is -2, '+ 1' is 1, '- 1/flanc' is -1."""
    m = re.match(r"^([+-]?\d+)", "".join(text.split()))
    if not m:
        raise DataFileError(f"{PATH}: {text!r} is not a printed modifier")
    return int(m[1])


def _factor(check: Check, factor_id: str, raw: dict) -> Factor:
    table = get_table(RULESET, FACTOR_TABLES[check])
    band = table.rows.bands[table.rows.index_of(factor_id)]
    return Factor(
        id=factor_id,
        check=check,
        printed=table.lookup(modifier=factor_id, part="factor").text,
        english=band.label,
        value=cell_value(table.lookup(modifier=factor_id, part="value").text),
        derived=raw.get("derived"),
        arms=tuple(raw.get("arms", ())),
        kinds=tuple(raw.get("kinds", ())),
        weapons=tuple(raw.get("weapons", ())),
        implies=tuple(raw.get("implies", ())),
        excludes=tuple(raw.get("excludes", ())),
        rounds=tuple(raw.get("rounds", ())),
        front_only=bool(raw.get("front_only", False)),
        per=raw.get("per"),
        max=int(raw.get("max", 1)),
    )


@cache
def card() -> Card:
    """rules.toml, read once: an unknown or missing key is one sentence."""
    try:
        raw = tomllib.loads(PATH.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise DataFileError(f"{PATH}: cannot be read as TOML ({exc})") from None
    try:
        read = Card.model_validate(raw)
    except ValidationError as exc:
        raise DataFileError(refusal(PATH, exc, Card)) from None
    factors: dict[str, dict[str, Factor]] = {}
    for check, table_id in FACTOR_TABLES.items():
        described = raw.get(check, {})
        table_ids = [v for b in get_table(RULESET, table_id).rows.bands for v in b.names]
        if sorted(described) != sorted(table_ids):
            missing = set(table_ids) ^ set(described)
            raise DataFileError(
                f"{PATH}: [{check}] must describe exactly the factors of table {table_id}; "
                f"check {', '.join(sorted(map(str, missing)))}"
            )
        try:
            factors[check] = {str(f): _factor(check, str(f), described[f]) for f in table_ids}
        except RulesError as exc:
            raise DataFileError(f"{PATH}: [{check}] {exc}") from None
        for factor in factors[check].values():
            for other in factor.implies + factor.excludes:
                if other not in factors[check]:
                    raise DataFileError(f"{PATH}: {check}.{factor.id} names unknown factor {other}")
    return read.model_copy(update={"factors": factors})


def factors(check: str) -> list[Factor]:
    """The card's factors for fire, melee or morale in the card's order, for a screen to
    list; those with `derived` set are worked out by the procedure, not ticked."""
    if check not in FACTOR_TABLES:
        raise RulesError(f"{check!r} has no factors; the card's are fire, melee and morale")
    return list(card().factors[check].values())


@cache
def terms() -> dict[str, str]:
    try:
        return dict(tomllib.loads(TERMS.read_text(encoding="utf-8"))["terms"])
    except (OSError, KeyError, tomllib.TOMLDecodeError) as exc:
        raise DataFileError(f"{TERMS}: missing or malformed [terms] ({exc})") from None


@cache
def choice_labels(attribute: str) -> tuple[tuple[str, str], ...]:
    """(choice, as the card prints it) for a UC's attribute: terms.toml [choices.<attribute>]."""
    try:
        raw = tomllib.loads(TERMS.read_text(encoding="utf-8")).get("choices", {}).get(attribute, {})
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise DataFileError(f"{TERMS}: malformed [choices.{attribute}] ({exc})") from None
    return tuple((str(k), str(v)) for k, v in raw.items())


def english(term: str) -> str:
    """The English label of one of the card's French terms (UC, aguerri, rupture...)."""
    known = terms()
    if term not in known:
        raise RulesError(f"the card has no term {term!r} in terms.toml")
    return known[term]


def label(table_id: str, axis: str, value: int | str) -> str:
    """The printed label (French with its English) of an axis value: label('to_hit',
    'experience', 'aguerri') is 'Aguerri (seasoned)'."""
    table = get_table(RULESET, table_id)
    for ax in table.axes:
        if ax.name == axis:
            return ax.bands[ax.index_of(value)].label
    raise RulesError(f"table {table_id} has no axis {axis!r}")


def check_value(table_id: str, axis: str, value: object, what: str) -> None:
    """One clear sentence when a value is not one the card prints on that axis."""
    table = get_table(RULESET, table_id)
    ax = next(a for a in table.axes if a.name == axis)
    if not any(b.holds(value) for b in ax.bands):  # type: ignore[arg-type]  # a value of any type: one the card does not print is refused here
        known = ", ".join(str(v) for b in ax.bands for v in b.names)
        raise RulesError(f"{what} {value!r} is not on the card; it is one of {known}")


def needed(table_id: str, axis: str, value: str, what: str) -> int:
    """The number needed printed in a one-column table ('4 +' is 4)."""
    check_value(table_id, axis, value, what)
    text = get_table(RULESET, table_id).lookup(**{axis: value}).text
    return int(re.match(r"\d+", text)[0])  # type: ignore[index]  # these tables print a number needed in every cell
