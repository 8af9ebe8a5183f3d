"""The card's sequence of play as the resolver's checklist: who acts at each step,
the resolutions done there, and the steps that wait for saves before they end."""

from __future__ import annotations

from collections.abc import Mapping

from rules.napoleonic_uc_um.resolver.units import FIRE_HITS, MELEE_HITS
from rules.napoleonic_uc_um.sequence import steps
from rules.resolver import ACTIVE, BOTH, INACTIVE, Acts, Phase, Unit

_CHARGE_SEQUENCE = ("test_a", "test_b", "fire", "counter_charge", "save", "chargers_test", "melee",
                    "after_melee_test", "pursuit")
# who acts at each step of the card and the resolutions done there
_STEPS: dict[str, tuple[Acts, tuple[str, ...]]] = {
    "1.1": (ACTIVE, ("loss_test", "um_test")),
    "1.2": (ACTIVE, ("division_test",)),
    "1.3": (ACTIVE, ("replace_general",)),
    "2.1": (ACTIVE, ("fill_ranks",)),
    "2.2": (ACTIVE, ("command",)),
    "2.3": (ACTIVE, ("move",)),
    "2.4": (ACTIVE, ("move", "change_formation")),
    "3.1": (ACTIVE, ("fire", "save")),
    "3.2": (ACTIVE, ("charge",)),
    "3.3": (ACTIVE, ("test_a",)),
    "3.4": (INACTIVE, ("test_b",)),
    "3.5": (INACTIVE, ("fire", "counter_charge")),
    "3.6": (ACTIVE, ("save",)),
    "3.7": (ACTIVE, ("chargers_test",)),
    "3.8": (BOTH, ("melee", "save")),
    "3.9": (BOTH, ("after_melee_test", "melee", "save")),
    "3.10": (BOTH, ("pursuit",)),
    "3.11": (BOTH, ("new_contact", *_CHARGE_SEQUENCE)),
    "3.12": (BOTH, ("stand_still",)),
}
# the steps that do not end while hits of this kind wait for their saves
_SAVES_DUE = {"3.1": (FIRE_HITS,), "3.6": (FIRE_HITS,), "3.8": (MELEE_HITS,), "3.9": (MELEE_HITS,),
              "3.11": (FIRE_HITS, MELEE_HITS)}


def phases() -> tuple[Phase, ...]:
    out = []
    for s in steps():
        acts, actions = _STEPS[s.id]
        out.append(Phase(s.id, f"{s.id} {s.english}", acts, actions, s.french))
    return tuple(out)


def unfinished(phase: str, units: Mapping[str, Unit]) -> list[str]:
    out = []
    for kind in _SAVES_DUE.get(phase, ()):
        word = "fire" if kind == FIRE_HITS else "melee"
        out += [f"{u.name} has {u.attr(kind)} {word} hits waiting for its saves" for u in units.values()
                if not u.removed and u.attr(kind)]
    return out
