"""The chart of a game's running totals on the printed sheet, drawn with
reportlab's own graphics (and a season's leaders evening by evening on its printed standings,
the same way): a line per column over the hands, each in its colour, its dash and its marker's
shape (a sheet printed in grey still tells them apart, and lines with the same figures stay
two), a dot and the name with the last figure at the end of each line, the figures' axis in
round steps never finer than the figures, written as the sheet's language writes numbers, the target or the zero as a dashed grey rule with its label, and under
the drawing the same figures in words (``Chart.words``). A step with no figure yet (a season's
average before a member's first evening) has no point: the line starts at the first it has."""

from __future__ import annotations

import math
from decimal import Decimal
from typing import Any

from reportlab.graphics.charts.lineplots import LinePlot
from reportlab.graphics.shapes import Circle, Drawing, Line, String
from reportlab.graphics.widgets.markers import makeMarker
from reportlab.lib import colors
from reportlab.lib.units import mm
from reportlab.pdfbase.pdfmetrics import stringWidth

from service.application.printouts import Chart
from service.locale import decimal

#: One colour and one dash per line, as far apart as six lines can be in colour and in grey.
PALETTE = (
    (colors.HexColor("#1f5fa8"), None),
    (colors.HexColor("#b3261e"), (4, 2)),
    (colors.HexColor("#2e7d32"), (1.2, 1.6)),
    (colors.HexColor("#8a5a00"), (6, 2, 1.2, 2)),
    (colors.HexColor("#6a3d9a"), (2.5, 2.5)),
    (colors.HexColor("#00838f"), (8, 3)),
)
#: Each line's marker, a shape of its own.
MARKERS = ("FilledCircle", "FilledSquare", "FilledTriangle", "FilledDiamond", "Cross",
           "FilledStarFive")
REFERENCE = colors.HexColor("#6b6b6b")
AXIS = colors.HexColor("#2b2b2b")
GRID = colors.HexColor("#dedede")
HEIGHT = 56 * mm
LABEL_GAP = 4.0


def line_style(index: int) -> tuple[Any, tuple[float, ...] | None]:
    return PALETTE[index % len(PALETTE)]


def _points(values: tuple[Any, ...]) -> list[tuple[int, float]]:
    """A line's points (step, figure), leaving out the steps with no figure yet."""
    return [(x, float(y)) for x, y in enumerate(values) if y is not None]


def _decimals(values: list[Any]) -> int:
    """How many decimals the figures are written with (two at most)."""
    most = 0
    for value in values:
        exponent = Decimal(str(value)).normalize().as_tuple().exponent
        if isinstance(exponent, int):
            most = max(most, min(2, -exponent))
    return most


def axis_scale(values: list[float], decimals: int) -> tuple[float, float, list[float], int]:
    """The figures' axis: round steps (1, 2 or 5 times a power of ten, about five of them),
    never finer than the figures (whole points get whole steps, never halves), from a step at
    or below the lowest figure to one at or above the highest (one figure alone: a step either
    side). Its bounds, its steps and the decimals its labels are written with."""
    low, high = min(values), max(values)
    unit = 10.0 ** -decimals
    raw = max((high - low) / 5, unit)
    power = 10.0 ** math.floor(math.log10(raw))
    step = max(unit, next(k * power for k in (1, 2, 5, 10) if k * power >= raw * (1 - 1e-9)))
    first = math.floor(low / step + 1e-9)
    last = math.ceil(high / step - 1e-9)
    if first == last:
        first, last = first - 1, last + 1
    ticks = [float(f"{k * step:.12g}") for k in range(first, last + 1)]
    return ticks[0], ticks[-1], ticks, _decimals([f"{step:.12g}"])


def _spread(wanted: list[float], gap: float, low: float, high: float) -> list[float]:
    """Label heights near the ``wanted`` ones (sorted), at least ``gap`` apart."""
    out: list[float] = []
    for y in wanted:
        out.append(max(y, out[-1] + gap) if out else max(y, low))
    overflow = out[-1] - high if out else 0
    return [y - max(overflow, 0) for y in out]


