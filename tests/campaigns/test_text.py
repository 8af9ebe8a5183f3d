"""Text a campaign holds is shown inert; names, places and notes typed in are plain and bounded."""

from __future__ import annotations

from pathlib import Path

import pytest

from campaigns.errors import CampaignError
from campaigns.session import CampaignSession
from campaigns.text import NAME_LIMIT, TextError, laid_out_inert, one_line, plain_name, shown
from tests.test_hostile_files import run
from tests.templates import new_campaign

HOSTILE = "Ney\x1b]0;pwned\x07\x1b[2J\x9b6n\x00\ud800"


def test_shown_keeps_newlines_and_tabs_and_drops_every_other_control() -> None:
    assert shown(HOSTILE) == "Ney]0;pwned[2J6n"
    assert shown("line one\n\tline two\x7f") == "line one\n\tline two"
    assert one_line("a\nb\tc\x1b") == "a b c"


def test_shown_writes_out_the_bidirectional_controls_that_would_turn_a_name_around() -> None:
    # "\u202eetoN" reads "Note" on a terminal ("Trojan Source"): the umpire sees the override instead.
    trojan = "Ney \u202eetoN\u202c \u2067x\u2069 \u200e\u200f\u061c\x1b"
    assert shown(trojan) == "Ney <U+202E>etoN<U+202C> <U+2067>x<U+2069> <U+200E><U+200F><U+061C>"
    assert one_line("a\u202e\nb") == "a<U+202E> b"
    # A line already laid out keeps its width: each is zero cells wide, and removed.
    assert laid_out_inert(trojan) == "Ney etoN x "


def test_every_explicit_bidirectional_formatting_character_is_written_out() -> None:
    import unicodedata

    explicit = {"LRE", "RLE", "LRO", "RLO", "PDF", "LRI", "RLI", "FSI", "PDI"}
    found = [chr(c) for c in range(0x10000) if unicodedata.bidirectional(chr(c)) in explicit]
    assert len(found) == 9
    assert all(shown(c) == f"<U+{ord(c):04X}>" for c in found)


@pytest.mark.parametrize("typed", ["Ney\x1b[2J", "Ney\n", "Ney\tMarshal", "\x9bNey", "x" * (NAME_LIMIT + 1)])
def test_a_name_with_control_characters_or_too_long_is_refused_in_one_sentence(typed: str) -> None:
    with pytest.raises(TextError) as error:
        plain_name(typed)
    assert "\n" not in str(error.value)


def test_a_plain_name_is_kept_as_typed_less_surrounding_spaces() -> None:
    assert plain_name("  Prinz Eugen von Württemberg ") == "Prinz Eugen von Württemberg"
    assert plain_name("x" * NAME_LIMIT) == "x" * NAME_LIMIT


def test_every_caller_refuses_such_names(tmp_path: Path) -> None:
    from campaigns import oob
    from campaigns.battles import checked_place

    session = CampaignSession.open(new_campaign(tmp_path / "t.campaign", "spring1813", seed=1))
    try:
        general = oob.tree(session)[0].armies[0].generals[0].general.id
        with pytest.raises(CampaignError, match="control characters"):
            oob.add_unit(session, general, {"name": "Guard\x1b[2J", "kind": "infantry",
                                            "strength_points": "4", "cohesion": "3"})
        with pytest.raises(CampaignError, match="at most 200 characters"):
            oob.add_general(session, general, {"name": "x" * 201, "rank": "1", "command_value": "1",
                                               "tactical_bonus": "0"})
        with pytest.raises(CampaignError, match="control characters"):
            checked_place("Lützen\x07")
    finally:
        session.close()


def test_new_refuses_a_hostile_name_and_never_echoes_escapes(tmp_path: Path) -> None:
    code, out, err = run("new", "spring1813", str(tmp_path / "a.campaign"), "--name", "Club\x1b]0;pwned\x07")
    assert code == 2 and "control characters" in err and "\x1b" not in err and out == b""
    target = tmp_path / "evil\x1b[2J.campaign"
    code, out, err = run("new", "spring1813", str(target), "--seed", "1")
    assert code == 0 and b"\x1b" not in out and b"evil[2J.campaign" in out
    code, out, err = run("new", "spring1813", str(target), "--seed", "1")
    assert code == 2 and "already exists" in err and "\x1b" not in err
