"""The campaign's charts, each defined once as data and drawn by whoever shows it.

A `Chart` says what is plotted (title, axis, series); `draw` hands it to a
plotext figure (the Plots screen's textual-plotext widget, or plotext itself
for the text of a report) and the HTML report draws the same charts as SVG.
Every series has its own marker as well as its colour, so the charts read the
same under NO_COLOR and on paper.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from campaigns.story import CAUSES, Story

LINE, BAR = "line", "bar"
LUCK = "luck"  # the id of the luck chart
LINE_MARKERS = ("x", "o", "+", "*")
BAR_MARKERS = ("█", "▒", "░", "▓")
WEATHER_SYMBOL = {"Clear": "C", "Rain": "R", "Rain*": "R*", "Snow": "S", "Mud": "M"}


@dataclass(frozen=True)
class Series:
    label: str
    values: tuple[float | None, ...]  # one per x label; None: nothing to show there
    marker: str


@dataclass(frozen=True)
class Chart:
    id: str
    title: str
    kind: str  # LINE or BAR
    x_label: str
    y_label: str
    x: tuple[str, ...]
    series: tuple[Series, ...]
    y_range: tuple[float, float] | None = None


def charts(story: Story) -> list[Chart]:
    """SP by side, each side's losses by cause, command points, weather, luck."""
    turns = tuple(str(t) for t in story.turns)
    names = story.sides

    def lines(data: Mapping[str, Sequence[float | None]]) -> tuple[Series, ...]:
        return tuple(Series(names[s], tuple(v), LINE_MARKERS[i % len(LINE_MARKERS)]) for i, (s, v) in enumerate(data.items()))

    out = [Chart("sp", "Strength points at the end of each turn", LINE, "turn", "SP", turns, lines(story.sp))]
    for side, by_cause in story.losses.items():
        out.append(Chart(
            f"losses-{side}", f"SP lost by {names[side]}, by turn and cause", BAR, "turn", "SP", turns,
            tuple(Series(cause, tuple(by_cause[cause]), BAR_MARKERS[i]) for i, cause in enumerate(CAUSES)),
        ))
    points = []
    for i, side in enumerate(story.sides):
        points.append(Series(f"{names[side]} rolled", tuple(story.points_rolled[side]), BAR_MARKERS[(2 * i) % 4]))
        points.append(Series(f"{names[side]} spent", tuple(story.points_spent[side]), BAR_MARKERS[(2 * i + 1) % 4]))
    out.append(Chart("points", "Command points rolled and spent", BAR, "turn", "PC", turns, tuple(points)))
    calendar = tuple(f"{w.turn}{WEATHER_SYMBOL.get(w.weather or '', '')}" for w in story.weather)
    out.append(Chart(
        "weather", "Weather and infantry MP (C clear, R rain, R* Mud next, M mud, S snow)",
        BAR, "turn and weather", "MP", calendar,
        (Series("infantry MP", tuple(w.infantry_mp for w in story.weather), BAR_MARKERS[0]),),
    ))
    if story.luck:
        out.append(Chart(
            LUCK, "Luck by turn: mean percentile of the side's dice (0.5 is even)", LINE, "turn", "percentile",
            turns, lines(story.luck), (0.0, 1.0),
        ))
    return out


def draw(chart: Chart, plt: Any) -> None:
    """Draw `chart` on a plotext figure (plotext's own or textual-plotext's `plt`)."""
    plt.clear_data()
    plt.title(chart.title)
    plt.xlabel(chart.x_label)
    plt.ylabel(chart.y_label)
    positions = list(range(1, len(chart.x) + 1))
    if chart.kind == BAR:
        values = [[v or 0 for v in s.values] for s in chart.series]
        if len(values) == 1:
            plt.bar(positions, values[0], marker=chart.series[0].marker, label=chart.series[0].label, width=0.6)
        else:
            plt.multiple_bar(positions, values, labels=[s.label for s in chart.series], marker=[s.marker for s in chart.series])
    else:
        for s in chart.series:
            shown = [(x, v) for x, v in zip(positions, s.values) if v is not None]
            if shown:
                plt.plot([x for x, _ in shown], [v for _, v in shown], marker=s.marker, label=s.label)
    plt.xticks(positions, list(chart.x))
    if chart.y_range is not None:
        plt.ylim(*chart.y_range)


def as_text(chart: Chart, width: int = 78, height: int = 18) -> str:
    """The chart as plain text (no colour), for a report in markdown or text."""
    import plotext

    plotext.clear_figure()
    plotext.plotsize(width, height)
    plotext.theme("clear")
    draw(chart, plotext)
    return plotext.uncolorize(plotext.build())
