"""What every part of one game's sheet reads: the game, the words in the sheet's language, the
players' names, each hand's numbers, and the marks printed so far (for the legend)."""

from __future__ import annotations

from service.domain import parse_money
from service.locale import translations

from ..games import GameView
from ..i18n import Translator
from ..language import Speaker
from .model import SheetColumn
from .numbers import hand_numbers


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
        if spec.name in ("currency", "time_zone", "language"):
            continue  # said with the money; the zone, with the times; the language, by itself
        if spec.name == "confirmation" and value == "optional":
            continue  # said by the hands' marks, once a player has given a verdict
        word = str(value).lower() if isinstance(value, bool) else str(value)
        out.append(t.get(f"option.{spec.name}.{word}", t("option.other", name=spec.name,
                                                          value=value)))
    return out


class SheetContext:
    """One sheet in the making. ``columns`` are the players' (or pairs') columns; ``used_marks``
    gathers the marks the sheet prints, which the legend explains; ``say`` renders what the
    service said of a hand (its lines, payments, violations) in the sheet's language with the
    players' names, as the page shows them."""

    def __init__(self, view: GameView, lang: str, detail: bool) -> None:
        self.view = view
        self.detail = detail
        self.variant = view.setup.variant
        self.t = Translator(lang)
        # Every line names the players, not their seats; a dummy is named after its player,
        # in the sheet's language.
        self.say = Speaker(lang, self.variant.family, translations(lang),
                           view.setup.seat_names())
        self.names = [self.say.name(s) for s in range(self.variant.seats)]
        self.numbers = hand_numbers(view)
        self.used_marks: set[str] = set()
        self.columns = self._columns()

    def _columns(self) -> list[SheetColumn]:
        out = []
        for column in self.view.summary.columns:
            if self.variant.partnership == "dummies":
                # The player's name, and under it who plays the column (the player and the
                # dummy).
                out.append(SheetColumn(column.key, column.label,
                                       self.t.names([self.names[s] for s in column.seats])))
            else:
                # The names say it all.
                out.append(SheetColumn(column.key,
                                       " & ".join(self.names[s] for s in column.seats), ""))
        return out

    def card(self, code: str) -> str:
        return card_label(self.view, code)

    def label_of(self, key: str) -> str:
        return next(c.label for c in self.columns if c.key == key)
