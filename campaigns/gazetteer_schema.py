"""The theatre files' schema, in pydantic: the judge of every entry the gazetteer's plain
reading (campaigns.gazetteer) does not take, and the source of its one-sentence problems.

Imported only for such an entry: the packaged theatre is read without pydantic (whose
import cost a first visit of the battles 120-150 ms of CPU), every entry of it checked
plainly against the same rules.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

__all__ = ["BoundsEntry", "PlaceEntry", "RawRoad", "RiverEntry", "ValidationError"]

CrossingKind = Literal["bridge", "ford", "none"]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class BoundsEntry(_Strict):
    south: float
    north: float
    west: float
    east: float
    reason: str


class PlaceEntry(_Strict):
    name: str = Field(min_length=1)
    kind: Literal["town", "fortress", "crossing"]
    lat: float
    lon: float
    variants: tuple[str, ...] = ()
    region: str = ""

    @field_validator("name")
    @classmethod
    def _plain_name(cls, name: str) -> str:
        # A name in brackets would read as a marching note (see campaigns.gazetteer.split_location).
        if name != name.strip() or any(c in name for c in "()[]"):
            raise ValueError("a place name has no brackets and no surrounding spaces")
        return name


class RiverEntry(_Strict):
    name: str = Field(min_length=1)
    size: Literal["minor", "major"]
    course: tuple[str, ...] = Field(min_length=2)


class RawRoad(_Strict):
    from_: str = Field(alias="from")
    to: str
    kind: Literal["road", "poor_road"]
    cross: dict[str, CrossingKind] = Field(default_factory=dict)
    hexes: int | None = Field(default=None, ge=1)
