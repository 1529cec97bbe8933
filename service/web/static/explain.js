/* What the service does not say in words, in the page's: a declaration or a combination
 * being entered, a mark's meaning for the sheet's legend, a suggestion. A hand's result
 * lines, payments, contract or call the page shows as the service said them (their text, in
 * the page's language and with the players' names); the words here come from i18n.js, cards
 * from cards.js. */
import { Cards } from "./cards.js";
import { t } from "./i18n.js";

const Explain = {
  /** A declaration, or a combination a pile holds, by what it says: "Famiglia ♦", "Terno di
   * K", "Frilli 20", "Cricca di quattro re"; by its cards where it names no more. */
  declaration(d) {
    if ((d.kind === "cricca" || d.kind === "sequence") && d.type) return Explain.combo(d.kind, d.type, d.count);
    const name = t(`meld.${d.kind}`);
    if (d.kind === "family") {
      const suit = d.suit || (d.cards && Cards.suitOf(d.cards[0]));
      return suit ? `${name} ${Cards.SYMBOL[suit] || suit}` : name;
    }
    if (d.kind === "three_of_a_kind" || d.kind === "four_of_a_kind") {
      const rank = d.rank || (d.cards && Cards.parse(d.cards[0]).rank);
      return rank ? `${name} ${t("of")} ${Cards.rankLabel(rank)}` : name;
    }
    if (d.kind === "frilli" || d.kind === "trumps") {
      const count = d.count || (d.cards && d.cards.length);
      return count ? `${name} ${count}` : name;
    }
    return name;
  },

  /** What a line's mark on the sheet stands for, for the legend. */
  markMeaning(line) {
    switch (line.item) {
      case "meld":
      case "captured_meld":
        return Explain.meldLabel(line) + (line.item === "captured_meld" ? ` (${t("legend.captured")})` : "");
      case "bagatto_ultimo":
        return t("legend.bagatto");
      case "declaration":
      case "captured":
        return Explain.combo(line.kind, line.type, line.kind === "cricca" ? line.count : line.length) +
          (line.item === "captured" ? ` (${t("legend.captured")})` : "");
      case "doubling":
        return t("legend.doubling");
      default:
        return line.entered === "points" ? t("legend.byPoints") : "";
    }
  },

  /** A scored meld by its mark: "Famiglia ♦", "Terno di K", "Trionfi 11". */
  meldLabel(line) {
    const name = t(`meld.${line.kind}`);
    if (line.kind === "family") return `${name} ${line.mark}`;
    if (line.kind === "three_of_a_kind" || line.kind === "four_of_a_kind") return `${name} ${t("of")} ${Cards.rankLabel(line.mark)}`;
    if (line.kind === "frilli" || line.kind === "trumps") {
      if (line.cards) return `${name} ${line.cards.length}`;
      if (line.rule !== "R1") return `${name} ${line.points}`;
    }
    return name;
  },

  combo(kind, type, size) {
    if (kind === "cricca") return t("combo.cricca", { count: size, type: t(`combo.type.${type}`) });
    const name = Cards.SUITS.includes(type) ? t(`combo.suit.${type}`) : t(`combo.type.${type}`);
    return t("combo.sequence", { n: size, type: name });
  },

  suggestion(sug) {
    if (sug.kind === "cricca" || sug.kind === "sequence") return Explain.combo(sug.kind, sug.type, sug.cards.length);
    return Explain.declaration(sug.declaration);
  },
};

export { Explain };
