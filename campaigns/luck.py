"""The luck ledger: every die of the campaign against its exact odds.

Each stored roll gets its mid-rank percentile in the exact distribution of its
dice and modifiers (rules.luck), and, where the campaign knows what the roll
decided, the actual and the expected value of that in the units that matter:

- weather: the infantry's MP in the weather rolled (nobody's luck: it falls on both sides);
- command points: the army's PC (the army's side; high is good);
- forced march: the SP the unit lost (the unit's side; low is good);
- battle combat and artillery rolls, pursuit: SP inflicted by the side that rolls
  and lost by the other (both sides, mirrored);
- a rolled morale test: tests passed (the testing side; low is good);
- reconnaissance: the table's result 0-4 (the reconnoitring side; high is good);
- a resolution on the tabletop (resolver screen): the roll's own result (hits of a
  pool, or the modified roll) against its mean, for the side of the unit that acted;
  high is good unless the card asks for a number or less;
- anything else: the roll's own result against its mean, nobody's luck.

Losses are the numbers the tables read, before they are capped at the SP a side
had left, so that a side wiped out is not counted as lucky for it.  A roll that
the umpire reads off the table counts 0 in the expectation, as the odds shown
before the roll do.  Undone actions' rolls are left out.
"""

from __future__ import annotations

import bisect
import functools
import heapq
import json
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, NamedTuple, cast

from sqlalchemy import String, and_, func, or_, select, text
from sqlalchemy import cast as sql_cast

from campaigns.errors import plainly
from campaigns.session import CampaignSession
from campaigns.words import column as quoted, plural
from models import tally
# Table clauses, not the SQLModel classes: the ledger reads plain rows, and the Plots and Luck
# screens' first visits do without the ORM, whose import is the slowest part of one (150-250 ms).
from models.record_columns import ARMY, BATTLE as BATTLES, COMMAND_POINT_ROLL, DICE_ROLL, EVENT, NATION, SIDE, TURN, UNIT
from models.record_columns import MARCH_ROLLS, RECONNAISSANCE_ROLLS, STRENGTH_CHANGES, TURN_ENDS
from rules.dice import stored_dice
from rules.errors import RulesError
from rules.luck import Counted, RunLuck, expectation, mid_rank, run_luck
from rules.odds import roll_distribution

SP_LOST, SP_INFLICTED, PC, MP, MORALE_PASSED, RECON, POINTS = (
    "SP lost", "SP inflicted", "PC", "MP", "morale tests passed", "reconnaissance result", "points",
)
UNITS = (SP_LOST, SP_INFLICTED, PC, MP, MORALE_PASSED, RECON, POINTS)
WEATHER, COMMAND, MARCH, BATTLE, PURSUIT, MORALE, RECONNAISSANCE, TACTICAL, OTHER = (
    "weather", "command points", "forced march", "battle", "pursuit", "morale", "reconnaissance", "tabletop", "other",
)
BOTH = ""  # the key of what falls on neither side alone (the weather, the tabletop's rolls)


@dataclass(frozen=True)
class Effect:
    """What a roll decided for one side, in one unit: the actual and the expected value."""

    side: str  # a side id, or BOTH
    unit: str
    actual: Fraction
    expected: Fraction

    @property
    def difference(self) -> Fraction:
        return self.actual - self.expected


@dataclass(frozen=True)
class RollLuck:
    roll_id: int
    event: int | None
    turn: int | None
    kind: str
    purpose: str
    dice: str
    raw: tuple[int, ...]
    modifier: int
    result: int
    mode: str
    distribution: dict[int, Fraction]
    percentile: Fraction  # mid-rank of the result in `distribution`
    favours: tuple[tuple[str, int], ...]  # (side, +1 high is good / -1 low is good)
    decided: str  # what the roll did, in words
    effects: tuple[Effect, ...]

    @property
    def expected_roll(self) -> Fraction:
        return expectation(self.distribution)


@dataclass(frozen=True)
class Luck:
    """One side's (or one side's turn's) run of rolls."""

    side: str
    turn: int | None  # None: the whole campaign
    sums: dict[str, Fraction]  # unit -> sum of (actual - expected)
    run: RunLuck


@dataclass(frozen=True)
class Plain:
    """`count` rolls that decided nothing the campaign knows of (kind OTHER, nobody's
    luck), all of the same dice, modifier and result, in the same turn: counted in
    the database rather than read one by one."""

    turn: int | None
    dice: str
    modifier: int
    result: int
    count: int
    distribution: dict[int, Fraction]


@dataclass
class Ledger:
    rolls: list[RollLuck]  # every roll counted, or the latest of them (see `counted`)
    sides: dict[str, str]  # id -> name, in the campaign's order
    totals: dict[str, Luck] = field(default_factory=dict)  # side -> its whole run
    by_turn: list[Luck] = field(default_factory=list)  # (side, turn), turn order
    counted: int = 0  # how many rolls the totals count (`rolls` may list only the latest)

    def side_name(self, side: str) -> str:
        return self.sides.get(side, "both sides") if side else "both sides"


class Superseded(Exception):
    """The ledger was no longer wanted (`stop()` said so): nothing to show."""


