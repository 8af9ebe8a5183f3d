"""After-action reports: the campaign so far, one turn, or one battle, told in order.

The situation, the forces with their leaders, each roll with its odds and what
it did, the losses, the result, the luck and the plots.  Each part is built
once as rich renderables (tables and text); `render` records them on a rich
Console and exports text, or HTML fragments that a Jinja2 page puts together
with the charts drawn as SVG (pygal); markdown is the text of each part in a
Jinja2 template of headings and fenced blocks, so it reads well as plain text.

Every string that comes from the campaign file goes through `printable` and
into rich `Text` (never markup); the HTML is escaped by rich and by Jinja2.

A report is written as it is read (`write`), in memory that does not grow with
the campaign: the tables that grow with it (every roll, every action of a turn,
every battle) are `Rows`, read from the database when they are drawn
(campaigns.report_rows); each side's luck is counted as the rolls go by (luck.Tally);
the rest (the forces, the losses, the plots) is as big as the order of battle and
the calendar. Every roll is listed, in the campaign's report as in a turn's: the
report is the umpire's record, and a roll missing from it could not be checked.
"""

from __future__ import annotations

import io
import re
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from rich.console import Console, Group, RenderableType
from rich.text import Text
from sqlalchemy import func, or_, select, text
from sqlmodel import col

from campaigns import luck as luck_module
from campaigns.battles import ATTACKER, DEFENDER, FACTS, load
from campaigns.charts import Chart, charts
from campaigns.errors import CampaignError, plainly
from campaigns.luck import Ledger, Tally
from campaigns.phases import phase
from campaigns.printable import printable
from campaigns.report_rows import Rows, _t, drawn, table as _table
from campaigns.session import CampaignSession
from campaigns.story import CAUSES, Story, story
from campaigns.words import and_eliminated
from models import Army, Battle, Campaign, Event, EventNote, General, Turn, Unit
from models.oob_rows import ELIMINATED_GROUPS
from rules.numbers import BATTLE

FORMATS = ("md", "html", "txt")
WIDTH = 100  # the text of a report: wide enough for the tables, narrow enough to print


@dataclass
class Later:
    """A part made when it is drawn, after the parts before it (the luck, once the rolls are read)."""

    make: Callable[[], RenderableType]


@dataclass
class Section:
    title: str
    parts: list[RenderableType | Rows | Later] = field(default_factory=list)
    charts: list[Chart] = field(default_factory=list)


@dataclass
class Report:
    title: str
    subtitle: str
    sections: list[Section]


def _number(x: Fraction | float) -> str:
    return f"{float(x):+.2f}"


def _p(p: Fraction | float) -> str:
    return f"{float(p):.3g}" + ("" if isinstance(p, Fraction) else " (normal approx.)")


# -- building ------------------------------------------------------------------


def build(session: CampaignSession, *, turn: int | None = None, battle: int | None = None) -> Report:
    """The report of the whole campaign so far, of one turn, or of one battle."""
    with plainly():
        with session.store.read() as db:
            campaign = db.get_one(Campaign, 1)
            name = campaign.name
            if turn is not None and not 1 <= turn <= campaign.turn:
                raise CampaignError(f"turn {turn} has not been played: the campaign is at turn {campaign.turn}")
            # a number beyond the store's integer is none of its battles (and PostgreSQL refuses to look)
            if battle is not None and (not BATTLE.holds(battle) or db.get(Battle, battle) is None):
                raise CampaignError(f"there is no battle {battle}")
        book = luck_module.ledger(session, latest=0)  # the sides and each turn's luck: the rolls are read as they are written
        if battle is not None:
            return _battle_report(session, name, battle, book)
        tale = story(session, book)
    return _campaign_report(session, name, turn, book, tale)


