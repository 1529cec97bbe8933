/* The hand form's sections, as it draws them: the call or the contract, the declarations (by
 * kind, or by the cards, with the service's suggestions), the piles (each side's points, or
 * its tricks and counting cards), the combinations a pile holds, the last trick, the
 * Bagatto, and the checks with the preview. Each is a function of the form (handform.js),
 * which calls them as it draws; each change goes through ``form.update``, which keeps the
 * draft and redraws. */
import { api, problemErrors } from "./api.js";
import { Cards } from "./cards.js";
import {
  cardChip, cardName, chipRadio, h, initials, num, selectOnFocus, stepper, switchButton, toast,
} from "./dom.js";
import { Explain } from "./explain.js";
import { checks, pileOf, pointsOf, pointsTotal } from "./handcount.js";
import { t } from "./i18n.js";
import { problemText } from "./problems.js";
import { seatName } from "./state.js";

function seatChips(form, group, selected, onpick, { exclude = [], labels = {} } = {}) {
  return h("div", { class: "chips seats", role: "radiogroup" },
    form.seats.filter((x) => !exclude.includes(x)).map((seat) => chipRadio(group, seat,
      labels[seat] || seatName(seat), selected === seat, () => onpick(seat))));
}

function cardChips(form, group, codes, selected, onpick) {
  return h("div", { class: "chips cards", role: "radiogroup" },
    codes.map((code) => chipRadio(group, code, Cards.label(code), selected === code, () => onpick(code), {
      title: Cards.name(code, form.V),
      class: `chip card-chip ${selected === code ? "on" : ""} ${Cards.isRed(code) ? "red" : ""}`,
    })));
}

function callSection(form) {
  const s = form.s;
  const calls = ["KH", "KD", "KC", "KS", "QH", "QD", "QC", "QS"];
  return h("section", { class: "step", "data-field": "call" },
    h("h2", {}, t("hand.call")),
    h("div", { class: "field", "data-field": "call.card" },
      h("span", { class: "label" }, t("hand.calledCard")),
      cardChips(form, "call-card", calls, s.call.card, (code) => form.update((x) => { x.call.card = code; }))),
    h("div", { class: "field", "data-field": "call.partner" },
      h("span", { class: "label" }, t("hand.partner")),
      seatChips(form, "call-partner", s.call.partner, (seat) => form.update((x) => { x.call.partner = seat; }),
        { labels: { [s.dealer]: t("hand.alone", { name: seatName(s.dealer) }) } })));
}

function contractSection(form) {
  const s = form.s;
  const c = s.contract;
  const box = h("section", { class: "step", "data-field": "contract" },
    h("h2", {}, t("hand.contract")),
    h("div", { class: "field", "data-field": "contract.type" },
      h("div", { class: "chips", role: "radiogroup", "aria-label": t("hand.contract") },
        ["call", "solo", "surrender"].map((type) => chipRadio("contract-type", type, t(`contract.${type}`),
          c.type === type, () => form.update((x) => {
            x.contract.type = type;
            x.contract.partner = null;
            x.contract.called_card = null;
            x.contract.declarer = x.dealer;
          }))))),
    h("p", { class: "hint" }, t(`contract.${c.type}Hint`)));
  if (c.type === "call") {
    box.append(h("div", { class: "field", "data-field": "contract.called_card" },
      h("span", { class: "label" }, t("hand.calledCard")),
      cardChips(form, "contract-card", ["KH", "KD", "KC", "KS", "T20"], c.called_card,
        (code) => form.update((x) => { x.contract.called_card = code; }))));
    box.append(h("div", { class: "field", "data-field": "contract.partner" },
      h("span", { class: "label" }, t("hand.partner")),
      seatChips(form, "contract-partner", c.partner, (seat) => form.update((x) => { x.contract.partner = seat; }),
        { exclude: [s.dealer] })));
  } else {
    box.append(h("div", { class: "field", "data-field": "contract.declarer" },
      h("span", { class: "label" }, t(c.type === "solo" ? "hand.soloPlayer" : "hand.declarer")),
      seatChips(form, "contract-declarer", c.declarer, (seat) => form.update((x) => { x.contract.declarer = seat; }))));
  }
  if (c.type === "solo") {
    box.append(h("div", { class: "field", "data-field": "contract.sans_prendre" },
      switchButton("sans-prendre", t("hand.sansPrendre"), c.sans_prendre,
        (on) => form.update((x) => { x.contract.sans_prendre = on; x.contract.called_card = null; }))));
    if (!c.sans_prendre) {
      const codes = form.V.pack.cards.filter((code) => code !== "FOOL");
      box.append(h("div", { class: "field", "data-field": "contract.called_card" },
        h("span", { class: "label" }, t("hand.soloCall"), c.called_card ? ` · ${Cards.label(c.called_card)}` : ""),
        suitThenCard(form, "solo-card", codes, c.called_card,
          (code) => form.update((x) => { x.contract.called_card = x.contract.called_card === code ? null : code; }))));
    }
  }
  return box;
}

