"""The rules screen lists every table of every rule set from the tables' id lines, and reads a
table (checked) only when it is shown."""

from __future__ import annotations

from pathlib import Path

from rules import load_ruleset, registry, ruleset_ids
from rules.layout import grid
from rules.loader import load_table
from tui.screens.rules import _table_id, table_ids


def test_the_list_names_the_tables_load_ruleset_reads_in_its_order() -> None:
    for ruleset in ruleset_ids():
        assert table_ids(ruleset) == list(load_ruleset(ruleset)), ruleset


def test_an_id_the_line_does_not_say_plainly_is_what_toml_reads(tmp_path: Path) -> None:
    """A literal string is read from the whole table; a commented-out id line is no id."""
    path = sorted((registry.get_ruleset("allemagne1813").folder / "tables").glob("*.toml"))[0]
    text = path.read_text(encoding="utf-8")
    table_id = load_table(path, "allemagne1813").id
    assert f'id = "{table_id}"' in text
    quoted = tmp_path / "quoted.toml"
    quoted.write_text(text.replace(f'id = "{table_id}"', f"id = '{table_id}'", 1), encoding="utf-8")
    commented = tmp_path / "commented.toml"
    commented.write_text(f'# id = "not-this"\n{text}', encoding="utf-8")
    for written in (quoted, commented):
        assert _table_id(written, "allemagne1813") == table_id == load_table(written, "allemagne1813").id


async def test_each_name_in_the_list_is_as_high_as_it_is_drawn(make_app, campaign_file) -> None:
    """The list asks every name's height when first drawn: counted, it is what drawing gives,
    at the list's own width and at every width a narrower or wider list would have."""
    from textual.visual import RichVisual
    from textual.widgets import OptionList

    app = make_app(campaign_file, start="rules")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        tables = app.screen.query_one("#tables", OptionList)
        assert tables.option_count == sum(len(table_ids(r)) for r in ruleset_ids())
        own = tables.scrollable_content_region.width
        for index in range(tables.option_count):
            listed = tables.get_option_at_index(index).prompt
            drawn = RichVisual(tables, listed.hanging)
            for width in {own, own - 2, 8, 12, 16, 20, 40}:
                assert listed.get_height(tables.styles, width) == drawn.get_height(tables.styles, width), (str(listed.hanging), width)
        assert any(listed.get_height(tables.styles, 16) > 1 for listed in (o.prompt for o in tables.options))


async def test_a_table_shown_before_the_grid_is_idle_has_whole_columns(make_app, campaign_file) -> None:
    """Tables shown one after another as the cursor runs down the list: a frame drawn before
    the grid measured its new rows (a loaded machine) once kept every column as wide as its
    header until the cursor moved in the grid."""
    from tests.tui.helpers import screen_text
    from tui.screens.rules import RulesScreen

    app = make_app(campaign_file, start="rules")
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, RulesScreen)
        ruleset = ruleset_ids()[0]
        ids = table_ids(ruleset)
        widest = max(ids, key=lambda t: max(len(str(c)) for row in grid(load_ruleset(ruleset)[t]) for c in row))
        screen.show_table(ruleset, ids[0] if ids[0] != widest else ids[1])
        screen.show_table(ruleset, widest)
        drawn_at_once = screen_text(app)  # before the grid is idle
        cells = [str(c) for row in grid(load_ruleset(ruleset)[widest])[1:] for c in row]
        longest = max(cells, key=len)
        assert longest[:40] in drawn_at_once, longest
