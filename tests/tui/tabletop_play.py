"""What the whole-battle tests share (issue 24): a battle of campaign forces handed to a
rule set before the weather is rolled, resolutions taken with the dice typed in, the
phases ticked off, the resolution form and the edit form driven through the screens,
the end, the return and the checks of the campaign file and the account.

The bulk of a battle goes through the campaigns/ flow layer (the same functions the
resolver screen calls), so that two full turns of every phase stay within seconds; the
change of target, the number needed and the edit go through the screens with the Pilot.
"""

from __future__ import annotations

import re

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from textual.widgets import DataTable, Input, Select, Static

from tui.textual_private import select_options

from campaigns import battles, tabletop
from campaigns.session import CampaignSession
from models import Battle, Unit
from rules.dice import Dice
from tui.cli import main
from tui.modals.form import FormScreen
from tui.modals.resolution import ResolutionScreen
from tui.screens.fight import FightScreen
from tui.screens.resolver import ResolverScreen

from .helpers import burst, key, stored, wait_for, wait_for_screen
from tests.tui.polling import caught_up, settled, until

# Three forces a side, one of each arm, gathered by hand: the umpire overrides contact.
FRENCH = ["xi_fressinet", "i_cavalry_corps", "guard_artillery"]
ALLIES = ["barclay_infantry", "barclay_cavalry", "blucher_artillery"]
GATHERED = "forces gathered from the whole map for a whole battle"


def handed_off(path: Path, ruleset: str) -> int:
    """A battle at Lützen handed to `ruleset`, set up before the weather is rolled."""
    session = CampaignSession.open(path)
    try:
        draft = battles.Draft("Lützen", FRENCH, ALLIES, battles.leaders_at(session, FRENCH),
                              battles.leaders_at(session, ALLIES), override=GATHERED)
        return battles.begin(session, draft, resolver=ruleset)
    finally:
        session.close()


def strengths(path: Path) -> dict[str, int]:
    with stored(path) as db:
        return {u: db.get(Unit, u).strength_points for u in FRENCH + ALLIES}


@dataclass
class Play:
    """One battle being played through the flow layer: what was taken, in which phases."""

    session: CampaignSession
    battle_id: int
    phases: set[tuple[int, str, str]] = field(default_factory=set)  # (turn, whose bound, phase) ticked off
    _read: tuple[int, tabletop.Tabletop] | None = field(default=None, repr=False)

    @property
    def table(self) -> tabletop.Tabletop:
        """The battle as stored now: read again whenever the campaign's version has moved on
        (every change, through the flow layer or the screens, moves it), else the one read last."""
        version = self.session.store.stored_version()
        if self._read is None or self._read[0] != version:
            self._read = (version, tabletop.load(self.session, self.battle_id))
        return self._read[1]

    def prepared(self, action: str, actor: str, target: str | None = None, ticked: Sequence[str] = (),
                 numbers: Mapping[str, int] | None = None, ruling: str = ""):
        table = self.table
        return tabletop.prepare(table, tabletop.request(table, action, actor, target, ticked, numbers, ruling))

    def act(self, action: str, actor: str, target: str | None = None, dice: Sequence[int] | None = None,
            ticked: Sequence[str] = (), numbers: Mapping[str, int] | None = None, ruling: str = "",
            face: int = 5) -> dict:
        """Take one resolution with the dice typed in (every die `face` unless given); its log entry."""
        prepared = self.prepared(action, actor, target, ticked, numbers, ruling)
        if prepared.rolls_dice and dice is None:  # every expression's dice, in order, as one flat list
            dice = [min(face, spec.sides) for spec in map(Dice.parse, (r.dice for r in prepared.expressions))
                    for _ in range(spec.count)]
        tabletop.resolve(self.session, self.battle_id, action, actor, target, ticked, numbers,
                         list(dice) if prepared.rolls_dice else None, ruling)
        entry = self.table.log[-1]
        assert (entry["action"], entry["actor"], entry["target"]) == (action, actor, target)
        return entry

    def refused(self, action: str, actor: str, target: str | None = None, **kwargs) -> str:
        """The sentence a resolution the card does not allow is refused with; nothing stored."""
        before = len(self.table.log)
        try:
            self.act(action, actor, target, **kwargs)
        except tabletop.CampaignError as exc:
            assert len(self.table.log) == before
            return str(exc)
        raise AssertionError(f"{action} by {actor} at {target} was not refused")

    def next(self) -> None:
        at = self.table
        self.phases.add((at.position.turn, at.position.bound, at.phase.id))
        tabletop.next_phase(self.session, self.battle_id)
        assert self.table.position != at.position

    def ticked_off(self, turn: int, bound: str = "attacker") -> set[str]:
        """The phases ticked off in `turn` (in `bound`, where each side has a bound of its own)."""
        return {p for t, b, p in self.phases if t == turn and b == bound}

    def kinds(self) -> set[str]:
        """The kinds of resolution in the battle's log, through the screens or not."""
        return {e["action"] for e in self.table.log if not e.get("taken_back")} - {"edit", "ruling"}

    def unit(self, unit_id: str):
        return self.table.units[unit_id]