// Declarations ----------------------------------------------------------------------

function meldKinds(form) {
  return form.V.melds.filter((m) => !(form.g.options.melds === "captured" && !m.captured))
    .map((m) => m.kind);
}

function declarationSection(form) {
  const s = form.s;
  const box = h("section", { class: "step", "data-field": "declarations" },
    h("h2", {}, t(`hand.declarations.${form.family}`)));
  const list = h("ul", { class: "decl-list" });
  s.declarations.forEach((d, i) => {
    list.append(h("li", { class: "decl", "data-field": `declarations[${i}]` },
      h("div", { class: "decl-main" },
        h("span", { class: "decl-seat" }, seatName(d.seat)), " ",
        h("span", { class: "decl-what" }, Explain.declaration(d)),
        d.cards ? h("span", { class: "decl-cards" }, d.cards.map((c) => cardChip(c, form.V))) : null),
      h("button", {
        type: "button", class: "icon-button", id: `decl-remove-${i}`,
        "aria-label": t("hand.removeDecl", { what: Explain.declaration(d), name: seatName(d.seat) }),
        onclick: () => form.update((x) => { x.declarations.splice(i, 1); }),
      }, "×")));
  });
  if (s.declarations.length) box.append(list);
  else box.append(h("p", { class: "muted" }, t("hand.noDecl")));
  if (!form.declOpen) {
    box.append(h("button", {
      type: "button", class: "button", id: "decl-add",
      onclick: () => {
        form.declOpen = true;
        form.decl = { seat: null, mode: "kind", kind: null, cards: [], suggestions: null };
        form.draw(false);
        document.getElementById("decl-seat-group")?.querySelector("input")?.focus();
      },
    }, t("hand.addDecl")));
  } else {
    box.append(declarationEditor(form));
  }
  return box;
}

