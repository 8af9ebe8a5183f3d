"""Forced march: pick a stack, choose the units that march, see the odds, roll."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Sequence

from rich.cells import cell_len

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.dom import NoActiveAppError
from textual.widgets import DataTable, OptionList, Static
from textual.widgets.option_list import Option

from campaigns import forced_march
from campaigns.session import CampaignSession
from campaigns.text import shown
from tui.screens.base import CampaignScreen
from tui.widgets.bars import odds_bar
from tui.widgets.cells import MadeRows, fill
from tui.widgets.in_place import update_in_place
from tui.widgets.kept import PagedTable


NARROW = 110  # columns
# Cells the columns other than the unit's take with three barred odds ("0:█████ 17%"),
# their padding and the scroll bar; and the narrowest the unit's name should wrap to.
BARRED_ODDS = 3 + 2 + 3 + 3 + (3 * 11 + 4) + 6 * 2 + 2
MIN_NAME = 24
FIRST_WAIT = 0.3  # seconds


class ForcedMarchScreen(CampaignScreen):
    TITLE_TEXT = "Forced march"
    BINDINGS = [
        Binding("space", "mark", "Mark unit", id="march.toggle", tooltip="Mark or unmark the unit to march"),
        Binding("a", "toggle_all", "Mark all", id="march.all", tooltip="Mark every unit of the stack"),
        Binding("r", "roll", "Roll", id="march.roll", tooltip="Roll 1d6 for each marked unit and take the losses"),
        Binding("e", "enter", "Enter dice", id="march.enter", tooltip="Type in the dice rolled on the table"),
    ]
    UMPIRE_ONLY = frozenset({"roll", "enter"})
    DEFAULT_CSS = """
    ForcedMarchScreen #stacks { width: 32; height: 1fr; }
    ForcedMarchScreen #right { width: 1fr; }
    ForcedMarchScreen #units { height: 1fr; }
    ForcedMarchScreen #mods { height: auto; padding: 0 1; }
    ForcedMarchScreen.narrow #body { layout: vertical; }
    ForcedMarchScreen.narrow #stacks { width: 100%; height: 6; }
    """

    def __init__(self) -> None:
        super().__init__()
        self.marked: set[str] = set()
        self.stacks: list[forced_march.Stack] = []
        self.plans: dict[str, forced_march.UnitMarch] = {}  # by unit id: the stack shown, as planned
        try:
            app = self.adjutant
            narrow = app.size.width < NARROW
        except NoActiveAppError:  # built outside an app: on_mount decides, refresh_view reads
            return
        # Narrow from the start when the terminal is: the class set on mount restyled the
        # whole screen just built.
        if narrow:
            self.add_class("narrow", update=False)
        # The first reading starts with the screen, before it is composed: the stacks are
        # listed and the first one planned (in a worker, as every reading) while the
        # screen is composed and mounted, and shown before its first layout when they come
        # in time, instead of a layout and a drawing of the empty screen first.
        if app.session is not None:
            self._answered = asyncio.Event()
            self._early = app.session.version()
            self._read(lambda session: self._reading(session, 0))

    def body(self) -> ComposeResult:
        yield Static("Forced march: each marked unit rolls 1d6 on the forced march table", classes="title")
        with Horizontal(id="body"):
            yield OptionList(id="stacks")
            with Vertical(id="right"):
                yield PagedTable(id="units", cursor_type="row")
                yield Static(id="mods", markup=False)

    _early: int | None = None  # the campaign version the reading started with the screen shows
    _answered: asyncio.Event | None = None  # set when the first reading has come (or been refused)
    _composed = False  # every widget of the screen mounted (on_mount has run)
    _kept: tuple | None = None  # the first reading's answer, come before the screen was composed

    async def on_mount(self) -> None:
        self.set_class(self.app.size.width < NARROW, "narrow")
        if self._answered is not None and self._kept is None:
            # The screen is laid out and drawn once, with the stacks, not first empty and
            # then again (a whole layout and drawing, 20-30 ms of CPU at 80x24): the first
            # reading is awaited a moment, the UI thread left to it meanwhile. A slow
            # database shows the screen empty after FIRST_WAIT, and the stacks as they come.
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._answered.wait(), FIRST_WAIT)
        self._composed = True
        if self._kept is not None:
            kept, self._kept = self._kept, None
            self._show(kept)

    def on_resize(self, event) -> None:
        # Under NARROW columns the stacks go above the units, whose loss odds drop their bars.
        self.set_class(event.size.width < NARROW, "narrow")
        if self.shown_version is not None:
            self.call_after_refresh(self._rewrap)

    _shown_at: tuple[int, bool] | None = None  # the width and narrowness the units were laid out at

    def _rewrap(self) -> None:
        # The odds and names wrap to the new width; the first layout of the table, at the
        # width its rows were laid out at already, redraws nothing.
        if self._shown_at is not None and self._shown_at != self._layout_width():
            self.show_stack()

    def _layout_width(self) -> tuple[int, bool]:
        return self.query_one("#units", PagedTable).size.width or self.app.size.width, self.has_class("narrow")

    _reads = 0  # readings started: only the latest one's answer is shown
    _weather: str | None = None

    def refresh_view(self) -> None:
        # The stacks counted and the highlighted one's units planned in a worker; the list
        # of stacks stays where it was.
        early, self._early = self._early, None
        if early is not None and early == self.shown_version:
            return  # the reading started with the screen reads this version: its answer shows it
        keep = self.query_one("#stacks", OptionList).highlighted or 0
        self._read(lambda session: self._reading(session, keep))

    def _read(self, reading: Callable[[CampaignSession], tuple]) -> None:
        self._reads += 1
        number, session = self._reads, self.session
        self.attempt(lambda: (number, *reading(session)), worker=True, writes=False, then=self._show)

    @staticmethod
    def _reading(session: CampaignSession, index: int) -> tuple:
        stacks = forced_march.stacks(session)
        index = min(index, len(stacks) - 1)
        weather = forced_march.weather_now(session)
        plans = forced_march.plan(session, stacks[index], weather) if stacks else []
        return stacks, index, plans, weather

    def _show(self, read: tuple) -> None:
        number, stacks, index, plans, weather = read
        if number != self._reads:
            return  # a later reading was started meanwhile: its answer follows
        if not self._composed:
            self._kept = read  # the first reading, come while the screen is composed: shown once it is
            if self._answered is not None:
                self._answered.set()
            return
        self._weather = weather
        listed = self.query_one("#stacks", OptionList)
        if [(s.key, s.label) for s in stacks] != [(s.key, s.label) for s in self.stacks]:
            listed.clear_options()
            listed.add_options([Option(s.label, id=s.key) for s in stacks])
        self.stacks = stacks
        self.marked.clear()  # read again: the units marked before may have marched
        self.plans = {p.unit.id: p for p in plans}
        self._planned = stacks[index].key if stacks else None
        if stacks and listed.highlighted != index:
            listed.highlighted = index  # its highlight shows these plans, read already
        self.show_stack()

    def refused(self, exc: Exception) -> None:
        if self._answered is not None:
            self._answered.set()  # the first reading refused: the screen is shown without it
        super().refused(exc)

    def stack(self) -> forced_march.Stack | None:
        index = self.query_one("#stacks", OptionList).highlighted
        return self.stacks[index] if index is not None and index < len(self.stacks) else None

    _planned: str | None = None  # the key of the stack whose plans are kept

    def on_option_list_option_highlighted(self, _event: OptionList.OptionHighlighted) -> None:
        stack = self.stack()
        if stack is None or stack.key == self._planned:
            return
        self.marked.clear()
        stacks, index, weather = self.stacks, self.stacks.index(stack), self._weather
        self._read(lambda session: (stacks, index, forced_march.plan(session, stack), weather))

    def show_stack(self) -> None:
        """The units of the highlighted stack, as planned when it was read."""
        table = self.query_one("#units", PagedTable)
        keep = table.cursor_row
        plans = list(self.plans.values())
        width, narrow = self._shown_at = self._layout_width()
        # The odds keep their bars only where the unit's name still has room beside them.
        bars = not narrow and width - BARRED_ODDS >= MIN_NAME
        bar = (lambda c: odds_bar(c, 5)) if bars else (lambda _c: "")  # noqa: E731
        # A stack of a thousand units has a few odds (one per SP and modifier, shared by
        # forced_march.plan): each written once.
        written: dict[int, str] = {}
        for p in plans:
            key = id(p.odds)
            if key not in written:
                # One loss and its chance never part when the column wraps (no-break spaces inside).
                written[key] = "  ".join(
                    f"{loss}:{bar(chance)}{float(chance) * 100:3.0f}%".replace(" ", "\u00a0") for loss, chance in p.odds.items()
                )
        marked = set(self.marked)  # as now: rows added later show the marks of this drawing
        headers = ("", "Unit", "SP", "Coh", "Mod", "SP lost: odds")
        # The columns' widths from every unit; the text of a row only once it is added.
        # The unit's name wraps onto more lines of its row, whole, as in the order of battle.
        # A screenful now, the others as they scroll into view: a stack of a thousand units
        # costs about what one of twenty does.
        rows = _Rows(plans, marked, written)
        table.rest = None
        table.rest = fill(
            table, headers, rows, wrap_to=width, wrap="Unit", first=self.app.size.height, widths=rows.widths(headers),
        )
        if self.stack() is None:
            return
        if table.row_count:
            table.move_cursor(row=min(keep, table.row_count - 1))
        self.show_mods()

    def show_mods(self) -> None:
        plans = list(self.plans.values())
        weather = self._weather or "clear (weather not rolled)"
        # A stack's units share a few tuples of modifiers (one per cohesion): each named once.
        mods = sorted({f"{m.label} {m.value:+d}" for ms in {id(p.modifiers): p.modifiers for p in plans}.values() for m in ms})
        lines = [f"Weather: {weather}. Modifiers here: " + ("; ".join(mods) if mods else "none")]
        # The odds column of the table is off screen at 80 columns: the cursor's unit gets them here too.
        chosen = self.plans.get(self._selected_unit() or "") if plans else None
        if chosen is not None:
            odds = ", ".join(f"{loss} SP {float(chance) * 100:.0f}%" for loss, chance in chosen.odds.items())
            lines.append(f"{chosen.unit.name} ({chosen.modifier:+d}) loses: {odds}")
        text = "\n".join(lines)
        # The same lines, or as many of them: the screen is only redrawn, not laid out again.
        update_in_place(self.query_one("#mods", Static), text)

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        if event.data_table.id == "units":
            self.show_mods()

    def _selected_unit(self) -> str | None:
        table = self.query_one("#units", DataTable)
        if table.row_count == 0:
            return None
        return str(table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value)

    def action_mark(self) -> None:
        unit = self._selected_unit()
        if unit:
            self.marked ^= {unit}
            self.show_stack()

    def action_toggle_all(self) -> None:
        stack = self.stack()
        if stack:
            every = set(self.plans)
            self.marked = set() if self.marked == every else every
            self.show_stack()

    def _march(self, typed: bool) -> None:
        stack = self.stack()
        if stack is None:
            return
        selected = self._selected_unit()
        chosen = [u for u in self.plans if u in self.marked] or ([selected] if selected else [])
        if not typed and self.session.campaign().dice_mode != "entered":
            self.attempt(lambda: forced_march.march(self.session, stack, chosen), worker=True, then=self._done)
            return
        entered: dict[str, list[int]] = {}
        pending = list(chosen)

        def ask_next(values: list[int] | None = None) -> None:
            if values is not None:
                entered[pending.pop(0)] = values
            if pending:
                name = self.plans[pending[0]].unit.name
                self.with_dice(f"the forced march of {name}", "1d6", ask_next, typed=True)
            else:
                self.attempt(lambda: forced_march.march(self.session, stack, chosen, entered), worker=True, then=self._done)

        ask_next()

    def _done(self, result: object) -> None:
        if result is not None:
            self.marked.clear()

    def action_roll(self) -> None:
        self._march(typed=False)

    def action_enter(self) -> None:
        self._march(typed=True)


class _Rows(MadeRows):
    """The table's rows (unit id, cells) of the plans, each made when it is read."""

    def __init__(self, plans: list[forced_march.UnitMarch], marked: set[str], odds: dict[int, str]) -> None:
        # odds: the text of each plan's odds, by the id of its odds
        self.plans, self.marked, self.odds = plans, marked, odds

    def __len__(self) -> int:
        return len(self.plans)

    def row(self, index: int) -> tuple[str, tuple[object, ...]]:
        p = self.plans[index]
        unit = p.unit
        mark = "[x]" if unit.id in self.marked else "[ ]"
        odds = self.odds[id(p.odds)]
        return unit.id, (mark, unit.name, unit.strength_points, unit.cohesion, f"{p.modifier:+d}", odds)

    def widths(self, headers: Sequence[str]) -> list[int]:
        """Each column's widest cell (the header's included), as cells.fill counts them."""
        names = {p.unit.name for p in self.plans}
        figures = [
            {str(p.unit.strength_points) for p in self.plans},
            {str(p.unit.cohesion) for p in self.plans},
            {f"{p.modifier:+d}" for p in self.plans},
            set(self.odds.values()),
        ]
        widest = [len("[ ]"), max((_cells(n) for n in names), default=0), *(max((_cells(t) for t in f), default=0) for f in figures)]
        return [max(len(h), w) for h, w in zip(headers, widest)]


def _cells(text: str) -> int:
    # Most names are plain ASCII, where a character is a cell.
    return len(text) if text.isascii() and text.isprintable() else cell_len(shown(text))
