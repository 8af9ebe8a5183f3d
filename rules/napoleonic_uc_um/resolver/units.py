"""A resolver Unit as the card's procedures read it: its quality, its Troop, its
speed row and command column, and the UM and division it belongs to."""

from __future__ import annotations

from collections.abc import Callable

from rules.errors import RulesError
from rules.loader import get_table
from rules.napoleonic_uc_um import quality as split_quality
from rules.napoleonic_uc_um.data import RULESET, label
from rules.napoleonic_uc_um.troops import Troop
from rules.options import resolve_options
from rules.resolver import Request, Unit

# attributes the resolutions keep on a UC: hits waiting for their saves, the last round's losses
FIRE_HITS, MELEE_HITS, ROUND_LOSSES = "fire_hits", "melee_hits", "round_losses"
# states, as the card names them (labels in __init__.py)
DISORDERED, RALLYING, ROUT, FALLEN_BACK = "disordered", "rallying", "rout", "fallen_back"
UNCOMMANDED, MOVED, CHANGED, FIRED = "uncommanded", "moved", "changed_formation", "fired"
CHARGING, FLANK_CHARGE, CHARGED, COUNTER_CHARGED, TESTED_A = (
    "charging", "flank_charge", "charged", "counter_charged", "tested_a")
WEAPONS = ("musket", "rifle", "other", "heavy_artillery", "medium_artillery", "light_artillery")
NONE = "-"
LIGHT_CAVALRY = ("light", "irregular_light_horse")


def qualities() -> tuple[str, ...]:
    """Every 'expérience/tempérament' the card's two tables allow, such as 'aguerri/confiant'."""
    experiences = [str(v) for b in get_table(RULESET, "to_hit").rows.bands for v in b.names]
    temperaments = [str(v) for b in get_table(RULESET, "morale").axes[0].bands for v in b.names]
    return tuple(f"{e}/{t}" for e in experiences for t in temperaments)


def quality_labels() -> tuple[tuple[str, str], ...]:
    """Each quality as the card prints it, accents and all: 'veteran/intrepide' is 'Vétéran/Intrépide'."""
    def printed(table_id: str, axis: str, value: str) -> str:
        return label(table_id, axis, value).split(" (")[0]

    out = []
    for quality in qualities():
        e, t = quality.split("/")
        out.append((quality, f"{printed('to_hit', 'experience', e)}/{printed('morale', 'temperament', t)}"))
    return tuple(out)


def experience(unit: Unit) -> str:
    return split_quality(unit.attr("quality", "aguerri/confiant"))[0]


def temperament(unit: Unit) -> str:
    return split_quality(unit.attr("quality", "aguerri/confiant"))[1]


def cavalry_kind(unit: Unit) -> str:
    """The kind of cavalry (lancers, cuirassiers...), '' for a UC that is not cavalry."""
    kind = unit.attr("kind", NONE)
    return kind if unit.arm == "cavalry" and kind != NONE else ""


def troop(unit: Unit) -> Troop:
    """The UC as the card's factors see it."""
    return Troop(arm=unit.arm, kind=cavalry_kind(unit), formation=unit.attr("formation", "") or "",
                 disordered=unit.has(DISORDERED), in_cover=bool(unit.attr("in_cover", False)))


def command_arm(unit: Unit) -> str:
    """The arm movement.command_distance_cm reads: artillery by its battery."""
    if unit.arm != "artillery":
        return unit.arm
    return "horse_artillery" if unit.attr("battery") == "horse" else "foot_artillery"


def speed_kind(unit: Unit, how: str = "") -> str:
    """The row of table speed for this UC (Généraux ... Artillerie dételée); `how` is
    '', 'retreating' (en repli) or 'pursuing' (en poursuite)."""
    if unit.arm == "artillery":
        if how:
            raise RulesError(f"the card gives artillery no speed {'en repli' if how == 'retreating' else 'en poursuite'}")
        if unit.attr("formation") == "unlimbered":
            return "artillery_unlimbered"
        battery = unit.attr("battery", "foot")
        return f"{'foot' if battery == NONE else battery}_artillery_limbered"
    if unit.arm == "cavalry":
        base = "light_cavalry" if cavalry_kind(unit) in LIGHT_CAVALRY else "cavalry"
        return f"{base}_{how}" if how else base
    return f"infantry_{how or unit.attr('formation')}"


def not_broken(unit: Unit) -> None:
    if unit.has(ROUT):
        raise RulesError(f"{unit.name} is en rupture (broken)")


def chosen(request: Request) -> dict[str, str]:
    """The rules options of the battle, every one resolved to its choice."""
    return resolve_options(RULESET, request.options)


def um(unit: Unit) -> str:
    """The UM (brigade) of a UC: its attribute, else its campaign force."""
    return unit.attr("um") or unit.force or unit.id


def division(unit: Unit) -> str:
    return unit.attr("division") or unit.side


def members(request: Request, key: Callable[[Unit], str]) -> list[Unit]:
    """The UC of the actor's side in the same UM (key um) or division (key division)."""
    return [u for u in request.units.values() if u.side == request.actor.side and key(u) == key(request.actor)]


def standing(units: list[Unit]) -> list[Unit]:
    """The UC still on the table and out of rupture."""
    return [u for u in units if not u.removed and not u.has(ROUT)]
