/* Club nights and tournaments (issue 16): the new-event form (name, game, format, pairing,
 * rounds, roster) and the organiser's view (the roster, starting and closing rounds, each
 * table with who sits where, its live totals and its links as QR codes, swaps before a
 * round's first hand, the free format's seating, the links to the board and the printable
 * standings, the standings in short). It refreshes by itself; the board is in board.js. */
import { API, ApiError, api, problemErrors } from "./api.js";
import { append, banner, h, randomKey, redraw, saveFile, show, stepper, toast } from "./dom.js";
import {
  boardScreen, eventLine, liveLine, shownRound, standingsNote, standingsTable, statusBadge,
  tableSides, tableState,
} from "./board.js";
import { clubHeaders, onRoster, rosterButtons, rosterText, seatOf, tapEntrant } from "./clubseats.js";
import { EV, eventChanged, openEvent, roundLinks, showLive, stopEventPolling, watchEvent } from "./eventstate.js";
import { chosenOptions, gameChips, submitNew, variantSummary } from "./gamechoice.js";
import { placeProblems, problemText } from "./problems.js";
import { copy } from "./share.js";
import { variants } from "./state.js";
import { Events } from "./stores.js";

const t = (key, params) => I18n.t(key, params);

const FORMATS = ["individual", "pairs", "free"];

/** A radio button drawn as a wide choice: its name, and a line that says what it means. */
function choice(group, value, label, hint, checked, onchange) {
  return h("label", { class: `choice ${checked ? "on" : ""}` },
    h("input", { type: "radio", name: group, value, id: `${group}-${value}`, checked, onchange }),
    h("span", { class: "choice-text" }, h("strong", {}, label), h("span", { class: "choice-hint" }, hint)));
}

// -- the new-event form ------------------------------------------------------------------------

/** The roster's lines as entrants: "Name", or in the pairs format "Pair: Player A, Player B";
 * with the line each came from, to say where a refusal points. */
function parseRoster(text, pairs) {
  const entrants = [];
  const lines = [];
  text.split("\n").forEach((raw, i) => {
    const line = raw.trim();
    if (!line) return;
    if (pairs) {
      const colon = line.indexOf(":");
      const name = (colon >= 0 ? line.slice(0, colon) : line).trim();
      const players = colon >= 0 ? line.slice(colon + 1).split(",").map((p) => p.trim()).filter(Boolean) : [];
      entrants.push({ name, players });
    } else {
      entrants.push({ name: line });
    }
    lines.push(i + 1);
  });
  return { entrants, lines };
}

/** The new-event form; an event of a club (``club``, from clubseats.js's ``openClub``) adds
 * its members to the roster with a tap each. */
