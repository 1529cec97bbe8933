/* A club night's or a tournament's new-event form: its name, the game (the game
 * chooser's chips and options, as a new game's), the format, the pairing and the scoring, the
 * rounds and the roster; sent as a new game is (gamechoice.js: the time zone and the
 * Idempotency-Key), it opens the organiser's view (events.js). */
import { clubHeaders, onRoster, rosterButtons, rosterText, seatOf, tapEntrant } from "./clubseats.js";
import { banner, h, show, stepper, switchButton } from "./dom.js";
import { chosenOptions, gameChips, submitNew, variantSummary } from "./gamechoice.js";
import { colon, t } from "./i18n.js";
import { placeProblems, problemText } from "./problems.js";
import { variants } from "./state.js";
import { Events } from "./stores.js";

const FORMATS = ["individual", "pairs", "free"];
const DEALS = ["free", "duplicate"];

/** A duplicate round's boards as the variant publishes them (``boards_per_round``: its
 * default and its most), the organiser's choice kept within them. */
function boardsOf(v, chosen) {
  const { default: start, max } = v.boards_per_round;
  return { value: Math.min(chosen ?? start, max), max };
}

/** A radio button drawn as a wide choice: its name, and a line that says what it means. */
function choice(group, value, label, hint, checked, onchange) {
  return h("label", { class: `choice ${checked ? "on" : ""}` },
    h("input", { type: "radio", name: group, value, id: `${group}-${value}`, checked, onchange }),
    h("span", { class: "choice-text" }, h("strong", {}, label), h("span", { class: "choice-hint" }, hint)));
}

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
    scoring: "match_points", rounds: 3, deals: "free", boards: null, roster: "", errors: [], lines: [],
    minutes: "", autoClose: false, prizes: "", checkin: false, lateRounds: "zero",
    // One field across many clubs: none, host one, or join one (its host's id and key).
    field: "none", join: "", key: "",
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
      state.boards = null;
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
    // The deals: each table its own, or the same boards at every table.
    const duplicate = state.deals === "duplicate";
    formatStep.append(h("h3", { id: "deals-title" }, t("ev.new.deals")),
      h("div", { class: "choices", role: "radiogroup", "aria-labelledby": "deals-title", "data-field": "deals" },
        DEALS.map((d) => choice("deals", d, t(`ev.deals.${d}`), t(`ev.dealsHint.${d}`), state.deals === d,
          () => { state.deals = d; draw(); }))));
    if (duplicate) {
      const boards = boardsOf(v, state.boards);
      formatStep.append(h("div", { class: "field", "data-field": "boards_per_round" },
        h("span", { class: "label", id: "boards-label" }, t("ev.new.boards")),
        stepper("event-boards", boards.value, 1, boards.max, (n) => { state.boards = n; draw(); }, t("ev.new.boards")),
        h("p", { class: "hint", id: "boards-hint" }, t("ev.new.boardsHint", { n: boards.max }))));
      formatStep.append(fieldChoice(state, draw));
    }
    // A duplicate evening compares each board with those who held the same cards.
    const scoringHint = (s) => (duplicate ? t(`ev.scoringHintDuplicate.${s}`) : t(`ev.scoringHint.${s}`));
    formatStep.append(h("h3", { id: "scoring-title" }, t("ev.new.scoring")),
      h("div", { class: "choices", role: "radiogroup", "aria-labelledby": "scoring-title", "data-field": "scoring" },
        ["match_points", "difference"].map((s) => choice("scoring", s, t(`ev.scoring.${s}`), scoringHint(s),
          state.scoring === s, () => { state.scoring = s; draw(); }))));
    formatStep.append(h("div", { class: "field", "data-field": "rounds" },
      h("span", { class: "label", id: "rounds-label" }, t("ev.new.rounds")),
      stepper("event-rounds", state.rounds, 1, 30, (n) => { state.rounds = n; draw(); }, t("ev.new.rounds"))));
    formatStep.append(clockFields(state, draw));
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
      h("h2", {}, t("ev.new.step.roster")), doorFields(state, draw), members,
      h("div", { class: "field", "data-field": "entrants" },
        h("label", { for: "event-roster" }, t(pairs ? "ev.new.rosterPairs" : "ev.new.rosterPlayers")),
        h("p", { class: "hint", id: "roster-hint" }, t(pairs ? "ev.new.rosterPairsHint" : "ev.new.rosterHint", { n: v.players })),
        h("textarea", {
          id: "event-roster", rows: 8, autocomplete: "off", autocapitalize: "words", spellcheck: "false",
          "aria-describedby": "roster-hint roster-count",
          placeholder: pairs ? t("ev.new.rosterPairsPlaceholder") : t("ev.new.rosterPlaceholder"),
          oninput: (e) => { state.roster = e.target.value; updateCount(); updateMembers(); },
        }, state.roster),
        count),
      prizesField(state)));
    updateCount();
    updateMembers();

    root.append(h("div", { class: "errors", id: "new-errors", role: "alert" }));
    root.append(h("div", { class: "actions sticky" },
      h("button", { type: "button", class: "button primary big", id: "start-event", onclick: start }, t("ev.new.start"))));
    showErrors();
    if (active && document.getElementById(active)) document.getElementById(active).focus({ preventScroll: true });
  }

  /** The form's problems (``problems``: the service's answer, kept for the next draw). */
  function showErrors(problems = state.errors) {
    state.errors = problems;
    // A refused entrant is named by the roster's line it came from.
    placeProblems(root, root.querySelector("#new-errors"), state.errors, (error) => {
      const entrant = /^entrants\[(\d+)\]/.exec(error.field || "");
      const line = entrant && state.lines[Number(entrant[1])];
      return line ? `${t("ev.new.line", { n: line })}${colon()} ${problemText(error)}` : problemText(error);
    });
  }

  async function start() {
    const v = list.find((x) => x.id === state.variant);
    const options = chosenOptions(v, state.options);
    const { entrants, lines } = parseRoster(state.roster, state.format === "pairs");
    state.lines = lines;
    const body = {
      name: state.name.trim(), variant: v.id, options, format: state.format, scoring: state.scoring,
      rounds: state.rounds, deals: state.deals, entrants,
    };
    if (state.deals === "duplicate") body.boards_per_round = boardsOf(v, state.boards).value;
    if (state.deals === "duplicate" && state.field === "host") body.field = true;
    if (state.deals === "duplicate" && state.field === "join") {
      // A section plays the host's boards: their number a round is the host's.
      delete body.boards_per_round;
      body.field = { join: state.join.trim(), key: state.key.trim() };
    }
    if (state.minutes.trim()) {
      body.round_minutes = Number(state.minutes);
      body.auto_close = state.autoClose;
    }
    if (state.prizes.trim()) body.prizes = parsePrizes(state.prizes);
    if (state.format === "pairs") body.pairing = state.pairing;
    if (state.checkin) {
      body.checkin = true;
      body.late_rounds = state.lateRounds;
    }
    if (club) {
      // Each member by id; a name the roster does not have becomes a new member.
      body.club = club.id;
      body.entrants = entrants.map((e) => (e.players
        ? { name: e.name, players: e.players.map((p) => seatOf(club, p)) } : { name: seatOf(club, e.name) }));
    }
    await submitNew(root, root.querySelector("#start-event"), "/events", body, options, openNewEvent, showErrors,
      clubHeaders(club));
  }

  draw();
  show(root);
}