function declarationEditor(form) {
  const d = form.decl;
  const box = h("div", { class: "card decl-editor" });
  const redraw = () => form.draw(false);
  box.append(h("div", { class: "field", id: "decl-seat-group" },
    h("span", { class: "label" }, t("hand.whoDeclares")),
    seatChips(form, "decl-seat", d.seat, (seat) => { d.seat = seat; redraw(); })));
  box.append(h("div", { class: "chips tabs", role: "radiogroup", "aria-label": t("hand.declMode") },
    chipRadio("decl-mode", "kind", t("hand.byKind"), d.mode === "kind", () => { d.mode = "kind"; redraw(); }),
    chipRadio("decl-mode", "cards", t("hand.byCards"), d.mode === "cards", () => { d.mode = "cards"; redraw(); })));
  if (d.mode === "kind") {
    // What a declaration said by its kind records; a declaration said whole is added at once.
    const said = () => {
      const out = { seat: d.seat, kind: d.kind };
      if (d.kind === "family") out.suit = d.suit;
      if (d.kind === "three_of_a_kind" || d.kind === "four_of_a_kind") out.rank = d.rank;
      if (d.kind === "frilli" || d.kind === "trumps") out.count = d.count;
      if (d.type) Object.assign(out, { type: d.type, count: d.count });
      return out;
    };
    const add = () => {
      form.declOpen = false;
      form.update((x) => { x.declarations.push(said()); });
      document.getElementById("decl-add")?.focus();
    };
    // A kind said by its type and size (Ottocento's cricche and sequences): the variant's.
    const types = (kind) => form.V.melds.find((m) => m.kind === kind)?.types;
    box.append(h("div", { class: "field" },
      h("span", { class: "label" }, t("hand.what")),
      h("div", { class: "chips", role: "radiogroup" }, meldKinds(form).map((kind) => chipRadio("decl-kind", kind,
        t(`meld.${kind}`), d.kind === kind, () => {
          d.kind = kind;
          const rule = form.V.melds.find((m) => m.kind === kind);
          d.suit = null;
          d.rank = null;
          d.type = null;
          d.count = rule.at_least || null;
          redraw();
        })))));
    if (types(d.kind)) {
      const sequence = d.kind === "sequence";
      box.append(h("div", { class: "field" }, h("span", { class: "label" }, t("hand.comboType")),
        h("div", { class: "chips", role: "radiogroup" }, types(d.kind).map((x) => chipRadio("decl-type", x.type,
          t(sequence && Cards.SUITS.includes(x.type) ? `combo.suit.${x.type}` : `combo.type.${x.type}`),
          d.type === x.type, () => { d.type = x.type; d.count = null; redraw(); })))));
      const chosen = types(d.kind).find((x) => x.type === d.type);
      if (chosen) {
        const sizes = Array.from({ length: chosen.most - chosen.least + 1 }, (_, i) => i + chosen.least);
        box.append(h("div", { class: "field" }, h("span", { class: "label" }, t("hand.comboCount")),
          h("div", { class: "chips", role: "radiogroup" }, sizes.map((n) => chipRadio("decl-size", n, String(n),
            d.count === n, () => {
              d.count = n;
              if (d.seat !== null) add();  // said whole: no more to ask
              else redraw();
            })))));
      }
    }
    if (d.kind === "family") {
      box.append(h("div", { class: "field" }, h("span", { class: "label" }, t("hand.suit")),
        h("div", { class: "chips", role: "radiogroup" }, Cards.SUITS.map((suit) => chipRadio("decl-suit", suit,
          Cards.SYMBOL[suit], d.suit === suit, () => { d.suit = suit; redraw(); },
          { class: `chip suit ${d.suit === suit ? "on" : ""} ${suit === "H" || suit === "D" ? "red" : ""}`, title: Cards.suitName(suit, form.V) })))));
    }
    if (d.kind === "three_of_a_kind" || d.kind === "four_of_a_kind") {
      box.append(h("div", { class: "field" }, h("span", { class: "label" }, t("hand.rank")),
        h("div", { class: "chips", role: "radiogroup" }, ["J", "C", "Q", "K"].map((rank) => chipRadio("decl-rank", rank,
          Cards.rankLabel(rank), d.rank === rank, () => { d.rank = rank; redraw(); }, { title: t(`rank.${rank}`) })))));
    }
    if (d.kind === "frilli" || d.kind === "trumps") {
      const rule = form.V.melds.find((m) => m.kind === d.kind);
      box.append(h("div", { class: "field" }, h("span", { class: "label", id: "decl-count-label" }, t("hand.count")),
        stepper("decl-count", d.count, rule.at_least, d.kind === "frilli" ? 40 : 21, (n) => { d.count = n; redraw(); }, t("hand.count"))));
    }
    const ready = d.seat !== null && d.kind && (d.kind !== "family" || d.suit) &&
      (!["three_of_a_kind", "four_of_a_kind"].includes(d.kind) || d.rank) &&
      (!types(d.kind) || (d.type && d.count));
    box.append(h("div", { class: "row" },
      h("button", { type: "button", class: "button", onclick: () => { form.declOpen = false; redraw(); } }, t("action.cancel")),
      h("button", {
        type: "button", class: "button primary", id: "decl-confirm", disabled: !ready, onclick: add,
      }, t("hand.addThis"))));
  } else {
    box.append(h("p", { class: "hint" }, t("hand.tapCards")));
    box.append(packGrid(form, "decl-card", form.V.pack.cards, (code) => d.cards.includes(code), (code) => {
      const i = d.cards.indexOf(code);
      if (i >= 0) d.cards.splice(i, 1);
      else d.cards.push(code);
      d.suggestions = null;
      redraw();
    }));
    box.append(h("div", { class: "row" },
      h("button", { type: "button", class: "button", onclick: () => { form.declOpen = false; redraw(); } }, t("action.cancel")),
      h("button", {
        type: "button", class: "button primary", id: "decl-suggest", disabled: d.seat === null || !d.cards.length,
        onclick: async () => {
          try {
            const { data } = await api("POST", "/melds/suggest", { body: { variant: form.g.variant, cards: d.cards } });
            d.suggestions = data;
          } catch (error) {
            d.suggestions = [];
            toast(problemText(problemErrors(error)[0]));
          }
          redraw();
          const first = document.getElementById("suggestions");
          if (first) {
            first.scrollIntoView({ block: "center" });
            first.querySelector("button")?.focus({ preventScroll: true });
          }
        },
      }, t("hand.suggest", { n: d.cards.length }))));
    if (d.suggestions) {
      const list = h("ul", { class: "suggestions", id: "suggestions" });
      if (!d.suggestions.length) list.append(h("li", { class: "muted" }, t("hand.noSuggestions")));
      d.suggestions.forEach((sug, i) => {
        list.append(h("li", {},
          h("button", {
            type: "button", class: "suggestion", id: `suggestion-${i}`,
            onclick: () => {
              form.declOpen = false;
              form.update((x) => { x.declarations.push({ seat: d.seat, ...sug.declaration }); });
              document.getElementById("decl-add")?.focus();
            },
          }, h("span", { class: "sug-label" }, Explain.suggestion(sug)),
          h("span", { class: "sug-points" }, sug.marca !== undefined ? t("marca", { n: sug.marca }) : t("points", { n: sug.points })))));
      });
      box.append(list);
    }
  }
  return box;
}

