"""The map of the theatre: places, roads, rivers, both sides' stacks, battles and the weather.

Arrows move the cursor from place to place, +/- zoom, Enter opens the stacks at
the cursor with their actions (activate, move), g writes the same map as SVG.
"""

from __future__ import annotations

from itertools import groupby

from rich.segment import Segment
from rich.style import Style as RichStyle
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.geometry import Region
from textual.strip import Strip
from textual.style import Style as VisualStyle
from textual.widget import Widget
from textual.widgets import Static

from campaigns.errors import CampaignError
from campaigns.stacks import SightedStack
from campaigns.theatre_map import MapData, Opened, map_data, opened
from tui.screens.base import CampaignScreen
from tui.widgets.hanging import Hanging
from tui.widgets.theatre_canvas import LEGEND, ZOOMS, Drawing, Row, View, badges, step, texts, whole_theatre


class TheatreCanvas(Widget):
    """The map itself, drawn for the size it is given.

    Its lines are made here, as Textual would make them from the Text of `render()` (the
    same characters, styles and offsets, held equal in tests/tui/test_map_canvas.py), and
    kept: `redraw()` repaints only the lines that changed (a cursor move at the whole
    theatre's zoom: the lines of the labels it moved). A drawing with a character that is
    not one cell wide (a hostile side's letter), or a selection of text, is left to Textual.
    """

    DEFAULT_CSS = "TheatreCanvas { height: 1fr; width: 1fr; }"

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.data: MapData | None = None
        self.view = whole_theatre()
        self.cursor: str | None = None
        self._drawing = Drawing(0, 0)
        self._strips: dict[int, tuple[Row, Strip]] = {}  # the line last made for each row, with what it shows
        self._made: dict[tuple[int, str], tuple[tuple[RichStyle | None, ...], Strip]] = {}  # lines made lately, by row and text
        self._strip_style: tuple[VisualStyle, object] | None = None  # the base style they were made on
        self._styles: dict[RichStyle | None, VisualStyle] = {}  # a cell's style on that base
        # A cell's style on that base with its offset, by style and cell: a zoomed move draws
        # every line anew, mostly the same styles at the same cells (roads, blanks).
        self._at: dict[tuple[RichStyle | None, int, int], RichStyle] = {}

    def rows(self) -> tuple[list[Row], bool]:
        """The map's lines for the data, view, cursor and size it has now."""
        width, height = self.size
        if self.data is None:
            return [], False
        if (self._drawing.width, self._drawing.height) != (width, height):
            self._drawing = Drawing(width, height)
        return self._drawing.rows(self.data, self.view, self.cursor)

    def redraw(self) -> None:
        """Show what changed in the data, view or cursor: only the lines that differ from the
        lines last made (what the terminal shows) are repainted."""
        rows, plain = self.rows()
        if not (plain and self._strips) or self.text_selection is not None:
            self.refresh()
            return
        regions: list[Region] = []
        width = self.size.width
        for y, row in enumerate(rows):
            made = self._strips.get(y)
            if made is not None and made[0] == row:
                continue
            if regions and regions[-1].bottom == y:  # next lines as one region
                regions[-1] = Region(0, regions[-1].y, width, regions[-1].height + 1)
            else:
                regions.append(Region(0, y, width, 1))
        if regions:
            self.refresh(*regions)

    def render(self) -> Text:
        if self.data is None:
            return Text("")
        return Text("\n").join(texts(self.rows()[0]))

    def render_line(self, y: int) -> Strip:
        rows, plain = self.rows()
        if not plain or self.text_selection is not None or not 0 <= y < len(rows):
            self._strips.clear()  # what Textual makes is not kept here: the next redraw repaints every line
            return super().render_line(y)  # Textual makes the lines from render()
        style = self.visual_style
        if self._strip_style != (style, self.app.ansi_theme):
            self._strip_style, self._strips, self._made, self._styles, self._at = (style, self.app.ansi_theme), {}, {}, {}, {}
        row = rows[y]
        last = self._strips.get(y)
        if last is not None and last[0] == row:
            return last[1]
        made = self._made.get((y, row[0]))
        if made is not None and made[0] == row[1]:
            strip = made[1]
        else:
            if len(self._made) > 4 * len(rows):  # a few drawings' worth (zooming back out finds its lines)
                self._made.clear()
            strip = self._make_line(row, y, style)
            self._made[(y, row[0])] = (row[1], strip)
        self._strips[y] = (row, strip)
        return strip

    def _make_line(self, row: Row, y: int, base: VisualStyle) -> Strip:
        """A line as Textual makes it from its Text (textual.content.Content.render and
        _FormattedLine.to_strip): a segment for each styled character and each run of blanks,
        in the style it has on the widget's, with its offset for selecting text."""
        segments, x = [], 0
        chars, styles = row
        at = self._at
        if len(at) > 4 * len(chars) * max(self.size.height, 1):  # a few drawings' worth (each style a cell 0.3-0.5 kB)
            at.clear()
        for run, group in groupby(zip(chars, styles), key=lambda cell: cell[1] is None):
            cells = list(group)
            if run:
                segments.append(Segment(" " * len(cells), self._at_cell(None, x, y, base)))
                x += len(cells)
                continue
            for ch, cell_style in cells:
                segments.append(Segment(ch, self._at_cell(cell_style, x, y, base)))
                x += 1
        return Strip(segments, x)

    def _at_cell(self, style: RichStyle | None, x: int, y: int, base: VisualStyle) -> RichStyle:
        key = (style, x, y)
        found = self._at.get(key)
        if found is None:
            found = self._at[key] = self._on_base(style, base).rich_style_with_offset(x, y)
        return found

    def _on_base(self, style: RichStyle | None, base: VisualStyle) -> VisualStyle:
        found = self._styles.get(style)
        if found is None:
            spans = [base] if style is None else [base, VisualStyle.from_rich_style(style, self.app.ansi_theme)]
            found = self._styles[style] = base + VisualStyle.combine(spans)
        return found