# -- through the screens ----------------------------------------------------------------


async def on_resolver(pilot) -> ResolverScreen:
    """From the overview (or the battles, for an app started there) to the resolver screen:
    the battle goes on the table (g)."""
    from tui.screens.battles import BattlesScreen

    if not isinstance(pilot.app.screen, BattlesScreen):
        await pilot.press("x")
    await wait_for_screen(pilot, BattlesScreen)
    await pilot.press("enter")
    await wait_for_screen(pilot, FightScreen)
    await pilot.press(key(FightScreen, "fight.resolver"))
    await wait_for_screen(pilot, ResolverScreen)
    await settled(pilot)  # the battle on the table, read and drawn
    return pilot.app.screen  # type: ignore[return-value]


async def pick_unit(pilot, unit_id: str) -> None:
    screen = pilot.app.screen
    screen.refresh_view()  # what the flow layer changed since
    grid = screen.query_one("#units", DataTable)
    grid.move_cursor(row=grid.get_row_index(unit_id))
    await until(pilot, lambda: screen.selected() == unit_id, f"the cursor on {unit_id}")


def needs(modal: ResolutionScreen) -> str:
    lines = [x for x in str(modal.query_one("#prepared", Static).content).splitlines() if x.startswith("Needs:")]
    assert lines, str(modal.query_one("#error").render())
    return lines[0]


async def open_form(pilot, actor: str, action: str) -> ResolutionScreen:
    """r on `actor`, the action picked in the form's list: the number needed shown."""
    await pick_unit(pilot, actor)
    await pilot.press(key(ResolverScreen, "resolver.resolve"))
    await wait_for_screen(pilot, ResolutionScreen)
    modal: ResolutionScreen = pilot.app.screen  # type: ignore[assignment]
    if modal.action_id() != action:
        modal.query_one("#action", Select).value = action
    try:
        await until(pilot, lambda: modal.built == action and not modal.building and "Needs:" in str(modal.query_one("#prepared", Static).content), f"the form to show {action}")
    except AssertionError as exc:
        raise AssertionError(f"{exc}: {modal.query_one('#error').render()}") from None
    return modal


def offered(modal: ResolutionScreen) -> list[str]:
    assert modal.target_select is not None
    return [value for _label, value in select_options(modal.target_select)]


async def retarget(pilot, modal: ResolutionScreen, target: str) -> str:
    """Pick another target in the form's list: the card's modifiers are rebuilt; the number needed."""
    before = modal.params
    assert modal.target_select is not None
    modal.target_select.value = target
    try:  # rebuilt (params moved on) and shown again (no longer building): never the old target's line
        await until(pilot, lambda: modal.params != before and not modal.building and "Needs:" in str(modal.query_one("#prepared", Static).content), f"the form rebuilt for {target}")
    except AssertionError as exc:
        raise AssertionError(f"{exc}: {modal.query_one('#error').render()}") from None
    return needs(modal)


