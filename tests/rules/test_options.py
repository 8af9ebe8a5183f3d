"""The named readings: every option has a default among its choices and a reason, its
card words are the card's, and `adjutant rules show RULESET` lists them."""

from __future__ import annotations

import tomllib

import pytest

from rules.allemagne1813.data import PATH
from rules.loader import load_ruleset, ruleset_ids
from rules.options import load_options
from tests.rules.cards import CARD_OF, card_text, skip_without_card
from tui.cli import main

# The readings issue 21 asks to be named, with the card's words each rests on.
NAMED = {
    "napoleonic_d10": ["leader_il", "several_leaders", "cav_vs_inf_line", "fire_roll_zero"],
    "kallistra_acw": ["canister_dice", "hits_on_one_hex"],
    "napoleonic_uc_um": ["non_cumulable"],
    "allemagne1813": ["battle_rounds", "reconnaissance_units"],
}


def squash(text: str) -> str:
    return " ".join(text.split())


@pytest.mark.parametrize("ruleset", ruleset_ids())
def test_every_option_has_a_default_a_reason_and_a_source_on_its_card(ruleset):
    for option in load_options(ruleset).values():
        assert option.default in option.choices and option.reason.strip(), option.id
        assert CARD_OF[ruleset] in option.source, option.id


@pytest.mark.parametrize("ruleset", sorted(NAMED))
def test_the_readings_left_open_are_named_with_the_cards_words(ruleset):
    options = load_options(ruleset)
    for option_id in NAMED[ruleset]:
        assert option_id in options and options[option_id].card, option_id


@pytest.mark.parametrize("ruleset", sorted(CARD_OF))
def test_the_card_words_of_an_option_are_printed_on_its_card(ruleset):
    card = CARD_OF[ruleset]
    skip_without_card(card)
    printed = squash(card_text(card))
    for option in load_options(ruleset).values():
        for words in option.card:
            assert squash(words) in printed, (option.id, words)


def test_rules_show_lists_the_readings_with_the_cards_words(capsys):
    assert main(["rules", "show", "napoleonic_d10"]) == 0
    out = capsys.readouterr().out
    assert "fire_roll_zero: Fire: a roll modified to 0 or below" in out
    assert "- no_effect (default): a roll modified to 0 or below is NE, as the note reads" in out
    assert "Card: Rolls modified to 0³� = NE" in out
    assert "leader_il: Leaders: where a leader's IL comes from" in out and "Reason: The card adds a leader's IL" in out
    assert main(["rules", "show", "allemagne1813", "options"]) == 0
    out = capsys.readouterr().out
    assert "battle_rounds: Battles: how many rounds of combat" in out
    assert "Card: Fourth round of combat in a battle: A -1L and D -1L" in out
    assert "reconnaissance_units" in out and "Conversion" not in out  # the campaign's own rules convert nothing
    assert main(["rules", "show", "kallistra_acw"]) == 0
    out = capsys.readouterr().out
    assert "a force's artillery bonus (AB) on the table, 1 artillery unit of 2 stands per point" in out


def test_rules_show_refuses_an_unknown_rule_set_in_one_line(capsys):
    assert main(["rules", "show", "nosuch"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no rule set 'nosuch'" in err


def test_allemagne1813_modifiers_quote_only_the_card():
    """rules.toml's `printed` lines are the card's words (its bullets and tabs aside)."""
    skip_without_card(CARD_OF["allemagne1813"])
    # the text copy's bullets ('•') fall anywhere, even inside '(• *)'
    printed = squash(card_text(CARD_OF["allemagne1813"]).replace("•", " ")).replace("( ", "(")

    def quotes(node):
        if isinstance(node, dict):
            for key, value in node.items():
                yield from (value if isinstance(value, list) else [value]) if key == "printed" else quotes(value)
        elif isinstance(node, list):
            for item in node:
                yield from quotes(item)

    lines = list(quotes(tomllib.loads(PATH.read_text(encoding="utf-8"))))
    assert len(lines) > 20
    for line in lines:
        assert squash(line) in printed, line


@pytest.mark.parametrize("ruleset", sorted(CARD_OF))
def test_every_tables_card_notes_are_the_cards_words(ruleset):
    """`adjutant rules show` prints them as 'Card: ...': translations and readings go in notes."""
    card = CARD_OF[ruleset]
    skip_without_card(card)
    printed = squash(card_text(card).replace("•", " "))
    for table in load_ruleset(ruleset).values():
        for note in table.card_notes:
            assert squash(note) in printed, (table.id, note)


def test_an_options_file_with_a_misspelt_key_is_refused_with_its_name(tmp_path, monkeypatch):
    import rules.options as options_module
    from rules.loader import DataFileError

    path = tmp_path / "options.toml"
    path.write_text('[[option]]\nid = "rounds"\ntitle = "Rounds"\ndefault = "a"\nreason = "r"\nsource = "s"\n'
                    'choices = { a = "A" }\ncards = "the card\'s words"\n', encoding="utf-8")
    monkeypatch.setattr(options_module, "data_file", lambda ruleset, name: tmp_path / name)
    options_module.load_options.cache_clear()
    try:
        with pytest.raises(DataFileError, match=r"options.toml: option rounds: unknown key 'cards' \(the keys there are id, "):
            options_module.load_options("demo")
    finally:
        options_module.load_options.cache_clear()