async function newEventScreen(club = null) {
  banner(null);
  const list = await variants();
  const state = {
    name: "", variant: "gatti-4", options: {}, format: "individual", pairing: "danish",
    scoring: "match_points", rounds: 3, roster: "", errors: [], lines: [],
  };
  const root = h("section", { class: "screen new-event" });

  function draw() {
    const active = document.activeElement && document.activeElement.id;
    const v = list.find((x) => x.id === state.variant);
    if (state.format === "pairs" && v.partnership !== "fixed_pairs") state.format = "individual";
    root.replaceChildren();
    root.append(h("h1", {}, t("ev.new.title")),
      h("p", { class: "lead" }, club ? t("club.eventOf", { club: club.name }) : t("ev.new.lead")));

    // 1. Name
    root.append(h("section", { class: "step" },
      h("div", { class: "field", "data-field": "name" },
        h("label", { for: "event-name" }, t("ev.new.name")),
        h("input", {
          id: "event-name", type: "text", value: state.name, maxlength: 80, autocomplete: "off",
          placeholder: t("ev.new.namePlaceholder"), oninput: (e) => { state.name = e.target.value; },
        }))));

    // 2. The game
    const pick = (id) => {
      state.variant = id;
      state.options = {};
      draw();
    };
    root.append(h("section", { class: "step variant-picker", "data-field": "variant" },
      h("h2", {}, t("ev.new.step.game")),
      gameChips(list, v, pick),
      variantSummary(v, state, draw)));

    // 3. The format, and how pairs meet
    const formats = FORMATS.filter((f) => f !== "pairs" || v.partnership === "fixed_pairs");
    const formatStep = h("section", { class: "step" },
      h("h2", { id: "format-title" }, t("ev.new.step.format")),
      h("div", { class: "choices", role: "radiogroup", "aria-labelledby": "format-title", "data-field": "format" },
        formats.map((f) => choice("format", f, t(`ev.format.${f}`), t(`ev.formatHint.${f}`), state.format === f,
          () => { state.format = f; draw(); }))),
      v.partnership !== "fixed_pairs" ? h("p", { class: "hint" }, t("ev.new.noPairs")) : null);
    if (state.format === "pairs") {
      formatStep.append(h("h3", { id: "pairing-title" }, t("ev.new.pairing")),
        h("div", { class: "choices", role: "radiogroup", "aria-labelledby": "pairing-title", "data-field": "pairing" },
          ["danish", "swiss"].map((p) => choice("pairing", p, t(`ev.pairing.${p}`), t(`ev.pairingHint.${p}`),
            state.pairing === p, () => { state.pairing = p; draw(); }))));
    }
    formatStep.append(h("h3", { id: "scoring-title" }, t("ev.new.scoring")),
      h("div", { class: "choices", role: "radiogroup", "aria-labelledby": "scoring-title", "data-field": "scoring" },
        ["match_points", "difference"].map((s) => choice("scoring", s, t(`ev.scoring.${s}`), t(`ev.scoringHint.${s}`),
          state.scoring === s, () => { state.scoring = s; draw(); }))));
    formatStep.append(h("div", { class: "field", "data-field": "rounds" },
      h("span", { class: "label", id: "rounds-label" }, t("ev.new.rounds")),
      stepper("event-rounds", state.rounds, 1, 30, (n) => { state.rounds = n; draw(); }, t("ev.new.rounds"))));
    root.append(formatStep);

    // 4. The roster
    const pairs = state.format === "pairs";
    const count = h("p", { class: "hint", id: "roster-count", "aria-live": "polite" });
    const updateCount = () => {
      const n = parseRoster(state.roster, pairs).entrants.length;
      count.textContent = t(pairs ? "ev.new.countPairs" : "ev.new.countPlayers", { n });
    };
    // A club's members: a tap adds one to the roster, a tap again takes them off.
    const members = club ? h("div", {}) : null;
    const updateMembers = () => members?.replaceChildren(rosterButtons(club,
      (member) => onRoster(parseRoster(state.roster, pairs).entrants, member, pairs),
      (member, seated) => {
        state.roster = rosterText(tapEntrant(parseRoster(state.roster, pairs).entrants, member, seated, pairs), pairs);
        draw();
      }));
    root.append(h("section", { class: "step" },
      h("h2", {}, t("ev.new.step.roster")), members,
      h("div", { class: "field", "data-field": "entrants" },
        h("label", { for: "event-roster" }, t(pairs ? "ev.new.rosterPairs" : "ev.new.rosterPlayers")),
        h("p", { class: "hint", id: "roster-hint" }, t(pairs ? "ev.new.rosterPairsHint" : "ev.new.rosterHint", { n: v.players })),
        h("textarea", {
          id: "event-roster", rows: 8, autocomplete: "off", autocapitalize: "words", spellcheck: "false",
          "aria-describedby": "roster-hint roster-count",
          placeholder: pairs ? t("ev.new.rosterPairsPlaceholder") : t("ev.new.rosterPlaceholder"),
          oninput: (e) => { state.roster = e.target.value; updateCount(); updateMembers(); },
        }, state.roster),
        count)));
    updateCount();
    updateMembers();

    root.append(h("div", { class: "errors", id: "new-errors", role: "alert" }));
    root.append(h("div", { class: "actions sticky" },
      h("button", { type: "button", class: "button primary big", id: "start-event", onclick: start }, t("ev.new.start"))));
    showErrors();
    if (active && document.getElementById(active)) document.getElementById(active).focus({ preventScroll: true });
  }

  function showErrors() {
    // A refused entrant is named by the roster's line it came from.
    placeProblems(root, root.querySelector("#new-errors"), state.errors, (error) => {
      const entrant = /^entrants\[(\d+)\]/.exec(error.field || "");
      const line = entrant && state.lines[Number(entrant[1])];
      return line ? `${t("ev.new.line", { n: line })}: ${problemText(error)}` : problemText(error);
    });
  }

  async function start() {
    const v = list.find((x) => x.id === state.variant);
    const options = chosenOptions(v, state.options);
    const { entrants, lines } = parseRoster(state.roster, state.format === "pairs");
    state.lines = lines;
    const body = {
      name: state.name.trim(), variant: v.id, options, format: state.format, scoring: state.scoring,
      rounds: state.rounds, entrants,
    };
    if (state.format === "pairs") body.pairing = state.pairing;
    if (club) {
      // Each member by id; a name the roster does not have becomes a new member.
      body.club = club.id;
      body.entrants = entrants.map((e) => (e.players
        ? { name: e.name, players: e.players.map((p) => seatOf(club, p)) } : { name: seatOf(club, e.name) }));
    }
    await submitNew(root, root.querySelector("#start-event"), "/events", body, options, (data) => {
      Events.put(data.id, {
        tokens: data.tokens, links: data.links, name: data.name, variant: data.variant,
        format: data.format, status: data.status,
      });
      location.hash = `#/events/${data.id}`;
    }, (problems) => {
      state.errors = problems;
      showErrors();
    }, clubHeaders(club));
  }

  draw();
  show(root);
}