async def roll_typed(pilot, dice: Sequence[int]) -> None:
    """ctrl+e, the dice rolled on the table typed in, Enter: back on the resolver screen."""
    await pilot.press("ctrl+e")
    await wait_for(pilot, "Dice rolled on the table")
    # one line per named expression ("attacker 8e Ligne 8d6"): the flat dice split by each one's count
    counts = [int(re.search(r"(\d+)d\d+\S*$", str(label.render())).group(1))
              for label in pilot.app.screen.query("Label") if re.search(r"\d+d\d+\S*$", str(label.render()))]
    lines, start = [], 0
    for count in counts or [len(dice)]:
        lines.append(list(dice[start:start + count]))
        start += count
    lines[-1].extend(dice[start:])
    # Typed as a fast typist does, every line and its Enter in one burst: the key gate hands
    # them over one at a time, each once the one before is handled (an Enter that moves to
    # the next line's field included), without the pilot's two idle rounds per key.
    keys: list[str] = []
    for line in lines:
        for n, die in enumerate(line):
            keys += (["space"] if n else []) + list(str(die))
        keys.append("enter")
    await burst(pilot, *keys)
    await wait_for_screen(pilot, ResolverScreen)


async def edit(pilot, unit_id: str, values: Mapping[str, str]) -> None:
    """e on a unit, fields changed, ctrl+s: the umpire's edit through the form."""
    await pick_unit(pilot, unit_id)
    await pilot.press(key(ResolverScreen, "resolver.edit"))
    await wait_for_screen(pilot, FormScreen)
    for name, value in values.items():
        pilot.app.screen.query_one(f"#f-{name}", Input).value = value
    await pilot.pause()
    await pilot.press("ctrl+s")
    await wait_for_screen(pilot, ResolverScreen)


async def end_and_apply(pilot, winner: str = "defender") -> str:
    """d, who held the field, y; on the battle screen the pursuit if any, a, y: the screen's text."""
    await pilot.press(key(ResolverScreen, "resolver.end"))
    await wait_for(pilot, "Who held the field?")
    await pilot.press(*(["down", "down"] if winner == "defender" else ["down"]), "enter")
    await wait_for(pilot, f"End the battle: the {winner} held the field")
    await pilot.press("y")
    await wait_for_screen(pilot, FightScreen)
    await wait_for(pilot, "Tabletop result")
    fight = battles.load(pilot.app.session, 1)
    if fight.pursuit_step() is not None:
        await pilot.press(key(FightScreen, "fight.roll"))
        await caught_up(pilot)  # the pursuit rolled and stored
    await pilot.press(key(FightScreen, "fight.apply"))
    await wait_for(pilot, "Apply the battle")
    await pilot.press("y")
    return await wait_for(pilot, "done):")


# -- afterwards: the file and the account ----------------------------------------------------


def applied(path: Path, before: Mapping[str, int]) -> dict[str, int]:
    """The battle is done; every force's SP went down by what the battle says it lost,
    and by nothing else. The SP lost, force by force."""
    with stored(path) as db:
        battle = db.get(Battle, 1)
        assert battle.status == "done"
        lost = dict(battle.losses["units"])
        by_side = battle.losses["sides"]
        for force, sp in before.items():
            assert db.get(Unit, force).strength_points == sp - lost.get(force, 0), force
        tactical_back = battle.detail["tabletop_result"]
    assert {f: n for f, n in lost.items() if n} == {f: n for f, n in tactical_back["by_unit"].items() if n}
    assert by_side["attacker"] == tactical_back["attacker"] and by_side["defender"] == tactical_back["defender"]
    return lost


def account(path: Path, capsys) -> tuple[str, str]:
    """`adjutant battles FILE` and `adjutant log FILE`, as printed."""
    capsys.readouterr()
    assert main(["battles", str(path)]) == 0
    shown = capsys.readouterr().out
    assert main(["log", str(path)]) == 0
    return shown, capsys.readouterr().out