def _spelled(place: object) -> str:
    """A place as a pick list shows it: its name and the other spellings it is found by."""
    variants = getattr(place, "variants", ())
    return f"{place.name} ({', '.join(variants)})" if variants else str(place.name)  # type: ignore[attr-defined]  # a gazetteer Place: campaigns is not imported here for its type


LEGEND_FROM = 30  # terminal rows: below this the map keeps the two rows the legend would take at 80 columns


class TheatreScreen(CampaignScreen):
    TITLE_TEXT = "Map"
    BINDINGS = [
        Binding("left", "step(-1, 0)", "West", id="map.west", tooltip="The nearest place to the west", show=False),
        Binding("right", "step(1, 0)", "East", id="map.east", tooltip="The nearest place to the east", show=False),
        Binding("up", "step(0, -1)", "North", id="map.north", tooltip="The nearest place to the north", show=False),
        Binding("down", "step(0, 1)", "South", id="map.south", tooltip="The nearest place to the south", show=False),
        Binding("plus,equals_sign", "zoom(1)", "Zoom in", id="map.zoom_in", tooltip="Zoom in on the cursor"),
        Binding("minus", "zoom(-1)", "Zoom out", id="map.zoom_out", tooltip="Zoom out"),
        Binding("enter", "stacks", "Stacks here", id="map.stacks", tooltip="The stacks at the cursor and their actions"),
        Binding("n", "next_stack", "Next stack", id="map.next", tooltip="Move the cursor to the next place holding a stack"),
        Binding("slash", "go_to", "Go to place", id="map.go_to", key_display="/", tooltip="Type a place's name (any spelling) and move the cursor there"),
        Binding("g", "svg", "Save SVG", id="map.svg", tooltip="Write this map as an SVG picture beside the campaign file"),
        Binding("v", "view_as", "View as", id="map.view_as", tooltip="The umpire: draw the map as one side sees it (fog of war), or whole"),
    ]
    UMPIRE_ONLY = frozenset({"view_as"})  # a side file shows only its own side's view

    @classmethod
    def offered(cls, action: str, session: object) -> bool:
        # On a club's server the map's file would be written on the server's disk, where a
        # player's login has no business making (or filling it with) files: the umpire's alone.
        if action == "svg":
            from campaigns.player import ClubPlayerSession

            if isinstance(session, ClubPlayerSession):
                return False
        return super().offered(action, session)
    view_side: str | None = None  # the side whose view the umpire is looking at; None: everything
    _announce = False  # the umpire changed whose view is drawn: the map, once read, says whose it is
    DEFAULT_CSS = """
    TheatreScreen #head { height: auto; padding: 0 1; }
    TheatreScreen #info { height: auto; padding: 0 1; border-top: solid $primary; }
    """

    def body(self) -> ComposeResult:
        yield Static(id="head", markup=False)
        yield TheatreCanvas(id="canvas")
        yield Static(id="info", markup=False)

    @property
    def canvas(self) -> TheatreCanvas:
        return self.query_one("#canvas", TheatreCanvas)

    _reads = 0  # readings of the map started: only the answer to the last one is shown

    def refresh_view(self) -> None:
        # In a worker: the stacks are counted by the database (campaigns.stacks.counted_stacks),
        # which leaves Python's lock to the UI thread meanwhile. Through attempt's worker,
        # which holds the keys typed meanwhile (tui.keys): a cursor key or Enter pressed at
        # once after p acts on the map drawn, not on nothing.
        self._reads += 1
        number, session, side = self._reads, self.session, self.view_side
        self.attempt(
            lambda: (map_data(session, side=side), number), worker=True, writes=False,
            then=lambda read: self._show_map(*read),
        )

    def _show_map(self, data: MapData, number: int) -> None:
        if number != self._reads:
            return  # a later reading was started meanwhile (another side's view): its answer follows
        if self._announce:
            self._announce = False
            self.notify(f"The map as seen by {data.seen_by}." if data.seen_by else "The whole map, as the umpire knows it.")
        canvas = self.canvas
        canvas.data = data
        if canvas.cursor is None:
            held = [p for p in data.places if p.stacks]
            canvas.cursor = max(held, key=lambda p: sum(s.strength_points for s in p.stacks)).place.name if held else data.places[0].place.name
        self.show_cursor()

    def show_cursor(self) -> None:
        canvas = self.canvas
        data = canvas.data
        if data is None or canvas.cursor is None:
            return
        here = data.at(canvas.cursor)
        width, height = canvas.size.width or 80, canvas.size.height or 18
        if not canvas.view.shows(here.x, here.y, width, height) or ZOOMS[canvas.view.zoom] > 1:
            canvas.view = View(here.x, here.y, canvas.view.zoom) if canvas.view.zoom else canvas.view
        weather = data.weather or "weather not rolled"
        battles = f" | battles pending: {', '.join(data.battles)}" if data.battles else ""
        waiting = [c for c in data.contacts if c not in data.battles]
        battles += f" | contact: {', '.join(waiting)}" if waiting else ""
        seen = f" | seen by {data.seen_by}" if data.seen_by else ""
        self.query_one("#head", Static).update(
            f"Map{seen}: turn {data.turn}, {data.date:%d %b %Y}, {weather} | zoom x{ZOOMS[canvas.view.zoom]:g}{battles}"
        )
        roads = ", ".join(sorted({(r[1] if r[0] == here.place.name else r[0]) for r in data.roads if here.place.name in r[:2]}))
        stacks = "; ".join(s.summary() for s in here.stacks) or "no stack"
        marks = f" {badges(here)}" if here.stacks else ""  # no stray space before the colon of a place nobody holds
        lines = [f"{here.place.name} ({here.place.kind}){marks}: {stacks}", f"Roads to {roads}"]
        if self.app.size.height >= LEGEND_FROM:
            lines.append(LEGEND)
        # Whole, on more lines when long (the stacks of a crowded place): the map gives up
        # the rows they take rather than the text being cut.
        self.query_one("#info", Static).update(Hanging(lines))
        canvas.redraw()

    def on_resize(self) -> None:
        self.show_cursor()

    def action_step(self, dx: int, dy: int) -> None:
        canvas = self.canvas
        if canvas.data is None or canvas.cursor is None:
            return
        canvas.cursor = step(canvas.data, canvas.cursor, dx, dy)
        self.show_cursor()

    def action_zoom(self, change: int) -> None:
        canvas = self.canvas
        zoom = max(0, min(len(ZOOMS) - 1, canvas.view.zoom + change))
        if zoom == 0:
            canvas.view = whole_theatre()
        elif canvas.data is not None and canvas.cursor is not None:
            here = canvas.data.at(canvas.cursor)
            canvas.view = View(here.x, here.y, zoom)
        self.show_cursor()

    def action_next_stack(self) -> None:
        canvas = self.canvas
        if canvas.data is None:
            return
        held = sorted(p.place.name for p in canvas.data.places if p.stacks)
        if held:
            later = [name for name in held if canvas.cursor is None or name > canvas.cursor]
            canvas.cursor = (later or held)[0]
            self.show_cursor()

    def action_go_to(self) -> None:
        """Ask for a place of the map by name, with completion, and move the cursor there."""
        from tui.modals.pick import PickScreen

        canvas = self.canvas
        if canvas.data is None:
            return
        items = [(p.place.name, _spelled(p.place)) for p in sorted(canvas.data.places, key=lambda p: p.place.name)]

        def went(name: str | None) -> None:
            if name and canvas.data is not None and any(p.place.name == name for p in canvas.data.places):
                canvas.cursor = name
                self.show_cursor()

        self.app.push_screen(PickScreen("Go to: type the place (any spelling)", items), went)

    # -- the stacks at the cursor and their actions --------------------------------

    def action_stacks(self) -> None:
        canvas = self.canvas
        if canvas.data is None or canvas.cursor is None:
            return
        here = canvas.data.at(canvas.cursor)
        if not here.stacks:
            self.notify(f"No stack at {here.place.name}.", severity="warning")
            return
        if self.session.side:
            self.order_actions(here)
            return
        # The units of the stacks here only, read in a worker (the map counts them, not reads them).
        session, place = self.session, here.place.name
        self.attempt(lambda: opened(session, place), worker=True, writes=False, then=lambda found: self.pick_action(here, found))

    def pick_action(self, here, found: Opened) -> None:
        from campaigns.words import plural
        from tui.modals.pick import PickScreen

        items: list[tuple[str, str]] = []
        if found.in_contact:
            items.append((f"battle:{here.place.name}", f"Battle at {here.place.name}: set it up with the stacks in contact"))
        for shown in here.stacks:
            if isinstance(shown, SightedStack):
                continue
            s = found.stacks.get(shown.key)
            if s is None:  # gone since the map was read: the map is redrawn with what is there now
                continue
            who = ", ".join(g.name for g in s.generals) or "no general"
            units = ", ".join(f"{u.name} ({u.kind}, {u.strength_points} SP)" for u in s.units)
            if s.unit_count > len(s.units):  # a crowded stack: its first units named (campaigns.theatre_map.NAMED_UNITS)
                units += f", and {plural(s.unit_count - len(s.units), 'more unit')} ({s.strength_points} SP in all)"
            items.append((f"move:{s.key}", f"Move: {s.side_name}, {who}: {units}"))
            if len(s.generals) + s.unit_count > 1:  # a stack over the card's stacking limits moves in parts
                items.append((f"part:{s.key}", f"Move part: {s.side_name}, {who}: tick the generals and units that move"))
            items.append((f"activate:{s.key}", f"Activate: {s.side_name}, {who}"))
            items.append((f"entrench:{s.key}", f"Entrench ({found.entrench_cost} PC): {s.side_name}, {who}"))
            for enemy in found.enemies.get(s.key, ()):
                items.append((f"recon:{s.key}>{enemy.key}", f"Reconnoitre from {s.side_name} ({who}) against {enemy.badge()} at {enemy.place}"))
        self.app.push_screen(PickScreen(f"Stacks at {here.place.name}: pick an action", items), self.stack_action)
        # What the actions need (the routes' graph), imported while the umpire reads the list,
        # once it is drawn: the pick then finds it loaded.
        self.call_after_refresh(lambda: self.run_worker(_import_actions, thread=True, group="map-actions", exit_on_error=False))

    def action_view_as(self) -> None:
        from campaigns.knowledge import side_ids

        if self.session.side:
            self.notify("A side file shows only its own side's view.", severity="warning")
            return
        sides = [None, *side_ids(self.session)]
        self.view_side = sides[(sides.index(self.view_side) + 1) % len(sides)]
        self._announce = True
        self.refresh_view()

    def order_actions(self, here) -> None:
        """A player's stacks at the cursor: orders to write (a move; a reconnaissance of the enemy seen in reach)."""
        from campaigns.gazetteer import gazetteer
        from tui.modals.pick import PickScreen

        own = [s for s in here.stacks if not isinstance(s, SightedStack)]
        if not own:
            self.notify(f"None of your stacks is at {here.place.name}.", severity="warning")
            return
        data = self.canvas.data
        near = {here.place.name} | gazetteer().neighbours(here.place.name)
        items: list[tuple[str, str]] = []
        for s in own:
            who = ", ".join(g.name for g in s.generals) or "no general"
            items.append((f"order-move:{s.key}", f"Order a move: {who} ({s.strength_points} SP)"))
            for p in data.places if data else ():
                for enemy in p.stacks:
                    if isinstance(enemy, SightedStack) and p.place.name in near:
                        items.append((f"order-recon:{s.key}>{p.place.name}", f"Ask for a reconnaissance by {who} of {enemy.badge()} at {p.place.name}"))
        self.app.push_screen(PickScreen(f"Your stacks at {here.place.name}: pick an order", items), self.order_action)

    def order_action(self, choice: str | None) -> None:
        from campaigns import orders
        from campaigns.gazetteer import gazetteer
        from tui.modals.pick import PickScreen

        if not choice:
            return
        action, _, key = choice.partition(":")
        if action == "order-recon":
            ours, _, place = key.partition(">")
            self.attempt(lambda: orders.write(self.session, "reconnaissance", ours, place), worker=True)
            return
        items = [(name, name) for name in sorted(gazetteer().places)]

        def to(place: str | None) -> None:
            if place:
                self.attempt(lambda: orders.write(self.session, "move", key, place), worker=True)

        self.app.push_screen(PickScreen("Order a move to: type the place", items), to)

    def stack_action(self, choice: str | None) -> None:
        if not choice:
            return
        action, _, key = choice.partition(":")
        if action == "battle":
            from tui.screens.battle_setup import BattleSetupScreen

            self.app.push_screen(BattleSetupScreen(key))
            return
        from campaigns import movement, reconnaissance  # the routes' graph: loaded once a stack is opened, not with the map

        if action == "activate":
            self.attempt(lambda: movement.activate(self.session, key), worker=True)
            return
        if action == "entrench":
            self.attempt(lambda: movement.entrench(self.session, key), worker=True)
            return
        if action == "part":
            self.attempt(lambda: movement.stack_of(self.session, key), worker=True, writes=False, then=lambda stack: self.pick_part(key, stack))
            return
        if action == "recon":
            ours, _, theirs = key.partition(">")
            if self.session.campaign().dice_mode == "entered":
                self.notify("Reconnaissance with dice typed in: the Reconnaissance screen (i).", severity="warning")
                return
            self.attempt(lambda: reconnaissance.reconnoitre_stack(self.session, ours, theirs), worker=True)
            return
        self.pick_destination(key)

    def pick_destination(self, key: str, only: list[str] | None = None) -> None:
        from campaigns.gazetteer import gazetteer
        from tui.modals.pick import PickScreen

        items = [(name, _spelled(p)) for name, p in sorted(gazetteer().places.items())]
        self.app.push_screen(PickScreen("Move to: type the place (any spelling)", items), lambda to: self.confirm_move(key, to, only))

    def pick_part(self, key: str, stack) -> None:
        """The generals and units of the stack, each ticked to move with the part (all at first)."""
        from tui.modals.ticks import TicksScreen

        items = [(g.id, f"{g.name} (general)", True) for g in stack.generals]
        items += [(u.id, f"{u.name} ({u.kind}, {u.strength_points} SP)", True) for u in stack.units]

        def ticked(ids: list[str] | None) -> None:
            if ids:
                self.pick_destination(key, ids)
            elif ids is not None:
                self.notify("Nothing ticked: nothing moves.", severity="warning")

        self.app.push_screen(TicksScreen(f"Move part of {stack.label}: untick those who stay", items), ticked)

    def confirm_move(self, key: str, destination: str | None, only: list[str] | None = None, override: str = "") -> None:
        from campaigns import movement
        from campaigns.routes import EnemyHeld

        if not destination:
            return
        from tui.modals.confirm import ConfirmScreen

        try:
            report = movement.plan_move(self.session, key, destination, only, override)
        except EnemyHeld as exc:  # the umpire may let the move through, with his reason (option enemy_held_place)
            self.ask_through(key, destination, only, str(exc))
            return
        except CampaignError as exc:
            self.notify(str(exc), severity="error", timeout=8)
            return
        forced = not report.allowed and report.forcible(self.session.options())
        if report.activation is None or (not report.allowed and not forced):
            reason = report.refusal or "the stack has not been activated this turn; activate it first"
            self.notify(f"{report.stack.label} cannot move to {report.destination}: {reason}", severity="error", timeout=10)
            return
        if forced and self.session.campaign().dice_mode == "entered":
            self.notify("A forced march with dice typed in: adjutant move --forced, or the Forced march screen.", severity="warning", timeout=10)
            return
        ask = (
            f"Force-march {report.stack.label} to {report.destination}, {report.shortfall} MP beyond? "
            "Each unit rolls on the forced march table."
            if forced
            else f"Move {report.stack.label} to {report.destination}?"
        )
        # The route and its price; not the verdict "Refused: ..." above a question that offers the forced march.
        lines = report.lines()[1:-1] if forced else report.lines()[1:]
        question = "\n".join(lines) + "\n\n" + ask

        def answered(yes: bool | None) -> None:
            if yes:
                self.canvas.cursor = report.destination  # the map follows the stack when it redraws
                self.attempt(lambda: movement.move(self.session, key, destination, only, forced=forced, override=override),
                             worker=True)

        self.app.push_screen(ConfirmScreen(question, "Force-march" if forced else "Move"), answered)

    def ask_through(self, key: str, destination: str, only: list[str] | None, why: str) -> None:
        """The route is barred by the enemy: the umpire's reason lets the move pass, and is recorded."""
        from tui.modals.form import FormScreen

        def check(values: dict[str, str]) -> None:
            if not values.get("reason", "").strip():
                raise CampaignError("give the umpire's reason to pass through the enemy, or Escape")

        def done(values: dict[str, str] | None) -> None:
            if values:
                self.confirm_move(key, destination, only, values["reason"].strip())

        fields = [("reason", "Umpire's reason", "", None)]
        self.app.push_screen(FormScreen(f"{why[:1].upper()}{why[1:]}.", fields, check=check), done)

    def action_svg(self) -> None:
        from campaigns.map_svg import map_file, write_svg
        from campaigns.text import shown

        canvas = self.canvas
        if canvas.data is None:
            return
        try:
            written = write_svg(canvas.data, map_file(self.session, canvas.data.turn))
        except OSError as exc:
            self.notify(f"The map could not be written: {exc.strerror or exc}", severity="error", markup=False)
            return
        except (CampaignError, ValueError) as exc:  # the name is a folder or a link, the folder is gone
            self.notify(f"The map could not be written: {exc}", severity="error", markup=False)
            return
        self.notify(f"Wrote {shown(str(written))}", markup=False)  # a file's name is no markup


def _import_actions() -> None:
    from campaigns import movement, reconnaissance  # noqa: F401  (imported for stack_action)