def ledger(session: CampaignSession, side: str | None = None, latest: int | None = None,
           stop: Callable[[], bool] | None = None) -> Ledger:
    """The ledger of the whole campaign; with `side`, only the rolls that count for it.

    `latest`: list only that many of the latest rolls one by one (the totals still
    count every roll); None lists every roll.  The rolls that decided something the
    campaign knows (weather, command points, battles, marches, reconnaissance) are
    read one by one; the others, which count for nobody, are counted in the
    database by turn, dice, modifiers and result.  `stop`: asked between steps (a
    screen's worker superseded by a newer one), raises Superseded when it says so."""

    def check() -> None:
        if stop is not None and stop():
            raise Superseded()

    with plainly(), session.store.connect() as db:
        sides = _sides(db)
        if side is not None and side not in sides:
            raise_unknown_side(side, sides)
        turn_ends = turn_end_events(db)
        special_ids = _special_ids(db)
        rows = _special_rows(db, special_ids)
        reader = _Reader(session, db, rows, turn_ends)
        check()
        read = [reader.read(row) for row in rows]
        check()
        plain = _plain_counts(session, db, turn_ends, check, rows) if side is None else []  # they count for no side
        listed = read
        if side is None:  # the others count for nobody: no side lists them
            # Plain rows, not ORM objects: a thousand rolls listed cost what their reading does.
            # Only the columns read, each row a named tuple (a database row's attributes are
            # looked up by name each time: a third of reading a roll).
            others = [reader.other(row) for row in _latest_others(db, special_ids, _undone_events(db), latest)]
            check()
            listed = sorted([*read, *others], key=lambda r: r.roll_id)
    out = Ledger([], sides)
    for key in ([side] if side is not None else [*sides, BOTH]):
        mine = [r for r in read if counts_for(r, key)]
        extra = plain if key == BOTH else []
        if key == BOTH and not mine and not extra:
            continue
        out.totals[key] = luck_of(key, None, mine, extra)
        by_turn: dict[int, tuple[list[RollLuck], list[Plain]]] = {}
        for r in mine:
            if r.turn is not None:
                by_turn.setdefault(r.turn, ([], []))[0].append(r)
        for g in extra:
            if g.turn is not None:
                by_turn.setdefault(g.turn, ([], []))[1].append(g)
        for t in sorted(by_turn):
            check()
            out.by_turn.append(luck_of(key, t, *by_turn[t]))
    out.by_turn.sort(key=lambda luck: (luck.turn or 0, list(out.totals).index(luck.side)))
    listed = [r for r in listed if side is None or counts_for(r, side)]
    out.rolls = listed if latest is None else listed[max(0, len(listed) - latest):]
    out.counted = (len(read) + sum(g.count for g in plain)) if side is None else len([r for r in read if counts_for(r, side)])
    return out


def _special() -> Any:
    """The rolls that may have decided something the campaign knows of (a superset:
    whatever proves not to is read as OTHER all the same)."""
    return or_(
        DICE_ROLL.c.id.in_(select(TURN.c.dice_roll).where(TURN.c.dice_roll.is_not(None))),
        DICE_ROLL.c.id.in_(select(COMMAND_POINT_ROLL.c.dice_roll).where(COMMAND_POINT_ROLL.c.dice_roll.is_not(None))),
        DICE_ROLL.c.battle.is_not(None),
        DICE_ROLL.c.purpose.like("forced march of %"),
        DICE_ROLL.c.purpose.like("reconnaissance, column %"),
    )


def _special_ids(db: Any) -> set[Any]:
    """The ids of the rolls `_special` finds, undone or not: each kind found through its own index
    (the purposes through migration 0010's partial ones)."""
    numbers: set[Any] = set()
    for query in (
        select(TURN.c.dice_roll).where(TURN.c.dice_roll.is_not(None)),
        select(COMMAND_POINT_ROLL.c.dice_roll).where(COMMAND_POINT_ROLL.c.dice_roll.is_not(None)),
        select(DICE_ROLL.c.id).where(DICE_ROLL.c.battle.is_not(None)),
        select(DICE_ROLL.c.id).where(text(MARCH_ROLLS)),
        select(DICE_ROLL.c.id).where(text(RECONNAISSANCE_ROLLS)),
    ):
        numbers.update(db.scalars(query))
    return numbers


def _undone_events(connection: Any) -> set[Any]:
    """The ids of the undone events (few, and indexed)."""
    return set(connection.scalars(select(EVENT.c.id).where(EVENT.c.undone == True)))  # noqa: E712


def _latest_others(db: Any, special: set[Any], undone: set[Any], latest: int | None) -> Iterator[_RollRow]:
    """The rolls `_kept(select(...).where(~_special()))` finds, the latest first, `latest` of them (all
    if None): the rolls read by id from the latest back, a page at a time, those in `special` (ids)
    or of an `undone` event skipped. A plain query of the table, not one of every condition."""
    if latest == 0:
        return
    table = DICE_ROLL
    query = select(*(table.c[name] for name in _RollRow._fields)).order_by(table.c.id.desc())
    found, below = 0, None
    while True:
        page = [_RollRow(*row) for row in db.execute(
            (query if below is None else query.where(table.c.id < below)).limit(None if latest is None else max(latest - found, 64))
        )]
        for row in page:
            if row.id not in special and (row.event is None or row.event not in undone):
                yield row
                found += 1
                if found == latest:
                    return
        if latest is None or not page:
            return
        below = page[-1].id


def _special_rows(db: Any, numbers: set[Any] | None = None) -> list[_RollRow]:
    """The rolls `_special` finds (their ids `numbers`, found if not given), not undone, oldest
    first, read a batch at a time."""
    if numbers is None:
        numbers = _special_ids(db)
    ordered = sorted(numbers)
    out: list[_RollRow] = []
    for start in range(0, len(ordered), 500):
        batch = ordered[start:start + 500]
        out.extend(_RollRow(*row) for row in db.execute(_kept(_rolls().where(DICE_ROLL.c.id.in_(batch))).order_by(DICE_ROLL.c.id)))
    return out


def _kept(query: Any) -> Any:
    """`query` without the rolls of undone actions."""
    # The undone events are few and indexed: cheaper than looking up every roll's event.
    undone = select(EVENT.c.id).where(EVENT.c.undone == True)  # noqa: E712
    return query.where(or_(DICE_ROLL.c.event.is_(None), DICE_ROLL.c.event.not_in(undone)))


def turn_end_events(db: Any) -> list[int]:
    """The ids of the events that ended a turn (not undone), oldest first, through their index."""
    return [number for number, undone in db.execute(indexed(TURN_ENDS, EVENT.c.undone)) if not undone]


def indexed(where: str, *columns: Any) -> Any:
    """The id and `columns` of the events that meet `where`, a partial index's own condition
    (models.tables), oldest first. Nothing else is asked of the database: SQLite would rather
    read every event through another index (`undone = 0`) than this one."""
    return select(EVENT.c.id, *columns).where(text(where)).order_by(EVENT.c.id)