// -- the organiser's view ----------------------------------------------------------------------

// What the organiser is doing on this screen: kept across the redraws the poll brings.
const O = {
  // disputes: the disputed hands the service listed when the round was closed (issue 25).
  id: null, selected: null, confirmClose: false, disputes: null, seating: null, errors: [], seatingErrors: [],
  roundErrors: [], busy: false, open: new Set(), players: 4,
};

async function organiserScreen(id) {
  const saved = Events.get(id) || {};
  if (!saved.tokens?.edit) {
    if (saved.tokens?.read) {  // the room's link only: the board is what it opens
      history.replaceState(null, "", `#/events/${id}/board`);
      return boardScreen(id);
    }
    throw new ApiError(401, { detail: t("ev.notOpened") });
  }
  await openEvent(id, saved.tokens.edit);
  if (!saved.links?.read) {
    // Another phone of the organiser's: the room's link is worked out from the edit token.
    try {
      const { data } = await api("GET", `/events/${id}/links`, { token: saved.tokens.edit });
      Events.put(id, { links: data.links, tokens: { ...saved.tokens, read: data.tokens.read } });
    } catch (error) {
      if (error.status === 403) return readOnly();
    }
  }
  if (O.id !== id) Object.assign(O, { id, selected: null, confirmClose: false, seating: null, open: new Set() });
  Object.assign(O, { errors: [], seatingErrors: [], roundErrors: [], busy: false });
  const v = (await variants()).find((x) => x.id === EV.event.variant);
  O.players = v ? v.players : 4;
  remember();
  await loadLinks();
  drawOrganiser(true);
  watchEvent(async () => {
    await loadLinks();
    remember();
    // The free format's seating being written is not swept away by a poll.
    if (O.seating === null) drawOrganiser(false);
  });
}

function remember() {
  const ev = EV.event;
  Events.put(ev.id, { name: ev.name, variant: ev.variant, format: ev.format, status: ev.status });
}

/** The shown round's table links (their tokens), read once per round. */
async function loadLinks() {
  const round = shownRound(EV.event);
  if (!round) return;
  try {
    await roundLinks(round.round);
  } catch (error) {
    if (error.status === 403) readOnly();
  }
}

/** The token this phone keeps as the organiser's is the room's: the board is what it opens. */
function readOnly() {
  Events.put(EV.id, { tokens: { read: EV.token, edit: null } });
  stopEventPolling();
  toast(t("ev.readOnlyToken"));
  location.hash = `#/events/${EV.id}/board`;
}

function swappable(ev, round) {
  return Boolean(round) && round.state === "open" && round.round === ev.current_round &&
    round.tables.every((table) => table.hands_played === 0);
}

