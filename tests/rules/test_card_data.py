"""Every rule set's card data is typed frozen objects, and a card file with a key the
schema does not know is refused with the file and the key named."""

from __future__ import annotations

import dataclasses
import importlib

import pytest
from pydantic import BaseModel, ValidationError

from rules.loader import DataFileError
from rules.resolver import tactical_rulesets

CARDS = tactical_rulesets()  # every tactical rule set has a data.card()


@pytest.mark.parametrize("ruleset", CARDS)
def test_card_is_a_typed_frozen_object(ruleset):
    data = importlib.import_module(f"rules.{ruleset}.data")
    card = data.card()
    assert not isinstance(card, dict)
    assert type(card).__name__ == "Card"
    if isinstance(card, BaseModel):
        field = next(iter(type(card).model_fields))
        with pytest.raises(ValidationError):
            setattr(card, field, None)
    else:
        assert dataclasses.is_dataclass(card) and card.__dataclass_params__.frozen


@pytest.mark.parametrize(
    "ruleset, old, new, message",
    [
        ("kallistra_acw", "brigade_radius = 3", "brigade_radis = 3",
         "unknown key 'brigade_radis' in [command] (the keys there are printed, notes, brigade_radius, general_move)"),
        ("kallistra_acw", "[recoil]\nhexes = 1", "[recoil]\nhexes = 1\nhex = 2", "unknown key 'hex' in [recoil]"),
        ("napoleonic_d10", "turn_ends_at = 17", "turn_end_at = 17",
         "unknown key 'turn_end_at' in [initiative] (the keys there are turn_ends_at)"),
        ("napoleonic_d10", "[morale.results.SH]\nstatus", "[morale.results.SH]\nstatuss",
         "unknown key 'statuss' in [morale] [results] [SH]"),
        ("napoleonic_uc_um", "charge_reach = 5", "charge_reah = 5", "unknown key 'charge_reah' in [distances]"),
        ("napoleonic_13phase", "support_inches = 2", "suport_inches = 2", "unknown key 'suport_inches' in [melee]"),
    ],
)
def test_a_misspelt_key_in_a_card_file_is_refused_with_its_name(ruleset, old, new, message, tmp_path, monkeypatch):
    data = importlib.import_module(f"rules.{ruleset}.data")
    text = data.PATH.read_text(encoding="utf-8")
    assert old in text
    path = tmp_path / "rules.toml"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    monkeypatch.setattr(data, "PATH", path)
    data.card.cache_clear()
    try:
        with pytest.raises(DataFileError) as err:
            data.card()
        assert str(err.value).startswith(f"{path}: ") and message in str(err.value)
    finally:
        monkeypatch.undo()
        data.card.cache_clear()


def test_a_conversion_file_with_a_misspelt_key_is_refused_with_its_name(tmp_path, monkeypatch):
    import rules.conversion as conversion

    text = (conversion.data_file("kallistra_acw", "conversion.toml")).read_text(encoding="utf-8")
    path = tmp_path / "conversion.toml"
    path.write_text(text.replace("[artillery_bonus]\nunits_per_point", "[artillery_bonus]\nunit_per_point", 1), encoding="utf-8")
    monkeypatch.setattr(conversion, "data_file", lambda ruleset, name: tmp_path / name)
    conversion.load_conversion.cache_clear()
    try:
        with pytest.raises(DataFileError, match=r"conversion.toml: unknown key 'unit_per_point' in \[artillery_bonus\]"):
            conversion.load_conversion("kallistra_acw")
    finally:
        monkeypatch.undo()
        conversion.load_conversion.cache_clear()
