"""Mitigatti on the sheet (rulebook §5): each seat's card points, then the marca ledger of the
hand — one row per reason (partida, declarations, Bagatte ultimu, surrender, the pot), the
hand's marca and each seat's balance from 10 —, a column for the pot where it is used, and at
the end the balances, the transfers and the money. The hand's contract heads it; the
explanations say who paid whom and why."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from service.domain import STARTING_MARCA, parse_money, pot_collected_text
from service.locale import colon

from ..games import HandView
from .context import SheetContext, currency_of
from .family import Family, Result
from .model import POT, Block, Entry, Row, SheetColumn

#: Mitigatti's payments, in the order their rows are printed.
_PAYMENT_ITEMS = ("partida", "declaration", "bagatte_ultimu", "surrender")


class Mitigatti(Family):
    def __init__(self, c: SheetContext) -> None:
        super().__init__(c)
        ledger = c.view.summary.ledger
        pot_used = bool(ledger and (ledger.collections or ledger.pot)) or any(
            h.result.pot for h in c.view.hands)
        self.pot = [SheetColumn(POT, self.t("col.pot"), "")] if pot_used else []
        self.keys = [column.key for column in [*c.columns, *self.pot]]

    def extra_columns(self) -> list[SheetColumn]:
        return self.pot

    # -- one hand ---------------------------------------------------------------------------

    def lead_notes(self, hand: HandView, result: Result) -> tuple[list[str], set[str]]:
        """Who played with whom, as the service says it."""
        contract = result.get("contract_text")
        if contract is None:
            return [], set()
        return [self.c.say(contract)], {"surrendered"}

    def rows(self, index: int, hand: HandView, result: Result) -> tuple[list[Row], list[str]]:
        t = self.t
        keys = self.keys
        numbers = self.c.numbers[index]
        rows: list[Row] = []
        if "thrown_in" in result.get("events", []):
            rows.append(Row("", "note", (), t("note.thrown_in")))
            return rows, []
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
            rows.append(self._flow_row(t.get(f"row.{item}", item.replace("_", " ")),
                                       by_item[item], keys))
        if numbers.collected:
            rows.append(self._flow_row(t("row.pot"), {
                **numbers.collected, POT: -sum(numbers.collected.values())}, keys))
        assert numbers.marca is not None and numbers.balances is not None
        net = {**numbers.marca, POT: result.get("pot", 0) - sum(
            (numbers.collected or {}).values())}
        rows.append(Row(t("row.marca"), "hand", tuple(
            Entry(t.signed(net[k]), points=net[k]) for k in keys)))
        balances = {**numbers.balances, POT: numbers.pot or 0}
        rows.append(Row(t("row.balance"), "total", tuple(
            Entry(t.number(balances[k]), style="strong", points=balances[k]) for k in keys)))
        return rows, []

    def _flow_row(self, label: str, flows: Mapping[str, int], keys: Sequence[str]) -> Row:
        """What each column paid (−) or was paid (+) for one reason."""
        return Row(label, "line", tuple(
            Entry(self.t.signed(flows[k]), points=flows[k]) if flows.get(k) else None
            for k in keys))

    # -- explanations -----------------------------------------------------------------------

    def details(self, index: int, hand: HandView, result: Result) -> list[str]:
        out = self._payments(result)
        for seat, marca in (self.c.numbers[index].collected or {}).items():
            out.append(f"{self.c.say(pot_collected_text(seat, marca))} (R15)")
        return out

    def _payments(self, result: Result) -> list[str]:
        """One line per reason (payments the service says alike), as the service says it,
        with who paid whom."""
        groups: list[tuple[str, str, list[Mapping[str, Any]]]] = []
        for payment in result.get("payments") or []:
            key = (payment["item"], payment["text"])
            if groups and (groups[-1][0], groups[-1][1]) == key:
                groups[-1][2].append(payment)
            else:
                groups.append((payment["item"], payment["text"], [payment]))
        out = []
        for _item, text, payments in groups:
            flows = ", ".join(self.c.say(p["flow"]) for p in payments)
            rule = payments[0].get("rule")
            out.append(f"{self.c.say(text)}{colon(self.t.lang)} {flows}"
                       + (f" ({rule})" if rule else ""))
        return out

    # -- the end ----------------------------------------------------------------------------

    def outcome(self) -> list[str]:
        return [self.t("end.evening", n=len(self.c.view.hands))]

    def sections(self) -> list[Block]:
        """The marca ledger: each seat's start, change and balance, the money, the pot, and
        who pays whom."""
        t = self.t
        view = self.c.view
        ledger = view.summary.ledger
        if ledger is None:
            return []
        seats = self.c.columns
        currency = currency_of(view)
        balances = dict(ledger.balances)
        header = ("", *(c.label for c in seats))
        rows = [
            (t("ledger.start"), *(t.number(STARTING_MARCA) for _ in seats)),
            (t("ledger.change"), *(t.signed(balances[c.key] - STARTING_MARCA) for c in seats)),
            (t("ledger.balance"), *(t.number(balances[c.key]) for c in seats)),
        ]
        if ledger.money is not None:
            money = dict(ledger.money)
            rows.append((t("ledger.money"), *(t.money(money[c.key], currency) for c in seats)))
        lines = []
        value = parse_money(view.setup.options.get("marca_value"))
        if value is not None:
            lines.append(t("ledger.value", value=t.money(value, currency)))
        # Who collected the pot and who pays whom, as the service says it.
        lines += [f"{self.c.say(collected)}." for collected in ledger.collected]
        if ledger.pot:
            lines.append(t("ledger.pot_left", n=ledger.pot))
        lines.append(t("ledger.transfers") + colon(t.lang))
        if not ledger.transfers:
            lines.append(t("ledger.settled"))
        lines += [self.c.say(transfer.text) for transfer in ledger.transfers]
        return [Block(t("ledger.title"), header, tuple(rows), tuple(lines))]

    def note_legend(self) -> list[tuple[str, str]]:
        return [("+ −", self.t("legend.marca")), ("", self.t("legend.points_marca"))]