function drawOrganiser(first) {
  const ev = EV.event;
  const st = EV.standings;
  const round = shownRound(ev);
  const saved = Events.get(ev.id) || {};
  const root = h("section", { class: "screen organiser", "data-status": ev.status },
    h("div", { class: "sheet-head" },
      h("h1", {}, ev.name),
      h("p", { class: "event-line" }, eventLine(ev)),
      h("p", { class: "badges" }, statusBadge(ev), liveLine())));

  root.append(rosterFold(ev));
  root.append(actions(ev, round));
  if (O.seating !== null) root.append(seatingEditor(ev));
  if (round) root.append(roundCard(ev, round));
  root.append(linksCard(ev, saved));
  root.append(h("section", { class: "card standings-short", id: "standings-short", "aria-labelledby": "short-title" },
    h("h2", { id: "short-title" }, t("ev.standings"), " ", standingsNote(st, ev)),
    st.rows.length ? standingsTable(st, ev, { limit: 5, idPrefix: "top" }) : h("p", { class: "muted" }, t("ev.noStandings")),
    st.rows.length > 5 ? h("p", { class: "hint" }, t("ev.moreOnBoard", { n: st.rows.length - 5 })) : null));
  root.append(h("div", { class: "row tools" }, h("a", { class: "button", href: "#/" }, t("action.home"))));

  redraw(root, first);
  showLive();
}

function rosterFold(ev) {
  const pairs = ev.format === "pairs";
  return fold("roster", "card roster",
    t(pairs ? "ev.rosterPairs" : "ev.rosterPlayers", { n: ev.entrants.length }),
    () => h("ol", { class: "roster-list" }, ev.entrants.map((e) => h("li", {},
      h("strong", {}, e.name), e.players ? h("span", { class: "muted" }, ` — ${e.players.join(" & ")}`) : null))));
}

/** A fold (``details``) whose content is made when it first opens, and that stays open
 * through the redraws. */
function fold(id, cls, summary, content) {
  const box = h("details", { class: cls, id, open: O.open.has(id) },
    h("summary", {}, summary));
  const fill = () => {
    if (box.dataset.filled) return;
    box.dataset.filled = "1";
    append(box, [content()]);
  };
  if (O.open.has(id)) fill();
  box.addEventListener("toggle", () => {
    if (box.open) {
      O.open.add(id);
      fill();
    } else {
      O.open.delete(id);
    }
  });
  return box;
}

// -- starting and closing rounds -----------------------------------------------------------

function actions(ev, round) {
  const box = h("section", { class: "round-actions", id: "round-actions" });
  const next = ev.rounds.length + 1;
  if (ev.status !== "playing") {  // the round ended meanwhile
    O.confirmClose = false;
    O.disputes = null;
  }
  if (ev.status === "playing") {
    if (O.disputes) {
      // Players dispute hands of the round: the service said which; ask again before closing.
      box.append(h("div", { class: "card warn confirm-close", id: "close-disputes", role: "group", "aria-labelledby": "disputes-text" },
        h("p", { id: "disputes-text" }, t("ev.disputesOpen", { n: O.disputes.length, round: round.round })),
        h("ul", { class: "disputes" }, O.disputes.map((item) => h("li", { class: "dispute" }, problemText(item)))),
        h("p", { class: "hint" }, t("ev.disputesLater")),
        h("div", { class: "row" },
          h("button", { type: "button", class: "button danger", id: "close-anyway", disabled: O.busy,
            onclick: () => closeRound(round.round, true) }, t("ev.closeAnyway", { n: round.round })),
          h("button", { type: "button", class: "button", id: "close-no",
            onclick: () => { O.disputes = null; drawOrganiser(false); document.getElementById("close-round")?.focus(); } },
          t("action.cancel")))));
    } else if (O.confirmClose) {
      box.append(h("div", { class: "card warn confirm-close", role: "group", "aria-labelledby": "close-text" },
        h("p", { class: "confirm-text", id: "close-text" }, t("ev.closeConfirm", { n: round.round })),
        h("div", { class: "row" },
          h("button", { type: "button", class: "button danger", id: "close-yes", disabled: O.busy,
            onclick: () => closeRound(round.round) }, t("ev.closeYes", { n: round.round })),
          h("button", { type: "button", class: "button", id: "close-no",
            onclick: () => { O.confirmClose = false; drawOrganiser(false); document.getElementById("close-round")?.focus(); } },
          t("action.cancel")))));
    } else {
      const playing = round.tables.filter((table) => table.status === "playing").length;
      box.append(h("button", {
        type: "button", class: "button big danger", id: "close-round",
        onclick: () => {
          O.confirmClose = true;
          drawOrganiser(false);
          document.getElementById("close-yes")?.focus();
        },
      }, t("ev.close", { n: round.round })),
      h("p", { class: "hint" }, t("ev.closeHint", { n: playing })));
    }
  } else if (ev.status === "over") {
    box.append(h("p", { class: "card over", id: "event-over" }, t("ev.over", { n: ev.rounds.length })));
  } else if (O.seating === null) {
    box.append(h("button", {
      type: "button", class: "button primary big", id: "start-round", disabled: O.busy,
      onclick: () => (ev.format === "free" ? openSeating(ev) : startRound(null)),
    }, t(ev.format === "free" ? "ev.seatRound" : "ev.startRound", { n: next })));
    if (ev.rounds_planned) box.append(h("p", { class: "hint" }, t("ev.roundOf", { n: next, of: ev.rounds_planned })));
  }
  box.append(errorBox("event-errors", O.errors));
  return box;
}

