"""Reconnaissance: choose the reconnoitring cavalry and the screen, see the odds, roll."""

from __future__ import annotations

import asyncio
import contextlib

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import Select, Static

from campaigns import forces
from campaigns.errors import CampaignError
from campaigns.listed import Listing
from campaigns.session import CampaignSession
from campaigns.words import column
from tui.screens.base import CampaignScreen
from tui.textual_private import select_listed_on_open
from tui.widgets.bars import odds_bar
from tui.widgets.marklist import ListedRows, MarkList, listed_rows

FIRST_WAIT = 0.3  # seconds the first layout waits for the first reading (as the forced march's)


class ReconnaissanceScreen(CampaignScreen):
    TITLE_TEXT = "Reconnaissance"
    BINDINGS = [
        # Not F5: that is the app's Reload on every screen.
        Binding("ctrl+r", "roll", "Roll", id="recon.roll", tooltip="Roll the reconnaissance (1d6 on its table)"),
        Binding("ctrl+e", "enter", "Enter die", id="recon.enter", tooltip="Type in the die rolled on the table"),
        # s on the side's list (a Select): to the reconnoitring units, where s marks a whole stack,
        # as the title says; the app's s (Save a copy) opened over the screen instead.
        Binding("s", "to_forces", "Forces", id="recon.forces", show=False,
                tooltip="Go to the reconnoitring units, where s marks a whole stack"),
    ]
    UMPIRE_ONLY = frozenset({"roll", "enter"})
    DEFAULT_CSS = """
    ReconnaissanceScreen #lists { height: 1fr; }
    ReconnaissanceScreen #lists MarkList { height: 1fr; max-height: 100%; }
    ReconnaissanceScreen #preview { height: auto; padding: 0 1; }
    ReconnaissanceScreen Select { width: 48; }
    """

    def body(self) -> ComposeResult:
        self.sides = forces.sides(self.session)
        ours, theirs = MarkList(id="ours"), MarkList(id="theirs")
        if self.sides:
            # The first side's stacks are read from here, as the screen is built: the
            # database counts them (off Python's lock, on the other core) while Textual
            # composes, mounts, styles and lays out the screen, instead of after it. The
            # Select shows the first side (allow_blank=False), and nothing is marked yet.
            self._side = self.sides[0][0]
            self._early = (self.session.version(), self._side)
            self._answered = asyncio.Event()
            self._start_read(self._side, ours, theirs, ours=True)
        yield Static(
            f"Reconnaissance (6.3): {self.hint((None, 'Space marks, s a whole stack'), ('roll', 'ctrl+r rolls'), between='; ')}",
            classes="title",
        )
        # Its list of sides built when first opened: most visits never open it.
        yield select_listed_on_open()([(f"{name} reconnoitres", side) for side, name in self.sides], allow_blank=False, id="who", compact=True)
        with Vertical(id="lists"):
            yield Static("Reconnoitring units (one stack), by place and general", id="ours-title")
            yield ours
            yield Static("Screening units: mark the reconnoitring stack first", id="theirs-title", markup=False)
            yield theirs
        yield Static(id="preview", markup=False)

    async def on_mount(self) -> None:
        if self._answered is not None and self._early_view is None:
            # The lists are laid out and drawn once, with the stacks, not first empty and then
            # again (a layout and drawing of the screen, on the UI thread the reading shares):
            # the first reading is awaited a moment. A slow database shows the screen empty
            # after FIRST_WAIT, and the stacks as they come.
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._answered.wait(), FIRST_WAIT)
        self._composed = True
        if self._early_view is not None:  # the first reading came while the screen was built
            view, self._early_view = self._early_view, None
            self._show(view)

    _reads = 0  # readings started: only the latest one's answer is shown
    _side: str | None = None  # the side whose stacks were last asked for
    _early: tuple[int, str] | None = None  # the version and side the reading started with the screen reads
    _early_view: tuple | None = None  # its answer, come before the screen was mounted
    _answered: asyncio.Event | None = None  # set when the first reading has come (or been refused)
    _composed = False  # every widget of the screen mounted (on_mount has run)

    def refresh_view(self) -> None:
        self._side = str(self.query_one("#who", Select).value)
        early, self._early = self._early, None
        if early == (self.shown_version, self._side):
            return  # the reading started with the screen reads this version and side: its answer shows them
        self._read(ours=True)

    def _read(self, *, ours: bool = False, screens: bool = True) -> None:
        """Read again, in a worker, what the marks show: the reconnoitring side's stacks
        (`ours`), the screens in reach of the stack marked (`screens`) and the preview."""
        who = str(self.query_one("#who", Select).value)
        self._start_read(who, self.query_one("#ours", MarkList), self.query_one("#theirs", MarkList), ours=ours, screens=screens)

    def _start_read(self, who: str, our_list: MarkList, their_list: MarkList, *, ours: bool = False, screens: bool = True) -> None:
        self._reads += 1
        number, session = self._reads, self.session
        listed = None if ours else our_list.listed
        marked, screening = set(our_list.marked), set(their_list.marked)
        shown_screens = None if screens else their_list.listed
        width = our_list.line_width or max(self.app.size.width - our_list.styles.scrollbar_size_vertical, 0)
        lines = self.app.size.height  # no list shows more rows than the screen has lines
        self.attempt(
            lambda: (number, *_view(session, who, listed, marked, shown_screens, screening, width, lines)),
            worker=True, writes=False, then=self._show,
        )

    def _show(self, view: tuple) -> None:
        number, ours, theirs, title, preview = view
        if number != self._reads:
            return  # a later reading was started meanwhile: its answer follows
        if not self._composed:
            self._early_view = view  # shown once the screen is mounted
            if self._answered is not None:
                self._answered.set()
            return
        our_list, their_list = self.query_one("#ours", MarkList), self.query_one("#theirs", MarkList)
        if ours is not our_list.listed:
            our_list.set_listing(ours)
        if theirs is not their_list.listed:
            their_list.set_listing(theirs)
        if title is not None:
            self.query_one("#theirs-title", Static).update(title)
        self.query_one("#preview", Static).update(preview)

    def refused(self, exc: Exception) -> None:
        if self._answered is not None:
            self._answered.set()  # the first reading refused: the screen is shown without it
        super().refused(exc)

    def on_select_changed(self, event: Select.Changed) -> None:
        if str(event.value) == self._side:
            return  # the side shown (the Select tells its first value as it is mounted)
        for list_id in ("#ours", "#theirs"):
            self.query_one(list_id, MarkList).marked = set()
        self.refresh_view()

    def on_mark_list_changed(self, event: MarkList.Changed) -> None:
        self._read(screens=event.marks.id == "ours")

    def chosen(self) -> tuple[list[str], list[str]]:
        return self.query_one("#ours", MarkList).selected, self.query_one("#theirs", MarkList).selected

    def _roll(self, typed: bool) -> None:
        from campaigns import reconnaissance

        ours, theirs = self.chosen()
        self.with_dice("the reconnaissance", "1d6",
                       lambda d: self.attempt(lambda: reconnaissance.reconnoitre(self.session, ours, theirs, d, in_reach=True), worker=True), typed=typed)

    def action_to_forces(self) -> None:
        self.query_one("#ours", MarkList).focus()

    def action_roll(self) -> None:
        self._roll(typed=False)

    def action_enter(self) -> None:
        self._roll(typed=True)


