"""A battle's stored set-up is read side by side (campaigns.battles): a side that lost a key
or holds text for a number is named by `check` and refused by export, never a crash later."""

from __future__ import annotations

import copy

import pytest

from models import table_metadata
from models.export_format import BadRow, validate_row

SIDE = {
    "units": ["u1"], "generals": [{"id": "g1", "name": "Ney", "rank": 2, "tactical_bonus": 1, "command_value": 3}],
    "sp_by_arm": {"infantry": 4, "cavalry": 0, "artillery": 1}, "average_cohesion": [7, 2],
    "artillery_bonus": 1, "cavalry_bonus": 0, "side": "french",
}
ROW = {
    "id": 1, "turn": 1, "location": "Lützen", "participants": {}, "rounds": 0, "losses": {}, "result": None,
    "status": "pending", "resolver": "allemagne1813",
    "detail": {"setup": {"sides": {"attacker": SIDE, "defender": SIDE}, "facts": {}, "weather": "Clear", "options": {}}},
}


def test_a_whole_set_up_is_taken() -> None:
    validate_row(table_metadata().tables["battle"], ROW)


@pytest.mark.parametrize(
    "spoil",
    [
        lambda side: side.pop("artillery_bonus"),
        lambda side: side.update(artillery_bon5s=side.pop("artillery_bonus")),
        lambda side: side.update(cavalry_bonus="1"),
        lambda side: side.update(average_cohesion=[7, 0]),
        lambda side: side["generals"][0].pop("tactical_bonus"),
        lambda side: side.update(sp_by_arm={"infantry": "4"}),
    ],
)
def test_a_spoilt_side_is_refused_in_one_phrase(spoil) -> None:
    row = copy.deepcopy(ROW)
    spoil(row["detail"]["setup"]["sides"]["attacker"])
    with pytest.raises(BadRow, match="the battle's set-up has a bad side"):
        validate_row(table_metadata().tables["battle"], row)
