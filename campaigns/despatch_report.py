"""The despatch as a printed letter: markdown, or the same letter as an HTML page.

It is read from the side file itself (campaigns.despatch), never from the
umpire's campaign, so the letter cannot hold more than the file does.

A side may hold tens of thousands of units, so the letter is written as it is
read: `_letter` yields its parts one at a time (a heading, a table row, a list
item), with the values from the file as they are; `markdown_lines` and
`html_lines` turn each part into text, and `write` sends them to a file a chunk at
a time. Memory does not grow with the units.

The HTML page is written here rather than rendered by rich from the markdown: rich
lays out a whole table before it prints a line (51.7 s and 382 MB at 25,000
units), and it reads markdown inside names (a unit named `[x](http://...)` became
a link). Here every value from the file is text: control characters are removed
(as `campaigns.text.shown` removes them) and `& < > " '` escaped; each name sits in
its own table cell or list item, an HTML block, so a bidi override in one name
cannot turn the text of the next; `shown` writes each bidirectional control out
("<U+202E>"), so the reader sees that a name holds one.

The markdown letter holds the values as the side file holds them, as an export does:
it is a document for another program (a mail, a markdown viewer), which renders or
escapes them; printed on a terminal it is the side file's text, as `cat` shows any file.
"""

from __future__ import annotations

import html as html_text
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from sqlalchemy import select
from sqlmodel import col

from campaigns.command_points import action_label
from campaigns.errors import plainly
from campaigns.knowledge import describe
from campaigns.session import CampaignSession
from campaigns.text import shown
from models import (
    Army, Battle, Campaign, CommandPointRoll, CommandPointSpend, DiceRoll, General, Side, Sighting, Turn, Unit,
)

BATCH = 1000  # rows read at a time, and lines joined into one write
Part = tuple[Any, ...]  # (kind, values...): see _letter


def _cell(text: object) -> str:
    """A value in a markdown table: no line breaks, no column bars."""
    return str(text).replace("\n", " ").replace("|", "/")


def markdown(side_file: CampaignSession) -> str:
    return "".join(f"{line}\n" for line in markdown_lines(side_file))


def html(side_file: CampaignSession) -> str:
    return "".join(f"{line}\n" for line in html_lines(side_file))


def write(side_file: CampaignSession, fmt: str, out: Callable[[str], Any]) -> None:
    """Send the letter in format `fmt` ("md" or "html") to `out` (a text file's write), a chunk at a time."""
    lines = markdown_lines(side_file) if fmt == "md" else html_lines(side_file)
    chunk: list[str] = []
    for line in lines:
        chunk.append(line)
        if len(chunk) >= BATCH:
            out("\n".join(chunk) + "\n")
            chunk = []
    if chunk:
        out("\n".join(chunk) + "\n")


# -- what the letter says ---------------------------------------------------------


