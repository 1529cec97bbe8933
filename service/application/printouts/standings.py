"""The printable standings of an event and of a club's season: the view
model ``service.pdf`` draws, every word already in the reader's language — the table of
places, each round's tables with who sat where and how they finished (a season: the chart of
its leaders evening by evening, and its evenings), and how each place was reached; for a
duplicate event the places by the boards' average percentage, and the travellers
of the boards played."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from datetime import UTC, datetime
from decimal import Decimal
from zoneinfo import ZoneInfo

from service.domain import (
    Season,
    SeasonStandings,
    Standings,
    Traveller,
    decimal_json,
    percent,
    travellers,
)
from service.locale import decimal, money

from ..event_clock import PrizeReading
from ..events import EventView, board_plays
from ..i18n import Translator
from ..language import Speaker
from .model import Block, Chart, ChartLine, StandingsSheet
from .readable import readable


def _difference(value: object, t: Translator) -> str:
    """A difference as the language writes it, with its sign: ``+13,5``, ``−2``, ``0``."""
    return t.figure(decimal_json(value), sign=True)  # type: ignore[arg-type]


def places_block(found: Standings, names: Sequence[str], rounds: Sequence[int],
                 t: Translator) -> Block:
    """The table of places: place, name, match points, difference, points, each round's
    match points."""
    header = (t("ev.col.place"), t("ev.col.entrant"), t("ev.col.match_points"),
              t("ev.col.difference"), t("ev.col.points"),
              *(t("ev.col.round", n=n) for n in rounds))
    rows = []
    for row in found.rows:
        by_round = {r.round: r for r in row.rounds}
        rows.append((str(row.place), names[row.entrant], t.number(row.match_points),
                     _difference(row.difference, t), t.number(row.points),
                     *(str(by_round[n].match_points) if n in by_round else "" for n in rounds)))
    return Block("", header, tuple(rows))


def _percentage(value: Decimal, t: Translator) -> str:
    """A percentage as the language writes it, to two decimals at most (as the explanations
    under the places), whole without them: ``58,33 %``."""
    return t.percentage(decimal_json(value))  # type: ignore[arg-type]


def duplicate_places_block(found: Standings, names: Sequence[str], t: Translator) -> Block:
    """A duplicate event's places: place, name, the average percentage over the boards
    played, the boards, the matchpoints, the sum of differences and the points."""
    header = (t("ev.col.place"), t("ev.col.entrant"), t("ev.col.percentage"),
              t("ev.col.boards"), t("ev.col.matchpoints"), t("ev.col.difference"),
              t("ev.col.points"))
    return Block("", header, tuple(
        (str(row.place), names[row.entrant], _percentage(row.percentage or Decimal(0), t),
         str(row.boards or 0), t.number(row.match_points), _difference(row.difference, t),
         t.number(row.points))
        for row in found.rows))


def traveller_blocks(view: EventView, t: Translator) -> tuple[Block, ...]:
    """A duplicate event's travellers (``GET /events/{id}/boards/{b}``), a block per board
    that every table due to play it has played: a row per table (its round and number),
    and a cell per column: who it credits, then its points and its matchpoints out of the
    top with their percentage (``scoring: difference``: the difference from the others'
    average)."""
    if not view.setup.duplicate or not view.rounds:
        return ()
    names = view.setup.names()
    seats = [c.seats for c in view.rounds[0].tables[0].game.summary.columns]
    header = (t("ev.col.round_long"), t("ev.col.table"),
              # Seats as a person counts them, from 1, as the deal slips number them.
              *(t("ev.col.seat", n=column[0] + 1) if len(column) == 1
                else t("ev.col.side", seats=" · ".join(str(s + 1) for s in column))
                for column in seats))
    complete = view.complete_boards()
    return tuple(_traveller_block(found, header, names, view.setup.scoring, t)
                 for found in travellers(board_plays(view)) if found.board in complete)


def _traveller_block(found: Traveller, header: tuple[str, ...], names: Sequence[str],
                     scoring: str, t: Translator) -> Block:
    rows = []
    for scored in found.results:
        play = scored.play
        cells = []
        for c, points in enumerate(play.columns):
            who = " & ".join(names[e] for e in play.entrants[c])
            if scoring == "difference":
                figures = t("ev.traveller.difference", points=t.number(points),
                            difference=_difference(scored.differences[c], t))
            else:
                figures = t("ev.traveller.matchpoints", points=t.number(points),
                            mp=scored.matchpoints[c], top=found.top,
                            percentage=_percentage(percent(scored.percentages[c]), t))
            cells.append(f"{who}\n{figures}")
        rows.append((str(play.round), str(play.table), *cells))
    line = (t("ev.traveller.one") if len(found.results) == 1
            else t("ev.traveller.compared", n=len(found.results)))
    return Block(t("ev.traveller.board", n=found.board), header, tuple(rows), (line,))


def how_block(found: Standings, names: Sequence[str], t: Translator, say: Speaker) -> Block:
    """How each place was reached, a paragraph a row, in the reader's language."""
    return Block(t("ev.how"), (), tuple(
        (f"{row.place}. {names[row.entrant]}", " ".join(say(line) + "."
                                                        for line in row.explanation))
        for row in found.rows))


