/* Cards as the page shows them: short labels for the card grids (K♥, 21, ★), full names
 * for screen readers, and the cards a table counts in each variant. */
import { t } from "./i18n.js";

const Cards = (() => {
  const SUITS = ["H", "D", "C", "S"];
  const SYMBOL = { H: "♥", D: "♦", C: "♣", S: "♠" };
  const BOLOGNESE = {
    ANGEL: "Ang", WORLD: "Mon", SUN: "Sol", MOON: "Lun", BEGATO: "Bég", MATTO: "★",
    MORO1: "M1", MORO2: "M2", MORO3: "M3", MORO4: "M4",
  };

  function parse(code) {
    const m = /^(10|[1-9JCQK])([HDCS])$/.exec(code);
    if (m) return { plain: true, rank: m[1], suit: m[2] };
    return { plain: false, code };
  }

  function label(code) {
    const c = parse(code);
    if (c.plain) return c.rank + SYMBOL[c.suit];
    if (code === "FOOL") return "★";
    if (BOLOGNESE[code]) return BOLOGNESE[code];
    if (/^T\d+$/.test(code)) return code;
    return code;
  }

  function isRed(code) {
    const c = parse(code);
    return c.plain && (c.suit === "H" || c.suit === "D");
  }

  function isTrump(code) {
    return !parse(code).plain;
  }

  function suitOf(code) {
    const c = parse(code);
    return c.plain ? c.suit : "T";
  }

  /** A suit's name in the family's pack: cups, coins… (Ottocento, Mitigatti) or hearts… */
  function suitName(suit, family) {
    const round = family === "ottocento" || family === "mitigatti";
    return t(`suit.${round ? "tarot" : "french"}.${suit}`);
  }

  /** The full name, e.g. "Re di cuori", "Trionfo 21 (Mondo)", for aria-labels and titles. */
  function name(code, family) {
    const c = parse(code);
    if (c.plain) {
      const suit = suitName(c.suit, family);
      // A language whose "of" elides before a vowel says so in card.plainVowel (d'épées).
      return t(/^[aeiouéèêâh]/i.test(suit) ? "card.plainVowel" : "card.plain",
               { rank: t(`rank.${c.rank}`), suit });
    }
    if (code === "FOOL" || code === "MATTO") return t(family === "mitigatti" ? "card.fuole" : "card.fool");
    if (/^MORO\d$/.test(code)) return t("card.moor", { n: code.slice(4) });
    if (BOLOGNESE[code]) return t(`card.${code.toLowerCase()}`);
    const n = Number(code.slice(1));
    // Mitigatti's own names (RULES §5.1, the seed): the Bagatte, the Papote, the Angel on top.
    const special = (family === "mitigatti"
      ? { 1: "card.bagatte", 2: "card.papote", 3: "card.papote", 4: "card.papote", 5: "card.papote", 20: "card.angel", 21: "card.t21" }
      : { 1: "card.t1", 20: "card.t20", 21: "card.t21" })[n];
    return special ? t("card.trumpNamed", { n, name: t(special) }) : t("card.trump", { n });
  }

  /** The cards a summary pile lists: the counting cards, or in Ottocento every card worth
   * more than a point or able to join a combination (all but the 6 to 10 of each suit). */
  function summaryCards(detail) {
    if (detail.family === "ottocento") {
      return detail.pack.cards.filter((code) => !/^(6|7|8|9|10)[HDCS]$/.test(code));
    }
    return detail.pack.cards.filter((code) => detail.counting[code]);
  }

  /** Points a card is worth in the variant (Ottocento: its value, counted in pairs later). */
  function value(detail, code) {
    return detail.counting[code] || (detail.family === "ottocento" ? 1 : 0);
  }

  /** Codes grouped in rows for a grid: trumps first (strongest last as in the pack), then
   * each suit from its court cards down. */
  function groups(codes) {
    const rows = [{ key: "T", codes: codes.filter((c) => isTrump(c)) }];
    for (const s of SUITS) {
      const order = ["K", "Q", "C", "J", "1", "2", "3", "4", "5", "6", "7", "8", "9", "10"];
      const row = codes.filter((c) => suitOf(c) === s)
        .sort((a, b) => order.indexOf(parse(a).rank) - order.indexOf(parse(b).rank));
      rows.push({ key: s, codes: row });
    }
    return rows.filter((r) => r.codes.length);
  }

  return { SUITS, SYMBOL, parse, label, isRed, isTrump, suitOf, name, suitName, summaryCards, value, groups };
})();

export { Cards };