/** One card of many, in two taps: its suit (or the trumps), then the card among that
 * suit's only; the suit of the card chosen is open already. */
function suitThenCard(form, group, codes, selected, onpick) {
  form.opened = form.opened || {};
  const suits = Cards.groups(codes);
  const open = form.opened[group] ?? (selected ? Cards.suitOf(selected) : null);
  // A suit by its symbol, its name for the ear (and on a long press).
  const suitLabel = (key) => (key === "T" ? t("hand.pickTrumps") : h("span", {},
    h("span", { "aria-hidden": "true" }, Cards.SYMBOL[key]),
    h("span", { class: "visually-hidden" }, Cards.suitName(key, form.V))));
  const box = h("div", { class: "suit-then-card" },
    h("div", { class: "chips suits", role: "radiogroup", "aria-label": t("hand.pickSuit") },
      suits.map((row) => chipRadio(`${group}-suit`, row.key, suitLabel(row.key), open === row.key,
        () => form.update(() => { form.opened[group] = row.key; }), {
          class: `chip ${row.key === "H" || row.key === "D" ? "red" : ""} ${open === row.key ? "on" : ""}`,
          title: row.key === "T" ? t("hand.pickTrumps") : Cards.suitName(row.key, form.V),
        }))));
  const row = suits.find((r) => r.key === open);
  if (row) box.append(cardChips(form, group, row.codes, selected, onpick));
  else box.append(h("p", { class: "hint" }, t("hand.pickSuitFirst")));
  return box;
}

function packGrid(form, group, codes, isOn, toggle) {
  const grid = h("div", { class: "pack-grid dense" });
  for (const row of Cards.groups(codes)) {
    grid.append(h("div", { class: "grid-row" },
      h("span", { class: `row-label ${row.key === "H" || row.key === "D" ? "red" : ""}`, "aria-hidden": "true" },
        row.key === "T" ? t("face.trump", { n: "" }) : Cards.SYMBOL[row.key]),
      h("div", { class: "grid-cards" }, row.codes.map((code) => h("button", {
        type: "button", id: `${group}-${code}`, class: `gcard ${Cards.isRed(code) ? "red" : ""} ${isOn(code) ? "on" : ""}`,
        "aria-pressed": isOn(code) ? "true" : "false", "aria-label": cardName(code, form.V),
        onclick: () => toggle(code),
      }, Cards.label(code))))));
  }
  return grid;
}

