"""The orders file's shape (campaigns.orders `read`), checked with pydantic: imported only
when a file is read, so that listing or writing orders (the orders screen's first visit)
does not import pydantic (about 0.2 s of CPU)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field

from campaigns.text import plain_name
from rules.numbers import MAX_TURNS

MAX_ORDERS = 500


def _plain(value: str) -> str:
    # `write` refuses control characters where a player types; a file edited by hand is held to the same
    # (the length is the field's own limit)
    return plain_name(value, "the text", limit=len(value))


Text = Annotated[str, Field(max_length=2000), AfterValidator(_plain)]
Name = Annotated[str, Field(max_length=200), AfterValidator(_plain)]


class OrderDoc(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    kind: Literal["move", "forced_march", "command_points", "reconnaissance", "note"]
    stack: Name = ""
    place: Name = ""
    action: Name = ""  # command points: a row of the command points table
    text: Text = ""
    cost: Annotated[int, Field(ge=0, le=1000)] | None = None  # MP as the player's file priced it


class OrdersDoc(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    format: Literal["adjutant-orders"]
    version: Literal[1]
    campaign: Annotated[str, Field(min_length=1, max_length=64), AfterValidator(_plain)]
    side: Name
    turn: Annotated[int, Field(ge=1, le=MAX_TURNS)]
    orders: Annotated[list[OrderDoc], Field(max_length=MAX_ORDERS)]