#: A figure a season's chart does not have yet (an average before the first evening).
NO_FIGURE = "–"


def _figure(value: int | Decimal, lang: str) -> str:
    """A standing's figure as the language writes it (an average's tenth after a comma in
    Italian and French)."""
    places = max(0, -int(Decimal(value).as_tuple().exponent))
    return decimal(float(value), lang, places)


def day_ends(found: SeasonStandings) -> list[int]:
    """The season's evenings by day: an evening is a day at the club, however many stand-alone
    games or events it held. For each day, the season's evening after which it ended (1 the
    first; the evenings come in the order they ended, a day's together)."""
    ends: dict[object, int] = {}
    for number, evening in enumerate(found.evenings, start=1):
        ends[evening.day] = number
    return list(ends.values())


def season_chart(found: SeasonStandings, names: Sequence[str], t: Translator) -> Chart | None:
    """The season's leaders evening by evening — an evening a day — (their match points as the
    standings counted them at the start and after each day), and the same figures a sentence
    each; none before a first evening."""
    if not found.leaders:
        return None
    days = day_ends(found)
    lines = tuple(ChartLine(names[line.entrant], (line.values[0], *(line.values[d] for d in days)))
                  for line in found.leaders)
    words = tuple(t("season.chart.line", name=line.label, values=", ".join(
        NO_FIGURE if v is None else _figure(v, t.lang) for v in line.values)) for line in lines)
    return Chart(t("season.chart.title", n=len(lines)), t("season.chart.evenings"),
                 t("season.chart.unit"), lines, None, "", words)


def build_season_sheet(club: str, season: Season, found: SeasonStandings, names: Sequence[str],
                       lang: str, as_of: datetime, say: Speaker,
                       filename: str) -> StandingsSheet:
    """A club's season, printed as an event's standings are: its places, the chart of its
    leaders evening by evening, its evenings (each a game or an event, with the rounds of the
    standings it holds), and how each place was reached. ``names``: the members' names by
    entrant."""
    t = Translator(lang)
    families = ", ".join(season.families) or t("season.all_families")
    counting = (t("season.counting.best_n", n=season.best_n) if season.counting == "best_n"
                else t(f"season.counting.{season.counting}"))
    meta = (
        (t("season.meta.club"), club),
        (t("season.meta.dates"), t("season.dates", start=season.date_from.strftime("%d/%m/%Y"),
                                   end=season.date_to.strftime("%d/%m/%Y"))),
        (t("season.meta.families"), families),
        (t("season.meta.counting"), counting),
        (t("ev.meta.as_of"), as_of.astimezone(UTC).strftime("%d/%m/%Y %H:%M %Z")),
    )
    rounds = [n for evening in found.evenings for n in evening.rounds]
    evenings = Block(t("season.evenings"), (t("season.col.date"), t("season.col.evening"),
                                            t("season.col.rounds")), tuple(
        (e.day.strftime("%d/%m/%Y"), t(f"season.kind.{e.key[0]}", id=e.key[1]),
         ", ".join(t("ev.col.round", n=n) for n in e.rounds)) for e in found.evenings))
    return readable(StandingsSheet(
        lang=lang, title=t("season.title", name=season.name),
        subtitle=t("season.subtitle", n=len(day_ends(found))), meta=meta,
        standings=places_block(found.standings, names, rounds, t), rounds=(evenings,),
        how=how_block(found.standings, names, t, say), legend=t("ev.legend"),
        footer=t("season.footer", club=club), page_label=t("footer.page", page="{page}",
                                                           pages="{pages}"),
        filename=filename, chart=season_chart(found, names, t)), lang)


