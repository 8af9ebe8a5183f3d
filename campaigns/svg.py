"""A chart as an SVG picture for the HTML report, drawn by pygal.

Self-contained: no script, no external style sheet, no XML declaration, so the
SVG sits inline in the page and opens offline.  pygal always writes its config
(labels included) as JSON into a <script>: that element is removed, so no text
from a campaign ever lands inside a script.  Series differ by dash and dot
shape as well as by colour, for a page printed in black and white.
"""

from __future__ import annotations

from campaigns.charts import BAR, Chart


def chart_svg(chart: Chart) -> str:
    import pygal
    from pygal.style import Style

    style = Style(
        background="white", plot_background="white", foreground="#222", foreground_strong="#000",
        foreground_subtle="#888", colors=("#1f4e9a", "#b22222", "#2e7d32", "#6a1b9a"),
        font_family="DejaVu Sans, Arial, sans-serif",
    )
    kind = pygal.Bar if chart.kind == BAR else pygal.Line
    config = dict(
        title=chart.title, x_title=chart.x_label, y_title=chart.y_label, style=style, js=[],
        disable_xml_declaration=True, width=900, height=380, legend_at_bottom=True, print_values=False,
        show_minor_x_labels=True, truncate_legend=-1, x_label_rotation=0,
    )
    if chart.y_range is not None:
        config["range"] = chart.y_range
    drawing = kind(**config)
    drawing.uuid = chart.id  # the id its CSS is scoped by: the same page on every run
    drawing.add_xml_filter(_without_scripts)
    drawing.x_labels = list(chart.x)
    dashes = ("", "6, 3", "2, 3", "10, 4, 2, 4")
    for i, series in enumerate(chart.series):
        options: dict[str, object] = {}
        if chart.kind != BAR:
            options = {"stroke_style": {"width": 2, "dasharray": dashes[i % len(dashes)]}} if dashes[i % len(dashes)] else {"stroke_style": {"width": 2}}
        drawing.add(series.label, list(series.values), **options)
    return str(drawing.render(is_unicode=True))


def _without_scripts(root):
    for parent in list(root.iter()):
        for child in list(parent):
            if isinstance(child.tag, str) and child.tag.rsplit("}", 1)[-1] == "script":
                parent.remove(child)
    return root
