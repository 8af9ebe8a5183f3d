"""Screen names to screen classes, imported only when first shown."""

from __future__ import annotations

from importlib import import_module

from textual.screen import Screen

_SCREENS = {
    "start": "tui.screens.start:StartScreen",
    "overview": "tui.screens.overview:OverviewScreen",
    "oob": "tui.screens.oob:OrderOfBattleScreen",
    "turn": "tui.screens.turn:TurnScreen",
    "weather": "tui.screens.weather:WeatherScreen",
    "command": "tui.screens.command:CommandPointsScreen",
    "march": "tui.screens.march:ForcedMarchScreen",
    "battles": "tui.screens.battles:BattlesScreen",
    "recon": "tui.screens.recon:ReconnaissanceScreen",
    "history": "tui.screens.history:HistoryScreen",
    "plots": "tui.screens.plots:PlotsScreen",
    "luck": "tui.screens.luck:LuckScreen",
    "rules": "tui.screens.rules:RulesScreen",
    "map": "tui.screens.theatre:TheatreScreen",
    "sightings": "tui.screens.sightings:SightingsScreen",
    "orders": "tui.screens.orders:OrdersScreen",
}


def screen_class(name: str) -> type[Screen]:
    module, _, cls = _SCREENS[name].partition(":")
    return getattr(import_module(module), cls)


def screen_names() -> tuple[str, ...]:
    return tuple(_SCREENS)
