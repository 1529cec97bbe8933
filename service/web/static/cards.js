/* Cards as the page shows them: short labels for the card grids (K♥, 21, ★), and full names
 * for screen readers in the words of the variant's pack (``detail``, the variant as the
 * service describes it: its ``suit_style``, and its family's own names for some cards).
 *
 * The names' words are the cards' catalogue (service/locale/<lang>/LC_MESSAGES/cards.po),
 * sent within the page's words; the service names cards in its lines from the same entries,
 * built the same way (card_name in service/application/language.py: a test compares every
 * card of every variant in every language). */
import { t } from "./i18n.js";

const Cards = (() => {
  const SUITS = ["H", "D", "C", "S"];
  const SYMBOL = { H: "♥", D: "♦", C: "♣", S: "♠" };
  const BOLOGNESE = {
    ANGEL: "Ang", WORLD: "Mon", SUN: "Sol", MOON: "Lun", BEGATO: "Bég", MATTO: "★",
    MORO1: "M1", MORO2: "M2", MORO3: "M3", MORO4: "M4",
  };

  // The words a family has of its own for some cards (as the service's language.py says
  // them): Mitigatti's (rulebook §5.1, the seed) the Bagatte, the Papote, the Angel on top and lu
  // Fuole; the tarot's otherwise.
  const OWN_WORDS = {
    mitigatti: {
      fool: "card.fuole",
      trumps: { 1: "card.bagatte", 2: "card.papote", 3: "card.papote", 4: "card.papote", 5: "card.papote", 20: "card.angel", 21: "card.t21" },
    },
    tarot: { fool: "card.fool", trumps: { 1: "card.t1", 20: "card.t20", 21: "card.t21" } },
  };

  function parse(code) {
    const m = /^(10|[1-9JCQK])([HDCS])$/.exec(code);
    if (m) return { plain: true, rank: m[1], suit: m[2] };
    return { plain: false, code };
  }

  /** A card's face where room is short: a court card's letter in the page's language
   * beside its suit's sign (K♥, R♥ in Italian and French), a trump's letter and number (T5,
   * A5 in French), the Fool's star. */
  function label(code) {
    const c = parse(code);
    if (c.plain) return (/^[JCQK]$/.test(c.rank) ? t(`face.${c.rank}`) : c.rank) + SYMBOL[c.suit];
    if (code === "FOOL") return "★";
    if (BOLOGNESE[code]) return BOLOGNESE[code];
    if (/^T\d+$/.test(code)) return t("face.trump", { n: code.slice(1) });
    return code;
  }

  /** A court rank's letter in the page's language (R for the King in Italian). */
  function rankLabel(rank) {
    return /^[JCQK]$/.test(rank) ? t(`face.${rank}`) : rank;
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

  /** A suit's name as the variant's pack says it: cups, coins… (its ``suit_style`` round)
   * or hearts, diamonds… (french). */
  function suitName(suit, detail) {
    return t(`suit.${detail.suit_style === "round" ? "round" : "french"}.${suit}`);
  }

  /** The full name, e.g. "Re di cuori", "Trionfo 21 (Mondo)", for aria-labels and titles. */
  function name(code, detail) {
    const family = detail.family;
    const c = parse(code);
    if (c.plain) {
      const suit = suitName(c.suit, detail);
      // A language whose "of" elides before a vowel says so in card.plainVowel (d'épées).
      return t(/^[aeiouéèêâh]/i.test(suit) ? "card.plainVowel" : "card.plain",
               { rank: t(`rank.${c.rank}`), suit });
    }
    const own = OWN_WORDS[family] || OWN_WORDS.tarot;
    if (code === "FOOL" || code === "MATTO") return t(own.fool);
    if (/^MORO\d$/.test(code)) return t("card.moor", { n: code.slice(4) });
    if (BOLOGNESE[code]) return t(`card.${code.toLowerCase()}`);
    const n = Number(code.slice(1));
    const special = own.trumps[n];
    return special ? t("card.trumpNamed", { n, name: t(special) }) : t("card.trump", { n });
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

  return { SUITS, SYMBOL, parse, label, rankLabel, isRed, isTrump, suitOf, name, suitName, groups };
})();

export { Cards };
