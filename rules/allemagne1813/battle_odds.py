"""Exact odds of a whole battle of Allemagne 1813, or of what is left of one.

The battle is followed volley by volley (battle_rolls.volleys) over a dictionary
of states (SP lost by each side, whether a morale test was taken), identical
states merged, so that losses move the columns of later rolls exactly as they do
at the table.  Each single roll's distribution comes from icepool through
rules.odds.  Chances are carried as whole numbers over a common denominator and
turned into Fractions at the end: exact, and much quicker than Fractions.

Morale tests: under the option morale_test = umpire_records the odds cannot know
what the umpire will record, so every test counts as passed and `morale_test`
says how likely a test is at all; under cohesion_d6 the tests are rolled dice and
are part of the odds.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from math import lcm
from typing import NamedTuple

from rules.allemagne1813.battle_rolls import BattleSetup, Roll, winner
from rules.allemagne1813.battle_setup import ATTACKER, DEFENDER, SIDES
from rules.allemagne1813.combat import RULESET, CombatSide
from rules.allemagne1813.data import Situation
from rules.allemagne1813.rolls import UMPIRE_READS, cell_odds, read_result
from rules.errors import RulesError
from rules.loader import get_table
from rules.odds import roll_distribution


class Outcome(NamedTuple):
    attacker_lost: int
    defender_lost: int
    winner: str | None  # None: the battle goes on past the rounds looked at
    morale_test: bool  # at least one morale test was taken


@dataclass(frozen=True)
class BattleOdds:
    """The exact chance of each way the battle can end."""

    outcomes: Mapping[Outcome, Fraction]
    morale_tests_counted_as_passed: bool  # True under morale_test = umpire_records

    def _sum(self, key) -> dict:
        out: dict = defaultdict(Fraction)
        for outcome, p in self.outcomes.items():
            out[key(outcome)] += p
        return dict(sorted(out.items(), key=lambda kv: (kv[0] is None, kv[0])))

    @property
    def losses(self) -> dict[tuple[int, int], Fraction]:
        """(SP lost by the attacker, SP lost by the defender) -> chance."""
        return self._sum(lambda o: (o.attacker_lost, o.defender_lost))

    @property
    def attacker_losses(self) -> dict[int, Fraction]:
        return self._sum(lambda o: o.attacker_lost)

    @property
    def defender_losses(self) -> dict[int, Fraction]:
        return self._sum(lambda o: o.defender_lost)

    @property
    def winner(self) -> dict[str | None, Fraction]:
        """attacker / defender -> chance; None for a battle still going on."""
        return self._sum(lambda o: o.winner)

    @property
    def morale_test(self) -> Fraction:
        """The chance that at least one morale test is taken."""
        return sum((p for o, p in self.outcomes.items() if o.morale_test), Fraction(0))


@dataclass(frozen=True)
class Position:
    """Where a battle stands, between two steps (as battle.Battle keeps it)."""

    volley: int = 0  # index of the volley under way
    roll: int = 0  # rolls of that volley already read
    committed: tuple[int, int] = (0, 0)  # SP lost (attacker, defender) before this volley
    pending: tuple[int, int] = (0, 0)  # SP lost in this volley, applied when it ends
    morale_test: bool = False  # a test was taken (or is due)
    failed: frozenset[str] = frozenset()  # sides that failed a test in this volley
    morale_due: str | None = None  # a side whose morale test is due now


_State = tuple[int, int, int, int, bool, bool, bool]  # committed A, D; pending A, D; tested; failed A, D


class OddsEngine:
    """Odds for one set-up, from any position; keeps its caches between calls."""

    def __init__(self, setup: BattleSetup):
        self.setup = setup
        self.options = setup.options
        self.totals = setup.totals
        self.volleys = setup.volleys
        self.rolled = self.options["morale_test"] == "cohesion_d6"
        self.beaten_on_failure = self.options["failed_morale_test"] == "side_beaten"
        # A morale test as whole-number weights: (pass, fail) out of morale_den.
        self.morale_den = 1
        self.morale_weights = {r: (1, 0) for r in SIDES}
        if self.rolled:
            passes = setup.morale_pass
            self.morale_den = lcm(*(p.denominator for p in passes.values()))
            self.morale_weights = {
                r: (int(p * self.morale_den), self.morale_den - int(p * self.morale_den))
                for r, p in passes.items()
            }
        self._fire_keys: dict[tuple[Roll, int], tuple] = {}
        self._cells: dict[tuple, tuple[int, tuple[tuple[int, bool, int], ...]]] = {}
        self._incoming: dict[tuple, tuple[int, tuple]] = {}

    # -- single rolls ------------------------------------------------------

    def _fire_key(self, roll: Roll, lost: int) -> tuple:
        """What a roll reads when its side has lost `lost` SP: (table, column, modifier)."""
        key = (roll, lost)
        if key not in self._fire_keys:
            worked = self.setup.fire(roll, lost)
            self._fire_keys[key] = (roll.table, worked.column, worked.modifier)
        return self._fire_keys[key]

    def _cell_weights(self, key: tuple) -> tuple[int, tuple[tuple[int, bool, int], ...]]:
        """(denominator, ((SP lost, morale test, weight), ...)) of one roll.  The
        denominator is the dice's, whatever the column, so that every state of a
        volley shares one."""
        if key not in self._cells:
            table, column, modifier = key
            odds = cell_odds(table, column, modifier, self.options)
            if UMPIRE_READS in odds:
                raise RulesError(
                    f"a {table} roll can fall off the table, which the umpire reads by the rules "
                    "options: the odds cannot know what he will read"
                )
            dice = get_table(RULESET, table).dice or ""
            den = lcm(*(p.denominator for p in roll_distribution(dice).values()))
            self._cells[key] = (
                den,
                tuple((*read_result(table, text), int(p * den)) for text, p in odds.items()),
            )
        return self._cells[key]

    def _incoming_to(self, target: str, keys: tuple, room: int, failed: bool) -> tuple[int, tuple]:
        """(denominator, (((SP lost, tested, failed), weight), ...)) of the rolls
        `keys` against `target`, who has `room` SP left and has `failed` a test."""
        # Rooms larger than every loss the rolls can give behave alike: one memo.
        room = min(room, 1 + sum(max(n for n, _, _ in self._cell_weights(k)[1]) for k in keys))
        memo = (target, keys, room, failed)
        if memo in self._incoming:
            return self._incoming[memo]
        passing, failing = self.morale_weights[target]
        den = 1
        dist: dict[tuple[int, bool, bool], int] = {(0, False, failed): 1}
        for key in keys:
            roll_den, cells = self._cell_weights(key)
            den *= roll_den * self.morale_den
            nxt: dict[tuple[int, bool, bool], int] = defaultdict(int)
            for (lost, tested, broke), w in dist.items():
                for n, star, cw in cells:
                    now = lost + min(n, room - lost)
                    weight = w * cw
                    if star and not broke and now < room:
                        nxt[(now, True, broke)] += weight * passing
                        if failing:
                            nxt[(now, True, True)] += weight * failing
                    else:
                        nxt[(now, tested, broke)] += weight * self.morale_den
            dist = nxt
        self._incoming[memo] = (den, tuple(dist.items()))
        return self._incoming[memo]

    # -- the battle --------------------------------------------------------

    def odds(self, position: Position = Position(), last_round: int | None = None) -> BattleOdds:
        """The odds from `position` to the end of the battle, or of round `last_round`."""
        end = len(self.volleys)
        if last_round is not None:
            end = sum(1 for v in self.volleys if v[0].round_number <= last_round)
        if position.volley >= len(self.volleys):
            raise RulesError("the battle is over: there are no odds left to compute")
        states, den = self._start(position)
        result: dict[Outcome, Fraction] = defaultdict(Fraction)
        for index in range(position.volley, end):
            rolls = self.volleys[index][position.roll if index == position.volley else 0 :]
            states, ended, volley_den = self._volley(states, rolls, index == end - 1, index == len(self.volleys) - 1)
            den *= volley_den
            for outcome, w in ended.items():
                result[outcome] += Fraction(w, den)
        for (a, d, _pa, _pd, tested, _fa, _fd), w in states.items():
            result[Outcome(a, d, None, tested)] += Fraction(w, den)
        return BattleOdds(dict(result), not self.rolled)

    def _start(self, position: Position) -> tuple[dict[_State, int], int]:
        a, d = position.committed
        pa, pd = position.pending
        fa, fd = ATTACKER in position.failed, DEFENDER in position.failed
        due = position.morale_due
        if due is None or not self.rolled:
            return {(a, d, pa, pd, position.morale_test, fa, fd): 1}, 1
        passing, failing = self.morale_weights[due]
        failed_now = {ATTACKER: (True, fd), DEFENDER: (fa, True)}[due]
        states = {(a, d, pa, pd, True, fa, fd): passing}
        if failing:
            states[(a, d, pa, pd, True, *failed_now)] = failing
        return states, self.morale_den

    def _volley(self, states: dict[_State, int], rolls: tuple[Roll, ...], stop: bool, last: bool):
        against = {r: [x for x in rolls if x.target == r] for r in SIDES}
        total_a, total_d = self.totals[ATTACKER], self.totals[DEFENDER]
        out: dict[_State, int] = defaultdict(int)
        ended: dict[Outcome, int] = defaultdict(int)
        den = 1
        for (ca, cd, pa, pd, tested, fa, fd), w in states.items():
            keys_a = tuple(self._fire_key(x, cd if x.side == DEFENDER else ca) for x in against[ATTACKER])
            keys_d = tuple(self._fire_key(x, cd if x.side == DEFENDER else ca) for x in against[DEFENDER])
            den_a, into_a = self._incoming_to(ATTACKER, keys_a, total_a - ca - pa, fa)
            den_d, into_d = self._incoming_to(DEFENDER, keys_d, total_d - cd - pd, fd)
            den = den_a * den_d
            for (la, ta, ba), wa in into_a:
                wa *= w
                lost_a = ca + pa + la
                for (ld, td, bd), wd in into_d:
                    lost_d = cd + pd + ld
                    t = tested or ta or td
                    beaten = set()
                    if lost_a == total_a or (ba and self.beaten_on_failure):
                        beaten.add(ATTACKER)
                    if lost_d == total_d or (bd and self.beaten_on_failure):
                        beaten.add(DEFENDER)
                    if beaten or last:
                        won = winner({ATTACKER: lost_a, DEFENDER: lost_d}, beaten, self.options)
                        ended[Outcome(lost_a, lost_d, won, t)] += wa * wd
                    elif stop:
                        ended[Outcome(lost_a, lost_d, None, t)] += wa * wd
                    else:
                        out[(lost_a, lost_d, 0, 0, t, False, False)] += wa * wd
        return out, ended, den


def battle_odds(
    attacker: CombatSide,
    defender: CombatSide,
    situation: Situation = Situation(),
    options: Mapping[str, str] | None = None,
) -> BattleOdds:
    """The exact odds of a whole battle: every (SP lost by the attacker, SP lost by
    the defender), the winner, and the chance of at least one morale test.

    Under morale_test = umpire_records every morale test counts as passed (the odds
    cannot know the umpire's record) and `morale_test` is the chance one is taken;
    under cohesion_d6 the tests are in the odds exactly.

    >>> from rules.allemagne1813.combat import CombatSide
    >>> side = CombatSide({"infantry": 20}, average_cohesion=3)
    >>> odds = battle_odds(side, side)
    >>> sum(odds.outcomes.values())
    Fraction(1, 1)
    """
    return OddsEngine(BattleSetup(attacker, defender, situation, options)).odds()