def _view(
    session: CampaignSession, who: str, ours: ListedRows | None, marked: set[str],
    theirs: ListedRows | None, screening: set[str], width: int, lines: int = 0,
) -> tuple[ListedRows, ListedRows, str | None, str]:
    """What the screen shows for these marks, read off the UI thread: the reconnoitring
    side's stacks (counted unless given), the enemy stacks in reach of the marked stack
    (counted unless given), laid out at `width`, the title over them (None: as it is) and
    the preview. Only the units marked are read, and those of the first `lines` rows of
    a list counted anew (the rows in view, when it is drawn); the others as they scroll
    into view."""
    if ours is None:
        ours = listed_rows(Listing(session, [who]), width, lines)
    reconnoitring = ours.listing.in_order(marked)
    title = None
    if theirs is None and not reconnoitring:
        theirs, title = listed_rows(Listing(session, [])), "Screening units: mark the reconnoitring stack first"
    if theirs is None:
        # The card's modules, imported once a unit is marked: the screen is shown without them.
        from campaigns import reconnaissance

        # The enemy stacks in reach of the stack the reconnaissance is made from (option
        # reconnaissance_reach): a screen is chosen from those only.
        try:
            place = reconnaissance.from_one_place(session, reconnoitring)
        except CampaignError:
            place = None  # units of several places: the preview says why
        if place is None:
            theirs, title = listed_rows(Listing(session, [])), "Screening units: mark the reconnoitring stack first"
        else:
            reach = reconnaissance.reach_from(session, place)
            others = [side for side, _name in forces.sides(session) if side != who]
            theirs = listed_rows(Listing(session, others, reach), width, lines)
            title = f"Screening units in reach of {place}{'' if theirs.listing.stacks else ': no enemy stack in reach'}"
    return ours, theirs, title, _preview(session, reconnoitring, theirs.listing.in_order(screening))


def _preview(session: CampaignSession, ours: list[str], theirs: list[str]) -> str:
    if not ours:
        return "Mark the units making the reconnaissance, and the units screening."
    from campaigns import reconnaissance

    try:
        reconnaissance.check_reach(session, ours, theirs)
        step = reconnaissance.plan(session, ours, theirs)
    except CampaignError as exc:
        return str(exc)
    if step.column is None:
        return f"Cavalry SP differential {step.differential}: no column, nothing to roll."
    mods = ", ".join(f"{m.label} {m.value:+d}" for m in step.modifiers) or "none"
    lines = [f"Cavalry SP differential {step.differential}: column {column(step.column)}; modifiers: {mods}"]
    lines += [f"  {k:>2} {odds_bar(p, 12)} {float(p) * 100:5.1f}%" for k, p in step.odds.items()]
    return "\n".join(lines)