/** One field across many clubs, for a duplicate evening: play alone, host a field (its join
 * key is shown to the organiser once made), or join another club's with its id and key. */
function fieldChoice(state, draw) {
  const box = h("div", { class: "field field-choice", "data-field": "field" },
    h("h3", { id: "field-title" }, t("ev.new.field")),
    h("div", { class: "choices", role: "radiogroup", "aria-labelledby": "field-title" },
      ["none", "host", "join"].map((value) => choice("field", value, t(`ev.field.${value}`), t(`ev.fieldHint.${value}`),
        state.field === value, () => { state.field = value; draw(); }))));
  if (state.field === "join") {
    box.append(
      h("div", { class: "field", "data-field": "field.join" },
        h("label", { for: "field-join-id" }, t("ev.new.fieldJoin")),
        h("input", { id: "field-join-id", type: "text", value: state.join, autocomplete: "off", spellcheck: "false",
          autocapitalize: "off", oninput: (e) => { state.join = e.target.value; } })),
      h("div", { class: "field", "data-field": "field.key" },
        h("label", { for: "field-join-key" }, t("ev.new.fieldKey")),
        h("input", { id: "field-join-key", type: "text", value: state.key, autocomplete: "off", spellcheck: "false",
          autocapitalize: "off", oninput: (e) => { state.key = e.target.value; } })));
  }
  return box;
}

