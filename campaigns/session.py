"""An umpire's open campaign: what the app calls to read and change it.

Each public method is one thing an umpire does; each change is one action of
the store, so it commits at once and can be undone.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from sqlalchemy import JSON, text

from campaigns.errors import CampaignError, plainly
from campaigns.phases import phase
from models.errors import ConcurrentEditError
from models.glance import Overview, Status, overview, status
from models.opening import open_campaign
from models.store import CampaignStore

OPTIONS = text("SELECT ruleset, options FROM campaign WHERE id = 1").columns(options=JSON)

if TYPE_CHECKING:  # the SQLModel classes are built when first needed, after the first screen
    from models.tables import Campaign
    from models.targets import Target


T = TypeVar("T")


def load_undo_checks() -> None:
    """Import what undo and redo check a history with (models.history_checks: the import's
    row models and column types, pydantic's) and replay it with (models.history), ahead of
    the first undo, which otherwise waits for them (tui.app warm_up: in a thread, once the
    umpire pauses). Neither is needed to open a campaign or to show it."""
    import models.history  # noqa: F401
    import models.history_checks  # noqa: F401


class CampaignSession:
    # The side whose player opened a side file (campaigns.player.PlayerSession); None: the umpire.
    side: str | None = None

    def __init__(self, store: CampaignStore) -> None:
        self.store = store
        self._overview: tuple[int, Overview] | None = None  # the last one read, and at what version
        self._kept: dict[str, tuple[int, Any]] = {}  # kept(): by name, the answer and its version

    # -- opening -------------------------------------------------------------

    @classmethod
    def open(cls, target: Target) -> "CampaignSession":
        with plainly():
            session = cls(open_campaign(target))
        if cls is CampaignSession:  # a side file opens as its side's player (campaigns.player)
            from campaigns.player import as_player

            session = as_player(session)
        logging.getLogger("adjutant.session").info("opened %s", session.store.name)
        return session

    @classmethod
    def new(
        cls,
        scenario_id: str,
        target: str | Path,
        *,
        seed: int | None = None,
        manual_dice: bool = False,
        name: str | None = None,
    ) -> "CampaignSession":
        from campaigns.scenario import ScenarioError, load_scenario
        from campaigns.setup import create_campaign
        from rules.dice import ENTERED, ROLLED

        try:
            scenario = load_scenario(scenario_id)
            with plainly():
                store = create_campaign(
                    target, scenario, seed=seed, dice_mode=ENTERED if manual_dice else ROLLED, name=name or None
                )
        except (ScenarioError, ValueError) as exc:
            raise CampaignError(str(exc)) from None
        return cls(store)

    def close(self) -> None:
        self.store.close()

    @property
    def where(self) -> str:
        return self.store.name

    # -- reading -------------------------------------------------------------

    def campaign(self) -> Campaign:
        with plainly():
            return self.store.campaign()

    def version(self) -> int:
        """The campaign's version: it moves on with every action, undo and redo,
        whoever made them, so a screen knows when what it shows is out of date."""
        with plainly():
            return self.store.stored_version()

    def overview(self) -> Overview:
        # Read again only when the campaign has changed: the status line and the
        # overview screen both show it, and every action moves the version on.
        with plainly():
            version = self.store.stored_version()
            if self._overview is None or self._overview[0] != version:
                self._overview = (version, overview(self.store))
        return self._overview[1]

    def kept(self, name: str, read: Callable[[], T]) -> T:
        """`read()`'s answer, read again only when the campaign has changed since it was last
        read (every action, undo and redo moves the version on, whoever made them): what
        several screens show of the same rows (the stacks counted for the map, the battles
        and the turn) is read once per version. The answer is shared: not to be changed."""
        with plainly():
            version = self.store.stored_version()  # before reading: a change meanwhile reads again next time
        found = self._kept.get(name)
        if found is not None and found[0] == version:
            return found[1]
        answer = read()
        self._kept[name] = (version, answer)
        return answer

    def options(self) -> dict[str, str]:
        from rules.options import resolve_options

        # Two columns read as a plain row: the screens that ask first (the weather's
        # effects) would otherwise build the SQLModel classes' ORM machinery for it.
        with plainly():
            with self.store.connect() as db:
                ruleset, chosen = db.execute(OPTIONS).one()
            return resolve_options(ruleset, chosen)

    def status_line(self) -> str:
        # After an action the status line is redrawn before anything else: it reads the
        # little it shows, not the whole overview (the overview screen reads that when shown).
        with plainly():
            version = self.store.stored_version()
            view: Overview | Status = self._overview[1] if self._overview is not None and self._overview[0] == version else status(self.store)
        from campaigns.glance import NOT_ROLLED, weather_now  # it imports this module

        now = weather_now(view.weather, view.weather_before)  # as the overview says it
        weather = f"weather {now}" if now == NOT_ROLLED else now
        dice = " | dice typed in" if view.dice_mode == "entered" else ""
        return (
            f"{view.date:%d %b %Y} | turn {view.turn}/{view.turns} | {phase(view.phase).name} | "
            f"{weather}{dice} | {view.name}"
        )

    # -- history -------------------------------------------------------------

    def undo(self) -> str:
        with plainly():
            event = self.store.undo()
        return f"Undone: {event.description}"

    def redo(self) -> str:
        with plainly():
            event = self.store.redo()
        return f"Redone: {event.description}"

    def reload(self) -> None:
        with plainly():
            self.store.reload()

    def save_as(self, path: str | Path) -> Path:
        """Copy the campaign to a new file, atomically; the session stays on the original."""
        target = Path(path).expanduser()
        if target.suffix != ".campaign":
            raise CampaignError(f"a campaign file ends in .campaign: {target.name}")
        if target.exists():
            raise CampaignError(f"{target} already exists; choose another name")
        from models import save_as  # only when asked: it brings export and file copying

        with plainly():
            save_as(self.store, target)
        return target


__all__ = ["CampaignError", "CampaignSession", "ConcurrentEditError"]