def _letter(session: CampaignSession) -> Iterator[Part]:
    """The letter's parts in order, with the values from the side file as they are."""
    with plainly(), session.store.read() as db:
        campaign = db.get_one(Campaign, 1)
        side = db.get_one(Side, campaign.fog_side)
        turn = campaign.fog_turn or campaign.turn
        date = db.get_one(Turn, turn).date
        yield ("title", side.name, campaign.name, turn, date)
        yield ("commitment", campaign.uid, campaign.dice_commitment)
        yield ("h2", "Your order of battle")
        generals = list(db.execute(
            select(col(General.id), col(General.army), col(General.name), col(General.rank),
                   col(General.command_value), col(General.location))
            .order_by(col(General.army), col(General.rank).desc(), col(General.name))
        ).all())
        unit_columns = (col(Unit.name), col(Unit.kind), col(Unit.strength_points), col(Unit.cohesion), col(Unit.location))
        armies = db.execute(select(col(Army.id), col(Army.name)).order_by(col(Army.id))).all()
        army_names = {army.id: army.name for army in armies}  # the ledger names each army as the order of battle does
        for army in armies:
            yield ("army", army.name)
            for g in (g for g in generals if g.army == army.id):
                yield ("general", g.name, g.rank, g.command_value, g.location)
                # One general's units at a time, by the index on unit.general.
                under = select(*unit_columns).where(col(Unit.general) == g.id).order_by(col(Unit.name))
                for u in db.execute(under.execution_options(yield_per=BATCH)):
                    yield ("unit", *u)
            yield ("end",)
        loose = db.execute(
            select(*unit_columns)
            .where(col(Unit.general).is_(None) | col(Unit.general).not_in(select(col(General.id))))
            .order_by(col(Unit.general), col(Unit.name))
            .execution_options(yield_per=BATCH)
        )
        first = True
        for u in loose:
            if first:
                yield ("h3", "Units under no general")
                first = False
            yield ("loose", u.name, u.kind, u.strength_points, u.location)
        if not first:
            yield ("end",)
        yield ("h2", "What you have seen of the enemy")
        seen = db.scalars(select(Sighting).order_by(col(Sighting.turn), col(Sighting.id)).execution_options(yield_per=BATCH))
        any_seen = False
        for s in seen:
            any_seen = True
            yield ("item", describe(s))
            for unit in (s.learned or {}).get("units", []):
                yield ("subitem", unit.get("name"), unit.get("arm"), unit.get("strength_points"))
        if not any_seen:
            yield ("para", "Nothing yet.")
        yield ("end",)
        yield ("h2", "Weather so far")
        for t in db.scalars(select(Turn).where(col(Turn.number) <= turn).order_by(col(Turn.number))):
            yield ("weather", t.number, t.date, t.weather)
        yield ("end",)
        yield ("h2", "Command points")
        rolls = list(db.scalars(select(CommandPointRoll).order_by(col(CommandPointRoll.turn), col(CommandPointRoll.army))))
        spends = list(db.scalars(select(CommandPointSpend).order_by(col(CommandPointSpend.turn), col(CommandPointSpend.id))))
        if not rolls and not spends:
            yield ("para", "None rolled yet.")
        # Turn by turn, each turn's rolls before what was spent of them (a stable sort keeps that order).
        ledger: list[Part] = [("roll", r.turn, army_names.get(r.army, r.army), r.points) for r in rolls]
        ledger += [("spend", s.turn, army_names.get(s.army, s.army), action_label(s.action), s.cost, s.balance) for s in spends]
        yield from sorted(ledger, key=lambda line: line[1])
        yield ("end",)
        yield ("h2", "Battles you fought")
        fought = list(db.scalars(select(Battle).order_by(col(Battle.id))))
        if not fought:
            yield ("para", "None.")
        for b in fought:
            yield ("battle", b.id, b.location, b.turn, b.status, b.result)
            for role, part in (b.participants or {}).items():
                names = part.get("units") or {}
                listed = names.values() if isinstance(names, dict) else names
                yield ("fought", role, part.get("side_name", part.get("side")), list(listed))
            yield ("end",)
        yield ("h2", "Dice records held")
        held = False
        for d in db.scalars(select(DiceRoll).order_by(col(DiceRoll.id)).execution_options(yield_per=BATCH)):
            held = True
            how = d.mode if d.stream_index is None else f"{d.mode}, stream {d.stream_index}"  # dice typed in have no stream
            yield ("die", d.id, d.purpose, d.dice, d.raw, d.result, how)
        if not held:
            yield ("para", "None.")


# -- as markdown --------------------------------------------------------------------


def markdown_lines(side_file: CampaignSession) -> Iterator[str]:
    """The letter in markdown, a line at a time (without line ends)."""
    for part in _letter(side_file):
        if part[0] == "end":
            yield ""
        else:
            yield from _markdown(part)


