"""The one dice service every rule set rolls through.

A dice expression names what is rolled:

- ``1d6``, ``2d6``, ``1d10``, ``3d12``: the dice are added up;
- ``3d10kh1`` / ``3d10kl1``: keep the highest (lowest) dice and add those up, as
  the class dice of some rules do;
- ``4d12>=9``: a pool, one die per stand or figure; the result is the number of
  dice showing at least the target after the modifiers.

Every roll is seeded from the campaign's seed and the roll's index in the campaign,
so the same seed always gives the same dice and any stored roll can be replayed on
its own.  Players may instead roll real dice and type them in; those are checked
against the dice (a d6 takes 1-6 only) and recorded as entered.
"""

from __future__ import annotations

import functools
import hashlib
import random
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Final, Literal, Protocol, cast

from rules.errors import RulesError
from rules.numbers import is_whole

# ASCII digits only, and few of them: "\d" would also take "٣", and a billion-sided die
# would make the odds run for minutes.
_EXPR = re.compile(r"^([0-9]{0,4})d([0-9]{1,7})(?:(kh|kl)([0-9]{1,4})|>=([0-9]{1,7}))?$")
MAX_SIDES = 1000  # the largest die any card rolls is a d12; a d1000 is far past that

DiceMode = Literal["rolled", "entered"]
ROLLED: Final = "rolled"
ENTERED: Final = "entered"


def dice_mode(value: str) -> DiceMode:
    """A dice mode read from a file: one of the two, or a DiceError that names it."""
    if value in (ROLLED, ENTERED):
        return cast(DiceMode, value)
    raise DiceError(f"the dice mode is {ROLLED!r} or {ENTERED!r}, not {value!r}")


class DiceError(RulesError):
    pass


_Keep = Literal["kh", "kl"] | None  # built once: a cast's type is evaluated at each call


@dataclass(frozen=True)
class Dice:
    """A parsed dice expression."""

    count: int
    sides: int
    keep: Literal["kh", "kl"] | None = None  # keep highest, keep lowest
    keep_count: int = 0
    target: int | None = None  # set for a pool: count dice at least this

    @classmethod
    def parse(cls, expression: str) -> "Dice":
        # A battle parses the same few expressions at every step (a seeded simulation of
        # 20,000 battles spent a sixth of its time here): the value is frozen, so one per
        # text. Only short texts are kept: a hostile file's long one is parsed, not stored.
        if cls is Dice and len(expression) <= 32:
            return _parsed(expression)
        return cls._parse(expression)

    @classmethod
    def _parse(cls, expression: str) -> "Dice":
        m = _EXPR.match(expression.replace(" ", "").lower())
        if not m:
            raise DiceError(f"{expression!r} is not a dice expression such as 1d6, 2d6 or 4d12>=9")
        count = int(m[1]) if m[1] else 1
        sides = int(m[2])
        if not 1 <= count <= 200 or not 2 <= sides <= MAX_SIDES:
            raise DiceError(f"{expression!r}: between 1 and 200 dice of 2 to {MAX_SIDES} sides")
        keep_count = int(m[4]) if m[4] else 0
        if m[3] and not 1 <= keep_count <= count:
            raise DiceError(f"{expression!r}: cannot keep {keep_count} of {count} dice")
        keep = cast(_Keep, m[3])  # the pattern matches only these two, or nothing
        return cls(count, sides, keep, keep_count, int(m[5]) if m[5] else None)

    def __str__(self) -> str:
        text = f"{self.count}d{self.sides}"
        if self.keep:
            text += f"{self.keep}{self.keep_count}"
        if self.target is not None:
            text += f">={self.target}"
        return text

    def check_entered(self, values: Sequence[int]) -> None:
        if len(values) != self.count:
            raise DiceError(f"{self} needs {self.count} {'die' if self.count == 1 else 'dice'} typed in, not {len(values)}")
        for value in values:
            if not isinstance(value, int) or isinstance(value, bool):
                raise DiceError(f"a d{self.sides} shows a whole number, not {value!r}")
            if not 1 <= value <= self.sides:
                raise DiceError(f"a d{self.sides} shows 1 to {self.sides}, not {value}")

    def read(self, raw: Sequence[int], modifier: int) -> int:
        """The result of these dice with this total modifier."""
        if self.target is not None:
            return sum(1 for v in raw if v + modifier >= self.target)
        kept = sorted(raw, reverse=self.keep == "kh")[: self.keep_count] if self.keep else raw
        return sum(kept) + modifier


@functools.lru_cache(maxsize=1024)
def _parsed(expression: str) -> Dice:
    return Dice._parse(expression)


def stored_dice(expression: str) -> Dice:
    """The dice of a stored roll: one expression exactly as the dice service writes it
    (`str(Dice)`: 1d6, 8d6, 3d10kh1, 4d12>=9), or DiceError.

    `Dice.parse` also reads what a person types ("2D6", "d6", "1 d 6"); no stored roll
    holds that, so a file that does was edited, and every reader of stored rolls (the luck,
    `dice verify`, `check`, `import`) refuses it alike. A resolution that rolls several
    expressions stores each as a roll of its own: "1d6 + 2d6" (`combined`) is never stored."""
    if not isinstance(expression, str):
        raise DiceError(f"{expression!r} is not a dice expression")
    spec = Dice.parse(expression)
    if str(spec) != expression:
        raise DiceError(f"{expression!r} is not a dice expression as a roll stores it (such as {spec})")
    return spec


@dataclass(frozen=True)
class Modifier:
    """A named modifier to a roll, as the card names it."""

    label: str
    value: int


