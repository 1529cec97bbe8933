"""The printable score sheet as data (RULES §2.7 and §3's sheet; API.md ``sheet.pdf``).

Players keep these scores on paper: a column per player or pair, each hand's meld lines with
their marks (``20 F``, ``10 ♦``, ``5 K``), the deck points, a rule across the columns, and the
running totals. ``build_sheet`` turns a game view into that sheet — rows of cells, each cell
its points and its mark, every label already in the reader's language — and
``service.pdf.render`` only lays it out. Nothing here computes a score: every number comes from
the hands' results and the game's summary, the same ones the API returns.

What a sheet shows, by the lines it meets (a variant the sheet does not know yet still prints:
its lines fall in an ``other`` row under their own item name):
- Gatti: hand melds (``meld``), captured melds (``captured_meld``), Bagatto ultimo (``B``),
  then the deck points; one row of marks per meld, aligned across the columns.
- Ottocento: the combinations declared during the first trick, those captured, the doubling
  (``×2``), the card points; the running total and what is left to the target. Declarations
  made after an act that won the rubber are printed but not counted (R13, marked ``†``).
- Mitigatti: each seat's card points, then the marca ledger of the hand — one row per reason
  (partida, declarations, Bagatte ultimu, surrender, the pot), the hand's marca and each
  seat's balance from 10 —, and at the end the balances, the transfers and the money.

Glossary (Italian words used as domain terms): *mano* hand, *mazziere* dealer, *buone* melds,
*punti di mazzo* deck points, *marca* the counter Mitigatti is settled in, *piatto* the pot.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from service.domain import (
    RULES_VERSION,
    STARTING_MARCA,
    Suit,
    parse_money,
)

from ..games import GameView, HandView
from ..i18n import Translator

#: How a row's kind is printed: ``line`` a meld or payment, ``deck`` the hand's counted
#: points, ``hand`` the hand's total, ``total`` the running total (after the rule across),
#: ``progress`` what is left to the target, ``note`` a text across every column.
ROW_KINDS = ("line", "deck", "hand", "total", "progress", "marca", "balance", "note")

#: The order of the groups of lines within a hand, and the label of each.
_GROUPS: tuple[tuple[str, str, str], ...] = (
    # group, label key, row kind
    ("meld", "row.melds", "line"),
    ("captured_meld", "row.captured_melds", "line"),
    ("bagatto", "row.bagatto", "line"),
    ("declared", "row.declared", "line"),
    ("captured", "row.captured", "line"),
    ("other", "row.other", "line"),
    ("deck_points", "row.deck_points", "deck"),
    ("card_points", "row.card_points", "deck"),
)
_GROUP_OF_ITEM = {
    "meld": "meld",
    "captured_meld": "captured_meld",
    "bagatto_ultimo": "bagatto",
    "declaration": "declared",
    "captured": "captured",
    "deck_points": "deck_points",
    "card_points": "card_points",
}
#: Mitigatti's payments, in the order their rows are printed.
_PAYMENT_ITEMS = ("partida", "declaration", "bagatte_ultimu", "surrender")
_SEQUENCE_MARKS = {"trumps": "T", "moors": "M", "aces": "A"}
_SUITS = {s.value: s.symbol for s in Suit}
POT = "pot"


# -- the view model -------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Entry:
    """One cell: its number as printed (``"20"``, ``"−20"``, ``"+2"``, ``"✓"``) and its mark
    (``"F"``, ``"♦"``, ``"B"``, ``"4K"``…). ``style``: ``plain``; ``shared`` for points a
    partner scored that the column is credited (R6); ``void`` for points printed but not
    counted (R13); ``strong`` for totals."""

    text: str
    mark: str = ""
    style: str = "plain"
    points: int | None = None


@dataclass(frozen=True, slots=True)
class Row:
    label: str
    kind: str
    cells: tuple[Entry | None, ...]
    note: str = ""


@dataclass(frozen=True, slots=True)
class SheetColumn:
    key: str
    label: str
    seats: str


@dataclass(frozen=True, slots=True)
class HandBlock:
    number: int
    dealer: str
    notes: tuple[str, ...]
    rows: tuple[Row, ...]
    details: tuple[str, ...] = ()
    heading: str = ""  # "Hand 2, dealer Bruno": heads the explanations


@dataclass(frozen=True, slots=True)
class Section:
    """A block after the hands (the marca ledger): a small table and lines of text."""

    title: str
    header: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    lines: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Sheet:
    lang: str
    title: str
    variant: str
    meta: tuple[tuple[str, str], ...]
    columns: tuple[SheetColumn, ...]
    hand_label: str
    hands: tuple[HandBlock, ...]
    final: tuple[Row, ...]
    outcome: tuple[str, ...]
    sections: tuple[Section, ...]
    legend_title: str
    legend: tuple[tuple[str, str], ...]
    footer: str
    page_label: str  # with {page} and {pages}
    filename: str
    detail_title: str = ""
    subject: str = ""
    players: tuple[str, ...] = field(default=())

    def text(self) -> str:
        """Every word of the sheet, in reading order (for tests and search)."""
        out = [self.title, self.variant, *(f"{k} {v}" for k, v in self.meta)]
        out += [f"{c.label} {c.seats}" for c in self.columns]
        for hand in self.hands:
            out += [str(hand.number), hand.dealer, *hand.notes]
            for row in hand.rows:
                out.append(" ".join([row.label, row.note, *(f"{e.text} {e.mark}" for e in
                                                            row.cells if e)]))
            out += hand.details
        for row in self.final:
            out.append(" ".join([row.label, *(e.text for e in row.cells if e)]))
        out += self.outcome
        for section in self.sections:
            out += [section.title, *section.header, *(" ".join(r) for r in section.rows),
                    *section.lines]
        out += [f"{m} {w}" for m, w in self.legend]
        return "\n".join(out)


# -- per-hand numbers, shared with the CSV export --------------------------------------------


@dataclass(frozen=True, slots=True)
class HandNumbers:
    """What each column got from a hand and where it stands after it. ``points`` are what
    the running total counted (in a rubber won during the declarations, less than the hand's
    result: R13). Mitigatti: ``marca`` the hand's payments (with any pot collected) and
    ``balances`` from 10; ``pot`` what the pot holds after the hand."""

    number: int
    points: dict[str, int]
    totals: dict[str, int]
    marca: dict[str, int] | None = None
    balances: dict[str, int] | None = None
    pot: int | None = None
    collected: dict[str, int] | None = None


def hand_numbers(view: GameView) -> list[HandNumbers]:
    summary = view.summary
    keys = [c.key for c in summary.columns]
    before = dict.fromkeys(keys, 0)
    seats = view.setup.variant.seats
    balances = {str(s): STARTING_MARCA for s in range(seats)}
    pot = 0
    collections: dict[int, dict[str, int]] = {}
    if summary.ledger is not None:
        for number, seat, collected_marca in summary.ledger.collections:
            collections.setdefault(number, {})[seat] = collected_marca
    out = []
    for index, hand in enumerate(view.hands):
        running = dict(summary.running[index]) if index < len(summary.running) else before
        points = {k: running[k] - before[k] for k in keys}
        numbers = HandNumbers(hand.number, points, running)
        if summary.ledger is not None:
            collected = collections.get(hand.number, {})
            marca = hand.result.marca(seats)
            for seat, amount in collected.items():
                marca[seat] += amount
            for seat, amount in marca.items():
                balances[seat] += amount
            pot += hand.result.pot - sum(collected.values())
            numbers = HandNumbers(hand.number, points, running, marca, dict(balances), pot,
                                  collected)
        out.append(numbers)
        before = running
    return out


# -- names ------------------------------------------------------------------------------------


def seat_names(view: GameView, t: Translator) -> list[str]:
    """Names by seat; a dummy is named after its player, in the sheet's language."""
    setup = view.setup
    names = setup.seat_names()
    if setup.variant.partnership == "dummies":
        return [*names[:2], *(t("dummy", name=setup.players[s - 2])
                              for s in range(2, setup.variant.seats))]
    return names