// Piles -----------------------------------------------------------------------------

function pileModeSwitch(form) {
  const s = form.s;
  return h("div", { class: "chips pile-mode", role: "radiogroup", "aria-label": t("hand.pileMode") },
    ["points", "cards"].map((mode) => chipRadio("pile-mode", mode, t(`hand.mode.${mode}`), s.mode === mode,
      () => form.update((x) => { x.mode = mode; }))));
}

function pilesSection(form) {
  const s = form.s;
  const V = form.V;
  const sides = form.sides();
  if (s.mode === "points") return pointsSection(form);
  if (s.active === s.rest || !sides[s.active]) s.active = sides.find((x) => x.side !== s.rest)?.side ?? 0;
  // A card adds its value to the pile's points as it is, unless they are counted in pairs:
  // then its button says its value.
  const valued = V.deck_points_method !== "in_pairs";
  const box = h("section", { class: "step piles", "data-field": "piles" },
    h("h2", {}, t("hand.piles")), pileModeSwitch(form),
    h("p", { class: "hint" }, t(`hand.pilesHint.${form.family === "ottocento" ? "ottocento" : "gatti"}`)));
  const tabs = h("div", { class: "side-tabs", role: "tablist", "aria-label": t("hand.piles") });
  for (const { side } of sides) {
    const pile = pileOf(form, side);
    const selected = side === s.active;
    tabs.append(h("button", {
      type: "button", role: "tab", id: `side-tab-${side}`, class: `side-tab side-${side} ${selected ? "on" : ""} ${side === s.rest ? "rest" : ""}`,
      "aria-selected": selected ? "true" : "false", "data-field": `pile:${side}`,
      onclick: () => form.update((x) => {
        // The rest's tab: count that side too, as "Count this side too" does.
        if (side === x.rest) x.rest = null;
        x.active = side;
      }),
    }, h("span", { class: "side-name" }, form.sideLabel(side)),
    h("span", { class: "side-sum" }, side === s.rest ? t("hand.rest") : t("hand.tricksShort", { n: pile.tricks }),
      " · ", t("points", { n: num(pile.points) }))));
  }
  box.append(tabs);
  const activePile = pileOf(form, s.active);
  box.append(h("div", { class: "field tricks-field", "data-field": `pile:${s.active}.tricks` },
    h("span", { class: "label", id: "tricks-label" }, t("hand.tricksOf", { side: form.sideLabel(s.active) })),
    stepper("tricks", s.tricks[s.active] ?? 0, 0, V.tricks_per_hand, (n) => form.update((x) => { x.tricks[x.active] = n; }),
      t("hand.tricksOf", { side: form.sideLabel(s.active) })),
    h("p", { class: "hint" }, t("hand.tricksHint"))));
  const grid = h("div", { class: "pack-grid counting", "data-field": `pile:${s.active}.counting` });
  for (const row of Cards.groups(form.summary)) {
    grid.append(h("div", { class: "grid-row" },
      h("span", { class: `row-label ${row.key === "H" || row.key === "D" ? "red" : ""}`, "aria-hidden": "true" }, row.key === "T" ? t("face.trump", { n: "" }) : Cards.SYMBOL[row.key]),
      h("div", { class: "grid-cards" }, row.codes.map((code) => {
        const owner = s.owner[code];
        const here = owner === s.active;
        const where = owner === undefined ? s.rest : owner;
        const ownerLabel = where === null || where === undefined ? t("hand.unplaced") : form.sideLabel(where);
        return h("button", {
          type: "button", id: `card-${code}`, "data-card": code, "data-field": `pile:${s.active}.card:${code}`,
          class: `gcard ${Cards.isRed(code) ? "red" : ""} ${here ? "on" : ""} ${owner !== undefined && !here ? "elsewhere" : ""} ${owner === undefined && s.rest !== null ? "in-rest" : ""} ${where === null || where === undefined ? "unplaced" : ""}`,
          "aria-pressed": here ? "true" : "false",
          "aria-label": `${cardName(code, form.V)}${valued && V.counting[code] ? `, ${t("points", { n: V.counting[code] })}` : ""} — ${ownerLabel}`,
          title: `${Cards.name(code, form.V)} — ${ownerLabel}`,
          onclick: () => form.update((x) => {
            if (x.owner[code] === x.active) delete x.owner[code];
            else x.owner[code] = x.active;
          }),
          // The card's value and where it lies are drawn by the style sheet from these, so
          // the button's text is the card alone and its name can hold it (WCAG 2.5.3).
          "data-value": valued && V.counting[code] ? V.counting[code] : null,
          "data-owner": owner !== undefined && !here ? initials(form.sideLabel(owner)) : null,
        }, h("span", { class: "gcard-label" }, Cards.label(code)));
      }))));
  }
  box.append(grid);
  box.append(h("p", { class: "hint" }, t("hand.cardsIn", { side: form.sideLabel(s.active), n: activePile.counting.length }),
    " ", h("span", { class: "nowrap" }, activePile.counting.map((c) => cardChip(c, form.V)))));
  if (s.rest !== null) {
    const rest = pileOf(form, s.rest);
    box.append(h("div", { class: "rest-box card" },
      h("p", {}, h("strong", {}, form.sideLabel(s.rest)), " — ", t("hand.restExplained", { tricks: rest.tricks, n: rest.counting.length, points: num(rest.points) })),
      h("p", { class: "nowrap" }, rest.counting.map((c) => cardChip(c, form.V))),
      h("div", { class: "row" },
        sides.length > 1 ? h("button", {
          type: "button", class: "button small", id: "count-rest",
          onclick: () => form.update((x) => {
            const old = x.rest;
            x.rest = null;
            x.active = old;
          }),
        }, t("hand.countAll")) : null)));
  } else {
    box.append(h("div", { class: "row" }, sides.map(({ side }) => h("button", {
      type: "button", class: "button small", id: `rest-${side}`,
      onclick: () => form.update((x) => {
        x.rest = side;
        for (const code of Object.keys(x.owner)) if (x.owner[code] === side) delete x.owner[code];
        delete x.tricks[side];
      }),
    }, t("hand.makeRest", { side: form.sideLabel(side) })))));
  }
  return box;
}