/** Check-in at the door: the players check themselves in as they arrive (the roster may then
 * be empty), and what a late arrival's missed rounds are worth. */
function doorFields(state, draw) {
  return h("div", { class: "field door-fields", "data-field": "checkin" },
    switchButton("event-checkin", t("ev.new.checkin"), state.checkin, (on) => { state.checkin = on; draw(); }),
    h("p", { class: "hint", id: "checkin-hint" }, t(state.checkin ? "ev.new.checkinOn" : "ev.new.checkinHint")),
    state.checkin ? h("div", { "data-field": "late_rounds" },
      h("h3", { id: "late-title" }, t("ev.new.late")),
      h("div", { class: "choices", role: "radiogroup", "aria-labelledby": "late-title" },
        ["zero", "bye"].map((value) => choice("late", value, t(`ev.late.${value}`), t(`ev.lateHint.${value}`),
          state.lateRounds === value, () => { state.lateRounds = value; draw(); })))) : null);
}

/** The round's clock: its length in minutes (none: no clock), and whether a round closes by
 * itself two minutes after its time. */
function clockFields(state, draw) {
  return h("div", { class: "field", "data-field": "round_minutes" },
    h("label", { for: "event-minutes" }, t("ev.new.clock")),
    h("p", { class: "hint", id: "minutes-hint" }, t("ev.new.clockHint")),
    h("input", {
      id: "event-minutes", type: "number", inputmode: "numeric", min: 5, max: 240, value: state.minutes,
      "aria-describedby": "minutes-hint",
      oninput: (e) => { const had = Boolean(state.minutes.trim()); state.minutes = e.target.value; if (had !== Boolean(state.minutes.trim())) draw(); },
    }),
    state.minutes.trim() ? h("label", { class: "row", for: "event-autoclose" },
      h("input", { id: "event-autoclose", type: "checkbox", checked: state.autoClose,
        onchange: (e) => { state.autoClose = e.target.checked; } }),
      " ", t("ev.new.autoClose")) : null);
}

/** The prize list, one line a place from the first: an amount, a label, or both ("20 a
 * bottle"); the service checks it. */
function prizesField(state) {
  return h("div", { class: "field", "data-field": "prizes" },
    h("label", { for: "event-prizes" }, t("ev.new.prizes")),
    h("p", { class: "hint", id: "prizes-hint" }, t("ev.new.prizesHint")),
    h("textarea", {
      id: "event-prizes", rows: 3, autocomplete: "off", "aria-describedby": "prizes-hint",
      oninput: (e) => { state.prizes = e.target.value; },
    }, state.prizes));
}

function parsePrizes(text) {
  return text.split("\n").map((line) => line.trim()).filter(Boolean).map((line) => {
    const found = /^(\d+(?:[.,]\d+)?)(?:\s+(.*))?$/.exec(line);
    if (!found) return { label: line };
    const prize = { amount: found[1].replace(",", ".") };
    if (found[2]) prize.label = found[2];
    return prize;
  });
}

/** An event this phone has just made: kept with its tokens (and as made here: its key card
 * is offered first until printed), then the organiser's view. */
function openNewEvent(data) {
  Events.put(data.id, {
    tokens: data.tokens, links: data.links, name: data.name, variant: data.variant,
    format: data.format, status: data.status, made: true,
  });
  location.hash = `#/events/${data.id}`;
}

export { newEventScreen };
