"""The mark list (tui/widgets/marklist.py) of a side of thousands of units: it draws the
lines in view only, wraps only a row longer than it is wide, and marks whole stacks."""

from __future__ import annotations

from dataclasses import replace

import pytest
from textual.app import App, ComposeResult
from textual.strip import Strip

from campaigns.forces import Command, Force, Stack
from tests.tui.helpers import screen_text
from tests.tui.polling import settled, until
from tui.widgets.marklist import MarkList

LONG = "Corps of the Army of Bohemia under a general whose name and titles run on past the list's edge"
STACKS = [
    Stack(f"Place {p}", (Command(f"g{p}", f"General {p}", tuple(
        Force(f"u{p}-{n}", LONG if (p, n) == (3, 7) else f"Brigade {p}-{n}", "infantry", 4, 3, f"g{p}") for n in range(1000)
    )),))
    for p in range(20)
]


class Counted(MarkList):
    """A mark list that counts the lines it is asked to draw."""

    drawn = 0

    def render_line(self, y: int) -> Strip:
        self.drawn += 1
        return super().render_line(y)


class Lists(App):
    CSS = "Counted { height: 1fr; max-height: 100%; }"

    def compose(self) -> ComposeResult:
        yield Counted(STACKS, id="marks")

    def on_mount(self) -> None:
        self.query_one(Counted).focus()


async def test_twenty_thousand_units_are_drawn_a_screenful_at_a_time_and_only_the_long_row_wraps():
    app = Lists()
    async with app.run_test(size=(80, 24)) as pilot:
        marks = app.query_one(Counted)
        await until(pilot, lambda: "Brigade 0-0" in screen_text(app), "the first rows drawn")
        assert len(marks._rows) == 20 * (1 + 1 + 1000)
        long_row = next(i for i, row in enumerate(marks._rows) if row.label.startswith(LONG))
        assert list(marks._wrapped) == [long_row]  # the one row longer than the list is wide
        lines = marks.lines_of(long_row)
        assert len(lines) == 2 and lines[1].startswith(" " * 8) and lines[1].strip().endswith("infantry 4 SP")
        assert marks.virtual_size.height == len(marks._rows) + 1
        assert marks.drawn < 24 * 10  # a few screenfuls, not 20,000 lines
        await pilot.press("s")  # the whole stack at the cursor
        await settled(pilot)
        assert marks.selected == [f.id for f in STACKS[0].forces]
        await pilot.press("end")
        await until(pilot, lambda: "[ ] Brigade 19-999" in screen_text(app), "the last row in view")
        assert marks.highlighted == len(marks._rows) - 1
        await pilot.press("space")
        await until(pilot, lambda: "[x] Brigade 19-999" in screen_text(app), "the last row marked")
        assert marks.selected[-1] == "u19-999" and len(marks.selected) == 1001
        assert marks.drawn < 24 * 30


def _awkward(path) -> None:
    """spring1813 with what a file may hold: places stored with spaces around them, a
    unit of no general (one the file no longer has is refused at opening, models.gate), names that are not ASCII, wide, long or alike."""
    import sqlite3

    db = sqlite3.connect(path)
    ids = [row[0] for row in db.execute("SELECT id FROM unit ORDER BY id")]
    db.execute("UPDATE unit SET location = '  ' || location || ' ' WHERE id = ?", (ids[0],))
    db.execute("UPDATE unit SET general = NULL WHERE id IN (?, ?)", (ids[1], ids[2]))
    db.execute("UPDATE unit SET general = NULL WHERE id = ?", (ids[3],))
    db.execute("UPDATE unit SET name = 'Württemberg Jäger' WHERE id = ?", (ids[4],))
    db.execute("UPDATE unit SET name = '近衛 歩兵 連隊 第一 大隊 の 長い 名前 が ここ に 続く 大隊' WHERE id = ?", (ids[5],))
    db.execute("UPDATE unit SET name = ? WHERE id = ?", (LONG, ids[6]))
    db.execute("UPDATE unit SET name = 'Same name' WHERE id IN (?, ?, ?)", (ids[7], ids[8], ids[9]))
    db.execute("UPDATE unit SET name = 'a lower case name' WHERE id = ?", (ids[10],))
    db.commit()
    db.close()


