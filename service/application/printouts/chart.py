"""The chart of a game's running totals on the sheet (docs/clubs.md#pictures): a line
per column from the start through every hand — Ottocento's race with its target, Mitigatti's
balances in marca from 10 with the zero line, any other game's running totals — and the same
figures in words. The numbers are the sheet's own (``numbers.hand_numbers``); ``service.pdf``
draws them."""

from __future__ import annotations

from service.domain import STARTING_MARCA

from .context import SheetContext
from .model import Chart, ChartLine


def build_chart(c: SheetContext) -> Chart | None:
    """The chart of the game so far; none before its first hand."""
    if not c.numbers:
        return None
    t = c.t
    marca = c.view.summary.ledger is not None
    target = c.view.summary.target
    lines = []
    words = []
    for column in c.columns:
        if marca:
            after = [n.balances[column.key] for n in c.numbers if n.balances is not None]
            values = (STARTING_MARCA, *after)
        else:
            values = (0, *(n.totals[column.key] for n in c.numbers))
        lines.append(ChartLine(column.label, values))
        words.append(t("chart.line", name=column.label,
                       values=", ".join(t.number(v) for v in values)))
    if marca:
        title, unit, reference, label = (t("chart.title.marca"), t("chart.unit.marca"), 0,
                                         t("chart.zero"))
    elif target:
        title, unit, reference, label = (t("chart.title.target", target=target),
                                         t("chart.unit"), target,
                                         t("chart.target", target=target))
    else:
        title, unit, reference, label = t("chart.title"), t("chart.unit"), None, ""
    return Chart(title, t("col.hand"), unit, tuple(lines), reference, label, tuple(words))