def _markdown(part: Part) -> Iterable[str]:  # noqa: C901, PLR0911  # one case a kind of part
    kind, *v = part
    if kind == "title":
        side, name, turn, date = v
        return (f"# Despatch to {_cell(side)}: {_cell(name)}, turn {turn} ({date:%d %B %Y})", "")
    if kind == "commitment":
        uid, commitment = v
        return (f"Campaign {uid}. Dice commitment (SHA-256 of seed and salt): ",
                f"`{commitment}`" if commitment else "none: this campaign was made before dice commitments.", "")
    if kind == "h2":
        return (f"## {v[0]}", "")
    if kind == "h3":
        return (f"### {v[0]}", "")
    if kind == "army":
        return (f"### {_cell(v[0])}", "", "| General or unit | Arm | SP | Cohesion | Place |", "|---|---|---|---|---|")
    if kind == "general":
        name, rank, cv, place = v
        return (f"| **{_cell(name)}** (rank {rank}, CV {cv}) | general | | | {_cell(place)} |",)
    if kind == "unit":
        name, arm, sp, cohesion, place = v
        return (f"| {_cell(name)} | {arm} | {sp} | {cohesion} | {_cell(place)} |",)
    if kind == "loose":
        name, arm, sp, place = v
        return (f"- {_cell(name)}: {arm}, {sp} SP, at {_cell(place)}",)
    if kind in ("item", "para"):
        return (f"- {_cell(v[0])}" if kind == "item" else v[0],)
    if kind == "subitem":
        name, arm, sp = v
        return (f"    - {_cell(name)}: {arm}, {sp} SP",)
    if kind == "weather":
        number, date, weather = v
        return (f"- turn {number} ({date:%d %B}): {weather or 'not rolled'}",)
    if kind == "roll":
        turn, army, points = v
        return (f"- turn {turn}, {_cell(army)}: {points} points",)
    if kind == "spend":
        turn, army, action, cost, balance = v
        return (f"- turn {turn}, {_cell(army)}: {_cell(action)} -{cost}, {balance} left",)
    if kind == "battle":
        number, place, turn, status, result = v
        return (f"### Battle #{number} at {_cell(place)}, turn {turn}: {status}{': ' + _cell(result) if result else ''}", "")
    if kind == "fought":
        role, side, names = v
        return (f"- {role} ({_cell(side)}): " + ", ".join(_cell(n) for n in names),)
    # a die
    number, purpose, dice, raw, result, how = v
    return (f"- #{number} {_cell(purpose)}: {dice} = {' '.join(map(str, raw))} -> {result} ({how})",)


# -- as HTML ------------------------------------------------------------------------

_STYLE = """\
body { color: #000000; background-color: #ffffff; font-family: Menlo, 'DejaVu Sans Mono', consolas, 'Courier New', monospace; }
h1 { font-size: inherit; font-weight: bold; text-decoration: underline; text-align: center; }
h2 { font-size: inherit; font-weight: normal; color: #800080; text-decoration: underline; }
h3 { font-size: inherit; font-weight: bold; color: #800080; }
code { font-family: inherit; font-weight: bold; color: #008080; background-color: #000000; }
table { border-collapse: collapse; }
th { font-weight: normal; color: #008080; text-align: left; border-bottom: 1px solid #008080; padding: 0 0.6em; }
td { padding: 0 0.6em; vertical-align: top; }
td.n { text-align: right; }
li::marker { font-weight: bold; }"""

_HEADER = ("General or unit", "Arm", "SP", "Cohesion", "Place")
_ITEMS = frozenset(("loose", "item", "weather", "roll", "spend", "fought", "die"))


def _e(value: object) -> str:
    """A value from the file as HTML text: the words the markdown letter shows, `shown` (control
    characters removed, bidirectional ones written out), escaped."""
    return html_text.escape(shown(_cell(value)), quote=True)


def _row(*cells: str) -> str:
    return "<tr>" + "".join(f'<td class="n">{c}</td>' if i in (2, 3) else f"<td>{c}</td>" for i, c in enumerate(cells)) + "</tr>"


def html_lines(side_file: CampaignSession) -> Iterator[str]:
    """The letter as an HTML page, a line at a time (without line ends)."""
    held = None  # an item's line, kept until we know whether a list of its own follows
    for line in _html(side_file):
        if held is not None:
            if line == "</li>":
                line, held = held + line, None
            else:
                yield held
                held = None
        if line.startswith("<li>") and not line.endswith("</li>"):
            held = line
        else:
            yield line
    if held is not None:
        yield held