function errorBox(id, errors) {
  return h("div", { class: "errors", id, role: "alert" },
    errors.map((error) => h("p", { class: "field-error" }, problemText(error))));
}

async function startRound(tables) {
  const ev = EV.event;
  O.busy = true;
  O.errors = [];
  O.seatingErrors = [];
  drawOrganiser(false);
  try {
    const { data } = await api("POST", `/events/${ev.id}/rounds`, {
      body: tables ? { tables } : {}, token: EV.token, headers: { "Idempotency-Key": randomKey() },
    });
    EV.links[data.round] = data;
    O.seating = null;
    O.selected = null;
    await eventChanged(null);
    toast(t("ev.started", { n: data.round }));
  } catch (error) {
    if (error.status === 403) return readOnly();
    if (tables) O.seatingErrors = problemErrors(error);
    else O.errors = problemErrors(error);
    await eventChanged(null);
  } finally {
    O.busy = false;
  }
  remember();
  drawOrganiser(false);
  const focus = document.querySelector(O.seatingErrors.length ? "#seating-errors .field-error"
    : O.errors.length ? "#event-errors .field-error" : "#round-title");
  if (focus) {
    focus.setAttribute("tabindex", "-1");
    focus.focus();
  }
}

async function closeRound(number, despiteDisputes = false) {
  const ev = EV.event;
  O.busy = true;
  O.errors = [];
  O.disputes = null;
  try {
    const { data } = await api("POST", `/events/${ev.id}/rounds/${number}/close`, {
      token: EV.token, ...(despiteDisputes ? { body: { despite_disputes: true } } : {}),
    });
    await eventChanged(data);
    toast(t("ev.closed", { n: number }));
  } catch (error) {
    if (error.status === 403) return readOnly();
    if (error.status === 409 && error.problem?.code === "open_disputes") O.disputes = problemErrors(error);
    else O.errors = problemErrors(error);
    await eventChanged(null);
  } finally {
    O.busy = false;
    O.confirmClose = false;
  }
  remember();
  drawOrganiser(false);
  document.getElementById(O.disputes ? "close-anyway" : O.errors.length ? "close-round" : "start-round")?.focus();
}

// -- the free format: the organiser seats each table -----------------------------------------

function openSeating(ev) {
  const names = ev.entrants.map((e) => e.name);
  const lines = [];
  for (let i = 0; i + O.players <= names.length; i += O.players) lines.push(names.slice(i, i + O.players).join(", "));
  O.seating = lines.join("\n");
  O.seatingErrors = [];
  drawOrganiser(false);
  document.getElementById("seating")?.focus();
}

// A name as the service compares it (name_key): NFKC, nothing invisible, spaces made one,
// lower case; so the hint of who is left knows "Ａnna" and "An\u200bna" are Anna.
const INVISIBLE = /[\p{Cf}\u034F\u115F\u1160\u17B4\u17B5\u180B-\u180F\u2800\u3164\uFE00-\uFE0F\uFFA0\u{E0100}-\u{E01EF}]/gu;
function nameKey(name) {
  return name.normalize("NFKC").replace(INVISIBLE, "").split(/\s+/).filter(Boolean).join(" ")
    .toLowerCase().normalize("NFKC");
}

function parseSeating(text) {
  return text.split("\n").map((line) => line.split(",").map((n) => n.trim()).filter(Boolean))
    .filter((names) => names.length);
}

