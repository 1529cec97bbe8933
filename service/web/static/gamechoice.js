/* Choosing a game, as the new-game and the new-event forms both ask it: its family and table
 * form as chips, the options the variant takes, and the options sent to the service. Each form
 * passes in its own state (``variant``, ``options``) and how to redraw itself. */
import { api, problemErrors } from "./api.js";
import { CURRENCIES, chipRadio, h, money, randomKey, switchButton } from "./dom.js";
import { I18n, t } from "./i18n.js";
import { scrollToFirstProblem } from "./problems.js";
import { variantName } from "./state.js";
import { Store } from "./stores.js";

const FAMILIES = ["gatti", "gatti-classic", "ottocento", "mitigatti"];

/** The family chips, then the table-form chips where a family has more than one; ``pick``
 * takes the chosen variant's id. */
function gameChips(list, v, pick) {
  const families = FAMILIES.filter((f) => list.some((x) => x.family === f));
  const members = list.filter((x) => x.family === v.family);
  return [
    h("div", { class: "chips", role: "radiogroup", "aria-label": t("new.game"), id: "families" },
      families.map((family) => chipRadio("family", family, t(`family.${family}`), family === v.family,
        () => pick(list.find((x) => x.family === family).id)))),
    members.length > 1 ? h("div", { class: "chips forms", role: "radiogroup", "aria-label": t("new.form"), id: "forms" },
      members.map((x) => chipRadio("variant", x.id, t(`form.${x.partnership}`, { n: x.players }), x.id === v.id,
        () => pick(x.id)))) : null,
  ];
}

/** The chosen variant's name, its paragraph where given, and its options. */
function variantSummary(v, state, draw, paragraph = null) {
  return h("div", { class: "variant-summary", id: "variant-summary", "data-variant": v.id },
    h("h3", {}, variantName(v)), paragraph, optionsEditor(v, state, draw));
}

/** The language a new game's sheets print in: the phone's, where the phone speaks the
 * variant's home language (a French phone starting the game of Nice); else none, each
 * reader's own. */
function sheetLanguage(v) {
  return v.home_language === I18n.lang ? I18n.lang : null;
}

function optionsEditor(v, state, draw) {
  const box = h("div", { class: "options" });
  for (const [name, spec] of Object.entries(v.options || {})) {
    const current = name === "language" && !(name in state.options) ? sheetLanguage(v)
      : state.options[name] ?? spec.default;
    if (name === "melds") {
      box.append(h("div", { class: "field", "data-field": `options.${name}` },
        h("span", { class: "label" }, t("opt.melds")),
        h("div", { class: "chips", role: "radiogroup", "aria-label": t("opt.melds") },
          spec.choices.map((choice) => chipRadio("opt-melds", choice, t(`opt.melds.${choice}`),
            current === choice, () => { state.options.melds = choice; draw(); })))));
    } else if (name === "bagatto_ultimo") {
      box.append(h("div", { class: "field", "data-field": `options.${name}` },
        switchButton("opt-bagatto", t("opt.bagatto"), current === true, (on) => {
          state.options.bagatto_ultimo = on;
          draw();
        })));
    } else if (name === "marca_value") {
      box.append(h("div", { class: "field", "data-field": `options.${name}` },
        h("label", { for: "opt-marca" }, t("opt.marca")),
        h("input", {
          id: "opt-marca", type: "text", inputmode: "decimal", placeholder: "0.50",
          value: state.options.marca_value || "",
          oninput: (e) => { state.options.marca_value = e.target.value.trim().replace(",", "."); },
        }),
        h("p", { class: "hint" }, t("opt.marcaHint"))));
    } else if (name === "language") {
      box.append(h("div", { class: "field", "data-field": `options.${name}` },
        h("label", { for: "opt-language" }, t("opt.language")),
        h("select", {
          id: "opt-language",
          onchange: (e) => { state.options.language = e.target.value || null; },
        }, spec.choices.map((code) => h("option", { value: code || "", selected: code === current ? true : null },
          code ? t(`lang.${code}`) : t("opt.language.reader"))))));
    } else if (name === "currency") {
      box.append(h("div", { class: "field", "data-field": `options.${name}` },
        h("label", { for: "opt-currency" }, t("opt.currency")),
        h("select", {
          id: "opt-currency",
          onchange: (e) => { state.options.currency = e.target.value; },
        }, CURRENCIES.map((code) => h("option", { value: code, selected: code === current ? true : null },
          `${code} — ${money("1", code)}`)))));
    }
  }
  return box;
}

/** The options to send: those chosen (an empty money value left out), the sheets' language
 * as the form offered it, and the phone's time zone where the variant takes one (the table
 * plays where this phone is: the sheets print their times there). */
function chosenOptions(v, chosen) {
  const options = {};
  for (const [name, value] of Object.entries(chosen)) {
    if (name === "marca_value" && !value) continue;
    options[name] = value;
  }
  if (v.options && v.options.language && !("language" in chosen) && sheetLanguage(v)) {
    options.language = sheetLanguage(v);
  }
  const zone = (Intl.DateTimeFormat().resolvedOptions() || {}).timeZone;
  if (zone && v.options && v.options.time_zone) options.time_zone = zone;
  return options;
}

/** POSTs a new game or event whose ``options`` (an object inside ``body``) were chosen by
 * ``chosenOptions``, with a fresh Idempotency-Key (and any other ``headers``: a club's game
 * carries the club's token); a time zone the service's database does not know is dropped and
 * the request sent again, so the game's own default applies. */
async function createWithOptions(path, body, options, headers = {}) {
  const create = () => api("POST", path, { body, headers: { ...headers, "Idempotency-Key": randomKey() } });
  try {
    return (await create()).data;
  } catch (error) {
    if (!problemErrors(error).some((p) => p.field === "options.time_zone")) throw error;
    delete options.time_zone;
    return (await create()).data;
  }
}

/** Sends a new game or event from its form: ``button`` waits while it goes; then either
 * ``created(data)``, or ``refused(problems)`` and the first refused field brought into view. */
async function submitNew(root, button, path, body, options, created, refused, headers = {}) {
  button.disabled = true;
  try {
    created(await createWithOptions(path, body, options, headers));
  } catch (error) {
    button.disabled = false;
    refused(problemErrors(error));
    scrollToFirstProblem(root);
  }
}

/** A game this phone has just made (a new one, or the same players again): kept with its
 * tokens, then shown on its share screen, where the players take their links. */
function openNewGame(data) {
  Store.put(data.id, {
    token: data.tokens.edit, kind: "edit", tokens: data.tokens, links: data.links,
    variant: data.variant, seats: data.seats, status: data.status, hands: 0, created: data.created_at,
  });
  location.hash = `#/games/${data.id}/share`;
}

export { chosenOptions, gameChips, openNewGame, submitNew, variantSummary };
