"""A battle of Allemagne 1813 fought step by step, as a screen asks before each roll.

>>> from rules.allemagne1813.combat import CombatSide, Leader
>>> from rules.dice import DiceService
>>> french = CombatSide({"infantry": 35}, [Leader("Napoleon", 5, 2)], average_cohesion=4)
>>> allies = CombatSide({"infantry": 20}, average_cohesion=3)
>>> battle = Battle(french, allies)
>>> step = battle.next_step()
>>> (step.round_number, step.side, step.table, step.column)
(1, 'attacker', 'combat', '30-40')
>>> [f"{m.label} {m.value:+d}" for m in step.modifiers]
['tactical bonus (Napoleon) +2', 'difference in average cohesion +1']
>>> battle.resolve(step, DiceService(seed=1), entered=[5]).cell  # 5 + 3 = 8
'3*'
>>> battle.next_step().kind, battle.next_step().side
('morale test', 'defender')

Each round both sides roll on the combat table; in rounds 2 and 4 (battle_rounds
and artillery_fires say which) they also roll on the artillery table.  The rolls
that read the same SP form a volley (battle_rolls.py); their losses apply when
the volley is over, so they move the columns of the rolls after it.  A '*' stops
for the morale test of the side that loses the SP: the umpire records it
(record_morale) or it is rolled, by the option morale_test.  A roll off the table
under an option ask_umpire stops for the umpire to type the result
(record_result).  The battle ends after its last round, or when a volley leaves a
side beaten (failed morale test by the option failed_morale_test, or no SP left).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from rules.allemagne1813.battle_odds import BattleOdds, OddsEngine, Outcome, Position
from rules.allemagne1813.battle_rolls import ARTILLERY, COMBAT, BattleSetup, winner
from rules.allemagne1813.battle_setup import ATTACKER, DEFENDER, SIDES, enemy_of, procedure_data
from rules.allemagne1813.combat import RULESET, Applied, CombatSide
from rules.allemagne1813.data import Situation
from rules.allemagne1813.losses import lost_by_arm
from rules.allemagne1813.pursuit import PursuitResult, PursuitStep, pursuit_step, resolve_pursuit
from rules.allemagne1813.rolls import NOTHING, cell_odds, column_index, read_cell, read_result
from rules.dice import DiceRecord, DiceService, Modifier
from rules.errors import RulesError
from rules.loader import get_table

MORALE = "morale test"
UMPIRE_RESULT = "umpire result"
PASS, FAIL = "pass", "fail"


@dataclass(frozen=True)
class Step:
    """What the next step will roll or ask, shown before it is rolled."""

    number: int  # 1 for the battle's first step
    kind: str  # COMBAT or ARTILLERY (a table), MORALE, or UMPIRE_RESULT
    round_number: int
    side: str  # the side that rolls, or takes the morale test
    dice: str | None  # None: nothing to roll (the umpire records, or no column)
    column: str | None = None  # the column after the shifts, as printed
    strength_points: Fraction | None = None  # combat: SP after the multipliers
    whole_sp: int | None = None  # combat: those SP as the columns read them
    applied: tuple[Applied, ...] = ()  # the card's multipliers and column shifts
    modifiers: tuple[Modifier, ...] = ()
    odds: Mapping[str, Fraction] = field(default_factory=dict)  # cell (or pass/fail) -> chance

    @property
    def table(self) -> str | None:
        return self.kind if self.kind in (COMBAT, ARTILLERY) else None

    @property
    def target(self) -> str | None:
        """The side that loses the SP of a table roll."""
        return enemy_of(self.side) if self.table else None

    @property
    def modifier(self) -> int:
        return sum(m.value for m in self.modifiers)

    @property
    def loss_odds(self) -> dict[int, Fraction]:
        """SP the target loses -> chance (before capping at the SP it has)."""
        out: dict[int, Fraction] = {}
        for text, p in self.odds.items():
            n = read_result(self.table, text)[0] if self.table else 0
            out[n] = out.get(n, Fraction(0)) + p
        return dict(sorted(out.items()))

    @property
    def morale_chance(self) -> Fraction:
        """The chance that the roll calls for a morale test."""
        if not self.table:
            return Fraction(0)
        return sum((p for text, p in self.odds.items() if read_result(self.table, text)[1]), Fraction(0))


@dataclass(frozen=True)
class StepResult:
    step: Step
    record: DiceRecord | None  # None when nothing was rolled
    row: int | None = None  # the printed row the modified roll read
    cell: str | None = None  # the cell as printed; None while the umpire must read it
    sp_lost: int = 0  # SP the target lost (no more than it had)
    lost_by_arm: Mapping[str, int] = field(default_factory=dict)
    morale_test: bool = False  # the result calls for the target's morale test
    passed: bool | None = None  # a morale step: passed or failed

    @property
    def die(self) -> int | None:
        """The die as rolled or typed in, before the modifiers."""
        return sum(self.record.raw) if self.record else None

    @property
    def modified_roll(self) -> int | None:
        return self.record.result if self.record else None


@dataclass(frozen=True)
class BattleOutcome:
    winner: str
    loser: str
    rounds_fought: int
    sp_lost: Mapping[str, int]  # in the battle, before any pursuit
    beaten: tuple[str, ...]  # sides that broke or lost their last SP
    reason: str


class Battle:
    """One battle, fought one step at a time: next_step(), then resolve() (or
    record_morale() / record_result() where the umpire decides)."""

    def __init__(
        self,
        attacker: CombatSide,
        defender: CombatSide,
        situation: Situation = Situation(),
        options: Mapping[str, str] | None = None,
    ):
        self._begin(BattleSetup(attacker, defender, situation, options))

    @classmethod
    def from_setup(cls, setup: BattleSetup) -> "Battle":
        """A battle from a set-up already checked: many battles can share one."""
        battle = cls.__new__(cls)
        battle._begin(setup)
        return battle

    def _begin(self, setup: BattleSetup) -> None:
        self.setup = setup
        self.options = setup.options
        self.sides = setup.sides
        self.situation = setup.situation
        self.rounds = setup.rounds
        self.results: list[StepResult] = []
        self.morale_failures: list[tuple[int, str]] = []  # (round, side)
        self.pursuit_result: PursuitResult | None = None
        self._orders = setup.orders
        self._volleys = setup.volleys
        self._volley = 0
        self._roll = 0
        self._committed = {ATTACKER: 0, DEFENDER: 0}
        self._pending = {ATTACKER: 0, DEFENDER: 0}
        self._failed: set[str] = set()  # failed a morale test in this volley
        self._tested = False
        self._morale_due: str | None = None
        self._umpire_due: tuple[Step, DiceRecord] | None = None
        self._outcome: BattleOutcome | None = None
        self._step: Step | None = None
        self._engine: OddsEngine | None = None

    # -- where the battle stands -------------------------------------------

    @property
    def finished(self) -> bool:
        return self._outcome is not None

    @property
    def outcome(self) -> BattleOutcome | None:
        return self._outcome

    @property
    def round_number(self) -> int:
        """The round under way (the last one fought, once the battle is over)."""
        return self._volleys[self._volley][0].round_number

    def sp_lost(self, side: str) -> int:
        """SP the side has lost so far, pursuit included."""
        extra = 0
        if self.pursuit_result and self._outcome and side == self._outcome.loser:
            extra = self.pursuit_result.sp_lost
        return self._committed[side] + self._pending[side] + extra

    def lost_by_arm(self, side: str) -> dict[str, int]:
        return lost_by_arm(self._orders[side], self.sp_lost(side))

    def strength(self, side: str) -> dict[str, int]:
        """The side's SP by arm now."""
        return self.setup.remaining(side, self.sp_lost(side))

    # -- the next step ------------------------------------------------------

    def next_step(self) -> Step | None:
        """The step to take now; None once the battle is over."""
        if self._step is None and not self.finished:
            self._step = self._make_step(len(self.results) + 1)
        return self._step

    def _make_step(self, number: int) -> Step:
        if self._umpire_due is not None:
            rolled = self._umpire_due[0]
            return Step(number, UMPIRE_RESULT, rolled.round_number, rolled.side, None, rolled.column)
        if self._morale_due is not None:
            side = self._morale_due
            if self.options["morale_test"] == "umpire_records":
                return Step(number, MORALE, self.round_number, side, None)
            chance = self.setup.morale_pass[side]
            return Step(
                number, MORALE, self.round_number, side, procedure_data().morale_dice,
                odds={PASS: chance, FAIL: 1 - chance},
            )
        roll = self._volleys[self._volley][self._roll]
        worked = self.setup.fire(roll, self._committed[roll.side])
        dice = get_table(RULESET, roll.table).dice if worked.column is not None else None
        return Step(
            number, roll.table, roll.round_number, roll.side, dice, worked.column_label,
            worked.strength_points, worked.whole_sp, worked.applied, worked.modifiers,
            cell_odds(roll.table, worked.column, worked.modifier, self.options),
        )

    def _check(self, step: Step, kind: str | None = None) -> None:
        if self.finished:
            raise RulesError("the battle is over: there is no step left to take")
        if step != self.next_step():
            raise RulesError(f"step {step.number} is not the battle's next step; ask for the next step again")
        if kind is not None and step.kind != kind:
            raise RulesError(f"step {step.number} is a {step.kind}, not a {kind}")

    # -- taking it ----------------------------------------------------------

    def resolve(self, step: Step, dice: DiceService, entered: Sequence[int] | None = None) -> StepResult:
        """Roll the step's dice (or read the dice typed in) and apply the result."""
        self._check(step)
        if step.kind == UMPIRE_RESULT:
            raise RulesError("the umpire reads this roll off the table: type the result with record_result")
        if step.kind == MORALE:
            if step.dice is None:
                raise RulesError("the umpire records this morale test (option morale_test): use record_morale")
            record = dice.roll(step.dice, self._purpose(step), entered=entered)
            return self._morale_taken(step, record, record.result <= self.sides[step.side].average_cohesion)
        if step.dice is None:  # no column: the side inflicts nothing (option column_below_table)
            return self._apply(step, None, None, NOTHING)
        record = dice.roll(step.dice, self._purpose(step), step.modifiers, entered=entered)
        assert step.table is not None and step.column is not None
        try:
            row, cell = read_cell(step.table, column_index(step.table, step.column), record.result, self.options)
        except RulesError:  # off the table, and the option says the umpire reads it
            self._umpire_due = (step, record)
            self._step = None
            result = StepResult(step, record)
            self.results.append(result)
            return result
        return self._apply(step, record, row, cell.text)

    def record_result(self, cell: str) -> StepResult:
        """The umpire's reading of a roll off the table: a number of SP lost,
        with '*' for a morale test ('2', '3*'), or '-' for none."""
        step = self.next_step()
        if step is None or step.kind != UMPIRE_RESULT or self._umpire_due is None:
            raise RulesError("no roll is waiting for the umpire's result")
        rolled, record = self._umpire_due
        marks = "".join(re.escape(m) for m in get_table(RULESET, rolled.kind).legend)
        text = cell.strip()
        if not re.fullmatch(rf"-|\d+[{marks}]?", text):
            raise RulesError(f"a result is a number of SP lost, with * for a morale test, or -; not {cell!r}")
        self._umpire_due = None
        return self._apply(rolled, record, None, text)

    def record_morale(self, side: str, passed: bool) -> StepResult:
        """The umpire's record of the morale test that is due (option umpire_records)."""
        step = self.next_step()
        if step is None or step.kind != MORALE:
            raise RulesError("no morale test is due")
        if step.side != side:
            raise RulesError(f"the morale test due is the {step.side}'s, not the {side}'s")
        if step.dice is not None:
            raise RulesError("this morale test is rolled (option morale_test = cohesion_d6): use resolve")
        return self._morale_taken(step, None, bool(passed))

    def _purpose(self, step: Step) -> str:
        if step.kind == MORALE:
            return f"battle round {step.round_number}: {step.side} morale test"
        return f"battle round {step.round_number}: {step.side} {step.kind} roll, column {step.column}"

    def _apply(self, step: Step, record: DiceRecord | None, row: int | None, text: str) -> StepResult:
        target = enemy_of(step.side)
        loss, star = read_result(step.kind, text)
        room = self.sides[target].strength_points - self._committed[target] - self._pending[target]
        taken = min(loss, room)
        before = self.sp_lost(target)
        self._pending[target] += taken
        by_arm = dict(Counter(self._orders[target][before : before + taken]))
        test = star and target not in self._failed and room - taken > 0
        result = StepResult(step, record, row, text, taken, by_arm, test)
        self.results.append(result)
        self._roll += 1
        if test:
            self._tested = True
            self._morale_due = target
        self._advance()
        return result

    def _morale_taken(self, step: Step, record: DiceRecord | None, passed: bool) -> StepResult:
        if not passed:
            self._failed.add(step.side)
            self.morale_failures.append((step.round_number, step.side))
        self._morale_due = None
        result = StepResult(step, record, passed=passed)
        self.results.append(result)
        self._advance()
        return result

    def _advance(self) -> None:
        """End the volley when its rolls and tests are done, and the battle when it is over."""
        self._step = None
        if self._morale_due or self._roll < len(self._volleys[self._volley]):
            return
        for side in SIDES:
            self._committed[side] += self._pending[side]
            self._pending[side] = 0
        beaten = {s for s in SIDES if self._committed[s] == self.sides[s].strength_points}
        if self.options["failed_morale_test"] == "side_beaten":
            beaten |= self._failed
        self._failed = set()
        last = self._volley == len(self._volleys) - 1
        if beaten or last:
            self._end(beaten)
        else:
            self._volley += 1
            self._roll = 0

    def _end(self, beaten: set[str]) -> None:
        lost = dict(self._committed)
        won = winner(lost, beaten, self.options)
        loser = enemy_of(won)
        if len(beaten) == 1:
            broke = "lost its last SP" if lost[loser] == self.sides[loser].strength_points else "failed its morale test"
            reason = f"the {loser} {broke} in round {self.round_number}"
        elif self.options["battle_winner"] == "more_losses_inflicted":
            # The rounds' losses decide; the pursuit comes after, so the figures say they are the rounds'.
            why = "inflicted more losses" if lost[loser] > lost[won] else "held its ground on equal losses"
            reason = f"the {won} {why} in the rounds ({lost[loser]} SP lost to {lost[won]} before any pursuit; option battle_winner)"
        else:
            reason = "the defender held its ground (option battle_winner = defender_holds)"
        self._outcome = BattleOutcome(won, loser, self.round_number, lost, tuple(sorted(beaten)), reason)

    # -- odds -------------------------------------------------------------

    def _position(self) -> Position:
        if self._umpire_due is not None:
            raise RulesError("a roll waits for the umpire's result: there are no odds until it is typed in")
        return Position(
            volley=self._volley,
            roll=self._roll,
            committed=(self._committed[ATTACKER], self._committed[DEFENDER]),
            pending=(self._pending[ATTACKER], self._pending[DEFENDER]),
            morale_test=self._tested,
            failed=frozenset(self._failed),
            morale_due=self._morale_due,
        )

    def _odds_engine(self) -> OddsEngine:
        if self._engine is None:
            self._engine = OddsEngine(self.setup)
        return self._engine

    def odds(self) -> BattleOdds:
        """The exact odds of the rest of the battle, from where it stands (see battle_odds)."""
        if self._outcome is not None:
            lost = self._outcome.sp_lost
            done = Outcome(lost[ATTACKER], lost[DEFENDER], self._outcome.winner, self._tested)
            return BattleOdds({done: Fraction(1)}, self.options["morale_test"] == "umpire_records")
        return self._odds_engine().odds(self._position())

    def round_odds(self) -> BattleOdds:
        """The exact odds of the SP each side loses in the round under way, counted
        from its start; `winner` is None where the battle goes on after it."""
        if self._outcome is not None:
            raise RulesError("the battle is over: there is no round under way")
        odds = self._odds_engine().odds(self._position(), last_round=self.round_number)
        start = self._round_start_losses()
        shifted = {
            Outcome(o.attacker_lost - start[0], o.defender_lost - start[1], o.winner, o.morale_test): p
            for o, p in odds.outcomes.items()
        }
        return BattleOdds(shifted, odds.morale_tests_counted_as_passed)

    def _round_start_losses(self) -> tuple[int, int]:
        taken = {ATTACKER: 0, DEFENDER: 0}
        for result in self.results:
            if result.step.round_number == self.round_number and result.step.table:
                taken[enemy_of(result.step.side)] += result.sp_lost
        return (
            self.sp_lost(ATTACKER) - taken[ATTACKER],
            self.sp_lost(DEFENDER) - taken[DEFENDER],
        )

    # -- pursuit ------------------------------------------------------------

    def pursuit(self) -> PursuitStep | None:
        """The winner's pursuit roll; None when there is none (Mud, no cavalry
        bonus on the table, nothing left to pursue, or already rolled)."""
        if self._outcome is None:
            raise RulesError("the battle is not over: there is no pursuit yet")
        loser = self._outcome.loser
        if self.pursuit_result is not None or self.sp_lost(loser) >= self.sides[loser].strength_points:
            return None
        bonus = self.sides[self._outcome.winner].cavalry_bonus
        return pursuit_step(bonus, self.situation.weather, self.options)

    def resolve_pursuit(
        self, step: PursuitStep, dice: DiceService, entered: Sequence[int] | None = None
    ) -> PursuitResult:
        """Roll the pursuit; the loser loses the SP (no more than he has)."""
        if step != self.pursuit():
            raise RulesError("this is not the battle's pursuit roll")
        assert self._outcome is not None
        loser = self._outcome.loser
        room = self.sides[loser].strength_points - self.sp_lost(loser)
        result = resolve_pursuit(step, dice, entered, self.options, room=room)
        self.pursuit_result = result
        return result