def card_label(view: GameView, code: str) -> str:
    card = view.setup.variant.pack.by_code.get(code)
    return code if card is None else card.label  # a code the pack does not know, as it is


def variant_name(view: GameView, t: Translator) -> str:
    variant = view.setup.variant
    return t.get(f"variant.{variant.id}", variant.name)


def currency_of(view: GameView) -> str | None:
    """The game's currency: its option, which the setup always holds (its default where the
    game gave none) in a variant that settles in money."""
    currency = view.setup.options.get("currency")
    return None if currency is None else str(currency)


def option_texts(view: GameView, t: Translator) -> list[str]:
    out = []
    options = view.setup.options
    for spec in view.setup.variant.options:
        value = options.get(spec.name, spec.default)
        if spec.name == "marca_value":
            money = parse_money(value)
            out.append(t("option.marca_value", value=t.money(money, currency_of(view)))
                       if money is not None else t("option.marca_value.none"))
            continue
        if spec.name in ("currency", "time_zone"):
            continue  # said with the money; the zone, with the times
        if spec.name == "confirmation" and value == "optional":
            continue  # said by the hands' marks, once a player has given a verdict
        word = str(value).lower() if isinstance(value, bool) else str(value)
        out.append(t.get(f"option.{spec.name}.{word}", t("option.other", name=spec.name,
                                                          value=value)))
    return out


# -- the sheet --------------------------------------------------------------------------------