// Each side's points, as the table counted them: a number field a side, the last side
// the rest of the total, and where they score the combinations each pile holds.
function pointsSection(form) {
  const s = form.s;
  const sides = form.sides();
  const total = pointsTotal(form);
  const box = h("section", { class: "step piles", "data-field": "piles" },
    h("h2", {}, t("hand.piles")), pileModeSwitch(form),
    h("p", { class: "hint" }, t(`hand.pointsHint.${form.family === "ottocento" ? "ottocento" : "deck"}`, { of: total })));
  for (const { side } of sides) {
    const label = form.sideLabel(side);
    const row = h("div", { class: `field points-field side-${side}`, "data-field": `pile:${side}.points` });
    if (side === s.rest) {
      const n = pointsOf(form, side);
      row.append(h("span", { class: "label" }, label),
        h("p", { class: "rest-points", id: `points-rest-${side}`, "aria-live": "polite" },
          h("strong", {}, num(Math.max(0, n))), " ", t("hand.restPoints")),
        sides.length > 1 ? h("button", {
          type: "button", class: "button small", id: "count-rest",
          onclick: () => form.update((x) => { x.points[side] = Math.max(0, n); x.rest = null; }),
        }, t("hand.countAll")) : null);
    } else {
      const id = `points-${side}`;
      row.append(h("label", { class: "label", for: id }, label),
        h("input", {
          id, class: "points-input", type: "text", inputmode: "numeric", pattern: "[0-9]*",
          autocomplete: "off", enterkeyhint: "next", maxlength: 3,
          value: s.points[side] === undefined ? "" : String(s.points[side]),
          "aria-describedby": "points-total",
          // The focus reaching it selects what it holds: what is typed replaces it.
          ...selectOnFocus(),
          oninput: (e) => {
            delete e.target.dataset.justFocused;  // (selectOnFocus's own oninput, replaced)
            const digits = e.target.value.replace(/\D/g, "").slice(0, 3);
            if (digits !== e.target.value) e.target.value = digits;
            form.s.points[side] = digits === "" ? undefined : Number(digits);
            form.refresh();
            // A number no further digit could fit is complete: on to the next side's. Only
            // a digit typed completes it: a deletion (or a cut) never moves the focus on.
            const typed = !e.inputType || e.inputType.startsWith("insert");
            if (typed && digits !== "" && (digits === "0" || Number(`${digits}0`) > total)) {
              const next = sides.find((x) => x.side > side && x.side !== form.s.rest);
              if (next) document.getElementById(`points-${next.side}`)?.focus();
            }
          },
        }));
    }
    if (form.combosScored) row.append(comboList(form, side));
    box.append(row);
  }
  box.append(h("p", { class: "hint", id: "points-total" }, t("hand.pointsTotal", { of: total })));
  if (s.rest === null) {
    box.append(h("div", { class: "row" }, sides.map(({ side }) => h("button", {
      type: "button", class: "button small", id: `rest-${side}`,
      onclick: () => form.update((x) => { x.rest = side; delete x.points[side]; }),
    }, t("hand.makeRestPoints", { side: form.sideLabel(side) })))));
  }
  return box;
}