def prizes_block(found: PrizeReading, t: Translator) -> Block | None:
    """The prize list as the standings share it: a row per entrant who receives something
    (the place, the name, the money in the sheet's language, the prizes in kind, who shares
    it), then the places no one reaches; titled provisional until the last round closes."""
    if not found.prizes:
        return None
    names = found.names
    rows = tuple((
        str(a.place), names[a.entrant],
        money(a.amount, found.currency, t.lang) if a.amount is not None else "",
        " · ".join(a.labels),
        ", ".join(names[e] for e in a.shared_with)) for a in found.shared.awards)
    lines: list[str] = []
    if any(a.odd_cents for a in found.shared.awards):
        lines.append(t("ev.prizes.odd_cents"))
    if found.shared.unawarded:
        lines.append(t("ev.prizes.unawarded",
                       places=", ".join(str(p) for p in found.shared.unawarded)))
    title = t("ev.prizes") if found.final else t("ev.prizes.provisional")
    return Block(title, (t("ev.col.place"), t("ev.col.entrant"), t("ev.col.amount"),
                         t("ev.col.in_kind"), t("ev.col.shared_with")), rows, tuple(lines))


def build_standings_sheet(view: EventView, found: Standings, lang: str, as_of: datetime,
                          say: Speaker, prizes: PrizeReading | None = None,
                          closed_by_clock: Collection[int] = ()) -> StandingsSheet:
    """``say`` speaks the explanations in ``lang`` (a ``Speaker`` with its catalogue);
    ``closed_by_clock``: the rounds the event's clock closed (``EventService.closed_by_clock``),
    said closed by the clock rather than by the organiser."""
    t = Translator(lang)
    setup = view.setup
    names = setup.names()
    played = len(view.rounds)
    zone = ZoneInfo(str(setup.options.get("time_zone") or "UTC"))
    fmt = (f"ev.format.pairs.{setup.pairing}" if setup.format == "pairs"
           else f"ev.format.{setup.format}")
    duplicate = setup.duplicate
    board_scoring = "difference" if setup.scoring == "difference" else "matchpoints"
    scoring = (t(f"ev.scoring.duplicate.{board_scoring}") if duplicate
               else t(f"ev.scoring.{setup.scoring}"))
    meta = (
        (t("ev.meta.event"), setup.name),
        (t("ev.meta.variant"), t.get(f"variant.{setup.variant.id}", setup.variant.name)),
        (t("ev.meta.format"), t(fmt)),
        *(((t("ev.meta.deals"), t("ev.deals.duplicate", n=setup.boards_per_round)),)
          if duplicate else ()),
        (t("ev.meta.scoring"), scoring),
        (t("ev.meta.rounds"), t("ev.rounds.of", played=played, planned=setup.rounds)
         if setup.rounds else str(played)),
        (t("ev.meta.as_of"), as_of.astimezone(zone).strftime("%d/%m/%Y %H:%M %Z")),
    )
    places = (duplicate_places_block(found, names, t) if duplicate
              else places_block(found, names, [r.number for r in view.rounds], t))
    subtitle = t("ev.provisional") if found.provisional else t("ev.final", n=played)
    blocks = []
    for r in view.rounds:
        table_rows = []
        for table in r.tables:
            summary = view.table_summary(table)  # the room's: complete boards only
            columns = summary.columns
            totals = dict(summary.totals)
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
            closed = "ev.round.closed.clock" if r.number in closed_by_clock else "ev.round.closed"
            title += f" ({t(closed)})"
        blocks.append(Block(title, (t("ev.col.table"), t("ev.col.seats"), t("ev.col.totals"),
                                    t("ev.col.state")), tuple(table_rows), tuple(lines)))
    return readable(StandingsSheet(
        lang=lang, title=t("ev.title"), subtitle=subtitle, meta=meta,
        standings=places, rounds=tuple(blocks), how=how_block(found, names, t, say),
        legend=t("ev.legend.duplicate" if duplicate else "ev.legend"),
        footer=t("ev.footer", event=view.id),
        page_label=t("footer.page", page="{page}", pages="{pages}"),
        filename=f"segnapunti-standings-{view.id}.pdf", duplicate=duplicate,
        travellers_title=t("ev.travellers") if duplicate else "",
        travellers=traveller_blocks(view, t),
        prizes=prizes_block(prizes, t) if prizes is not None else None), lang)
