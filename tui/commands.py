"""Every screen and app-wide action, once: its key, its binding id, its name.

The app builds its key bindings, the command palette and the help screen from
this list, so a screen reachable by key is always reachable by name too.
"""

from __future__ import annotations

from dataclasses import dataclass


# Keys a browser keeps for itself (new window, close tab, new tab): in `adjutant serve`
# they never reach the app, so a binding on one of them also answers to a second key.
# Alt and a letter: xterm.js in the page takes those, and no screen binds them.
BROWSER_KEPT = {"ctrl+n": "alt+n", "ctrl+w": "alt+w", "ctrl+t": "alt+t"}


def browser_safe(keys: str) -> str:
    """`keys` (comma separated, as Binding takes them) with the second key of each browser-kept one."""
    given = [k.strip() for k in keys.split(",")]
    seconds = [BROWSER_KEPT[k] for k in given if k in BROWSER_KEPT and BROWSER_KEPT[k] not in given]
    return ",".join(given + seconds)


@dataclass(frozen=True)
class Command:
    id: str  # binding id, for user keymaps
    key: str
    action: str
    name: str  # shown in the footer and the palette
    help: str
    needs_campaign: bool = True


SCREENS = (
    Command("screen.overview", "o", "show('overview')", "Overview", "The campaign at a glance: date, turn, phase, weather, command points, armies"),
    Command("screen.oob", "b", "show('oob')", "Order of battle", "Sides, armies, generals and units; add, edit, move and remove"),
    Command("screen.turn", "t", "show('turn')", "Turn sequence", "The phases of the turn, what each still needs, and advancing"),
    Command("screen.weather", "w", "show('weather')", "Weather", "The weather track of the whole campaign; roll this turn's weather"),
    Command("screen.command", "c", "show('command')", "Command points", "Roll and spend command points; the ledger of the turn"),
    Command("screen.march", "m", "show('march')", "Forced march", "Pick a stack, see its modifiers and odds, roll and apply the loss"),
    Command("screen.battles", "x", "show('battles')", "Battles", "Set up, fight and apply battles, with the tables or on the tabletop"),
    Command("screen.recon", "i", "show('recon')", "Reconnaissance", "Cavalry reconnaissance against a screen, on its own table"),
    Command("screen.history", "h", "show('history')", "History", "Every change and every roll, with undo and redo"),
    Command("screen.plots", "P", "show('plots')", "Plots", "SP, losses by cause, command points, weather and luck, turn by turn"),
    Command("screen.luck", "L", "show('luck')", "Luck", "Every die against its exact odds: each side's luck by turn, and how unusual"),
    Command("screen.rules", "l", "show('rules')", "Rules reference", "Every table of the rule sets, as on the card, with the readings chosen", needs_campaign=False),
    Command("screen.map", "p", "show('map')", "Map", "The theatre: places, roads, rivers, both sides' stacks and battles; move and activate stacks"),
    Command("screen.sightings", "S", "show('sightings')", "Sightings", "What each side has seen of the enemy, turn by turn (fog of war)"),
    Command("screen.orders", "O", "show('orders')", "Orders", "A side file's orders to the umpire; in the campaign, each side's queue to apply or refuse"),
)

ACTIONS = (
    Command("app.undo", "u", "undo", "Undo", "Undo the last action"),
    Command("app.redo", "y", "redo", "Redo", "Redo the last undone action"),
    Command("app.reload", "f5", "reload", "Reload", "Show what other umpires changed and build the next action on it"),
    Command("app.past", "T", "past", "Campaign as of a turn", "The campaign as it stood at the end of a past turn or before an event: read-only, every screen"),
    Command("app.save_as", "s", "save_as", "Save a copy", "Copy the campaign file to a new name (save as)"),
    Command("app.open", "ctrl+o", "open_file", "Open campaign", "Open another campaign file or start a new one", needs_campaign=False),
    Command("app.help", "question_mark,f1", "help", "Help", "The keys of this screen and of the app", needs_campaign=False),
    Command("app.quit", "q", "quit", "Quit", "Leave Adjutant; every action is already saved", needs_campaign=False),
)


def screen_actions():
    """(screen key, screen name, binding) for every action of every screen a key reaches,
    in the order of SCREENS: the palette offers each from any screen, by the name
    the key bar and the help show ("Weather: Roll")."""
    from textual.binding import Binding

    from tui.screens.registry import screen_class

    for command in SCREENS:
        name = command.action.split("'")[1]
        for binding in screen_class(name).BINDINGS:
            if isinstance(binding, Binding) and binding.id and binding.description:
                yield name, command.name, binding