/** The combinations a pile may hold: the melds the variant scores from captures. */
function comboKinds(form) {
  return form.V.melds.filter((m) => m.captured).map((m) => m.kind);
}

function comboLabel(form, c) {
  return Explain.declaration(c);
}

/** The combinations a pile holds: chips to remove, and a small picker to add one by kind. */
function comboList(form, side) {
  const s = form.s;
  const list = s.combos[side] || [];
  const box = h("div", { class: "combos", "data-field": `pile:${side}.combinations` },
    h("span", { class: "label small" }, t(form.family === "ottocento" ? "hand.combosOttocento" : "hand.combosGatti")));
  const chips = h("ul", { class: "combo-list", "aria-label": t("hand.combosOf", { side: form.sideLabel(side) }) });
  list.forEach((c, i) => chips.append(h("li", { "data-field": `pile:${side}.combinations[${i}]` },
    h("span", {}, comboLabel(form, c)),
    h("button", {
      type: "button", class: "icon-button", id: `combo-remove-${side}-${i}`,
      "aria-label": t("hand.removeCombo", { what: comboLabel(form, c) }),
      onclick: () => form.update((x) => { x.combos[side].splice(i, 1); }),
    }, "×"))));
  if (list.length) box.append(chips);
  const pick = form.comboPick && form.comboPick.side === side ? form.comboPick : null;
  if (!pick) {
    box.append(h("button", {
      type: "button", class: "button small", id: `combo-add-${side}`,
      onclick: () => { form.comboPick = { side }; form.draw(false); },
    }, t("hand.addCombo")));
    return box;
  }
  box.append(comboPicker(form, pick));
  return box;
}

