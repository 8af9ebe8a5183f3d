"""After-action reports: the campaign so far, one turn, or one battle, told in order.

The situation, the forces with their leaders, each roll with its odds and what
it did, the losses, the result, the luck and the plots.  Each part is built
once as rich renderables (tables and text); `render` records them on a rich
Console and exports text, or HTML fragments that a Jinja2 page puts together
with the charts drawn as SVG (pygal); markdown is the text of each part in a
Jinja2 template of headings and fenced blocks, so it reads well as plain text.

Every string that comes from the campaign file goes through `printable` and
into rich `Text` (never markup); the HTML is escaped by rich and by Jinja2.
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from rich.console import Console, Group, RenderableType
from rich.table import Table
from rich.text import Text
from sqlalchemy import select
from sqlmodel import col

from campaigns import luck as luck_module
from campaigns.battles import ATTACKER, DEFENDER, FACTS, load
from campaigns.charts import Chart, charts
from campaigns.errors import CampaignError, plainly
from campaigns.luck import Ledger, RollLuck, luck_of
from campaigns.printable import printable
from campaigns.session import CampaignSession
from campaigns.story import CAUSES, Story, story
from models import Army, Battle, Campaign, DiceRoll, Event, General, Turn, Unit
from rules.numbers import BATTLE

FORMATS = ("md", "html", "txt")
WIDTH = 100  # the text of a report: wide enough for the tables, narrow enough to print


@dataclass
class Section:
    title: str
    parts: list[RenderableType] = field(default_factory=list)
    charts: list[Chart] = field(default_factory=list)


@dataclass
class Report:
    title: str
    subtitle: str
    sections: list[Section]


def _t(value: object) -> Text:
    return Text(printable(value))


def _table(title: str | None, headers: Iterable[str], rows: Iterable[Iterable[object]], *, right: Iterable[int] = ()) -> Table:
    table = Table(title=printable(title) if title else None, title_justify="left", expand=False)
    aligned = set(right)
    for i, header in enumerate(headers):
        table.add_column(header, justify="right" if i in aligned else "left", overflow="fold")
    for row in rows:
        table.add_row(*(_t(cell) for cell in row))
    return table


def _number(x: Fraction | float) -> str:
    return f"{float(x):+.2f}"


def _p(p: Fraction | float) -> str:
    return f"{float(p):.3g}" + ("" if isinstance(p, Fraction) else " (normal approx.)")


# -- building ------------------------------------------------------------------


def build(session: CampaignSession, *, turn: int | None = None, battle: int | None = None) -> Report:
    """The report of the whole campaign so far, of one turn, or of one battle."""
    with plainly():
        book = luck_module.ledger(session)
        tale = story(session, book)
        with session.store.read() as db:
            campaign = db.get_one(Campaign, 1)
            name = campaign.name
            if turn is not None and not 1 <= turn <= campaign.turn:
                raise CampaignError(f"turn {turn} has not been played: the campaign is at turn {campaign.turn}")
            # a number beyond the store's integer is none of its battles (and PostgreSQL refuses to look)
            if battle is not None and (not BATTLE.holds(battle) or db.get(Battle, battle) is None):
                raise CampaignError(f"there is no battle {battle}")
    if battle is not None:
        return _battle_report(session, name, battle, book)
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
            situation.parts.append(_t(f"Now: turn {campaign.turn}, phase {campaign.phase}."))
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
        turn_events = None
        if turn is not None:
            events = _turn_events(db, turn)
            turn_events = {e.id for e in events}
            forces.parts.append(_table(f"What was done in turn {turn}", ["#", "Action"], ([f"#{e.id}", e.description] for e in events)))
        sections.append(forces)
        battles = list(db.scalars(select(Battle).order_by(col(Battle.id))))
    rolls = [r for r in book.rolls if turn is None or r.turn == turn]
    sections.append(_rolls_section(rolls))
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
    fought = [b for b in battles if turn is None or b.turn == turn]
    result.parts.append(_table(
        "Battles", ["#", "Turn", "Where", "Status", "Result"],
        ([b.id, b.turn, b.location, b.status, b.result or "-"] for b in fought),
    ) if fought else _t("No battle was fought" + (f" in turn {turn}." if turn else " yet.")))
    sections.append(result)
    sections.append(_luck_section(book, rolls, turn))
    sections.append(_marks_section(session, turn_events))
    plots = Section("The plots", charts=charts(tale))
    sections.append(plots)
    title = f"{name}: turn {turn}" if turn else f"{name}: the campaign so far"
    subtitle = f"After-action report, turn {turn}" if turn else "After-action report"
    return Report(printable(title), subtitle, sections)


def _forces(db: Any, sides: dict[str, str]) -> Group:
    """Each army: its commander-in-chief, and every general with where he stands and his SP."""
    generals = {g.id: g for g in db.scalars(select(General))}
    units = list(db.scalars(select(Unit)))
    rows = []
    armies = list(db.scalars(select(Army).order_by(Army.side, Army.id)))
    army_names = {a.id: a.name for a in armies}
    for army in armies:
        chief = generals.get(army.commander or "")
        under = _army_units(army.id, generals, units)
        rows.append([sides.get(army.side, army.side), army.name, chief.name if chief else "-",
                     chief.command_value if chief else "-", len(under), sum(u.strength_points for u in under)])
    table = _table(None, ["Side", "Army", "Commander-in-chief", "CV", "Units", "SP"], rows, right=(3, 4, 5))
    where = _table(
        "The generals", ["General", "Army", "At", "SP under him"],
        ([g.name, army_names.get(g.army or "", "-"), g.location or "-", sum(u.strength_points for u in units if u.general == g.id and u.kind != "dummy")]
         for g in sorted(generals.values(), key=lambda g: (g.army or "", -g.rank, g.name))),
        right=(3,),
    )
    return Group(table, Text(), where)


def _army_units(army_id: str, generals: dict[str, General], units: list[Unit]) -> list[Unit]:
    """The army's units: those of its generals and of their subordinates."""
    inside = {g.id for g in generals.values() if g.army == army_id}
    return [u for u in units if u.general in inside and u.kind != "dummy"]