class _Builder:
    def __init__(self, view: GameView, lang: str, detail: bool) -> None:
        self.view = view
        self.detail = detail
        self.variant = view.setup.variant
        self.names = seat_names(view, Translator(lang))
        # Every line names the players, not their seats.
        self.t = Translator(lang, seat_names=self.names)
        self.numbers = hand_numbers(view)
        self.marca = view.summary.ledger is not None
        self.used_marks: set[str] = set()
        self.any_shared = False
        self.any_void = False
        self.columns = self._columns()

    # -- columns ----------------------------------------------------------------------------

    def _columns(self) -> list[SheetColumn]:
        t = self.t
        out = []
        for column in self.view.summary.columns:
            if self.variant.partnership == "dummies":
                # The player's name, and under it who plays the column (the player and the
                # dummy).
                out.append(SheetColumn(column.key, column.label, t.seats(column.seats)))
            else:
                # The names say it all.
                out.append(SheetColumn(column.key,
                                       " & ".join(self.names[s] for s in column.seats), ""))
        if self.marca and self._pot_used():
            out.append(SheetColumn(POT, t("col.pot"), ""))
        return out

    def _pot_used(self) -> bool:
        ledger = self.view.summary.ledger
        return bool(ledger and (ledger.collections or ledger.pot)) or any(
            h.result.pot for h in self.view.hands)

    def _keys(self) -> list[str]:
        return [c.key for c in self.columns]

    # -- the whole sheet --------------------------------------------------------------------

    def build(self, as_of: datetime | None) -> Sheet:
        t = self.t
        view = self.view
        hands = [self._hand(i, hand) for i, hand in enumerate(view.hands)]
        rules = sorted({h.rules_version for h in view.hands})
        rules_text = t("rules.version", version=", ".join(rules) if rules else RULES_VERSION)
        return Sheet(
            lang=t.lang,
            title=t("title"),
            variant=variant_name(view, t),
            meta=tuple(self._meta(as_of)),
            columns=tuple(self.columns),
            hand_label=t("col.hand"),
            hands=tuple(hands),
            final=tuple(self._final()),
            outcome=tuple(self._outcome()),
            sections=tuple(self._sections()),
            legend_title=t("legend.title"),
            legend=tuple(self._legend()),
            footer=t("footer", game=view.id, rules=rules_text),
            page_label=t("footer.page", page="{page}", pages="{pages}"),
            filename=f"segnapunti-{self.variant.id}-{view.id}.pdf",
            detail_title=t("detail.title") if self.detail else "",
            subject=f"{variant_name(view, t)} · {view.id}",
            players=tuple(view.setup.players),
        )

    def _meta(self, as_of: datetime | None) -> list[tuple[str, str]]:
        t = self.t
        view = self.view
        summary = view.summary
        options = option_texts(view, t)
        players = ", ".join(self.names)
        meta = [
            (t("meta.game"), view.id),
            (t("meta.variant"), variant_name(view, t)),
            (t("meta.options"), "; ".join(options) if options else t("meta.no_options")),
            (t("meta.players"), players),
            (t("meta.sides"), self._sides_text()),
            (t("meta.first_dealer"), self.names[view.setup.first_dealer]),
        ]
        if summary.target is not None:
            meta.append((t("meta.target"), t("target.points", n=summary.target)))
        if summary.finished:
            status = t("status.finished")
        elif summary.next_dealer is not None:
            status = t("status.in_progress_next", name=self.names[summary.next_dealer])
        else:
            status = t("status.in_progress")
        meta.append((t("meta.status"), status))
        zone = str(view.setup.options.get("time_zone") or "UTC")
        meta.append((t("meta.started"), t.date(view.game.created_at, zone)))
        if as_of is not None:  # the game's last change: the sheet of a version never varies
            meta.append((t("meta.as_of"), t.date(as_of, zone)))
        return meta

    def _sides_text(self) -> str:
        t = self.t
        partnership = self.variant.partnership
        if partnership == "call":
            return t("side.by_hand", how=t("side.by_call"))
        if partnership == "contract":
            return t("side.by_hand", how=t("side.by_contract"))
        fixed = self.variant.fixed_sides()
        if not fixed or all(len(seats) == 1 for seats in fixed):
            return t("side.none")
        labels = [" & ".join(self.names[s] for s in seats) for seats in fixed]
        text = labels[0]
        for other in labels[1:]:
            text = t("side.against", a=text, b=other)
        return text

    # -- one hand ---------------------------------------------------------------------------

    def _hand(self, index: int, hand: HandView) -> HandBlock:
        result = hand.result.to_json()
        notes = self._notes(hand, result)
        if self.marca:
            rows = self._marca_rows(index, hand, result)
        else:
            rows = self._point_rows(index, hand, result)
            if self._uncounted(index, hand, result):
                notes.append(self.t("note.not_counted"))
        details = tuple(self._details(index, hand, result)) if self.detail else ()
        dealer = self.t("hand.dealer", name=self.names[hand.dealer])
        return HandBlock(hand.number, dealer, tuple(notes), tuple(rows), details,
                         f"{self.t('col.hand')} {hand.number}, {dealer}")

    def _notes(self, hand: HandView, result: Mapping[str, Any]) -> list[str]:
        t = self.t
        record = hand.record
        notes = []
        shown_alone = False
        call = record.get("call")
        if call:
            card = card_label(self.view, call["card"])
            partner = result.get("partner", call.get("partner"))
            dealer = self.names[hand.dealer]
            if partner is None:
                notes.append(t("call.hidden", dealer=dealer, card=card))
            elif partner == hand.dealer:
                notes.append(t("call.alone", dealer=dealer, card=card))
                shown_alone = True
            else:
                notes.append(t("call.partner", dealer=dealer, card=card,
                               partner=self.names[partner]))
        contract = record.get("contract")
        if contract:
            notes.append(self._contract_text(contract, result))
        for event in result.get("events", []):
            if event == "thrown_in" or (event == "dealer_alone" and shown_alone) or (
                    event == "surrendered" and contract):
                continue
            notes.append(t.get(f"event.{event}", t("event.other", event=event)))
        violations = result.get("violations") or []
        if violations:
            key = "note.violations.one" if len(violations) == 1 else "note.violations.other"
            notes.append(t(key, n=len(violations)))
        if record.get("tricks"):
            notes.append(t("note.trick_record"))
        notes += self._verdict_notes(hand)
        return notes

    def _verdict_notes(self, hand: HandView) -> list[str]:
        """What the players said of the hand (issue 15): each dispute with its reason, and
        whether every player has confirmed it; nothing where the game takes no verdicts."""
        t = self.t
        standing = hand.standing
        if standing.status == "not_asked" or not self.view.verdicts_shown():
            return []
        notes = []
        for verdict in hand.confirmations:
            if verdict.verdict == "dispute":
                self.used_marks.add("!")
                notes.append(t("note.disputed", name=self.names[verdict.seat],
                               reason=verdict.reason or ""))
        if standing.status == "confirmed":
            self.used_marks.add("✓")
            notes.append(t("note.confirmed"))
        elif standing.waiting:
            self.used_marks.add("○")
            notes.append(t("note.waiting", names=", ".join(self.names[s]
                                                         for s in standing.waiting)))
        return notes

    def _contract_text(self, contract: Mapping[str, Any], result: Mapping[str, Any]) -> str:
        t = self.t
        declarer = contract["declarer"]
        who = self.names[declarer]
        card = contract.get("called_card")
        card_text = card_label(self.view, card) if card else ""
        partner = contract.get("partner")
        if partner is None:
            sides = result.get("sides") or []
            team = [s for s in (sides[0]["seats"] if sides else []) if s != declarer]
            partner = team[0] if team else None
        partner_name = self.names[partner] if partner is not None else None
        kind = contract["type"]
        if kind == "surrender":
            return t("contract.surrender", declarer=who)
        if kind == "solo":
            if contract.get("sans_prendre"):
                return t("contract.sans_prendre", declarer=who)
            if card:
                if partner_name is None:
                    return t("contract.solo.call.hidden", declarer=who, card=card_text)
                return t("contract.solo.call", declarer=who, card=card_text,
                         partner=partner_name)
            return t("contract.solo", declarer=who)
        if partner_name is None:
            return t("contract.call.hidden", declarer=who, card=card_text)
        return t("contract.call", declarer=who, card=card_text, partner=partner_name)

    # -- points games (Gatti, Ottocento) ----------------------------------------------------

    def _side_index(self, sides: Sequence[Mapping[str, Any]], seats: Sequence[int]) -> int | None:
        for i, side in enumerate(sides):
            if seats and seats[0] in side["seats"]:
                return i
        return None

    def _uncounted(self, index: int, hand: HandView,
                   result: Mapping[str, Any]) -> set[tuple[int, int]]:
        """The lines (side, line) of the hand that won a rubber during the declarations
        which were not counted: the acts after the winning one and everything after the
        declarations (R13)."""
        summary = self.view.summary
        if summary.ended_by != "R13" or index != len(self.view.hands) - 1 or not summary.target:
            return set()
        totals = dict(summary.running[index - 1]) if index else {
            c.key: 0 for c in summary.columns}
        counted_seats: set[int] = set()
        for act in result.get("acts", []):
            totals[act["column"]] += act["points"]
            counted_seats.add(act["seat"])
            if totals[act["column"]] >= summary.target:
                break
        out = set()
        for s, side in enumerate(result["sides"]):
            for k, line in enumerate(side["lines"]):
                declared = line["item"] == "declaration" or (
                    line["item"] == "doubling" and line.get("phase") == "declared")
                if not (declared and line.get("seat") in counted_seats):
                    out.add((s, k))
        return out

    def _entry(self, line: Mapping[str, Any], column_seats: Sequence[int]) -> tuple[str, Entry]:
        t = self.t
        item = line["item"]
        points = int(line["points"])
        group = _GROUP_OF_ITEM.get(item, "other")
        mark = ""
        if item in ("meld", "captured_meld"):
            mark = str(line.get("mark", ""))
        elif item == "bagatto_ultimo":
            mark = "B"
        elif item in ("declaration", "captured"):
            mark = combo_mark(line)
            self.used_marks.add(str(line.get("kind")))
        elif item == "doubling":
            mark = "×2"
            group = "declared" if line.get("phase") == "declared" else "captured"
            self.used_marks.add("doubling")
        elif item not in _GROUP_OF_ITEM:
            mark = str(line.get("mark", ""))
        if item in ("meld", "captured_meld", "bagatto_ultimo") and mark:
            self.used_marks.add(mark)
        if item == "captured_meld":
            self.used_marks.add("captured")
        style = "plain"
        seat = line.get("seat")
        if (self.variant.columns_per_seat and isinstance(seat, int)
                and seat not in column_seats and item != "bagatto_ultimo"):
            style = "shared"
            self.any_shared = True
        if item == "card_points" and line.get("last_trick"):
            self.used_marks.add("last_trick")
        if line.get("entered") == "points":
            mark = "#"
            self.used_marks.add("#")
        return group, Entry(t.number(points), mark, style, points)

    def _point_rows(self, index: int, hand: HandView, result: Mapping[str, Any]) -> list[Row]:
        t = self.t
        keys = [c.key for c in self.view.summary.columns]
        sides = result.get("sides") or []
        uncounted = self._uncounted(index, hand, result)
        groups: dict[str, dict[str, list[Entry]]] = {}
        other_labels: dict[str, str] = {}
        for column in self.view.summary.columns:
            s = self._side_index(sides, column.seats)
            if s is None:
                continue
            for k, line in enumerate(sides[s]["lines"]):
                group, entry = self._entry(line, column.seats)
                if (s, k) in uncounted:
                    entry = Entry(entry.text, entry.mark + "†", "void", entry.points)
                    self.any_void = True
                if group == "other":
                    other_labels.setdefault(line["item"], t.get(
                        f"item.{line['item']}", line["item"].replace("_", " ")))
                groups.setdefault(group, {}).setdefault(column.key, []).append(entry)
        rows: list[Row] = []
        for group, label_key, kind in _GROUPS:
            per_column = groups.get(group)
            if not per_column:
                continue
            depth = max(len(v) for v in per_column.values())
            label = t(label_key, item=", ".join(other_labels.values()))
            # A family may name its deck points its own way (the older rules: trick points).
            label = t.get(f"{label_key}.{self.variant.family}", label)
            for k in range(depth):
                cells = tuple((per_column.get(key) or [])[k]
                              if k < len(per_column.get(key) or []) else None for key in keys)
                rows.append(Row(label if k == 0 else "", kind, cells))
        if "thrown_in" in result.get("events", []):
            rows.append(Row("", "note", (), t("note.thrown_in")))
        numbers = self.numbers[index]
        rows.append(Row(t("row.hand"), "hand", tuple(
            Entry(t.number(numbers.points[k]), points=numbers.points[k]) for k in keys)))
        rows.append(Row(t("row.total"), "total", tuple(
            Entry(t.number(numbers.totals[k]), style="strong", points=numbers.totals[k])
            for k in keys)))
        target = self.view.summary.target
        if target:
            rows.append(Row(t("row.to_target", target=target), "progress", tuple(
                Entry(t.number(target - numbers.totals[k]) if numbers.totals[k] < target
                      else "✓", points=max(0, target - numbers.totals[k])) for k in keys)))
        return rows

    # -- Mitigatti: the marca ledger --------------------------------------------------------

    def _marca_rows(self, index: int, hand: HandView, result: Mapping[str, Any]) -> list[Row]:
        t = self.t
        keys = self._keys()
        numbers = self.numbers[index]
        rows: list[Row] = []
        if "thrown_in" in result.get("events", []):
            rows.append(Row("", "note", (), t("note.thrown_in")))
            return rows
        columns = result.get("columns", {})
        rows.append(Row(t("row.points"), "deck", tuple(
            Entry(t.number(columns[k]), points=columns[k]) if k in columns else None
            for k in keys)))
        by_item: dict[str, dict[str, int]] = {}
        for payment in result.get("payments", []):
            flows = by_item.setdefault(payment["item"], {})
            payer, payee = str(payment["from"]), str(payment["to"])
            flows[payer] = flows.get(payer, 0) - payment["marca"]
            flows[payee] = flows.get(payee, 0) + payment["marca"]
        items = [i for i in _PAYMENT_ITEMS if i in by_item] + [
            i for i in by_item if i not in _PAYMENT_ITEMS]
        for item in items:
            flows = by_item[item]
            label = t.get(f"row.{item}", item.replace("_", " "))
            rows.append(Row(label, "line", tuple(
                Entry(t.signed(flows[k]), points=flows[k]) if flows.get(k) else None
                for k in keys)))
        if numbers.collected:
            flows = {**numbers.collected, POT: -sum(numbers.collected.values())}
            rows.append(Row(t("row.pot"), "line", tuple(
                Entry(t.signed(flows[k]), points=flows[k]) if flows.get(k) else None
                for k in keys)))
        assert numbers.marca is not None and numbers.balances is not None
        net = {**numbers.marca, POT: result.get("pot", 0) - sum(
            (numbers.collected or {}).values())}
        rows.append(Row(t("row.marca"), "hand", tuple(
            Entry(t.signed(net[k]), points=net[k]) for k in keys)))
        balances = {**numbers.balances, POT: numbers.pot or 0}
        rows.append(Row(t("row.balance"), "total", tuple(
            Entry(t.number(balances[k]), style="strong", points=balances[k]) for k in keys)))
        return rows

    # -- the end ----------------------------------------------------------------------------

    def _final(self) -> list[Row]:
        t = self.t
        summary = self.view.summary
        if self.marca:
            return []
        totals = dict(summary.totals)
        winners = set(summary.winners) if summary.finished else set()
        return [Row(t("row.final"), "total", tuple(
            Entry(t.number(totals[c.key]), style="winner" if c.key in winners else "strong",
                  points=totals[c.key]) for c in self.columns))]

    def _label_of(self, key: str) -> str:
        return next(c.label for c in self.columns if c.key == key)

    def _outcome(self) -> list[str]:
        t = self.t
        summary = self.view.summary
        played = len(self.view.hands)
        if self.marca:
            return [t("end.evening", n=played)]
        out = []
        if summary.finished:
            names = [self._label_of(k) for k in summary.winners]
            pair = any(len(c.seats) > 1 for c in summary.columns if c.key in summary.winners)
            key = "end.winners" if len(names) > 1 else "end.winner.pair" if pair else "end.winner"
            out.append(t(key, names=t.names(names)))
            if summary.ended_by == "R10":
                out.append(t("end.R10", n=self.variant.hands_per_game or played))
            elif summary.ended_by in ("R12", "R13"):
                out.append(t(f"end.{summary.ended_by}", n=played, target=summary.target))
        elif not played:
            out.append(t("end.in_progress.none"))
        else:
            totals = dict(summary.totals)
            best = max(totals.values())
            leaders = [self._label_of(k) for k, v in totals.items() if v == best]
            if len(leaders) == 1:
                out.append(t("end.in_progress", n=played, leader=leaders[0]))
            else:
                out.append(t("end.in_progress.level", n=played, leaders=t.names(leaders)))
        return out

    def _sections(self) -> list[Section]:
        t = self.t
        ledger = self.view.summary.ledger
        if ledger is None:
            return []
        seats = [c for c in self.columns if c.key != POT]
        balances = dict(ledger.balances)
        header = ("", *(c.label for c in seats))
        rows = [
            (t("ledger.start"), *(t.number(STARTING_MARCA) for _ in seats)),
            (t("ledger.change"), *(t.signed(balances[c.key] - STARTING_MARCA) for c in seats)),
            (t("ledger.balance"), *(t.number(balances[c.key]) for c in seats)),
        ]
        if ledger.money is not None:
            money = dict(ledger.money)
            rows.append((t("ledger.money"),
                         *(t.money(money[c.key], currency_of(self.view)) for c in seats)))
        lines = []
        value = parse_money(self.view.setup.options.get("marca_value"))
        if value is not None:
            lines.append(t("ledger.value", value=t.money(value, currency_of(self.view))))
        for number, seat, marca in ledger.collections:
            lines.append(t("ledger.collected", name=self.names[int(seat)], n=marca,
                           hand=number))
        if ledger.pot:
            lines.append(t("ledger.pot_left", n=ledger.pot))
        lines.append(t("ledger.transfers") + ":")
        if not ledger.transfers:
            lines.append(t("ledger.settled"))
        for transfer in ledger.transfers:
            payer = self._party(transfer.payer)
            payee = self._party(transfer.payee)
            if transfer.money is not None:
                lines.append(t("ledger.transfer.money", payer=payer, payee=payee,
                               n=transfer.marca,
                               money=t.money(transfer.money, currency_of(self.view))))
            else:
                lines.append(t("ledger.transfer", payer=payer, payee=payee, n=transfer.marca))
        return [Section(t("ledger.title"), header, tuple(rows), tuple(lines))]

    def _party(self, key: str) -> str:
        return self.t("ledger.pot") if key == POT else self.names[int(key)]

    def _legend(self) -> list[tuple[str, str]]:
        t = self.t
        used = self.used_marks
        out: list[tuple[str, str]] = []
        if "F" in used:
            out.append(("F", t("legend.F")))
        if "T" in used:
            out.append(("T", t("legend.T")))
        if "G" in used:
            third = self.variant.gatti_cards[-1] if self.variant.gatti_cards else "T21"
            out.append(("G", t("legend.G", third=third)))
        suits = [s for s in "♥♦♣♠" if s in used]
        if suits:
            out.append((" ".join(suits), t("legend.suits")))
        ranks = [r for r in "JCQK" if r in used]
        if ranks:
            out.append((" ".join(ranks), t("legend.ranks")))
        if "B" in used:
            out.append(("B", t("legend.B")))
        if "cricca" in used:
            out.append(("3K 4Q", t("legend.cricca")))
        if "sequence" in used:
            out.append(("T6 ♠4", t("legend.sequence")))
        if "doubling" in used:
            out.append(("×2", t("legend.doubling")))
        if "last_trick" in used:
            out.append(("", t("legend.last_trick")))
        if "captured" in used:
            out.append(("", t("legend.captured")))
        if "#" in used:
            out.append(("#", t("legend.by_points")))
        required = self.view.setup.options.get("confirmation") == "required"
        if "○" in used:
            out.append(("○", t("legend.waiting.required" if required else "legend.waiting")))
        if "!" in used:
            out.append(("!", t("legend.disputed")))
        if "✓" in used:
            out.append(("✓", t("legend.confirmed")))
        if self.any_shared:
            out.append(("", t("legend.shared")))
        if self.any_void:
            out.append(("†", t("legend.not_counted")))
        if self.marca:
            out.append(("+ −", t("legend.marca")))
            out.append(("", t("legend.points_marca")))
        return out

    # -- explanations (?detail=1) -----------------------------------------------------------

    def _details(self, index: int, hand: HandView, result: Mapping[str, Any]) -> list[str]:
        explain = Explainer(self, hand, result)
        uncounted = self._uncounted(index, hand, result) if not self.marca else set()
        out = []
        for s, side in enumerate(result.get("sides") or []):
            for k, line in enumerate(side["lines"]):
                text = explain.line(line, side)
                rule = line.get("rule")
                prefix = "† " if (s, k) in uncounted else ""
                out.append(f"{prefix}{text}" + (f" ({rule})" if rule else ""))
        out += explain.payments()
        numbers = self.numbers[index]
        for seat, marca in (numbers.collected or {}).items():
            out.append(self.t("detail.pot_collected", who=self.t.seat(int(seat), capital=True),
                              n=marca) + " (R15)")
        for violation in result.get("violations") or []:
            out.append(explain.violation(violation))
        return out