@dataclass(frozen=True)
class DiceRecord:
    """What was rolled, why, by whom, the raw dice, the modifiers and the result."""

    purpose: str
    dice: str
    raw: tuple[int, ...]
    modifiers: tuple[Modifier, ...]
    result: int
    mode: DiceMode
    index: int | None  # position in the campaign's dice stream; None when entered
    by: str = "umpire"
    # a resolution that rolls several dice expressions (each side's dice): (id, record) of
    # each, as the dice service stored them; `raw` is then their dice one after the other
    parts: tuple[tuple[str, DiceRecord], ...] = ()

    @property
    def modifier_total(self) -> int:
        return sum(m.value for m in self.modifiers)

    def of(self, part: str) -> tuple[int, ...]:
        """The dice of the expression named `part` (the attacker's...); () when it rolled none."""
        if not self.parts:
            raise DiceError(f"this roll has one dice expression, not one named {part!r}")
        return next((record.raw for name, record in self.parts if name == part), ())


def combined(purpose: str, parts: Sequence[tuple[str, DiceRecord]]) -> DiceRecord:
    """One record of the several named expressions of one resolution, as its procedure reads
    them (`DiceRecord.of`); each part keeps its own record in the campaign's dice records."""
    records = [record for _name, record in parts]
    return DiceRecord(
        purpose=purpose,
        dice=" + ".join(r.dice for r in records),
        raw=tuple(v for r in records for v in r.raw),
        modifiers=(),
        result=sum(r.result for r in records),
        mode=ENTERED if any(r.mode == ENTERED for r in records) else ROLLED,
        index=records[0].index if records else None,
        by=records[0].by if records else "umpire",
        parts=tuple(parts),
    )


def seeded_dice(seed: int, index: int, dice: Dice) -> tuple[int, ...]:
    """The dice of roll number `index` of a campaign with this seed."""
    digest = hashlib.sha256(f"adjutant:{seed}:{index}".encode()).digest()
    rng = random.Random(int.from_bytes(digest, "big"))
    return tuple(rng.randint(1, dice.sides) for _ in range(dice.count))


class Roller(Protocol):
    """What rolls dice for a procedure: the campaign's DiceService, or a resolver's
    stand-in that hands back the dice already rolled (napoleonic_uc_um's Given)."""

    def roll(self, dice: str, purpose: str, modifiers: Sequence[Modifier] = (), *,
             entered: Sequence[int] | None = None, by: str = "umpire") -> DiceRecord: ...


@dataclass
class DiceService:
    """Rolls dice for one campaign and hands every record to `recorder`.

    `mode` is the campaign's dice mode: in ENTERED mode every roll needs the
    values the players rolled on the table.
    """

    seed: int
    mode: DiceMode = ROLLED
    next_index: int = 0
    recorder: Callable[[DiceRecord], None] | None = None
    history: list[DiceRecord] = field(default_factory=list)

    def roll(
        self,
        dice: str | Dice,
        purpose: str,
        modifiers: Sequence[Modifier] = (),
        *,
        entered: Sequence[int] | None = None,
        by: str = "umpire",
    ) -> DiceRecord:
        spec = Dice.parse(dice) if isinstance(dice, str) else dice
        modifier = sum(m.value for m in modifiers)
        mode: DiceMode
        if entered is not None:
            values = tuple(entered)
            spec.check_entered(values)
            mode, index = ENTERED, None
        elif self.mode == ENTERED:
            raise DiceError(f"this campaign's dice are rolled on the table: type in the {spec} for {purpose}")
        else:
            index = self.next_index
            values = seeded_dice(self.seed, index, spec)
            self.next_index += 1
            mode = ROLLED
        record = DiceRecord(
            purpose=purpose,
            dice=str(spec),
            raw=values,
            modifiers=tuple(modifiers),
            result=spec.read(values, modifier),
            mode=mode,
            index=index,
            by=by,
        )
        self.history.append(record)
        if self.recorder is not None:
            self.recorder(record)
        return record


def verify(seed: int, records: Sequence[DiceRecord]) -> list[DiceRecord]:
    """The rolled records whose dice or result do not match a replay from `seed`."""
    bad = []
    for record in records:
        if record.mode != ROLLED or record.index is None:
            continue
        spec = stored_dice(record.dice)
        replay = seeded_dice(seed, record.index, spec)
        if replay != record.raw or spec.read(replay, record.modifier_total) != record.result:
            bad.append(record)
    return bad


# Digits of a typed die read as a number: a d1000 shows 4, and "99999" is still read, so that
# the die's own sentence refuses it ("a d6 shows 1 to 6, not 99999"); longer is refused here.
ENTERED_DIGITS = 12


def parse_entered(text: str) -> list[int]:
    """Dice typed by a person: "4", "3 5" or "3,5"; `Dice.check_entered` then checks them
    against the dice. Each refusal names what is wrong with the entry that is wrong."""
    parts = [p for p in re.split(r"[\s,]+", text.strip()) if p]
    if not parts:
        raise DiceError("type the dice rolled, for example 4 or 3 5")
    for part in parts:
        if not is_whole(part, len(part)):  # ASCII digits and a minus only: not "٣", "²", "1_0", "+3"
            raise DiceError(f"type each die in digits, such as 4 or 3 5, not {part[:40]!r}")
    for part in parts:
        digits = len(part.lstrip("-"))
        if digits > ENTERED_DIGITS:
            raise DiceError(f"no die shows a number of {digits} digits")
    return [int(p) for p in parts]