def _html(side_file: CampaignSession) -> Iterator[str]:
    parts = _letter(side_file)
    title = next(parts)
    _, side, name, turn, date = title
    heading = f"Despatch to {_e(side)}: {_e(name)}, turn {turn} ({date:%d %B %Y})"
    yield from ("<!DOCTYPE html>", '<html lang="en">', "<head>", '<meta charset="UTF-8">',
                f"<title>{heading}</title>", "<style>", _STYLE, "</style>", "</head>", "<body>", f"<h1>{heading}</h1>")
    open_: list[str] = []  # the elements open, innermost last: "table", "ul", "li", "sub"
    closing = {"table": "</tbody></table>", "ul": "</ul>", "li": "</li>", "sub": "</ul>"}

    def close(down_to: str | None = None) -> Iterator[str]:
        while open_ and open_[-1] != down_to:
            yield closing[open_.pop()]

    for part in parts:
        kind = part[0]
        if kind == "subitem":
            _, unit, arm, sp = part
            if open_[-1:] != ["sub"]:
                yield "<ul>"
                open_.append("sub")
            yield f"<li>{_e(unit)}: {_e(arm)}, {_e(sp)} SP</li>"
            continue
        if kind in _ITEMS:
            yield from close("ul")
            if not open_:
                yield "<ul>"
                open_.append("ul")
            yield f"<li>{_html_item(part)}"
            open_.append("li")
            continue
        if kind in ("general", "unit"):
            yield _html_row(part)
            continue
        yield from close()
        if kind == "army":
            yield f"<h3>{_e(part[1])}</h3>"
            yield "<table>"
            yield "<thead><tr>" + "".join(f"<th>{h}</th>" for h in _HEADER) + "</tr></thead>"
            yield "<tbody>"
            open_.append("table")
        elif kind != "end":
            yield _html_block(part)
    yield from close()
    yield from ("</body>", "</html>")


def _html_row(part: Part) -> str:
    if part[0] == "general":
        _, name, rank, cv, place = part
        return _row(f"<strong>{_e(name)}</strong> (rank {_e(rank)}, CV {_e(cv)})", "general", "", "", _e(place))
    _, name, arm, sp, cohesion, place = part
    return _row(_e(name), _e(arm), _e(sp), _e(cohesion), _e(place))


def _html_block(part: Part) -> str:
    kind, *v = part
    if kind == "commitment":
        uid, commitment = v
        said = f"<code>{_e(commitment)}</code>" if commitment else "none: this campaign was made before dice commitments."
        return f"<p>Campaign {_e(uid)}. Dice commitment (SHA-256 of seed and salt): {said}</p>"
    if kind == "h2":
        return f"<h2>{_e(v[0])}</h2>"
    if kind == "h3":
        return f"<h3>{_e(v[0])}</h3>"
    if kind == "para":
        return f"<p>{_e(v[0])}</p>"
    # a battle
    number, place, turn, status, result = v
    return f"<h3>Battle #{_e(number)} at {_e(place)}, turn {_e(turn)}: {_e(status)}{': ' + _e(result) if result else ''}</h3>"


def _html_item(part: Part) -> str:
    kind, *v = part
    if kind == "loose":
        name, arm, sp, place = v
        return f"{_e(name)}: {_e(arm)}, {_e(sp)} SP, at {_e(place)}"
    if kind == "item":
        return _e(v[0])
    if kind == "weather":
        number, date, weather = v
        return f"turn {_e(number)} ({date:%d %B}): {_e(weather or 'not rolled')}"
    if kind == "roll":
        turn, army, points = v
        return f"turn {_e(turn)}, {_e(army)}: {_e(points)} points"
    if kind == "spend":
        turn, army, action, cost, balance = v
        return f"turn {_e(turn)}, {_e(army)}: {_e(action)} -{_e(cost)}, {_e(balance)} left"
    if kind == "fought":
        role, side, names = v
        return f"{_e(role)} ({_e(side)}): " + ", ".join(_e(n) for n in names)
    number, purpose, dice, raw, result, how = v
    return f"#{_e(number)} {_e(purpose)}: {_e(dice)} = {_e(' '.join(map(str, raw)))} -&gt; {_e(result)} ({_e(how)})"