def _campaign_report(session: CampaignSession, name: str, turn: int | None, book: Ledger, tale: Story) -> Report:
    sections = []
    with plainly(), session.store.read() as db:
        campaign = db.get_one(Campaign, 1)
        turns = {t.number: t for t in db.scalars(select(Turn))}
        shown = turns.get(turn or campaign.turn)
        situation = Section("The situation")
        weather = shown.weather if shown and shown.weather else "not rolled yet"
        when = f"turn {shown.number} of {campaign.turns}, {shown.date:%d %B %Y}" if shown else f"turn {campaign.turn}"
        situation.parts.append(_t(f"{campaign.name} ({campaign.scenario}): {when}; weather {weather}."))
        if turn is None:
            situation.parts.append(_t(f"Now: turn {campaign.turn}, phase {phase(campaign.phase).name}."))
        situation.parts.append(_table(
            "Strength points at the end of each turn", ["Side", *map(str, tale.turns)],
            ([tale.sides[s], *values] for s, values in tale.sp.items()), right=range(1, len(tale.turns) + 1),
        ))
        sections.append(situation)
        forces = Section("The forces and their leaders" + (f", at the end of turn {turn}" if turn else ""))
        if turn is None or turn == campaign.turn:
            forces.parts.append(_forces(db, tale.sides))
        else:  # as they stood then: read from a copy of the campaign rewound to the end of that turn
            from campaigns.past import moment, open_past

            view = open_past(session, moment(session, turn=turn))
            try:
                with plainly(), view.store.read() as then:
                    forces.parts.append(_forces(then, tale.sides))
            finally:
                view.close()
        in_turn = _in_turn(db, turn) if turn is not None else None
        if in_turn is not None:
            forces.parts.append(Rows(f"What was done in turn {turn}", ["#", "Action"], lambda: _turn_events(session, _actions_of(in_turn))))
        sections.append(forces)
    tallies = [Tally(side, turn) for side in [*book.sides, luck_module.BOTH]]
    sections.append(_rolls_section(session, tallies, turn=turn))
    losses = Section("The losses")
    index = [i for i, t in enumerate(tale.turns) if turn is None or t == turn]
    losses.parts.append(_table(
        "SP lost by cause" + (f" in turn {turn}" if turn else ""), ["Side", *CAUSES, "total"],
        ([tale.sides[s], *(sum(by[c][i] for i in index) for c in CAUSES), sum(by[c][i] for c in CAUSES for i in index)]
         for s, by in tale.losses.items()),
        right=range(1, len(CAUSES) + 2),
    ))
    sections.append(losses)
    result = Section("The result")
    result.parts.append(Rows(
        "Battles", ["#", "Turn", "Where", "Status", "Result"], lambda: _battles(session, turn),
        none=_t("No battle was fought" + (f" in turn {turn}." if turn else " yet.")),
    ))
    sections.append(result)
    sections.append(_luck_section(book, tallies))
    sections.append(_marks_section(session, in_turn=in_turn))
    plots = Section("The plots", charts=charts(tale))
    sections.append(plots)
    title = f"{name}: turn {turn}" if turn else f"{name}: the campaign so far"
    subtitle = f"After-action report, turn {turn}" if turn else "After-action report"
    return Report(printable(title), subtitle, sections)


def _forces(db: Any, sides: dict[str, str]) -> Group:
    """Each army: its commander-in-chief, and every general with where he stands and his SP."""
    generals = {g.id: g for g in db.scalars(select(General))}
    # each general's units and SP, dummies left out: counted by the database, which may hold 50,000 units
    under: dict[str | None, tuple[int, int]] = {general: (units, sp or 0) for general, units, sp in db.execute(
        select(col(Unit.general), func.count(), func.sum(col(Unit.strength_points)))
        .where(or_(col(Unit.kind).is_(None), col(Unit.kind) != "dummy")).group_by(col(Unit.general))
    )}
    # each general's units eliminated (off the map at 0 SP): counted apart from those present
    gone: dict[str | None, int] = {}
    for _nation, general, _kind, count in db.execute(text(ELIMINATED_GROUPS)):
        gone[general] = gone.get(general, 0) + count
    rows = []
    armies = list(db.scalars(select(Army).order_by(Army.side, Army.id)))
    army_names = {a.id: a.name for a in armies}
    for army in armies:
        chief = generals.get(army.commander or "")
        inside = [g.id for g in generals.values() if g.army == army.id]  # the army's generals, its units theirs
        eliminated = sum(gone.get(g, 0) for g in inside)
        present = sum(under.get(g, (0, 0))[0] for g in inside) - eliminated
        rows.append([sides.get(army.side, army.side), army.name, chief.name if chief else "-",
                     chief.command_value if chief else "-", and_eliminated(str(present), eliminated),
                     sum(under.get(g, (0, 0))[1] for g in inside)])
    table = _table(None, ["Side", "Army", "Commander-in-chief", "CV", "Units", "SP"], rows, right=(3, 4, 5))
    where = _table(
        "The generals", ["General", "Army", "At", "SP under him"],
        ([g.name, army_names.get(g.army or "", "-"), g.location or "-", under.get(g.id, (0, 0))[1]]
         for g in sorted(generals.values(), key=lambda g: (g.army or "", -g.rank, g.name))),
        right=(3,),
    )
    return Group(table, Text(), where)