def _plain_counts(
    session: CampaignSession, db: Any, turn_ends: list[int], check: Callable[[], None], special: list[_RollRow],
) -> list[Plain]:
    """The rolls that count for nobody, counted by turn, dice, modifiers and result: from the
    dice tally (models.tally) where it is in step, else from the rolls themselves.

    What the tally says is read once per version of the campaign (CampaignSession.kept),
    whether it is in step asked every time: the plots and the luck screen each draw a
    ledger, and on 1M events reading the tally is most of one (35-40 ms of 50)."""
    found = None
    if tally.usable(db) and tally.in_step(db):
        found = session.kept("luck.tallied", lambda: _tallied(db, turn_ends, check, special))
    if found is None:
        found = _counted(db, turn_ends, check)
    distributions: dict[tuple[str, int], dict[int, Fraction]] = {}
    out = []
    for (turn, dice, modifier, result), count in found.items():
        if (dice, modifier) not in distributions:
            distributions[(dice, modifier)] = _distribution(dice, modifier)
        out.append(Plain(turn, dice, modifier, result, count, distributions[(dice, modifier)]))
    return out


_Group = tuple[int | None, str, int, int]  # turn, dice, modifier, result


def _tallied(connection: Any, turn_ends: list[int], check: Callable[[], None], special: list[_RollRow]) -> dict[_Group, int] | None:
    """The plain rolls counted from the tally: every block of events within one turn as the tally
    counts it, a block a turn ends in read from its rolls; then the rolls of undone actions and
    the special ones (`special`, read one by one) taken away. None where the tally cannot say
    (a roll's modifiers that do not add up, a tally a hand has written in): the rolls are
    counted then. The tally is usable and in step (_plain_counts asks). Shared: not to be changed."""

    def turn_of(event: int | None) -> int | None:
        return None if event is None else 1 + bisect.bisect_left(turn_ends, event)

    found: dict[_Group, int] = {}

    def count(event: int | None, dice: str, modifier: int, result: int, n: int) -> None:
        key = (turn_of(event), dice, modifier, result)
        found[key] = found.get(key, 0) + n

    size = tally.BLOCK
    # A block a turn ends in (before the block's last event) is read from its rolls. Any other
    # block is within one turn: 1 + the turns that end in blocks before it. The blocks of each
    # turn are summed in the database, a few rows a turn rather than a few a block.
    apart = {end // size for end in turn_ends if end % size != size - 1} - set(tally.SPECIAL)
    ends = [end // size for end in turn_ends]
    turns: list[tuple[int, int, int]] = []  # turn, lowest block, highest block
    first, turn = tally.LOWEST, 1
    for last in sorted(set(ends)):
        turns.append((turn, first, last))
        first, turn = last + 1, 1 + bisect.bisect_right(ends, last)
    turns.append((turn, first, tally.HIGHEST))
    by_turn = tally.summed(connection, turns, apart)
    if by_turn is None:
        return None  # a roll whose modifiers do not add up, or a tally a hand has written in
    for turn, dice, modifier, result, n in by_turn:
        key = (turn, dice, modifier, result)
        found[key] = found.get(key, 0) + n
    ranges: list[tuple[int | None, int | None]] = []  # events whose rolls are read one group at a time
    for block, dice, modifier, result, n in tally.read_blocks(connection, [*tally.SPECIAL, *sorted(apart)]):
        if (block == tally.UNREADABLE or type(dice) is not str or type(block) is not int or type(modifier) is not int
                or type(result) is not int or type(n) is not int):
            return None  # as above
        if block == tally.NO_EVENT:
            count(None, dice, modifier, result, n)
        elif block == tally.NEGATIVE:
            ranges.append((None, -1))
        else:
            ranges.append((block * size, block * size + size - 1))
    check()
    stored = sql_cast(DICE_ROLL.c.modifiers, String)
    grouped = select(DICE_ROLL.c.event, DICE_ROLL.c.dice, stored, DICE_ROLL.c.result, func.count()).group_by(
        DICE_ROLL.c.event, DICE_ROLL.c.dice, stored, DICE_ROLL.c.result
    )
    undone = select(EVENT.c.id).where(EVENT.c.undone == True)  # noqa: E712
    # The rolls of undone actions taken away, if any action is undone.
    reads = [(grouped.where(DICE_ROLL.c.event.in_(undone)), -1)] if _undone_events(connection) else []
    for low, high in dict.fromkeys(ranges):
        where = DICE_ROLL.c.event <= high if low is None else DICE_ROLL.c.event.between(low, high)
        reads.append((grouped.where(where), 1))
    for query, sign in reads:
        for event, dice, text_, result, n in connection.execute(query):
            summed = tally.modifier_sum(text_)
            if summed is None or (event is not None and type(event) is not int):
                return None
            count(event, dice, summed, result, sign * n)
    for row in special:
        count(row.event, row.dice, sum(int(m["value"]) for m in row.modifiers), row.result, -1)
    if any(n < 0 for n in found.values()):
        return None  # the tally and the rolls disagree: the rolls are counted
    return {key: n for key, n in found.items() if n}


def _counted(db: Any, turn_ends: list[int], check: Callable[[], None]) -> dict[_Group, int]:
    """The rolls that count for nobody, counted by turn, dice, modifiers and result: one
    query a turn, each reading its own range of the dice by their event."""
    modifiers = sql_cast(DICE_ROLL.c.modifiers, String)
    base = _kept(
        select(DICE_ROLL.c.dice, modifiers, DICE_ROLL.c.result, func.count())
        .where(~_special())
        .group_by(DICE_ROLL.c.dice, modifiers, DICE_ROLL.c.result)
    )
    # turn n: the events after the end of turn n - 1, up to its own end (as _Reader.turn_of)
    bounds: list[tuple[int | None, Any]] = [(None, DICE_ROLL.c.event.is_(None))]
    lows: list[int | None] = [None, *turn_ends]
    highs: list[int | None] = [*turn_ends, None]
    for number, (low, high) in enumerate(zip(lows, highs), start=1):
        where: list[Any] = [DICE_ROLL.c.event > low if low is not None else DICE_ROLL.c.event.is_not(None)]
        if high is not None:
            where.append(DICE_ROLL.c.event <= high)
        bounds.append((number, and_(*where)))
    found: dict[_Group, int] = {}
    for turn, where in bounds:
        check()
        for dice, stored, result, count in db.execute(base.where(where)):
            modifier = sum(int(m["value"]) for m in json.loads(stored)) if stored else 0
            key = (turn, dice, modifier, result)
            found[key] = found.get(key, 0) + count
    return found


def raise_unknown_side(side: str, sides: dict[str, str]) -> None:
    from campaigns.errors import CampaignError

    raise CampaignError(f"there is no side {side!r}; the sides are {', '.join(sides)}")


def counts_for(roll: RollLuck, side: str) -> bool:
    if side == BOTH:
        return not roll.favours
    return any(s == side for s, _ in roll.favours) or any(e.side == side for e in roll.effects)


def luck_of(side: str, turn: int | None, rolls: list[RollLuck], plain: Sequence[Plain] = ()) -> Luck:
    """The luck of `side` over these rolls (BOTH: the rolls that fall on nobody, with
    the `plain` ones counted in the database)."""
    sums: dict[str, Fraction] = {}
    for roll in rolls:
        for effect in roll.effects:
            if effect.side == side:
                sums[effect.unit] = sums.get(effect.unit, Fraction(0)) + effect.difference
    counted = [Counted(r.distribution, r.result, f) for r in rolls for s, f in r.favours if s == side] if side else [
        Counted(r.distribution, r.result) for r in rolls
    ]
    if not side:
        means: dict[tuple[str, int], Fraction] = {}
        for g in plain:
            mean = means.get((g.dice, g.modifier))
            if mean is None:
                mean = means[(g.dice, g.modifier)] = expectation(g.distribution)
            sums[POINTS] = sums.get(POINTS, Fraction(0)) + g.count * (g.result - mean)
            counted.append(Counted(g.distribution, g.result, 1, g.count))
    run = run_luck(counted)
    return Luck(side, turn, dict(sorted(sums.items(), key=lambda kv: UNITS.index(kv[0]))), run)


# -- reading each roll ---------------------------------------------------------


class _RollRow(NamedTuple):
    """What _Reader reads of a stored roll, as a plain row (named as the table's columns)."""

    id: int
    event: int | None
    purpose: str
    dice: str
    raw: list[int]
    modifiers: list[dict[str, Any]]
    result: int
    mode: str
    battle: int | None


def _rolls() -> Any:
    """A query of the rolls' columns that a _RollRow holds."""
    return select(*(DICE_ROLL.c[name] for name in _RollRow._fields))


def _sides(db: Any) -> dict[str, str]:
    """Each side's id and name, in the campaign's order."""
    return {i: name for i, name in db.execute(select(SIDE.c.id, SIDE.c.name).order_by(SIDE.c.position, SIDE.c.id))}


class _UnitRow(NamedTuple):
    id: str
    name: str
    nation: str
    strength_points: int


@functools.lru_cache(maxsize=512)
def _distribution(dice: str, modifier: int) -> dict[int, Fraction]:
    """A roll's exact distribution, computed once for each dice and modifier (not to be changed).

    The dice are read as a roll stores them, as `check` reads them: "2D6" or "abc" was typed
    into the file, which `check` calls damaged, and so does the luck."""
    try:
        return roll_distribution(stored_dice(dice), modifier)
    except RulesError as error:
        raise RulesError(f"the campaign is damaged: a roll's dice cannot be weighed ({error}); "
                         "`adjutant check` names the row") from None


@functools.lru_cache(maxsize=512)
def _mean(dice: str, modifier: int) -> Fraction:
    return expectation(_distribution(dice, modifier))


@functools.lru_cache(maxsize=4096)
def _percentile(dice: str, modifier: int, result: int) -> Fraction:
    return mid_rank(_distribution(dice, modifier), result)


class _Reader:
    """Finds out what each stored roll decided, from the rows that kept its result."""

    def __init__(self, session: CampaignSession, db: Any, rows: list[_RollRow], turn_ends: list[int]) -> None:
        self.session = session
        self.db = db
        self.turn_ends = turn_ends
        self.options = session.options()
        # Plain rows of the columns read (named as the classes' attributes), not ORM objects: the
        # luck screen's first visit reads them.
        plain = db
        self.weather = {t.dice_roll: t for t in plain.execute(
            select(TURN.c.dice_roll, TURN.c.number, TURN.c.date, TURN.c.weather).where(TURN.c.dice_roll.is_not(None))
        )}
        self.command = {r.dice_roll: r for r in plain.execute(
            select(COMMAND_POINT_ROLL.c.dice_roll, COMMAND_POINT_ROLL.c.army, COMMAND_POINT_ROLL.c.turn, COMMAND_POINT_ROLL.c.points)
            .where(COMMAND_POINT_ROLL.c.dice_roll.is_not(None))
        )}
        self.armies = {a.id: a for a in plain.execute(select(ARMY.c.id, ARMY.c.side, ARMY.c.name))}
        # Only a march or a reconnaissance asks which unit rolled: its units are read as plain rows then.
        wanted = any(r.purpose.startswith(("forced march of ", "reconnaissance, column ")) for r in rows)
        self.units = [_UnitRow(*u) for u in db.execute(
            select(UNIT.c.id, UNIT.c.name, UNIT.c.nation, UNIT.c.strength_points)
        )] if wanted else []
        nations = {n: side for n, side in db.execute(select(NATION.c.id, NATION.c.side))} if wanted else {}
        self.unit_side = {u.id: nations.get(u.nation, BOTH) for u in self.units}
        self.battles = _battle_rolls(session, db, rows)
        self.marching = _marching_sp(db, rows, self.units)
        recon = {r.event for r in rows if r.event and r.purpose.startswith("reconnaissance, column ")}
        self.events = {n: words for n, words in db.execute(select(EVENT.c.id, EVENT.c.description).where(EVENT.c.id.in_(recon)))} if recon else {}
        # What a roll of nobody's decided, by dice, modifier and result (and the result's type: 4 == 4.0)
        self._others: dict[tuple[str, int, Any, type], tuple[dict[int, Fraction], str, tuple[Effect, ...]]] = {}

    def turn_of(self, event: int | None) -> int | None:
        if event is None:
            return None
        return 1 + bisect.bisect_left(self.turn_ends, event)

    def read(self, row: _RollRow) -> RollLuck:
        modifier = sum(int(m["value"]) for m in row.modifiers)
        distribution = _distribution(row.dice, modifier)
        base: dict[str, Any] = dict(  # RollLuck's fields shared by every kind of roll
            roll_id=row.id, event=row.event, turn=self.turn_of(row.event), purpose=row.purpose, dice=row.dice,
            raw=tuple(row.raw), modifier=modifier, result=row.result, mode=row.mode,
            distribution=distribution, percentile=_percentile(row.dice, modifier, row.result),
        )
        for reading in (self._weather, self._command, self._battle, self._march, self._recon):
            found = reading(row, distribution)
            if found is not None:
                return RollLuck(**{**base, **found})
        mean = _mean(row.dice, modifier)
        unit = "hits" if ">=" in row.dice else POINTS
        return RollLuck(
            **base, kind=OTHER, favours=(), decided=f"{row.result} {unit}",
            effects=(Effect(BOTH, POINTS, Fraction(row.result), mean),),
        )

    def other(self, row: _RollRow) -> RollLuck:
        """`read(row)` of a roll that `_special` does not find, which decided nothing the campaign
        knows of: the same roll, worked out in the same order (a damaged value fails as it would
        there), what it decided made once for each dice, modifier and result. The ledger lists
        a thousand of them."""
        modifier = sum(int(m["value"]) for m in row.modifiers)
        _distribution(row.dice, modifier)
        turn, raw, percentile = self.turn_of(row.event), tuple(row.raw), _percentile(row.dice, modifier, row.result)
        if (row.id in self.weather or row.id in self.command or row.id in self.battles or row.id in self.marching
                or row.purpose.startswith("reconnaissance, column ")):
            return self.read(row)  # not so: read as any roll is
        key = (row.dice, modifier, row.result, type(row.result))
        odds = self._others.get(key)
        if odds is None:
            unit = "hits" if ">=" in row.dice else POINTS
            odds = self._others[key] = (
                _distribution(row.dice, modifier), f"{row.result} {unit}",
                (Effect(BOTH, POINTS, Fraction(row.result), _mean(row.dice, modifier)),),
            )
        return RollLuck(
            roll_id=row.id, event=row.event, turn=turn, purpose=row.purpose, dice=row.dice, raw=raw, modifier=modifier,
            result=row.result, mode=row.mode, distribution=odds[0], percentile=percentile, kind=OTHER, favours=(),
            decided=odds[1], effects=odds[2],
        )

    def _weather(self, row: _RollRow, distribution: dict[int, Fraction]) -> dict | None:
        turn = self.weather.get(row.id)
        if turn is None:
            return None
        from rules.allemagne1813.movement import movement_points
        from rules.allemagne1813.weather import weather_name
        from rules.loader import get_table

        table = get_table("allemagne1813", "weather")

        def mp(printed: str) -> int:
            return movement_points("infantry", weather_name(printed), options=self.options).total

        expected = sum((p * mp(table.lookup(roll=r, month=turn.date.month).text) for r, p in distribution.items()), Fraction(0))
        return dict(
            kind=WEATHER, turn=turn.number, favours=(), decided=f"{turn.weather}: infantry {mp(turn.weather or '')} MP",
            effects=(Effect(BOTH, MP, Fraction(mp(turn.weather or "")), expected),),
        )

    def _command(self, row: _RollRow, distribution: dict[int, Fraction]) -> dict | None:
        cp = self.command.get(row.id)
        if cp is None:
            return None
        army = self.armies.get(cp.army)
        side = army.side if army else BOTH
        return dict(
            kind=COMMAND, turn=cp.turn, favours=((side, 1),), decided=f"{army.name if army else cp.army}: {cp.points} PC",
            effects=(Effect(side, PC, Fraction(cp.points), expectation(distribution)),),
        )

    def _battle(self, row: _RollRow, _distribution: dict[int, Fraction]) -> dict | None:
        return self.battles.get(row.id)

    def _march(self, row: _RollRow, _distribution: dict[int, Fraction]) -> dict | None:
        found = self.marching.get(row.id)
        if found is None:
            return None
        unit, sp = found
        from rules.allemagne1813.forced_march import forced_march_loss, forced_march_odds

        odds = forced_march_odds(max(sp, 1), sum(int(m["value"]) for m in row.modifiers), self.options)
        lost = forced_march_loss(row.result, max(sp, 1), self.options)
        side = self.unit_side.get(unit.id, BOTH)
        return dict(
            kind=MARCH, favours=((side, -1),), decided=f"{unit.name} ({sp} SP) lost {lost} SP",
            effects=(Effect(side, SP_LOST, Fraction(lost), expectation(odds)),),
        )

    def _recon(self, row: _RollRow, _distribution: dict[int, Fraction]) -> dict | None:
        if not row.purpose.startswith("reconnaissance, column "):
            return None
        from rules.allemagne1813.rolls import cell_odds, column_index, read_cell, read_result
        from rules.errors import RulesError

        column = row.purpose.removeprefix("reconnaissance, column ")
        modifier = sum(int(m["value"]) for m in row.modifiers)
        try:
            index = column_index("reconnaissance", column)
            odds = cell_odds("reconnaissance", index, modifier, self.options)
            _, cell = read_cell("reconnaissance", index, row.result, self.options)
        except (RulesError, ValueError):  # read by the umpire, or a column the table no longer has
            return None
        actual = read_result("reconnaissance", cell.text)[0]
        expected = sum((read_result("reconnaissance", text)[0] * p for text, p in odds.items()), Fraction(0))
        side = self._side_named(self.events.get(row.event or -1, "").removeprefix("Reconnaissance by "))
        return dict(
            kind=RECONNAISSANCE, favours=((side, 1),) if side else (), decided=f"column {quoted(column)}: result {actual}",
            effects=(Effect(side, RECON, Fraction(actual), expected),),
        )

    def _side_named(self, names: str) -> str:
        for unit in self.units:
            if unit.name and names.startswith(unit.name):
                return self.unit_side.get(unit.id, BOTH)
        return BOTH


def _battle_rolls(session: CampaignSession, db: Any, rows: list[_RollRow]) -> dict[int, dict]:
    """Each roll of a battle fought with the campaign's tables (or its pursuit), paired
    with the step the battle's journal replays for it."""
    from campaigns.battles import ATTACKER, DEFENDER, TABLES, load

    # Each roll names its battle (dice_roll.battle): a side's file or role, which reads no history, pairs them too.
    by_battle: dict[int, list[_RollRow]] = {}
    for row in sorted(rows, key=lambda r: r.id):
        if row.battle is not None:
            by_battle.setdefault(row.battle, []).append(row)
    out: dict[int, dict] = {}
    for battle in db.execute(select(BATTLES.c.id, BATTLES.c.turn, BATTLES.c.detail).order_by(BATTLES.c.id)):
        fight = load(session, battle.id)
        mine = by_battle.get(cast(int, battle.id), [])
        sides = {role: fight.setup.get("sides", {}).get(role, {}).get("side", BOTH) for role in (ATTACKER, DEFENDER)}
        enemy = {ATTACKER: DEFENDER, DEFENDER: ATTACKER}
        steps = list(_table_steps(fight)) if fight.resolver == TABLES and fight.battle else []
        pursuit = _pursuit_of(fight)
        table_rows = [r for r in mine if r.purpose.startswith("battle round ")]
        for row, (step, cell, passed) in zip(table_rows, steps):
            if tuple(row.raw) != step[1]:
                break  # the journal and the stored dice disagree: read no further
            out[row.id] = _step_reading(step[0], cell, passed, sides, enemy, battle.turn)
        for row in (r for r in mine if r.purpose.startswith("pursuit, column ")):
            if pursuit is not None:
                out[row.id] = _pursuit_reading(pursuit, row, fight, sides, enemy, battle.turn, session.options())
        tactical = (battle.detail or {}).get("tactical")
        if tactical:
            # a resolution that rolls several named expressions (each side's dice) stored a roll for each
            resolved = [(e, part) for e in tactical.get("log", []) if e.get("raw") for part in (e.get("rolls") or [None])]
            rolled = [r for r in mine if not r.purpose.startswith(("battle round ", "pursuit, column "))]
            for row, (entry, part) in zip(rolled, resolved):
                if list(row.raw) != list((part or entry)["raw"]):
                    break  # the log and the stored dice disagree: read no further
                out[row.id] = _tactical_reading(row, entry, tactical.get("units", []), sides, battle.turn, part)
    return out


def _tactical_reading(row: _RollRow, entry: dict, units: list[dict], sides: dict, turn: int,
                      part: dict | None = None) -> dict:
    """A tabletop resolution: the actor's side rolls (or, for each side's dice named in a
    resolution that rolls several, that side); what it decided is the roll's own result
    (hits of a pool, or the modified roll) against its mean, high good unless the card
    asks for a number or less."""
    roles = {u.get("id"): u.get("side") for u in units}
    role = (part or {}).get("side") or roles.get(entry.get("actor"))
    side = sides.get(role, BOTH)
    needed = str(entry.get("needed") or "")
    favour = -1 if ("or less" in needed or needed.rstrip().endswith("-")) else 1
    distribution = _distribution(row.dice, sum(int(m["value"]) for m in row.modifiers))
    return dict(
        kind=TACTICAL, turn=turn, favours=((side, favour),) if side else (),
        decided=f"{entry.get('action', '?')} by {entry.get('actor', '?')}, needs {needed}: {entry.get('text', '')}",
        effects=(Effect(side, POINTS, Fraction(row.result), expectation(distribution)),),
    )


def _table_steps(fight: Any) -> Iterator[tuple[tuple[Any, tuple[int, ...]], str | None, bool | None]]:
    """The battle's rolled steps, once each (a roll the umpire read appears twice)."""
    results = [r for r in fight.battle.results if r.record is not None]
    for i, result in enumerate(results):
        later = results[i + 1] if i + 1 < len(results) else None
        if result.cell is None and result.step.table and later is not None and later.record is result.record:
            continue
        yield (result.step, tuple(result.record.raw)), result.cell, result.passed


def _step_reading(step: Any, cell: str | None, passed: bool | None, sides: dict, enemy: dict, turn: int) -> dict:
    from rules.allemagne1813.battle import PASS
    from rules.allemagne1813.rolls import read_result

    roller = sides[step.side]
    if step.table is None:  # a rolled morale test: passed when the roll is at most the cohesion
        chance = step.odds.get(PASS, Fraction(0))
        return dict(
            kind=MORALE, turn=turn, favours=((roller, -1),),
            decided=f"{step.side} morale test {'passed' if passed else 'failed'}",
            effects=(Effect(roller, MORALE_PASSED, Fraction(1 if passed else 0), chance),),
        )
    target = sides[enemy[step.side]]
    lost = read_result(step.table, cell or "-")[0]
    expected = expectation(step.loss_odds)
    return dict(
        kind=BATTLE, turn=turn, favours=((roller, 1), (target, -1)),
        decided=f"round {step.round_number} {step.side} {step.kind} on {step.column}: {cell} ({lost} SP)",
        effects=(Effect(roller, SP_INFLICTED, Fraction(lost), expected), Effect(target, SP_LOST, Fraction(lost), expected)),
    )


def _pursuit_of(fight: Any) -> Any:
    """The pursuit step the winner rolled on, rebuilt from the set-up."""
    from rules.allemagne1813.pursuit import pursuit_step

    if not fight.pursued:
        return None
    if fight.battle is not None and fight.battle.pursuit_result is not None:
        return fight.battle.pursuit_result.step
    if fight.tabletop is None:
        return None
    winner = fight.tabletop["winner"]
    return pursuit_step(fight.setup["sides"][winner]["cavalry_bonus"], fight.setup["weather"], fight.setup["options"])


def _pursuit_reading(step: Any, row: _RollRow, fight: Any, sides: dict, enemy: dict, turn: int, options: dict) -> dict:
    from rules.allemagne1813.rolls import column_index, read_cell, read_result
    from rules.errors import RulesError

    winner = fight.battle.outcome.winner if fight.battle is not None and fight.battle.outcome else fight.tabletop["winner"]
    try:
        _, cell = read_cell("pursuit", column_index("pursuit", step.column), row.result, options)
        lost = read_result("pursuit", cell.text)[0]
    except RulesError:
        lost = 0
    expected = expectation(step.loss_odds)
    pursuer, pursued = sides[winner], sides[enemy[winner]]
    return dict(
        kind=PURSUIT, turn=turn, favours=((pursuer, 1), (pursued, -1)),
        decided=f"pursuit by the {winner} on CB {step.column}: {lost} SP",
        effects=(Effect(pursuer, SP_INFLICTED, Fraction(lost), expected), Effect(pursued, SP_LOST, Fraction(lost), expected)),
    )


def _marching_sp(db: Any, rows: list[_RollRow], units: list[_UnitRow]) -> dict[int, tuple[_UnitRow, int]]:
    """Each forced-march roll's unit and the SP it had when it marched.

    The SP are found by walking the history back from today's SP: a unit's SP
    before an event is what that event's change says it was, or, when the
    march cost nothing, what it was after (the value carried back so far)."""
    marches = [r for r in rows if r.purpose.startswith("forced march of ") and r.event is not None]
    if not marches:
        return {}
    by_name: dict[str, list[_UnitRow]] = {}
    for unit in units:
        by_name.setdefault(unit.name, []).append(unit)
    sp = {u.id: u.strength_points for u in units}
    wanted: dict[int, list[_RollRow]] = {}
    for row in marches:
        wanted.setdefault(row.event, []).append(row)  # type: ignore[arg-type]  # event is not None: filtered in `marches`
    first = min(wanted)
    out: dict[int, tuple[_UnitRow, int]] = {}
    # Only the marches and the events that changed a unit's SP matter: each found through its index.
    numbers = sorted({
        *(n for n, undone in db.execute(indexed(STRENGTH_CHANGES, EVENT.c.undone)) if n >= first and not undone),
        *(n for n, undone in db.execute(select(EVENT.c.id, EVENT.c.undone).where(EVENT.c.id.in_(list(wanted))))
          if not undone),
    }, reverse=True)
    for event in events_in_order(db, numbers):
        changed = {c["key"].get("id"): c for c in event.changes if c.get("table") == "unit"}
        for row in wanted.get(cast(int, event.id), []):
            name = row.purpose.removeprefix("forced march of ")
            candidates = by_name.get(name, [])
            marched = next((u for u in candidates if u.id in changed), candidates[0] if candidates else None)
            if marched is None:
                continue
            before = (changed.get(marched.id) or {}).get("before") or {}
            out[row.id] = (marched, int(before.get("strength_points", sp[marched.id])))
        for unit_id, change in changed.items():
            before = change.get("before") or {}
            if unit_id in sp and "strength_points" in before:
                sp[unit_id] = int(before["strength_points"])
    return out


def events_in_order(db: Any, numbers: list[int]) -> Iterator[Any]:
    """These events (their id and changes, as plain rows), in this order, read a batch at a time."""
    for start in range(0, len(numbers), 500):
        batch = numbers[start:start + 500]
        read = {e.id: e for e in db.execute(select(EVENT.c.id, EVENT.c.changes).where(EVENT.c.id.in_(batch)))}
        yield from (read[n] for n in batch if n in read)


def as_json(book: Ledger) -> dict[str, Any]:
    """The ledger as plain data: fractions as floats, with the exact fraction beside them."""

    def number(x: Fraction | float) -> float:
        return round(float(x), 6)

    def run(r: RunLuck) -> dict[str, Any]:
        return {"rolls": r.rolls, "mean_percentile": number(r.mean), "p_value": number(r.p_value),
                "method": r.method, "verdict": r.verdict}

    def luck(item: Luck) -> dict[str, Any]:
        return {"side": item.side or None, "turn": item.turn,
                "sums": {unit: number(v) for unit, v in item.sums.items()}, **run(item.run)}

    return {
        "sides": book.sides,
        "rolls": [roll_data(r) for r in book.rolls],
        "totals": [luck(item) for item in book.totals.values()],
        "by_turn": [luck(item) for item in book.by_turn],
    }


def lines(book: Ledger) -> Iterable[str]:
    """The ledger as text: each side's sums and luck, turn by turn, then every roll."""
    for side, item in book.totals.items():
        yield f"{book.side_name(side)}: {luck_text(item)}"
        for turn_item in (t for t in book.by_turn if t.side == side):
            yield f"  turn {turn_item.turn}: {luck_text(turn_item)}"
    yield ""
    for r in book.rolls:
        yield roll_line(r)


def luck_text(item: Luck) -> str:
    sums = ", ".join(f"{unit} {float(v):+.2f}" for unit, v in item.sums.items()) or "nothing decided"
    p = item.run.p_value
    # What falls on both sides is nobody's luck: only whether the dice ran high or low.
    verdict = item.run.verdict if item.side else {"lucky": "dice high", "unlucky": "dice low"}.get(item.run.verdict, item.run.verdict)
    return (
        f"{sums}; {plural(item.run.rolls, 'roll')}, mean percentile {float(item.run.mean):.0%} ({verdict}), "
        f"p = {float(p):.3g} ({'exact' if isinstance(p, Fraction) else 'normal approximation'})"
    )


# -- every roll, read as it is written (adjutant luck, adjutant report) ---------------------

BATCH = 2000  # plain rolls fetched from the database at a time
_KNOWN = 4096  # distinct dice, modifiers and results remembered while reading


def each_roll(session: CampaignSession, side: str | None = None, *, turn: int | None = None,
              battle: int | None = None, batch: int = BATCH) -> Iterator[RollLuck]:
    """The rolls `ledger(session, side).rolls` lists, the same and in the same order, read
    as they are asked for: memory does not grow with the rolls however many there are.
    `turn`: only those whose turn is that one; `battle`: only the rolls of that battle.

    The rolls that may have decided something the campaign knows of are read by one
    `_Reader`, as `ledger` reads them (a battle's rolls are paired with its journal as a
    whole, the marches walk the history back once): they are as many as the battles,
    marches and reconnaissances, not as the events. The others count for nobody: they
    are read in batches as plain rows, and the odds of each dice, modifiers and result
    are worked out once (exactly as `_Reader.read` works them out for each roll)."""
    with plainly(), session.store.connect() as db:
        if side is not None:
            sides = _sides(db)
            if side not in sides:
                raise_unknown_side(side, sides)
        turn_ends: list[int] = list(db.scalars(
            select(EVENT.c.id).where(EVENT.c.description.like("End of turn %"), EVENT.c.undone == False)  # noqa: E712
            .order_by(EVENT.c.id)
        ))
        query = _kept(_rolls().where(_special()))
        if battle is not None:
            query = query.where(DICE_ROLL.c.battle == battle)
        rows = [_RollRow(*row) for row in db.execute(query.order_by(DICE_ROLL.c.id))]
        reader = _Reader(session, db, rows, turn_ends)

        def special() -> Iterator[RollLuck]:
            for row in rows:
                roll = reader.read(row)
                if (turn is None or roll.turn == turn) and (side is None or counts_for(roll, side)):
                    yield roll

        if side is not None or battle is not None:  # the plain rolls count for no side and name no battle
            yield from special()
        else:
            yield from heapq.merge(special(), _plain_rolls(db, turn_ends, turn, batch), key=lambda r: r.roll_id)


def _plain_rolls(db: Any, turn_ends: list[int], turn: int | None, batch: int) -> Iterator[RollLuck]:
    """The rolls that count for nobody (kind OTHER), in id order, from plain rows."""
    query = _kept(select(
        DICE_ROLL.c.id, DICE_ROLL.c.event, DICE_ROLL.c.purpose, DICE_ROLL.c.dice, sql_cast(DICE_ROLL.c.raw, String),
        sql_cast(DICE_ROLL.c.modifiers, String), DICE_ROLL.c.result, DICE_ROLL.c.mode,
    ).where(~_special()))
    if turn is not None:  # turn n: the events after the end of turn n - 1, up to its own end (as _Reader.turn_of)
        if not 1 <= turn <= len(turn_ends) + 1:
            return
        query = query.where(DICE_ROLL.c.event > turn_ends[turn - 2] if turn >= 2 else DICE_ROLL.c.event.is_not(None))
        if turn <= len(turn_ends):
            query = query.where(DICE_ROLL.c.event <= turn_ends[turn - 1])
    modifiers: dict[str | None, int] = {}
    raws: dict[str, tuple[int, ...]] = {}
    known: dict[tuple[str, int, int], tuple[dict[int, Fraction], Fraction, str, tuple[Effect, ...]]] = {}
    for roll_id, event, purpose, dice, raw, listed, result, mode in db.execute(query.order_by(DICE_ROLL.c.id).execution_options(yield_per=batch)):
        modifier = modifiers.get(listed)
        if modifier is None:
            if len(modifiers) > _KNOWN:
                modifiers.clear()
            modifier = modifiers[listed] = sum(int(m["value"]) for m in json.loads(listed))
        odds = known.get((dice, modifier, result))
        if odds is None:
            if len(known) > _KNOWN:
                known.clear()
            distribution = _distribution(dice, modifier)
            unit = "hits" if ">=" in dice else POINTS
            odds = known[(dice, modifier, result)] = (
                distribution, mid_rank(distribution, result), f"{result} {unit}",
                (Effect(BOTH, POINTS, Fraction(result), expectation(distribution)),),
            )
        numbers = raws.get(raw)
        if numbers is None:
            if len(raws) > _KNOWN:
                raws.clear()
            numbers = raws[raw] = tuple(json.loads(raw))
        yield RollLuck(
            roll_id=roll_id, event=event, turn=None if event is None else 1 + bisect.bisect_left(turn_ends, event),
            kind=OTHER, purpose=purpose, dice=dice, raw=numbers, modifier=modifier, result=result, mode=mode,
            distribution=odds[0], percentile=odds[1], favours=(), decided=odds[2], effects=odds[3],
        )


class Tally:
    """`luck_of(side, turn, rolls)` kept as the rolls go by, in memory that does not grow
    with them: the rolls are counted by dice, modifiers, result and direction, and their
    effects by unit and value; the sums and the run come out exactly the same."""

    def __init__(self, side: str, turn: int | None = None) -> None:
        self.side = side
        self.turn = turn
        self.rolls = 0  # the rolls added
        self._counted: dict[tuple[str, int, int, int], list[Any]] = {}  # -> [distribution, count]
        self._effects: dict[tuple[str, int, int, int, int], list[Any]] = {}  # -> [effect, count]

    def add(self, roll: RollLuck) -> None:
        self.rolls += 1
        for effect in roll.effects:
            if effect.side == self.side:
                a, e = effect.actual, effect.expected
                key = (effect.unit, a.numerator, a.denominator, e.numerator, e.denominator)
                found = self._effects.get(key)
                if found is None:
                    self._effects[key] = [effect, 1]
                else:
                    found[1] += 1
        for favour in ([f for s, f in roll.favours if s == self.side] if self.side else [1]):
            counted = self._counted.get((roll.dice, roll.modifier, roll.result, favour))
            if counted is None:
                self._counted[(roll.dice, roll.modifier, roll.result, favour)] = [roll.distribution, 1]
            else:
                counted[1] += 1

    def luck(self) -> Luck:
        sums: dict[str, Fraction] = {}
        for effect, count in self._effects.values():
            sums[effect.unit] = sums.get(effect.unit, Fraction(0)) + count * effect.difference
        run = run_luck(Counted(distribution, result, favour, count)
                       for (_dice, _modifier, result, favour), (distribution, count) in self._counted.items())
        return Luck(self.side, self.turn, dict(sorted(sums.items(), key=lambda kv: UNITS.index(kv[0]))), run)


def roll_line(r: RollLuck) -> str:
    """A roll as `lines` prints it."""
    return (
        f"dice #{r.roll_id} turn {r.turn if r.turn is not None else '-'} {r.kind}: {r.dice} "
        f"{' '.join(map(str, r.raw))}{r.modifier:+d} = {r.result}, percentile {float(r.percentile):.0%} "
        f"(mean {float(_expected(r.dice, r.modifier)):.2f}) -> {r.decided}"
    )


@functools.lru_cache(maxsize=512)
def _expected(dice: str, modifier: int) -> Fraction:
    """A roll's `expected_roll`, worked out once for each dice and modifier (its distribution's)."""
    return expectation(_distribution(dice, modifier))


def roll_data(r: RollLuck) -> dict[str, Any]:
    """A roll as `as_json` gives it."""

    def number(x: Fraction | float) -> float:
        return round(float(x), 6)

    return {
        "id": r.roll_id, "turn": r.turn, "kind": r.kind, "purpose": r.purpose, "dice": r.dice,
        "raw": list(r.raw), "modifier": r.modifier, "result": r.result, "mode": r.mode,
        "percentile": number(r.percentile), "percentile_exact": str(r.percentile),
        "expected_roll": number(_expected(r.dice, r.modifier)),
        "sides": {s: f for s, f in r.favours}, "decided": r.decided,
        "effects": [
            {"side": e.side or None, "unit": e.unit, "actual": number(e.actual), "expected": number(e.expected)}
            for e in r.effects
        ],
    }
