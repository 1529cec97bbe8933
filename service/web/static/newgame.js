/* The new-game screen: the game (a family, then its table form and options), the players in
 * their seating order, the first dealer; started, it opens the share screen. */
import { api, problemErrors } from "./api.js";
import {
  CURRENCIES, append, banner, chipRadio, h, money, randomKey, show, switchButton,
} from "./dom.js";
import { findField, problemText } from "./problems.js";
import { variantName, variants } from "./state.js";
import { Store } from "./stores.js";

const t = (key, params) => I18n.t(key, params);

const FAMILIES = ["gatti", "gatti-classic", "ottocento", "mitigatti"];

async function newGameScreen() {
  banner(null);
  const list = await variants();
  const state = { variant: "gatti-3", options: {}, names: [], dealer: 0, errors: [] };
  const root = h("section", { class: "screen" });

  function seatLabels(v) {
    const names = state.names.slice(0, v.players).map((n, i) => n.trim() || t("new.player", { n: i + 1 }));
    if (v.partnership === "dummies") {
      return [...names, ...names.map((n) => t("new.dummy", { name: n }))];
    }
    return names;
  }

  function draw() {
    const active = document.activeElement && document.activeElement.id;
    const v = list.find((x) => x.id === state.variant);
    root.replaceChildren();
    append(root, [h("h1", {}, t("new.title"))]);

    // 1. The game: its family, then its table form
    const families = FAMILIES.filter((f) => list.some((x) => x.family === f));
    const members = list.filter((x) => x.family === v.family);
    const picker = h("div", { class: "variant-picker" },
      h("div", { class: "chips", role: "radiogroup", "aria-label": t("new.game"), id: "families" },
        families.map((family) => chipRadio("family", family, t(`family.${family}`), family === v.family, () => {
          state.variant = list.find((x) => x.family === family).id;
          state.options = {};
          state.dealer = 0;
          draw();
        }))),
      members.length > 1 ? h("div", { class: "chips forms", role: "radiogroup", "aria-label": t("new.form"), id: "forms" },
        members.map((x) => chipRadio("variant", x.id, t(`form.${x.partnership}`, { n: x.players }), x.id === v.id, () => {
          state.variant = x.id;
          state.options = {};
          state.dealer = 0;
          draw();
        }))) : null,
      h("div", { class: "variant-summary", id: "variant-summary", "data-variant": v.id },
        h("h3", {}, variantName(v)),
        h("p", {}, I18n.variantSummary(v.id, v.summary)),
        optionsEditor(v)));
    root.append(h("section", { class: "step" }, h("h2", {}, t("new.step1")), picker));

    // 2. The players
    const players = h("div", { class: "players" });
    for (let i = 0; i < v.players; i++) {
      const id = `player-${i}`;
      players.append(h("div", { class: "field", "data-field": `players[${i}]` },
        h("label", { for: id }, t("new.player", { n: i + 1 })),
        h("input", {
          id, type: "text", value: state.names[i] || "", maxlength: 60, autocomplete: "off",
          autocapitalize: "words", enterkeyhint: i + 1 < v.players ? "next" : "done",
          oninput: (e) => {
            state.names[i] = e.target.value;
            updateDealerLabels();
          },
        })));
    }
    const pairing = v.partnership === "fixed_pairs" ? h("p", { class: "hint", id: "pairing" }) : null;
    root.append(h("section", { class: "step", "data-field": "players" },
      h("h2", {}, t("new.step2")),
      h("p", { class: "hint" }, t(v.partnership === "dummies" ? "new.orderDummies" : "new.order")),
      players, pairing));

    // 3. The first dealer
    const dealers = h("div", { class: "chips", role: "radiogroup", "aria-label": t("new.step3"), id: "dealers" });
    root.append(h("section", { class: "step", "data-field": "first_dealer" },
      h("h2", {}, t("new.step3")), dealers));
    root.append(h("div", { class: "errors", id: "new-errors", role: "alert" }));
    root.append(h("div", { class: "actions sticky" },
      h("button", { type: "button", class: "button primary big", id: "start", onclick: start }, t("new.start"))));

    function updateDealerLabels() {
      const labels = seatLabels(v);
      dealers.replaceChildren(...labels.map((label, seat) => chipRadio("dealer", seat, label,
        state.dealer === seat, () => { state.dealer = seat; updateDealerLabels(); })));
      if (pairing) {
        pairing.textContent = t("new.pairs", {
          a: `${labels[0]} & ${labels[2]}`, b: `${labels[1]} & ${labels[3]}`,
        });
      }
    }
    updateDealerLabels();
    showErrors();
    if (active && document.getElementById(active)) document.getElementById(active).focus({ preventScroll: true });
  }

  function optionsEditor(v) {
    const box = h("div", { class: "options" });
    for (const [name, spec] of Object.entries(v.options || {})) {
      const current = state.options[name] ?? spec.default;
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

  function showErrors() {
    const box = root.querySelector("#new-errors");
    root.querySelectorAll(".field-error").forEach((el) => el.remove());
    root.querySelectorAll("[aria-invalid]").forEach((el) => el.removeAttribute("aria-invalid"));
    box.replaceChildren();
    for (const error of state.errors) {
      const target = findField(root, error.field || "");
      const message = problemText(error);
      if (target) {
        target.append(h("p", { class: "field-error" }, message));
        const input = target.querySelector("input");
        if (input) input.setAttribute("aria-invalid", "true");
      } else {
        box.append(h("p", { class: "field-error" }, message));
      }
    }
  }

  async function start() {
    const v = list.find((x) => x.id === state.variant);
    const options = {};
    for (const [name, value] of Object.entries(state.options)) {
      if (name === "marca_value" && !value) continue;
      options[name] = value;
    }
    // The table plays where this phone is: the sheet prints its times in the phone's zone.
    const zone = (Intl.DateTimeFormat().resolvedOptions() || {}).timeZone;
    if (zone && v.options && v.options.time_zone) options.time_zone = zone;
    const body = {
      variant: v.id, players: Array.from({ length: v.players }, (_, i) => (state.names[i] || "").trim()),
      first_dealer: state.dealer, options,
    };
    const button = root.querySelector("#start");
    button.disabled = true;
    const create = () => api("POST", "/games", { body, headers: { "Idempotency-Key": randomKey() } });
    try {
      let data;
      try {
        ({ data } = await create());
      } catch (error) {
        // A zone the service's database does not know: the game's own default instead.
        if (!problemErrors(error).some((p) => p.field === "options.time_zone")) throw error;
        delete options.time_zone;
        ({ data } = await create());
      }
      Store.put(data.id, {
        token: data.tokens.edit, kind: "edit", tokens: data.tokens, links: data.links,
        variant: data.variant, seats: data.seats, status: data.status, hands: 0,
      });
      location.hash = `#/games/${data.id}/share`;
    } catch (error) {
      button.disabled = false;
      state.errors = problemErrors(error);
      showErrors();
      const first = root.querySelector(".field-error");
      if (first) first.scrollIntoView({ block: "center" });
    }
  }

  draw();
  show(root);
}

export { newGameScreen };