def _in_turn(db: Any, turn: int) -> list[Any]:
    """The conditions on an event of the history that was written in `turn` (an action, an
    undo, a redo): the entries whose bookmarks and notes the turn's report shows."""
    ends = list(db.scalars(select(col(Event.id)).where(col(Event.description).like("End of turn %"), col(Event.undone) == False).order_by(col(Event.id))))  # noqa: E712
    low = ends[turn - 2] if turn >= 2 and len(ends) >= turn - 1 else 0
    high = ends[turn - 1] if len(ends) >= turn else None
    conditions = [col(Event.id) > low]
    if high is not None:
        conditions.append(col(Event.id) <= high)
    return conditions


def _actions_of(in_turn: list[Any]) -> list[Any]:
    """The conditions on an event written in the turn (`_in_turn`) that is one of its actions, done."""
    return [*in_turn, col(Event.undone) == False, col(Event.kind) == "action"]  # noqa: E712


def _turn_events(session: CampaignSession, in_turn: list[Any]) -> Iterator[list[object]]:
    with plainly(), session.store.read() as db:
        query = select(col(Event.id), col(Event.description)).where(*in_turn).order_by(col(Event.id))
        for event, description in db.execute(query.execution_options(yield_per=ROWS)):
            yield [f"#{event}", description]


def _battles(session: CampaignSession, turn: int | None) -> Iterator[list[object]]:
    with plainly(), session.store.read() as db:
        query = select(col(Battle.id), col(Battle.turn), col(Battle.location), col(Battle.status), col(Battle.result)).order_by(col(Battle.id))
        if turn is not None:
            query = query.where(col(Battle.turn) == turn)
        for battle, when, where, status, result in db.execute(query.execution_options(yield_per=ROWS)):
            yield [battle, when, where, status, result or "-"]


def _rolls_section(session: CampaignSession, tallies: list[Tally], *, turn: int | None = None, battle: int | None = None) -> Section:
    """Every roll of the campaign, the turn or the battle; each counted in `tallies` as it is read."""

    def rows() -> Iterator[list[object]]:
        tallies[:] = [Tally(tally.side, tally.turn) for tally in tallies]  # counted afresh each time the report is drawn
        means: dict[tuple[str, int], str] = {}
        for r in luck_module.each_roll(session, turn=turn, battle=battle):
            for tally in tallies:
                if luck_module.counts_for(r, tally.side):
                    tally.add(r)
            mean = means.get((r.dice, r.modifier))
            if mean is None:
                mean = means[(r.dice, r.modifier)] = f"{float(r.expected_roll):.2f}"
            yield [r.roll_id, r.turn or "-", r.kind, f"{r.dice} {' '.join(map(str, r.raw))} {r.modifier:+d} = {r.result}",
                   f"{float(r.percentile):.0%}", mean, r.decided]

    section = Section("Each roll, its odds and what it did")
    section.parts.append(Rows(
        None, ["#", "Turn", "What", "Dice", "Pct", "Mean", "Decided"], rows, right=(0, 1, 4, 5),
        none=_t("No dice were rolled."),
        after=_t("Pct: the roll's mid-rank percentile in the exact distribution of its dice and modifiers; "
                 "Mean: the expected modified roll."),
    ))
    return section


def _luck_section(book: Ledger, tallies: list[Tally]) -> Section:
    """Each side's luck over the rolls listed before it, counted as they were read."""

    def luck_table() -> RenderableType:
        rows = []
        for tally in tallies:
            if not tally.rolls:
                continue
            item = tally.luck()
            sums = ", ".join(f"{u} {_number(v)}" for u, v in item.sums.items()) or "-"
            rows.append([book.side_name(tally.side), item.run.rolls, f"{float(item.run.mean):.0%}", _p(item.run.p_value), sums])
        return _table(None, ["Side", "Rolls", "Mean pct", "p", "actual - expected"], rows, right=(1, 2))

    section = Section("The luck")
    section.parts.append(Later(luck_table))
    section.parts.append(_t(
        "Each side's rolls are turned so that high is good for it (a roll against it counts from the other end); "
        "p is two-sided, exact by convolution of the percentiles where feasible."
    ))
    return section