def chart_drawing(chart: Chart, width: float, font: str, bold: str, size: float,
                  lang: str = "en") -> Drawing:
    """The chart as a drawing ``width`` wide, its figures as ``lang`` writes them."""
    figures = [v for line in chart.lines for _x, v in _points(line.values)]
    decimals = _decimals([v for line in chart.lines for v in line.values if v is not None])
    if chart.reference is not None:
        figures.append(chart.reference)
    low, high, ticks, digits = axis_scale(figures, decimals)

    def last(line: Any) -> str:
        value = line.values[-1]
        return "–" if value is None else decimal(float(value), lang, _decimals([value]))

    names = [f"{line.label} {last(line)}" for line in chart.lines]
    right = max(stringWidth(name, bold, size) for name in names) + 10
    drawing = Drawing(width, HEIGHT)
    # the drawing's own starting font, else reportlab's renderer names Helvetica in the PDF
    drawing.initialFontName, drawing.initialFontSize = font, size
    plot = LinePlot()
    plot.x, plot.y = 9 * mm, 8 * mm
    plot.width = width - plot.x - right
    plot.height = HEIGHT - plot.y - 6 * mm
    hands = len(chart.lines[0].values) - 1
    plot.data = [_points(line.values) for line in chart.lines]
    for axis in (plot.xValueAxis, plot.yValueAxis):
        axis.labels.fontName = font
        axis.labels.fontSize = size
        axis.strokeColor = AXIS
        axis.strokeWidth = 0.6
    plot.xValueAxis.valueMin, plot.xValueAxis.valueMax = 0, max(hands, 1)
    plot.xValueAxis.valueSteps = _steps(hands)
    plot.xValueAxis.labelTextFormat = "%d"
    plot.yValueAxis.valueMin, plot.yValueAxis.valueMax = low, high
    plot.yValueAxis.valueSteps = ticks
    plot.yValueAxis.labelTextFormat = lambda v: decimal(v, lang, digits)
    plot.yValueAxis.visibleGrid = True
    plot.yValueAxis.gridStrokeColor = GRID
    plot.yValueAxis.gridStrokeWidth = 0.4
    for index, _line in enumerate(chart.lines):
        color, dash = line_style(index)
        plot.lines[index].strokeColor = color
        plot.lines[index].strokeWidth = 1.4
        plot.lines[index].symbol = makeMarker(MARKERS[index % len(MARKERS)], size=3.2,
                                              fillColor=color, strokeColor=color)
        if dash:
            plot.lines[index].strokeDashArray = dash
    drawing.add(plot)

    def x_of(hand: float) -> float:
        return float(plot.x + plot.width * hand / max(hands, 1))

    def y_of(value: Any) -> float:
        return float(plot.y + plot.height * (float(value) - low) / (high - low))

    if chart.reference is not None:
        level = y_of(chart.reference)
        drawing.add(Line(plot.x, level, plot.x + plot.width, level, strokeColor=REFERENCE,
                         strokeWidth=0.9, strokeDashArray=(3, 2)))
        drawing.add(String(plot.x + 2, level + 2, chart.reference_label, fontName=font,
                           fontSize=size, fillColor=REFERENCE))
    ends = sorted(range(len(chart.lines)), key=lambda k: y_of(chart.lines[k].values[-1]))
    heights = _spread([y_of(chart.lines[k].values[-1]) - size / 3 for k in ends],
                      size + 1, 0, HEIGHT - size)
    for k, y in zip(ends, heights, strict=True):
        color, _dash = line_style(k)
        end_x, end_y = x_of(hands), y_of(chart.lines[k].values[-1])
        drawing.add(Circle(end_x, end_y, 1.8, fillColor=color, strokeColor=color))
        drawing.add(String(plot.x + plot.width + LABEL_GAP, y, names[k], fontName=bold,
                           fontSize=size, fillColor=color))
    drawing.add(String(plot.x + plot.width / 2, 0, chart.hand_label, fontName=font,
                       fontSize=size, fillColor=REFERENCE, textAnchor="middle"))
    drawing.add(String(0, HEIGHT - size, chart.unit, fontName=font, fontSize=size,
                       fillColor=REFERENCE))
    return drawing


def _steps(hands: int) -> list[int]:
    """The hands the axis numbers: every one up to 12, then every 2nd, 5th or 10th."""
    every = next((step for step in (1, 2, 5, 10, 20, 50) if hands / step <= 12), 100)
    return list(range(0, hands + 1, every))