def _turn_events(db: Any, turn: int) -> list[Event]:
    ends = [e for e in db.scalars(select(col(Event.id)).where(col(Event.description).like("End of turn %"), col(Event.undone) == False).order_by(col(Event.id)))]  # noqa: E712
    low = ends[turn - 2] if turn >= 2 and len(ends) >= turn - 1 else 0
    high = ends[turn - 1] if len(ends) >= turn else None
    query = select(Event).where(col(Event.id) > low, col(Event.undone) == False, col(Event.kind) == "action").order_by(col(Event.id))  # noqa: E712
    if high is not None:
        query = query.where(Event.id <= high)
    return list(db.scalars(query))


def _rolls_section(rolls: list[RollLuck]) -> Section:
    section = Section("Each roll, its odds and what it did")
    if not rolls:
        section.parts.append(_t("No dice were rolled."))
        return section
    section.parts.append(_table(
        None, ["#", "Turn", "What", "Dice", "Pct", "Mean", "Decided"],
        ([r.roll_id, r.turn or "-", r.kind, f"{r.dice} {' '.join(map(str, r.raw))} {r.modifier:+d} = {r.result}",
          f"{float(r.percentile):.0%}", f"{float(r.expected_roll):.2f}", r.decided] for r in rolls),
        right=(0, 1, 4, 5),
    ))
    section.parts.append(_t("Pct: the roll's mid-rank percentile in the exact distribution of its dice and modifiers; "
                            "Mean: the expected modified roll."))
    return section