function comboPicker(form, pick) {
  const redraw = () => form.draw(false);
  const add = (combo) => {
    form.comboPick = null;
    form.update((x) => { (x.combos[pick.side] = x.combos[pick.side] || []).push(combo); });
  };
  const box = h("div", { class: "card combo-picker", id: "combo-picker" });
  const chips = (group, values, label, selected, onpick, word = String) => h("div", { class: "chips", role: "radiogroup", "aria-label": label },
    values.map((v) => chipRadio(group, v, word(v), selected === v, () => onpick(v))));
  const sequence = pick.kind === "sequence";
  box.append(chips("combo-kind", comboKinds(form), t("hand.comboKind"), pick.kind, (kind) => {
    form.comboPick = { side: pick.side, kind };
    if (kind === "gatti") add({ kind });
    else redraw();
  }, (kind) => t(`meld.${kind}`)));
  // A meld said by its type and size (Ottocento's cricche and sequences): the types and the
  // sizes the variant gives each.
  const types = form.V.melds.find((m) => m.kind === pick.kind)?.types;
  if (types) {
    box.append(chips("combo-type", types.map((x) => x.type), t("hand.comboType"), pick.type, (type) => {
      form.comboPick = { ...pick, type };
      redraw();
    }, (type) => t(sequence && Cards.SUITS.includes(type) ? `combo.suit.${type}` : `combo.type.${type}`)));
    const chosen = types.find((x) => x.type === pick.type);
    if (chosen) {
      const sizes = Array.from({ length: chosen.most - chosen.least + 1 }, (_, i) => i + chosen.least);
      box.append(chips("combo-count", sizes, t("hand.comboCount"), null,
        (count) => add({ kind: pick.kind, type: pick.type, count })));
    }
  } else if (pick.kind === "family") {
    box.append(chips("combo-suit", Cards.SUITS, t("hand.comboSuit"), null, (suit) => add({ kind: "family", suit }),
      (suit) => Cards.SYMBOL[suit]));
  } else if (pick.kind === "four_of_a_kind" || pick.kind === "three_of_a_kind") {
    box.append(chips("combo-rank", ["J", "C", "Q", "K"], t("hand.comboRank"), null, (rank) => add({ kind: pick.kind, rank }),
      (rank) => t(`rank.${rank}`)));
  }
  box.append(h("button", { type: "button", class: "button small", id: "combo-cancel",
    onclick: () => { form.comboPick = null; redraw(); } }, t("action.cancel")));
  return box;
}

function lastTrickSection(form) {
  const s = form.s;
  return h("section", { class: "step", "data-field": "last_trick" },
    h("h2", {}, t("hand.lastTrick")),
    seatChips(form, "last-trick", s.last_trick, (seat) => form.update((x) => { x.last_trick = seat; })));
}

function bagattoSection(form) {
  const s = form.s;
  const b = s.bagatto;
  const box = h("section", { class: "step", "data-field": "bagatto" },
    h("h2", {}, t(`hand.bagatto.${form.family === "mitigatti" ? "mitigatti" : "gatti"}`)),
    switchButton("bagatto-on", t("hand.bagattoPlayed"), b.on, (on) => form.update((x) => { x.bagatto.on = on; })));
  if (b.on) {
    box.append(h("div", { class: "field", "data-field": "bagatto.seat" }, h("span", { class: "label" }, t("hand.bagattoWho")),
      seatChips(form, "bagatto-seat", b.seat, (seat) => form.update((x) => { x.bagatto.seat = seat; }))));
    box.append(h("div", { class: "field", "data-field": "bagatto.won" },
      h("div", { class: "chips", role: "radiogroup", "aria-label": t("hand.bagattoOutcome") },
        chipRadio("bagatto-won", "won", t("hand.bagattoWon"), b.won, () => form.update((x) => { x.bagatto.won = true; })),
        chipRadio("bagatto-won", "lost", t("hand.bagattoLost"), !b.won, () => form.update((x) => { x.bagatto.won = false; })))));
    if (form.V.bagatto_ultimo.lead_condition) {
      box.append(h("div", { class: "field", "data-field": "bagatto.valid" },
        switchButton("bagatto-valid", t("hand.bagattoValid"), b.valid, (on) => form.update((x) => { x.bagatto.valid = on; })),
        h("p", { class: "hint" }, t("hand.bagattoValidHint"))));
    }
  }
  return box;
}

function checkSection(form) {
  const box = h("section", { class: "step checks", "aria-live": "polite" }, h("h2", {}, t("hand.checks")));
  box.append(h("ul", { class: "check-list" }, checks(form).map((c) => h("li", { class: c.ok ? "ok" : "bad" },
    h("span", { class: "check-icon", "aria-hidden": "true" }, c.ok ? "✓" : "!"),
    h("span", { class: "visually-hidden" }, c.ok ? t("check.ok") : t("check.todo")), c.text))));
  box.append(h("div", { class: "preview", id: "preview" }));
  return box;
}

export {
  bagattoSection, callSection, checkSection, contractSection, declarationSection, lastTrickSection, pilesSection,
};
