"""The printable standings of an event (issue 16): the view model ``service.pdf`` draws, every
word already in the reader's language — the table of places, each round's tables with who sat
where and how they finished, and how each place was reached."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

from service.domain import (
    Standings,
    decimal_json,
)

from ..events import EventView
from ..i18n import Translator
from ..language import Speaker
from .model import Block, StandingsSheet


def _difference(value: object) -> str:
    number = decimal_json(value)  # type: ignore[arg-type]
    text = f"{number:+}" if number else "0"
    return text.replace("-", "−")


def build_standings_sheet(view: EventView, found: Standings, lang: str, as_of: datetime,
                          say: Speaker) -> StandingsSheet:
    """``say`` speaks the explanations in ``lang`` (a ``Speaker`` with its catalogue)."""
    t = Translator(lang)
    setup = view.setup
    names = setup.names()
    played = len(view.rounds)
    zone = ZoneInfo(str(setup.options.get("time_zone") or "UTC"))
    fmt = (f"ev.format.pairs.{setup.pairing}" if setup.format == "pairs"
           else f"ev.format.{setup.format}")
    meta = (
        (t("ev.meta.event"), setup.name),
        (t("ev.meta.variant"), t.get(f"variant.{setup.variant.id}", setup.variant.name)),
        (t("ev.meta.format"), t(fmt)),
        (t("ev.meta.scoring"), t(f"ev.scoring.{setup.scoring}")),
        (t("ev.meta.rounds"), t("ev.rounds.of", played=played, planned=setup.rounds)
         if setup.rounds else str(played)),
        (t("ev.meta.as_of"), as_of.astimezone(zone).strftime("%d/%m/%Y %H:%M %Z")),
    )
    rounds = [r.number for r in view.rounds]
    header = (t("ev.col.place"), t("ev.col.entrant"), t("ev.col.match_points"),
              t("ev.col.difference"), t("ev.col.points"),
              *(t("ev.col.round", n=n) for n in rounds))
    rows = []
    for row in found.rows:
        by_round = {r.round: r for r in row.rounds}
        rows.append((str(row.place), names[row.entrant], str(row.match_points),
                     _difference(row.difference), t.number(row.points),
                     *(str(by_round[n].match_points) if n in by_round else "" for n in rounds)))
    subtitle = t("ev.provisional") if found.provisional else t("ev.final", n=played)
    blocks = []
    for r in view.rounds:
        table_rows = []
        for table in r.tables:
            columns = table.game.summary.columns
            totals = dict(table.game.summary.totals)
            table_rows.append((
                str(table.stored.number),
                " · ".join(c.label for c in columns),
                " – ".join(t.number(totals.get(c.key, 0)) for c in columns),
                t(f"ev.state.{table.state}")))
        lines = []
        if r.stored.byes:
            lines.append(t("ev.byes", names=", ".join(names[e] for e in r.stored.byes)))
        title = t("ev.round", n=r.number)
        if r.stored.state == "closed" and not r.finished:
            title += f" ({t('ev.round.closed')})"
        blocks.append(Block(title, (t("ev.col.table"), t("ev.col.seats"), t("ev.col.totals"),
                                    t("ev.col.state")), tuple(table_rows), tuple(lines)))
    how = Block(t("ev.how"), (), tuple(
        (f"{row.place}. {names[row.entrant]}", " ".join(say(line) + "."
                                                        for line in row.explanation))
        for row in found.rows))
    return StandingsSheet(
        lang=lang, title=t("ev.title"), subtitle=subtitle, meta=meta,
        standings=Block("", header, tuple(rows)), rounds=tuple(blocks), how=how,
        legend=t("ev.legend"), footer=t("ev.footer", event=view.id),
        page_label=t("footer.page", page="{page}", pages="{pages}"),
        filename=f"segnapunti-standings-{view.id}.pdf")
