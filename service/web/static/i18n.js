/* The page's words, in the table's language. They come from the gettext catalogues of
 * service/locale (page.po, one a language), which the service sends as a module a language
 * (words-it.js, words-en.js…, at their versions), its table the module's default export. The
 * words of the page's language are read before any module that imports this one runs (the
 * loader has fetched their file already, so from the browser's cache); another language's
 * when the player chooses it (the service worker keeps them all, so offline too).
 *
 * Every module of the page says its words with this one's ``t``. */

// The files of the languages the page speaks, at their versions, from the loader's list.
const files = (() => {
  try {
    return JSON.parse(document.getElementById("boot").textContent).words || {};
  } catch (error) {
    return {};
  }
})();
const stored = (() => {
  try {
    return localStorage.getItem("segnapunti.lang");
  } catch (error) {
    return null;
  }
})();
const phone = (navigator.language || "it").toLowerCase().slice(0, 2);
const dictionaries = {};
let lang = stored in files ? stored : phone in files ? phone : "it";

/** The words of ``value``, imported once (a module of the page's own origin). */
async function load(value) {
  if (!dictionaries[value]) dictionaries[value] = (await import(files[value])).default;
}

/** The words of ``key`` in the page's language, each ``{name}`` in them replaced by its
 * value in ``params``. An entry that depends on a count is an object of plural forms
 * ({ one, other }), chosen by the language's own rules for the count in {n} (or in
 * ``count``, where {n} is written as the language writes numbers). */
function t(key, params) {
  let text = (dictionaries[lang] || {})[key] ?? key;
  if (typeof text === "object") {
    // The count is {n}, or ``count`` where {n} is a number written for reading (1.000).
    const n = Number(params?.count ?? String(params?.n ?? "").replace("−", "-"));
    text = text[new Intl.PluralRules(lang).select(Number.isFinite(n) ? n : 0)] ?? text.other;
  }
  // French sets a narrow no-break space before : ; ! ? and inside « » (as typeset() in
  // service/locale does for the service's sentences and the sheet's).
  if (lang === "fr") text = text.replace(/ ([:;!?»])/g, "\u202f$1").replace(/« /g, "«\u202f");
  for (const [name, value] of Object.entries(params || {})) {
    text = text.split(`{${name}}`).join(String(value));
  }
  return text;
}

/** ``text`` as the page's reader reads it: a forgotten member's neutral name, which the
 * service keeps as "Player N" (N their number on the roster), in the page's language. */
function readable(text) {
  return lang === "en" || !text.includes("Player ") ? text
    : text.replace(/\bPlayer (\d+)\b/g, (_, n) => t("player.forgotten", { n }));
}

/** A colon after a label, as the page's language sets it ("Ligne 4 :", "Riga 4:"). */
function colon() {
  return lang === "fr" ? "\u202f:" : ":";
}

function has(key) {
  return key in (dictionaries[lang] || {});
}

// How each language writes numbers, money, dates and times (Intl's locale): French as in
// France (Nice), English as in Britain.
const LOCALES = { it: "it-IT", fr: "fr-FR", en: "en-GB" };

const I18n = {
  get lang() { return lang; },
  /** The locale that writes numbers, money, dates and times in the page's language. */
  get locale() { return LOCALES[lang] || lang; },
  /** The languages the page speaks. */
  get languages() { return Object.keys(files); },
  /** The page in ``value`` (its words fetched first if this phone has not read them yet);
   * a language whose words cannot be had leaves the page as it was (and rejects). */
  async setLang(value) {
    const next = value in files ? value : "it";
    await load(next);
    lang = next;
    document.documentElement.lang = lang;
    try {
      localStorage.setItem("segnapunti.lang", lang);
    } catch (error) { /* nothing to keep it in */ }
  },
  t,
  has,
  readable,
  variantName(id, fallback) { return has(`variant.${id}.name`) ? t(`variant.${id}.name`) : fallback; },
  variantSummary(id, fallback) { return has(`variant.${id}.summary`) ? t(`variant.${id}.summary`) : fallback; },
};

await load(lang);

export { I18n, colon, readable, t };
