"""The command line as data: one table of commands (tui/cli.py, `COMMANDS`) from
which the parsers, the help's list of commands and the dispatch are built.

A command is a name, a sentence of help, its arguments and the function that runs
it, named as "module:function" so that building the parser imports nothing of the
layers below: `adjutant rules lookup ...` never loads textual or sqlmodel.  Here,
in the lowest layer, because every layer's commands use the one parser class.
"""

from __future__ import annotations

import argparse
import importlib
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, NoReturn

from rules.errors import RulesError
from rules.numbers import Span


class UsageError(Exception):
    """A command line that does not parse: one sentence, exit 2."""


class Parser(argparse.ArgumentParser):
    """Every parser of `adjutant`: a usage fault raises UsageError, for its command's
    own one-line refusal, never argparse's usage dump."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(message)


@dataclass(frozen=True)
class Arg:
    """One argument, as `add_argument` takes it."""

    flags: tuple[str, ...]
    options: Mapping[str, Any] = field(default_factory=dict)


def arg(*flags: str, **options: Any) -> Arg:
    return Arg(flags, options)


@dataclass(frozen=True)
class OneOf:
    """Arguments of which at most one (exactly one when `required`) is given."""

    args: tuple[Arg, ...]
    required: bool = False


def one_of(*args: Arg, required: bool = False) -> OneOf:
    return OneOf(args, required)


@dataclass(frozen=True)
class Command:
    """One command of `adjutant` (or one sub-command: `dice verify`, `rules lookup`)."""

    name: str
    help: str  # one line, lower case: the parser's help and, capitalised, its description
    run: str = ""  # "module:function(args) -> exit status"; empty for a command of sub-commands
    args: tuple[Arg | OneOf, ...] = ()
    sub: tuple[Command, ...] = ()
    # "module:function(work, argv) -> exit status": runs the parse and the command, and
    # turns the errors of its layer into one sentence (rules.cli.guarded, campaigns.cli.guarded)
    guard: str = ""
    metavar: str = "COMMAND"  # how the sub-commands are named in the usage line


def load(reference: str) -> Callable[..., Any]:
    module, _, name = reference.partition(":")
    found: Callable[..., Any] = getattr(importlib.import_module(module), name)
    return found


WHOLE = re.compile("[+-]?[0-9]{1,19}")
WHOLE_LIMIT = 2**63 - 1  # a database's largest integer: anything beyond is no turn, seed or number of anything


def whole(text: str) -> int:
    """A whole number as `adjutant` takes one: digits 0-9 and a sign, within a database's integer.

    `int` alone takes "١٢" and "²"-free Unicode digits, "1_000" and " 7 ", and numbers
    of any length that the database then refuses with a traceback."""
    if not WHOLE.fullmatch(text) or abs(number := int(text)) > WHOLE_LIMIT:
        shown = repr(text) if len(text) <= 30 else repr(text[:30] + "...")
        raise argparse.ArgumentTypeError(f"{shown} is not a whole number (digits 0-9, at most {WHOLE_LIMIT:,})")
    return number


def spanned(span: Span) -> Callable[[str], int]:
    """An argument's type that reads one kind of number (rules.numbers: a turn, an event's number),
    refused in the kind's own sentence when it is out of its range or not a number."""

    def read(text: str) -> int:
        try:
            return span.read(text)
        except RulesError as error:
            raise argparse.ArgumentTypeError(str(error)) from None

    read.__name__ = span.noun  # argparse names a type by its function's name
    return read


def _options(item: Arg) -> dict[str, Any]:
    """`add_argument`'s keywords: every `type=int` of the command table is read as `whole`, and
    every kind of number (`type=TURN`, rules.numbers) within its range."""
    options = dict(item.options)
    if options.get("type") is int:
        options["type"] = whole
    elif isinstance(options.get("type"), Span):
        options["type"] = spanned(options["type"])
    return options


def _add(parser: argparse.ArgumentParser | argparse._ArgumentGroup, item: Arg | OneOf) -> None:
    if isinstance(item, OneOf):
        group = parser.add_mutually_exclusive_group(required=item.required)
        for one in item.args:
            group.add_argument(*one.flags, **_options(one))
    else:
        parser.add_argument(*item.flags, **_options(item))


def build(prog: str, description: str, commands: Sequence[Command]) -> Parser:
    """The parser of every command in `commands`; a parsed command line carries the
    command to run as `_run`."""
    parser = Parser(prog=prog, description=description)
    _add_commands(parser, commands)
    return parser


def _add_commands(parser: argparse.ArgumentParser, commands: Sequence[Command], metavar: str = "COMMAND") -> None:
    group = parser.add_subparsers(required=True, metavar=metavar, parser_class=Parser)
    for command in commands:
        sub = group.add_parser(command.name, help=command.help, description=command.help[0].upper() + command.help[1:] + ".")
        for item in command.args:
            _add(sub, item)
        if command.sub:
            _add_commands(sub, command.sub, command.metavar)
        else:
            sub.set_defaults(_run=command.run)


def names(commands: Sequence[Command], prefix: str = "") -> Iterator[str]:
    """Every command that runs something, with its sub-commands: "dice verify", "rules lookup"."""
    for command in commands:
        if command.sub:
            yield from names(command.sub, f"{prefix}{command.name} ")
        else:
            yield f"{prefix}{command.name}"


def find(commands: Sequence[Command], name: str) -> Command | None:
    return next((c for c in commands if c.name == name), None)


def dispatch(prog: str, description: str, commands: Sequence[Command], argv: Sequence[str]) -> int:
    """Parse `argv` (its first word a command of `commands`) and run it under its command's guard."""
    top = find(commands, argv[0]) if argv else None
    if top is None:
        raise UsageError(f"{argv[0] if argv else 'nothing'} is not a command")

    def work() -> int:
        # argparse (3.11) reads `--seed=--` as the empty list, past the argument's type: a
        # `--seed` of [] then fails far from here. `--` is never a value of ours.
        for word in argv:
            flag, equals, value = word.partition("=")
            if equals and flag.startswith("-") and value == "--":
                raise UsageError(f"argument {flag}: expected one argument")
        parser = build(prog, description, [top])
        try:
            args = parser.parse_args(list(argv))
        except SystemExit as done:  # --help, printed
            return int(done.code or 0)
        return int(load(args._run)(args))

    return int(load(top.guard)(work, list(argv)))