def _battle_report(session: CampaignSession, name: str, battle_id: int, book: Ledger) -> Report:
    fight = load(session, battle_id)
    with plainly(), session.store.read() as db:
        row = db.get_one(Battle, battle_id)
        events = list(db.scalars(select(col(Event.id)).where(col(Event.description).like(f"Battle #{battle_id} at %"))))
        # and the action that began it: the one whose changes inserted this battle's row
        for begun in db.scalars(select(Event).where(col(Event.description).like(f"Battle of {fight.location} begins%"))):
            if any(c.get("table") == "battle" and c.get("key", {}).get("id") == battle_id for c in begun.changes):
                events.append(begun.id)
        turn, losses, result = row.turn, dict(row.losses), row.result
    sides = fight.setup.get("sides", {})
    situation = Section("The situation")
    facts = [label for key, label in FACTS if fight.setup.get("facts", {}).get(key)]
    situation.parts.append(_t(
        f"Battle of {fight.location} (#{fight.id}), turn {turn}, weather {fight.setup.get('weather', '?')}; "
        f"resolved by {fight.resolver}; {'; '.join(facts) if facts else 'no special situation'}."
    ))
    forces = Section("The forces and their leaders")
    for role in (ATTACKER, DEFENDER):
        part = fight.participants.get(role, {})
        data = sides.get(role, {})
        leaders = ", ".join(f"{g['name']} (rank {g['rank']}, TB {g['tactical_bonus']})" for g in data.get("generals", [])) or "none"
        forces.parts.append(_table(
            f"{role.title()}: {part.get('side_name', '?')}; leaders {leaders}", ["Unit", "Arm", "SP", "Cohesion"],
            ([f[1], f[2], f[3], f[4]] for f in data.get("forces", [])), right=(2, 3),
        ))
    tallies = [Tally(side) for side in [*book.sides, luck_module.BOTH]]
    outcome = Section("The losses")
    names = {**sides.get(ATTACKER, {}).get("names", {}), **sides.get(DEFENDER, {}).get("names", {})}
    if losses:
        outcome.parts.append(_table(
            None, ["Side", "SP lost"], ([role, losses.get("sides", {}).get(role, 0)] for role in (ATTACKER, DEFENDER)), right=(1,),
        ))
        outcome.parts.append(_table("By unit", ["Unit", "SP lost"], ([names.get(u, u), n] for u, n in losses.get("units", {}).items()), right=(1,)))
        zero = losses.get("zero_sp")
        if isinstance(zero, dict) and zero.get("units"):
            done = "eliminated: they left the map" if zero.get("rule") == "eliminated" else "they stayed on the map for the umpire"
            outcome.parts.append(_t(
                f"Left with 0 SP (option zero_sp_unit = {zero.get('rule')}): "
                f"{', '.join(names.get(u, u) for u in zero['units'])}; {done}."
            ))
    else:
        outcome.parts.append(_t("Still being fought: no losses applied yet."))
    verdict = Section("The result")
    verdict.parts.append(_t(result or "Still being fought."))
    return Report(
        printable(f"{name}: the battle of {fight.location}"), f"After-action report, battle #{battle_id}",
        [situation, forces, _rolls_section(session, tallies, battle=battle_id), outcome, verdict, _luck_section(book, tallies),
         _marks_section(session, set(events))],
    )


def _marks_section(session: CampaignSession, events: set[int | None] | None = None, *, in_turn: list[Any] | None = None) -> Section:
    """The umpire's bookmarks and notes on the events told: `events`, or the entries written in a
    turn (`in_turn`: the conditions of `_in_turn`), or else all of them."""
    from campaigns.notes import BOOKMARK, marked

    if in_turn is not None:  # the entries of the turn that are marked (a redo too), found by the database
        with plainly(), session.store.read() as db:
            events = set(db.scalars(select(col(Event.id)).where(*in_turn, col(Event.id).in_(select(col(EventNote.event))))))
    section = Section("Bookmarks and notes")
    rows = [
        [f"#{m.event}", m.description, "bookmark" if m.kind == BOOKMARK else m.text]
        for m in marked(session) if events is None or m.event in events
    ]
    section.parts.append(_table(None, ["Event", "What happened", "Note"], rows) if rows else _t("None."))
    return section


# -- rendering ------------------------------------------------------------------


ROWS = 1000  # rows read from the database at a time
_TOKEN = re.compile("\x00(text|fence|html)([0-9]+)\x00")  # where a section goes in the page (no campaign text holds NUL)


def _console() -> Console:
    return Console(record=True, width=WIDTH, file=io.StringIO(), color_system="truecolor", force_terminal=False)


def _drawn(part: RenderableType, html: bool) -> str:
    """A part of a section, and the blank line after it, as text or as HTML."""
    console = _console()
    console.print(part)
    console.print()
    return console.export_html(inline_styles=True, code_format="{code}") if html else console.export_text()