function seatingEditor(ev) {
  const next = ev.rounds.length + 1;
  const out = h("p", { class: "hint", id: "seating-out", "aria-live": "polite" });
  const update = () => {
    const seated = new Set(parseSeating(O.seating).flat().map(nameKey));
    const left = ev.entrants.map((e) => e.name).filter((n) => !seated.has(nameKey(n)));
    out.textContent = left.length ? t("ev.seatingOut", { names: left.join(", ") }) : t("ev.seatingAll");
  };
  const box = h("section", { class: "card seating", id: "seating-editor", "aria-labelledby": "seating-title" },
    h("h2", { id: "seating-title" }, t("ev.seatingTitle", { n: next })),
    h("label", { for: "seating", class: "label" }, t("ev.seatingLabel")),
    h("p", { class: "hint", id: "seating-hint" }, t("ev.seatingHint", { n: O.players })),
    h("textarea", {
      id: "seating", rows: Math.max(4, Math.ceil(ev.entrants.length / O.players) + 1), spellcheck: "false",
      autocomplete: "off", "aria-describedby": "seating-hint seating-out",
      oninput: (e) => { O.seating = e.target.value; update(); },
    }, O.seating),
    out,
    errorBox("seating-errors", O.seatingErrors),
    h("div", { class: "row" },
      h("button", { type: "button", class: "button primary", id: "seating-start", disabled: O.busy,
        onclick: () => startRound(parseSeating(O.seating)) }, t("ev.startRound", { n: next })),
      h("button", { type: "button", class: "button", id: "seating-cancel",
        onclick: () => { O.seating = null; O.seatingErrors = []; drawOrganiser(false); } }, t("action.cancel"))));
  update();
  return box;
}

// -- the round's tables, and swaps -----------------------------------------------------------

function roundCard(ev, round) {
  const canSwap = swappable(ev, round);
  if (!canSwap) O.selected = null;
  const links = EV.links[round.round];
  const unitKey = (table, position) => `${table}:${position}`;
  const unitButton = (table) => (name, position) => {
    if (!canSwap) return h("span", { class: "unit" }, name);
    const key = unitKey(table, position);
    return h("button", {
      type: "button", class: "unit-button", "data-unit": key, id: `unit-${key.replace(":", "-")}`,
      "aria-pressed": O.selected && O.selected.key === key ? "true" : "false",
      onclick: () => tapUnit({ key, table, position, name }),
    }, name);
  };
  const box = h("section", { class: "card round-card", id: "round", "data-round": round.round, "aria-labelledby": "round-title" },
    h("h2", { id: "round-title" }, t("ev.round", { n: round.round }), " ",
      h("span", { class: `badge round-state ${round.state}` }, t(`ev.roundState.${round.state}`))));
  if (canSwap) {
    box.append(h("p", { class: "hint", id: "swap-hint" }, t("ev.swapHint")));
    box.append(h("p", { class: "swap-status", id: "swap-status", "aria-live": "polite" },
      O.selected ? t("ev.swapChosen", { name: O.selected.name }) : ""));
  }
  box.append(errorBox("round-errors", O.roundErrors));
  const tables = h("div", { class: "tables" });
  round.tables.forEach((table, i) => {
    const link = links && links.tables.find((x) => x.table === table.table);
    tables.append(h("article", { class: "table-card", id: `table-${table.table}`, "data-table": table.table, "data-game": table.game },
      h("div", { class: "table-head" },
        h("h3", {}, t("ev.table", { n: table.table })),
        tableState(table),
        h("span", { class: "hands-played" }, t("ev.hands", { n: table.hands_played }))),
      tableSides(table, ev.format, unitButton(i)),
      link ? tableLinks(table, link) : null,
      link ? h("a", {
        class: "button open-table", id: `open-table-${table.table}`,
        href: `#/games/${link.game}?token=${encodeURIComponent(link.tokens.edit)}`,
      }, t("ev.openTable", { n: table.table })) : null));
  });
  box.append(tables);
  if (round.byes.length) {
    box.append(h("p", { class: "byes", id: "byes" }, h("span", {}, t("ev.byesLabel")), " ",
      round.byes.map((name, i) => unitButton("bye")(name, i))));
  }
  return box;
}