# -- explanations ------------------------------------------------------------------------------


class Explainer:
    """The explanation lines of one hand. In English they are the rules core's own texts,
    word for word, as the API returns them (ARCHITECTURE §5); in Italian they are written
    from the same lines' facts, and a line whose facts the catalogue cannot word is printed
    in English rather than guessed."""

    def __init__(self, builder: _Builder, hand: HandView, result: Mapping[str, Any]) -> None:
        self.b = builder
        self.t = builder.t
        self.hand = hand
        self.result = result
        self.fallbacks = 0

    def line(self, line: Mapping[str, Any], side: Mapping[str, Any]) -> str:
        """The line in the sheet's language, the players named; the service's own text
        (which says seats) for a line the catalogue cannot say."""
        try:
            return self._composed(line, side)
        except (KeyError, TypeError, ValueError, IndexError):
            self.fallbacks += 1
            return str(line["text"])

    def _cards(self, codes: Sequence[str]) -> str:
        return " ".join(card_label(self.b.view, c) for c in codes)

    def _composed(self, line: Mapping[str, Any], side: Mapping[str, Any]) -> str:
        t = self.t
        item = line["item"]
        points = t.number(int(line["points"]))
        side_who = t.seats(side["seats"], capital=True)
        if item == "meld":
            who = t.seat(line["seat"], capital=True)
            if line.get("rule") == "R1":
                worth = int(_number_after("worth", line["text"]))
                before = int(_number_after("than the", line["text"]))
                return t("detail.meld.more", who=who, label=self._meld_label(line, worth),
                         worth=worth, points=points, before=before)
            return t("detail.meld", who=who, label=self._meld_label(line, int(line["points"])),
                     points=points)
        if item == "captured_meld":
            return t("detail.captured_meld", who=side_who, label=self._meld_label(line, 0),
                     points=points)
        if item == "bagatto_ultimo":
            who = t.seat(line["seat"], capital=True)
            if line["won"]:
                return t("detail.bagatto.won", who=who, points=points)
            if line["seat"] in side["seats"]:
                return t("detail.bagatto.lost_own", who=who, points=points)
            return t("detail.bagatto.lost", who=who, points=points, to=t.seats(side["seats"]))
        if line.get("entered") == "points":
            how = t("detail.points.rest" if line.get("derived") else "detail.points.counted")
            if item == "card_points":
                last = int(line.get("last_trick") or 0)
                return t("detail.points.card", who=side_who, counted=line["counted"], how=how,
                         last=t("detail.points.last", n=last, points=points) if last else "")
            return t("detail.points.deck", who=side_who, counted=line["counted"], how=how)
        if item == "deck_points":
            cards = line.get("counting_cards") or []
            return t("detail.deck_points", who=side_who, tricks=line["tricks"],
                     trick_points=line["trick_points"], counting=line["counting"],
                     cards=f" ({self._cards(cards)})" if cards else "",
                     rest=t("detail.rest") if line.get("derived") else "")
        if item in ("declaration", "captured"):
            label = combo_label(t, line)
            if item == "declaration":
                return t("detail.combo.declared", who=t.seat(line["seat"], capital=True),
                         label=label, points=points)
            return t("detail.combo.captured", who=side_who, label=label, points=points)
        if item == "doubling":
            kind = line["kind"]
            declared = line.get("phase") == "declared"
            siblings = [other for other in side["lines"] if other.get("kind") == kind and (
                (declared and other["item"] == "declaration"
                 and other.get("seat") == line.get("seat"))
                or (not declared and other["item"] == "captured"))]
            who = t.seat(line["seat"], capital=True) if declared else side_who
            return t("detail.doubling", who=who, n=len(siblings),
                     what=t("cricche" if kind == "cricca" else "sequences"), points=points)
        if item == "card_points":
            last = int(line.get("last_trick") or 0)
            return t("detail.card_points", who=side_who, cards=line["cards"],
                     values=line["values"], pairs=line["pairs"],
                     last=t("detail.last_trick", n=last) if last else "", points=points,
                     rest=t("detail.rest") if line.get("derived") else "")
        raise KeyError(item)

    def _meld_label(self, line: Mapping[str, Any], count: int) -> str:
        t = self.t
        kind = line["kind"]
        mark = line.get("mark", "")
        if kind in ("frilli", "trumps"):
            return t(f"meld.{kind}", n=count)
        if kind == "gatti":
            return t("meld.gatti")
        if kind == "family":
            return t("meld.family", suit=mark)
        return t(f"meld.{kind}", rank=t(f"rank.{mark}"))

    # -- Mitigatti --------------------------------------------------------------------------

    def payments(self) -> list[str]:
        """One line per reason (payments that share a text), with who paid whom."""
        groups: list[tuple[str, str, list[Mapping[str, Any]]]] = []
        for payment in self.result.get("payments") or []:
            key = (payment["item"], payment["text"])
            if groups and (groups[-1][0], groups[-1][1]) == key:
                groups[-1][2].append(payment)
            else:
                groups.append((payment["item"], payment["text"], [payment]))
        out = []
        accuse = 0
        for item, text, payments in groups:
            flows = ", ".join(self.t("detail.flows", payer=self._party(p["from"]),
                                     payee=self._party(p["to"]), n=p["marca"])
                              for p in payments)
            wording = text
            try:
                wording = self._composed_payment(item, payments, accuse)
            except (KeyError, TypeError, ValueError, IndexError):
                self.fallbacks += 1
            if item == "declaration":
                accuse += 1
            rule = payments[0].get("rule")
            out.append(f"{wording}: {flows}" + (f" ({rule})" if rule else ""))
        return out

    def _party(self, key: object) -> str:
        return self.t("ledger.pot") if key == POT else self.b.names[int(str(key))]

    def _composed_payment(self, item: str, payments: Sequence[Mapping[str, Any]],
                         accuse: int) -> str:
        t = self.t
        record = self.hand.record
        contract = record.get("contract")
        first = payments[0]
        variant = self.b.variant
        if item == "partida" and contract:
            sides = self.result["sides"]
            mine = int(sides[0]["total"])
            total = sum(int(s["total"]) for s in sides)
            reasons = []
            if min(mine, total - mine) < total // 4:
                reasons.append(t("detail.partida4.under", n=total // 4))
            if contract.get("sans_prendre"):
                reasons.append(t("detail.partida4.sans"))
            won = mine >= total // 2 + 1
            return t("detail.partida4", side=t.seats(sides[0]["seats"]), points=mine,
                     total=total, outcome=t("detail.partida4.won" if won else
                                            "detail.partida4.lost"),
                     each=first["marca"], reasons=f" ({'; '.join(reasons)})" if reasons else "")
        if item == "partida":
            payer = int(first["from"])
            points = int(self.result["columns"][str(payer)])
            quarter, third = variant.deck_total // 6, variant.deck_total // 3
            amount = 2 if points < quarter else 1
            band = (t("detail.partida3.low", n=quarter) if amount == 2
                    else t("detail.partida3.mid", low=quarter, high=third - 1))
            to_pot = [p for p in payments if p["to"] == POT]
            # Players tied for most share (R15): their payments, and the pot's, cite R15.
            if first.get("rule") == "R15":
                to = t("detail.partida3.tops")
            else:
                to = t.seat(int(first["to"]))
            text = t("detail.partida3", who=t.seat(payer), points=points, band=band, n=amount,
                     to=to)
            if to_pot:
                text += t("detail.partida3.pot", n=sum(p["marca"] for p in to_pot))
            return text
        if item == "declaration":
            declarations = record.get("declarations") or []
            if contract and contract.get("type") == "surrender":
                paid = [d for d in declarations if d["seat"] != contract["declarer"]]
                d = paid[accuse]
                return t("detail.accusa.surrender", who=t.seat(d["seat"], capital=True),
                         what=t(f"accusa.{d['kind']}"))
            d = declarations[accuse]
            return t("detail.accusa", who=t.seat(d["seat"], capital=True),
                     what=t(f"accusa.{d['kind']}"))
        if item == "bagatte_ultimu":
            bagatto = record.get("bagatto") or self.result["bagatto"]
            doubled = t("detail.bagatte.doubled") if contract and contract.get(
                "sans_prendre") else ""
            key = "detail.bagatte.won" if bagatto["won"] else "detail.bagatte.lost"
            return t(key, who=t.seat(bagatto["seat"], capital=True), n=first["marca"],
                     doubled=doubled)
        if item == "surrender":
            return t("detail.surrender", who=t.seat(int(first["from"]), capital=True))
        raise KeyError(item)

    def violation(self, violation: Mapping[str, Any]) -> str:
        t = self.t
        proof = violation.get("proof")
        return t("detail.violation", trick=violation["trick"],
                 who=t.seat(violation["seat"]), card=card_label(self.b.view, violation["card"]),
                 rule=t.get(f"violation.{violation['rule']}",
                            t("violation.other", rule=violation["rule"])),
                 proof=t("detail.proof", card=card_label(self.b.view, proof["card"]),
                         trick=proof["trick"]) if proof else "")


def _number_after(words: str, text: str) -> str:
    found = re.search(rf"{re.escape(words)} (-?\d+)", text)
    if found is None:
        raise ValueError(f"no number after {words!r}")
    return found.group(1)


def combo_mark(line: Mapping[str, Any]) -> str:
    """An Ottocento combination's mark: a cricca is its size and what (``4K``, ``3Tar``), a
    sequence what and its length (``T18``, ``♠4``, ``M6``, ``A6``)."""
    kind, what = line.get("kind"), str(line.get("type", ""))
    if kind == "cricca":
        size = line.get("count", len(line.get("cards") or ()))
        return f"{size}{'Tar' if what == 'tarocchi' else what}"
    if kind == "sequence":
        symbol = _SEQUENCE_MARKS.get(what) or _SUITS.get(what, what)
        return f"{symbol}{line.get('length', len(line.get('cards') or ()))}"
    return str(line.get("mark", ""))


def combo_label(t: Translator, line: Mapping[str, Any]) -> str:
    what = str(line["type"])
    if line["kind"] == "cricca":
        count = int(line["count"])
        return t("cricca", count=t("cricca.all_four" if count == 4 else "cricca.three"),
                 type=t(f"cricca.{what}"))
    name = (t(f"sequence.{what}") if what in _SEQUENCE_MARKS
            else t("sequence.suit", suit=_SUITS[what]))
    return t("sequence", n=int(line["length"]), type=name)


def build_sheet(view: GameView, lang: str = "en", *, detail: bool = False,
                as_of: datetime | None = None) -> Sheet:
    """The score sheet of a game, in ``lang`` (``en`` or ``it``); with ``detail``, each
    hand's explanation lines too."""
    return _Builder(view, lang, detail).build(as_of)


def explanation_fallbacks(view: GameView, lang: str) -> int:
    """How many explanation lines of the game the catalogue could not word in ``lang`` (and
    printed in English instead). A test keeps it at zero for every sample game."""
    builder = _Builder(view, lang, True)
    count = 0
    for hand in view.hands:
        result = hand.result.to_json()
        explain = Explainer(builder, hand, result)
        for side in result.get("sides") or []:
            for line in side["lines"]:
                explain.line(line, side)
        explain.payments()
        count += explain.fallbacks
    return count


__all__ = ["Entry", "HandBlock", "HandNumbers", "Row", "Section", "Sheet", "SheetColumn",
           "build_sheet", "combo_mark", "explanation_fallbacks", "hand_numbers"]