def _section(section: Section, *, html: bool) -> Iterator[str]:
    """A section's text (with its charts as text) or HTML, a piece at a time: what rich
    recording every part on one console and exporting it gives."""
    draw: Callable[[RenderableType], str] = lambda part: _drawn(part, html)  # noqa: E731
    for part in section.parts:
        if isinstance(part, Later):
            part = part.make()
        if isinstance(part, Rows):
            yield from drawn(part, draw, html=html, width=WIDTH)
        else:
            yield draw(part)
    if not html:
        for chart in section.charts:
            from campaigns.charts import as_text

            console = _console()
            console.print(Text(as_text(_inert(chart), WIDTH - 2, 20)))
            yield console.export_text()


def _inert(chart: Any) -> Any:
    """The chart with its labels as `shown` prints them: a side named with an escape (a file edited
    by hand) would otherwise reach plotext, which reads escapes as its own colours and fails on them."""
    from dataclasses import replace

    from campaigns.text import shown as inert

    return replace(
        chart, title=inert(chart.title), x_label=inert(chart.x_label), y_label=inert(chart.y_label),
        x=tuple(inert(label) for label in chart.x),
        series=tuple(replace(series, label=inert(series.label)) for series in chart.series),
    )


def _stripped(pieces: Iterator[str]) -> Iterator[str]:
    """The pieces without the whitespace at the end of all of them (`str.rstrip` of the whole)."""
    held = ""
    for piece in pieces:
        kept = piece.rstrip()
        if kept:
            yield held + kept
            held = piece[len(kept):]
        else:
            held += piece


def write(report: Report, fmt: str, out: Callable[[str], object]) -> None:
    """The report as md, html or txt, handed to `out` a piece at a time as it is read.

    The page is the Jinja2 template's, rendered with a token where each section's text
    (or HTML) goes, and each section is written in its place. In markdown, a section's
    text is fenced by more backticks than any run of them in it: it is spooled (in
    memory up to SPOOL_BYTES, on disk past it) until its fence is known."""
    if fmt not in FORMATS:
        raise CampaignError(f"the format is one of {', '.join(FORMATS)}, not {fmt!r}")
    import jinja2

    html = fmt == "html"
    if html:  # names are the file's text: a page holds no control character (XML and a terminal obey them)
        from campaigns.text import shown as inert

        given = out
        out = lambda text: given(inert(text))  # noqa: E731
    env = jinja2.Environment(loader=jinja2.PackageLoader("campaigns", "templates"), autoescape=html, keep_trailing_newline=not html)
    if html:
        from campaigns.svg import chart_svg
    sections = [
        {"title": s.title, "text": f"\x00text{i}\x00", "fence": f"\x00fence{i}\x00", "html": f"\x00html{i}\x00",
         "svgs": [chart_svg(c) for c in s.charts] if html else []}
        for i, s in enumerate(report.sections)
    ]
    page = _TOKEN.split(env.get_template(f"report.{fmt}.j2").render(report=report, sections=sections))
    fenced: dict[int, tuple[str, Any]] = {}  # a markdown section: its fence and its text, spooled
    with plainly():
        try:
            for n, piece in enumerate(page):
                if n % 3 == 0:
                    out(piece)
                    continue
                if n % 3 == 2:
                    continue
                kind, i = piece, int(page[n + 1])
                if kind == "html":
                    for chunk in _section(report.sections[i], html=True):
                        out(chunk)
                elif kind == "text" and fmt != "md":
                    for chunk in _stripped(_section(report.sections[i], html=False)):
                        out(chunk)
                elif i not in fenced:  # the first fence of a markdown section
                    fenced[i] = _fenced(report.sections[i])
                    out(fenced[i][0])
                elif kind == "fence":
                    out(fenced.pop(i)[0])
                else:
                    spool = fenced[i][1]
                    spool.seek(0)
                    while chunk := spool.read(SPOOL_CHARS):
                        out(chunk)
                    spool.close()
        finally:
            for _fence, spool in fenced.values():
                spool.close()


SPOOL_BYTES = 8 * 1024 * 1024
SPOOL_CHARS = 1024 * 1024


def _fenced(section: Section) -> tuple[str, Any]:
    """A markdown section's fence, longer than any run of backticks in its text (so that
    a name cannot close it), and its text, spooled."""
    spool = tempfile.SpooledTemporaryFile(max_size=SPOOL_BYTES, mode="w+", encoding="utf-8", newline="")
    longest = 0
    for chunk in _stripped(_section(section, html=False)):
        if "`" in chunk:
            longest = max(longest, *(len(run) for run in re.findall("`+", chunk)))
        spool.write(chunk)
    return "`" * max(3, longest + 1), spool


def render(report: Report, fmt: str) -> str:
    """The report as md, html or txt, whole (`write` hands it over a piece at a time)."""
    pieces: list[str] = []
    write(report, fmt, pieces.append)
    return "".join(pieces)
