/* The page's words, in the table's language. They come from the gettext catalogues of
 * service/locale (page.po, one a language), which the service sends as a file a language
 * (words-it.js, words-en.js…, at their versions): each hands its table to I18n.define. The
 * loader runs the file of the phone's language before the page starts; another is fetched
 * when the player chooses it (the service worker keeps them all, so offline too). */
"use strict";

const I18n = (() => {
  const dictionaries = {};
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
  let lang = stored in files ? stored : phone in files ? phone : "it";

  /** The words of ``value``, fetched and run once (a script of the page's own origin). */
  function load(value) {
    if (dictionaries[value]) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const script = document.createElement("script");
      script.src = files[value];
      script.onload = () => (dictionaries[value] ? resolve() : reject(new Error(value)));
      script.onerror = () => { script.remove(); reject(new Error(value)); };
      document.body.append(script);
    });
  }

  // An entry that depends on a count is an object of plural forms ({ one, other }), chosen by
  // the language's own rules for the count in {n}.
  function t(key, params) {
    let text = (dictionaries[lang] || {})[key] ?? key;
    if (typeof text === "object") {
      const n = Number(String(params?.n ?? "").replace("−", "-"));
      text = text[new Intl.PluralRules(lang).select(Number.isFinite(n) ? n : 0)] ?? text.other;
    }
    for (const [name, value] of Object.entries(params || {})) {
      text = text.split(`{${name}}`).join(String(value));
    }
    return text;
  }

  // How each language writes numbers, money, dates and times (Intl's locale): French as in
  // France (Nice), English as in Britain.
  const LOCALES = { it: "it-IT", fr: "fr-FR", en: "en-GB" };

  return {
    get lang() { return lang; },
    /** The locale that writes numbers, money, dates and times in the page's language. */
    get locale() { return LOCALES[lang] || lang; },
    /** The languages the page speaks. */
    get languages() { return Object.keys(files); },
    /** Called by a language's words file: its table. */
    define(value, table) { dictionaries[value] = table; },
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
    has(key) { return key in (dictionaries[lang] || {}); },
    variantName(id, fallback) { return this.has(`variant.${id}.name`) ? t(`variant.${id}.name`) : fallback; },
    variantSummary(id, fallback) { return this.has(`variant.${id}.summary`) ? t(`variant.${id}.summary`) : fallback; },
  };
})();
