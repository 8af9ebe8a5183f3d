"""`adjutant rules`: list, show, look up and compute the odds of any table (the
commands and their arguments are in tui/cli.py's table).

Imports neither textual nor sqlmodel, and icepool only for `odds`, so that a
lookup answers at once.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import textwrap
from collections.abc import Callable
from typing import TYPE_CHECKING

from rules import registry
from rules.commandline import UsageError
from rules.errors import RulesError
from rules.layout import render_table
from rules.loader import get_table, load_ruleset, ruleset_ids
from rules.numbers import whole
from rules.tables import Table

if TYPE_CHECKING:
    from fractions import Fraction  # the odds' exact chances: imported by rules.odds, not by a lookup


OPTIONS = "options"  # `adjutant rules show RULESET options`: the named readings, not a table


def _axes(table: Table, pairs: list[str], skip: str | None = None) -> dict[str, int | str]:
    axes = {a.name: a for a in table.axes}
    values: dict[str, int | str] = {}
    for pair in pairs:
        name, sep, raw = pair.partition("=")
        if not sep or not name or not raw:
            raise RulesError(f"{pair!r} is not AXIS=VALUE (for example roll=8)")
        if name not in axes:
            raise RulesError(
                f"table {table.id} has no axis {name!r}; its axes are " + ", ".join(axes)
            )
        values[name] = axes[name].coerce(raw)
    for name in axes:
        if name != skip and name not in values:
            raise RulesError(f"table {table.id} needs {name}=VALUE")
    return values


def _options(ruleset: str) -> str:
    from rules.conversion import load_conversion

    if ruleset not in ruleset_ids():
        raise RulesError(f"no rule set {ruleset!r}; the rule sets are " + ", ".join(ruleset_ids()))
    from rules.options import render_options  # pydantic's schema: only for the options

    out = render_options(ruleset)
    conversion = load_conversion(ruleset)
    if conversion is not None and conversion.ab_reason:  # editorial, not a card's reading, but a rule all the same
        out += (
            f"\n\nConversion (rules/{ruleset}/conversion.toml, editorial): a force's artillery bonus (AB) on the table,"
            f" {conversion.ab_units_per_point} artillery unit of {conversion.ab_size} {conversion.size_label} per point\n"
            + "\n".join(textwrap.wrap(f"Reason: {conversion.ab_reason}", 100, initial_indent="  ", subsequent_indent="    "))
        )
    return out


def _list() -> str:
    lines = []
    for ruleset, found in registry.registered().items():
        kind = "tabletop resolver" if found.ruleset.tactical else "campaign tables"
        lines.append(f"{ruleset}: {found.ruleset.title} ({kind}; from {found.origin})")
        for table in load_ruleset(ruleset).values():
            axes = ", ".join(a.name for a in table.axes)
            lines.append(f"  {table.id}({axes})  {table.title}")
    lines += [f"not loaded: {problem}" for problem in registry.broken()]
    return "\n".join(lines)


def _lookup(args: argparse.Namespace) -> str:
    table = get_table(args.ruleset, args.table)
    values = _axes(table, args.axes)
    cell = table.lookup(**values)
    if args.json:
        return json.dumps(
            {
                "ruleset": table.ruleset,
                "table": table.id,
                "axes": values,
                "text": cell.text,
                "blank": cell.blank,
                "meaning": cell.meaning,
                "source": {"file": table.source_file, "heading": table.source_heading},
            },
            ensure_ascii=False,
        )
    meaning = "".join(f"\n{m}: {table.legend[m]}" for m in cell.marks)
    return cell.text + meaning


def _percent(p: Fraction) -> str:
    return f"{float(p) * 100:6.2f}%"


def _odds(args: argparse.Namespace) -> str:
    from rules.odds import NEAREST, table_distribution

    table = get_table(args.ruleset, args.table)
    modifier = whole(args.modifier, "--modifier")
    if table.rows.name != "roll":
        return _target_odds(table, args, modifier)
    values = _axes(table, args.axes, skip=table.rows.name)
    if table.rows.name in values:
        raise RulesError(f"odds roll the dice for {table.rows.name}; leave it out")
    try:
        dist = table_distribution(
            table,
            modifier,
            dice=args.dice,
            roll_axis=table.rows.name,
            beyond=NEAREST if args.beyond == "nearest" else None,
            **values,
        )
    except RulesError as exc:
        if "beyond the printed rows" in str(exc):
            raise RulesError(f"{exc}; --beyond nearest reads the nearest row") from None
        raise
    order = sorted(dist, key=lambda text: (text != "-", text))
    if args.json:
        return json.dumps(
            {
                "ruleset": table.ruleset,
                "table": table.id,
                "dice": args.dice or table.dice,
                "modifier": modifier,
                "axes": values,
                "results": [
                    {"text": t, "probability": str(dist[t]), "float": float(dist[t])}
                    for t in order
                ],
            },
            ensure_ascii=False,
        )
    dice = args.dice or table.dice
    head = f"{table.title}: {dice}{modifier:+d}" + "".join(f", {k}={v}" for k, v in values.items())
    width = max(len(t) for t in order)
    rows = [f"  {t:<{width}}  {_percent(dist[t])}  {dist[t]}" for t in order]
    return "\n".join([head, *rows])


def _target_odds(table: Table, args: argparse.Namespace, modifier: int) -> str:
    """A table of target numbers ("4+"): the chance the dice meet the cell's target."""
    from rules.odds import is_target, target_odds

    values = _axes(table, args.axes)
    cell = table.lookup(**values)
    if not is_target(cell.text, table.target):
        raise RulesError(f"table {table.id} is read, not rolled against: its cell here is {cell.text!r} (adjutant rules lookup)")
    dice = args.dice or table.dice
    if dice is None:
        raise RulesError(f"table {table.id} prints target numbers: give the dice rolled against them with --dice (e.g. 1d6)")
    dist = target_odds(cell.text, dice, modifier, table.target)
    if args.json:
        return json.dumps(
            {"ruleset": table.ruleset, "table": table.id, "dice": dice, "modifier": modifier, "axes": values,
             "target": cell.text,
             "results": [{"text": k, "probability": str(p), "float": float(p)} for k, p in dist.items()]},
            ensure_ascii=False,
        )
    head = f"{table.title}: {cell.text} on {dice}{modifier:+d}" + "".join(f", {k}={v}" for k, v in values.items())
    return "\n".join([head, *(f"  {k:<8} {_percent(p)}  {p}" for k, p in dist.items())])


def run_list(args: argparse.Namespace) -> int:
    return _print(_list())


def run_show(args: argparse.Namespace) -> int:
    if args.table == OPTIONS:
        return _print(_options(args.ruleset))
    return _print(render_table(get_table(args.ruleset, args.table)))


def run_lookup(args: argparse.Namespace) -> int:
    return _print(_lookup(args))


def run_odds(args: argparse.Namespace) -> int:
    return _print(_odds(args))


def _print(out: str) -> int:
    print(out)
    return 0


def guarded(work: Callable[[], int], argv: list[str]) -> int:
    """Run `adjutant rules ...` (the parse included): a refusal is one line on stderr, exit 2."""
    try:
        return work()
    except (RulesError, UsageError) as exc:
        # One line, and nothing typed can drive the terminal: echoed values are printed inert.
        message = re.sub(r"[\x00-\x1f\x7f-\x9f\ud800-\udfff]+", " ", str(exc))
        print(f"adjutant rules: {message}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # `adjutant rules show ... | head`: the reader has what it wanted
        sys.stderr.close()
        return 0
