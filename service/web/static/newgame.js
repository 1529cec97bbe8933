/* The new-game screen: the game (a family, then its table form and options), the players in
 * their seating order, the first dealer; started, it opens the share screen. A game of a club
 * (``club``, from clubseats.js's ``openClub``) seats the club's members with a tap each. */
import { clubHeaders, memberNamed, rosterButtons, seatOf } from "./clubseats.js";
import { append, banner, chipRadio, h, show } from "./dom.js";
import { chosenOptions, gameChips, openNewGame, submitNew, variantSummary } from "./gamechoice.js";
import { I18n, t } from "./i18n.js";
import { placeProblems } from "./problems.js";
import { variants } from "./state.js";

async function newGameScreen(club = null) {
  banner(null);
  const list = await variants();
  const state = { variant: "gatti-3", options: {}, names: [], dealer: 0, errors: [] };
  const root = h("section", { class: "screen" });

  function seatLabels(v) {
    // Every seat, named or not yet: an empty one is said by the form's own label.
    const names = Array.from({ length: v.players },
      (_, i) => (state.names[i] || "").trim() || t("new.player", { n: i + 1 }));
    if (v.partnership === "dummies") {
      return [...names, ...names.map((n) => t("new.dummy", { name: n }))];
    }
    return names;
  }

  function draw() {
    const active = document.activeElement && document.activeElement.id;
    const v = list.find((x) => x.id === state.variant);
    root.replaceChildren();
    append(root, [h("h1", {}, t("new.title")), club ? h("p", { class: "lead" }, t("club.gameOf", { club: club.name })) : null]);

    // 1. The game: its family, then its table form
    const pick = (id) => {
      state.variant = id;
      state.options = {};
      state.dealer = 0;
      draw();
    };
    const picker = h("div", { class: "variant-picker" }, gameChips(list, v, pick),
      variantSummary(v, state, draw, h("p", {}, I18n.variantSummary(v.id, v.summary))));
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
            updateRoster();
          },
        })));
    }
    const pairing = v.partnership === "fixed_pairs" ? h("p", { class: "hint", id: "pairing" }) : null;
    const roster = club ? h("div", {}) : null;
    root.append(h("section", { class: "step", "data-field": "players" },
      h("h2", {}, t("new.step2")),
      h("p", { class: "hint" }, t(v.partnership === "dummies" ? "new.orderDummies" : "new.order")),
      roster, players, pairing));

    function updateRoster() {
      // The club's members: a tap seats one in the next empty seat, a tap again frees it.
      if (!roster) return;
      const seats = Array.from({ length: v.players }, (_, i) => state.names[i] || "");
      const seatOfMember = (member) => seats.findIndex((n) => memberNamed(club, n)?.id === member.id);
      const empty = seats.findIndex((n) => !n.trim());
      roster.replaceChildren(rosterButtons(club, (member) => seatOfMember(member) >= 0, (member, seated) => {
        state.names[seated ? seatOfMember(member) : empty] = seated ? "" : member.name;
        draw();
      }, empty < 0));
    }
    updateRoster();

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

  /** The form's problems (``problems``: the service's answer, kept for the next draw). */
  function showErrors(problems = state.errors) {
    state.errors = problems;
    placeProblems(root, root.querySelector("#new-errors"), state.errors);
  }

  async function start() {
    const v = list.find((x) => x.id === state.variant);
    const options = chosenOptions(v, state.options);
    const body = {
      variant: v.id, players: Array.from({ length: v.players }, (_, i) => seatOf(club, state.names[i] || "")),
      first_dealer: state.dealer, options,
    };
    if (club) body.club = club.id;
    await submitNew(root, root.querySelector("#start"), "/games", body, options, openNewGame, showErrors,
      clubHeaders(club));
  }

  draw();
  show(root);
}

export { newGameScreen };