function tableLinks(table, link) {
  return fold(`links-${table.table}`, "table-links", t("ev.tableLinks"), () => h("div", { class: "link-blocks" },
    ["edit", "read"].map((kind) => {
      const inputId = `link-${table.table}-${kind}`;
      return h("div", { class: `link-block ${kind}` },
        h("h4", {}, t(`ev.link.${kind}`)),
        h("div", { class: "qr-box" }, QR.svg(link.links[kind], t(`ev.qr.${kind}`, { n: table.table }))),
        h("label", { for: inputId, class: "visually-hidden" }, t(`ev.link.${kind}`)),
        h("input", { id: inputId, class: "link", type: "text", readonly: true, value: link.links[kind], onfocus: (e) => e.target.select() }),
        h("button", { type: "button", class: "button small", onclick: () => copy(link.links[kind], inputId) }, t("share.copy")));
    })));
}

function tapUnit(unit) {
  const round = shownRound(EV.event);
  O.roundErrors = [];
  if (!O.selected) {
    O.selected = unit;
  } else if (O.selected.key === unit.key) {
    O.selected = null;
  } else if (O.selected.table === "bye" && unit.table === "bye") {
    O.selected = unit;  // two who sit out: nothing to exchange
  } else {
    const first = O.selected;
    O.selected = null;
    return swap(round, first, unit);
  }
  drawOrganiser(false);
  document.getElementById(`unit-${unit.key.replace(":", "-")}`)?.focus({ preventScroll: true });
}

async function swap(round, a, b) {
  const tables = round.tables.map((table) => [...table.entrants]);
  const byes = [...round.byes];
  const get = (u) => (u.table === "bye" ? byes[u.position] : tables[u.table][u.position]);
  const set = (u, value) => {
    if (u.table === "bye") byes[u.position] = value;
    else tables[u.table][u.position] = value;
  };
  const first = get(a);
  set(a, get(b));
  set(b, first);
  try {
    const { data } = await api("PUT", `/events/${EV.id}/rounds/${round.round}`, {
      body: { tables }, token: EV.token,
    });
    await eventChanged(data);
    toast(t("ev.swapped", { a: a.name, b: b.name }));
  } catch (error) {
    if (error.status === 403) return readOnly();
    O.roundErrors = problemErrors(error);
    await eventChanged(null);
  }
  drawOrganiser(false);
  const focus = document.querySelector("#round-errors .field-error");
  if (focus) {
    focus.setAttribute("tabindex", "-1");
    focus.focus();
  }
}

// -- the board, the printable standings ------------------------------------------------------

function linksCard(ev, saved) {
  const read = saved.links?.read || (saved.tokens?.read
    ? `${location.origin}/#/events/${ev.id}/board?token=${saved.tokens.read}` : null);
  return h("section", { class: "card event-links", "aria-labelledby": "links-title" },
    h("h2", { id: "links-title" }, t("ev.linksTitle")),
    h("div", { class: "row" },
      h("a", { class: "button", href: `#/events/${ev.id}/board`, id: "to-board" }, t("ev.toBoard")),
      h("button", { type: "button", class: "button", id: "standings-pdf", onclick: () => downloadPdf(ev) }, t("ev.pdf"))),
    read ? fold("board-link", "board-link", t("ev.boardLink"), () => h("div", { class: "link-block" },
      h("p", { class: "hint" }, t("ev.boardLinkHint")),
      h("div", { class: "qr-box" }, QR.svg(read, t("ev.qr.board"))),
      h("label", { for: "link-board", class: "visually-hidden" }, t("ev.boardLink")),
      h("input", { id: "link-board", class: "link", type: "text", readonly: true, value: read, onfocus: (e) => e.target.select() }),
      h("button", { type: "button", class: "button small", onclick: () => copy(read, "link-board") }, t("share.copy"))))
      : h("p", { class: "hint" }, t("ev.boardLinkElsewhere")));
}

async function downloadPdf(ev) {
  try {
    const response = await fetch(`${API}/events/${ev.id}/standings.pdf?lang=${I18n.lang}`, {
      headers: { Authorization: `Bearer ${EV.token}`, "Accept-Language": I18n.lang },
    });
    if (!response.ok) {
      toast(t("ev.pdfFailed", { status: response.status }));
      return;
    }
    saveFile(await response.blob(), `segnapunti-standings-${ev.id}.pdf`);
  } catch (error) {
    toast(t("err.network"));
  }
}

export { newEventScreen, organiserScreen, stopEventPolling };