@pytest.mark.parametrize("width", [0, 30, 56, 78, 118])
def test_a_listing_read_a_page_at_a_time_shows_the_rows_of_every_unit_read_at_once(campaign_file, width):
    """campaigns.listed counts a side in SQL and reads its units as they are drawn: the
    same rows, in the same order, wrapped the same, as campaigns.forces read whole."""
    from campaigns import forces
    from campaigns.listed import Listing
    from campaigns.session import CampaignSession
    from tui.widgets.marklist import listed_rows

    _awkward(campaign_file)
    session = CampaignSession.open(campaign_file)
    try:
        sides = [side for side, _name in forces.sides(session)]
        places = {st.place for side in forces.stacks(session) for st in side.stacks}
        reach = sorted(places)[:3] + [forces.NOWHERE]
        for of_sides, at in [([sides[0]], None), ([sides[1]], None), (sides, None), (sides[1:], set(reach))]:
            # Units of the same name came in the order the database read them, which no
            # query fixed; a listing reads them by id.
            whole = [replace(st, commands=tuple(replace(c, forces=tuple(sorted(c.forces, key=lambda f: (f.name, f.id))))
                                                for c in st.commands))
                     for side in forces.stacks(session, of_sides, at) if side.side in of_sides
                     for st in side.stacks if at is None or st.place in at]
            eager, lazy = MarkList(), MarkList()
            eager.set_stacks(whole)
            eager._lay_out(width)
            rows = listed_rows(Listing(session, of_sides, at), width)
            lazy.set_listing(rows)
            lazy._lay_out(width)  # as laid out in the worker: nothing read again
            assert len(rows) == len(eager._rows) > 0
            assert [rows[i] for i in range(len(rows))] == [
                row if row.depth == 2 else replace(row, forces=()) for row in eager._rows
            ]
            assert [rows.forces(i) for i in range(len(rows))] == [row.forces for row in eager._rows]
            assert (lazy._starts, lazy._wrapped) == (eager._starts, eager._wrapped)
            assert [st.place for st in lazy.stacks] == [st.place for st in whole]
            assert [f.id for st in lazy.stacks for f in st.forces] == [f.id for st in whole for f in st.forces]
            # Marks: a general, a place, a unit; the boxes and the order of the selection.
            for index in (1, 0, len(rows) - 1):
                for marks in (eager, lazy):
                    marks.highlighted = index
                    marks.action_mark()
            assert lazy.selected == eager.selected
            assert [lazy.lines_of(i) for i in range(len(rows))] == [eager.lines_of(i) for i in range(len(rows))]
    finally:
        session.close()


@pytest.mark.parametrize("width", [40, 78])
def test_a_listing_reads_the_same_rows_from_sqlite_and_postgresql(campaign_target, width):
    """The listing's own SQL (its byte lengths, its order of names) on either store: the
    rows and lines of campaigns.forces read whole, a name not ASCII and a long one included."""
    from sqlalchemy import create_engine, text

    from campaigns import forces
    from campaigns.listed import Listing
    from campaigns.session import CampaignSession
    from models.targets import to_url
    from tests.templates import new_campaign
    from tui.widgets.marklist import listed_rows

    target = new_campaign(campaign_target, "spring1813", seed=3)
    engine = create_engine(to_url(target))
    with engine.begin() as db:
        ids = [row[0] for row in db.execute(text("SELECT id FROM unit ORDER BY id"))]
        db.execute(text("UPDATE unit SET name = :name WHERE id = :id"), {"name": "Württemberg Jäger Zwölf", "id": ids[0]})
        db.execute(text("UPDATE unit SET name = :name WHERE id = :id"), {"name": LONG, "id": ids[1]})
        db.execute(text("UPDATE unit SET name = :name WHERE id = :id"), {"name": "Zz last by bytes é", "id": ids[2]})
        db.execute(text("UPDATE unit SET name = :name WHERE id = :id"), {"name": "a lower case name", "id": ids[3]})
    engine.dispose()
    session = CampaignSession.open(target)
    try:
        for side, _name in forces.sides(session):
            eager, lazy = MarkList(), MarkList()
            eager.set_stacks([st for s in forces.stacks(session, [side]) if s.side == side for st in s.stacks])
            eager._lay_out(width)
            lazy.set_listing(listed_rows(Listing(session, [side]), width))
            lazy._lay_out(width)
            assert [lazy.lines_of(i) for i in range(len(lazy._rows))] == [eager.lines_of(i) for i in range(len(eager._rows))]
            assert (lazy._starts, lazy._wrapped) == (eager._starts, eager._wrapped)
    finally:
        session.close()


def test_the_units_of_a_few_commands_are_read_as_each_command_reads_them(campaign_file, monkeypatch):
    """Listing.read_whole looks a few commands' units up by nation, place and general (the
    index ix_unit_stacks: the few generals whose names might wrap, in big stacks) rather than
    in a pass over the table: what it reads is what each command's own reading reads, for
    every command of every side, a unit of no general and one of no place among them."""
    import sqlite3

    from campaigns import forces
    from campaigns.listed import Listing
    from campaigns.session import CampaignSession

    _awkward(campaign_file)
    db = sqlite3.connect(campaign_file)
    db.execute("UPDATE unit SET location = '' WHERE id = (SELECT id FROM unit ORDER BY id LIMIT 1 OFFSET 11)")
    db.commit()
    db.close()
    session = CampaignSession.open(campaign_file)
    try:
        seen = {"no general": 0, "no place": 0}
        for side, _name in forces.sides(session):
            looked_up, own = Listing(session, [side]), Listing(session, [side])
            keys = [(st.number, n) for st in own.stacks for n in range(len(st.commands))]
            looked_up._seek(keys)
            assert [looked_up.units(*k) for k in keys] == [own.units(*k) for k in keys]
            assert looked_up._where == own._where
            commands = [c for st in own.stacks for c in st.commands]
            seen["no general"] += sum(c.general is None for c in commands)
            seen["no place"] += sum(any(not (place or "").strip() for place in c.locations) for c in commands)
        assert all(seen.values()), seen
        # read_whole takes that way for a few of the listing's units, and another for many.
        taken: list[int] = []
        monkeypatch.setattr(Listing, "_seek", lambda self, commands: taken.append(len(commands)))
        side = forces.sides(session)[0][0]
        listing = Listing(session, [side])
        few = [(0, 0)]
        listing.read_whole(few)
        assert taken == [1]
        every = [(st.number, n) for st in listing.stacks for n in range(len(st.commands))]
        listing.read_whole(every)
        assert taken == [1] and all(key in listing._all for key in every)
    finally:
        session.close()