def _luck_section(book: Ledger, rolls: list[RollLuck], turn: int | None) -> Section:
    section = Section("The luck")
    rows = []
    for side in [*book.sides, luck_module.BOTH]:
        mine = [r for r in rolls if luck_module.counts_for(r, side)]
        if not mine:
            continue
        item = luck_of(side, turn, mine)
        sums = ", ".join(f"{u} {_number(v)}" for u, v in item.sums.items()) or "-"
        rows.append([book.side_name(side), item.run.rolls, f"{float(item.run.mean):.0%}", _p(item.run.p_value), sums])
    section.parts.append(_table(None, ["Side", "Rolls", "Mean pct", "p", "actual - expected"], rows, right=(1, 2)))
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
        rolled = set(db.scalars(select(col(DiceRoll.id)).where(col(DiceRoll.battle) == battle_id)))  # its rolls name it
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
    rolls = [r for r in book.rolls if r.roll_id in rolled]
    outcome = Section("The losses")
    names = {**sides.get(ATTACKER, {}).get("names", {}), **sides.get(DEFENDER, {}).get("names", {})}
    if losses:
        outcome.parts.append(_table(
            None, ["Side", "SP lost"], ([role, losses.get("sides", {}).get(role, 0)] for role in (ATTACKER, DEFENDER)), right=(1,),
        ))
        outcome.parts.append(_table("By unit", ["Unit", "SP lost"], ([names.get(u, u), n] for u, n in losses.get("units", {}).items()), right=(1,)))
    else:
        outcome.parts.append(_t("Still being fought: no losses applied yet."))
    verdict = Section("The result")
    verdict.parts.append(_t(result or "Still being fought."))
    return Report(
        printable(f"{name}: the battle of {fight.location}"), f"After-action report, battle #{battle_id}",
        [situation, forces, _rolls_section(rolls), outcome, verdict, _luck_section(book, rolls, None),
         _marks_section(session, set(events))],
    )


def _marks_section(session: CampaignSession, events: set[int | None] | None) -> Section:
    """The umpire's bookmarks and notes on the events told (all of them: None)."""
    from campaigns.notes import BOOKMARK, marked

    section = Section("Bookmarks and notes")
    rows = [
        [f"#{m.event}", m.description, "bookmark" if m.kind == BOOKMARK else m.text]
        for m in marked(session) if events is None or m.event in events
    ]
    section.parts.append(_table(None, ["Event", "What happened", "Note"], rows) if rows else _t("None."))
    return section


# -- rendering ------------------------------------------------------------------


def _console() -> Console:
    return Console(record=True, width=WIDTH, file=io.StringIO(), color_system="truecolor", force_terminal=False)


def _recorded(section: Section, *, with_chart_text: bool) -> Console:
    console = _console()
    for part in section.parts:
        console.print(part)
        console.print()
    if with_chart_text:
        for chart in section.charts:
            from campaigns.charts import as_text

            console.print(Text(as_text(chart, WIDTH - 2, 20)))
    return console


def render(report: Report, fmt: str) -> str:
    """The report as md, html or txt."""
    if fmt not in FORMATS:
        raise CampaignError(f"the format is one of {', '.join(FORMATS)}, not {fmt!r}")
    import jinja2

    if fmt == "html":
        from campaigns.svg import chart_svg

        sections = [
            {"title": s.title,
             "html": _recorded(s, with_chart_text=False).export_html(inline_styles=True, code_format="{code}"),
             "svgs": [chart_svg(c) for c in s.charts]}
            for s in report.sections
        ]
        env = jinja2.Environment(loader=jinja2.PackageLoader("campaigns", "templates"), autoescape=True)
        return env.get_template("report.html.j2").render(report=report, sections=sections)
    sections = []
    for s in report.sections:
        text = _recorded(s, with_chart_text=True).export_text().rstrip()
        # A fence longer than any run of backticks in the text, so a name cannot close it.
        longest = max((len(run) for run in re.findall("`+", text)), default=0)
        sections.append({"title": s.title, "text": text, "fence": "`" * max(3, longest + 1)})
    env = jinja2.Environment(loader=jinja2.PackageLoader("campaigns", "templates"), autoescape=False, keep_trailing_newline=True)
    return env.get_template(f"report.{fmt}.j2").render(report=report, sections=sections)
