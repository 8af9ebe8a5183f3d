"""A UC as the card's factors see it: arm, kind, formation, order and cover."""

from __future__ import annotations

from dataclasses import dataclass

from rules.errors import RulesError
from rules.napoleonic_uc_um.data import ARMS

# The formations and kinds the card names (speeds, fire and melee factors).
FORMATIONS = {
    "infantry": ("line", "attack_column", "march_column", "solid_square", "hollow_square"),
    "cavalry": ("line", "column"),
    "artillery": ("limbered", "unlimbered"),
}
SQUARES = ("solid_square", "hollow_square")
COLUMNS = ("attack_column", "march_column", "column")
CAVALRY_KINDS = ("light", "lancers", "cuirassiers", "irregular_light_horse", "other")


@dataclass(frozen=True)
class Troop:
    """The facts about one UC that the card's factors read.

    arm: infantry, cavalry or artillery.  kind (cavalry): light, lancers, cuirassiers,
    irregular_light_horse (ILh) or other.  formation: infantry line, attack_column,
    march_column, solid_square (carré plein) or hollow_square (carré creux); cavalry
    line or column; artillery limbered (attelée) or unlimbered (dételée, déployée).
    """

    arm: str
    kind: str = ""
    formation: str = ""
    disordered: bool = False
    in_cover: bool = False

    def __post_init__(self) -> None:
        if self.arm not in ARMS:
            raise RulesError(f"arm {self.arm!r} is not on the card; it is infantry, cavalry or artillery")
        if self.formation and self.formation not in FORMATIONS[self.arm]:
            raise RulesError(
                f"{self.arm} formation {self.formation!r} is not on the card; it is one of "
                + ", ".join(FORMATIONS[self.arm])
            )
        if self.kind and (self.arm != "cavalry" or self.kind not in CAVALRY_KINDS):
            raise RulesError(
                f"kind {self.kind!r} is for cavalry only, one of " + ", ".join(CAVALRY_KINDS)
            )

    @property
    def in_square(self) -> bool:
        return self.arm == "infantry" and self.formation in SQUARES

    @property
    def in_column(self) -> bool:
        return self.formation in COLUMNS

    @property
    def square_in_order(self) -> bool:
        return self.in_square and not self.disordered

    @property
    def open_infantry(self) -> bool:
        """'infanterie non en carré ou infanterie en carré et en désordre'."""
        return self.arm == "infantry" and not self.square_in_order

    @property
    def cuirassiers(self) -> bool:
        return self.arm == "cavalry" and self.kind == "cuirassiers"
