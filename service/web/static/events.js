/* Club nights and tournaments, the organiser's view: the roster, starting and
 * closing rounds, each table with who sits where, its live totals and its links as QR codes
 * (at a duplicate evening also the boards it still owes, and the records each table was refused
 * board by board, which the organiser releases), swaps before a round's first hand,
 * the free format's seating, the links to the board, the printable standings and a duplicate
 * evening's deal slips, the standings in short, the organiser's key (keycard.js). It
 * refreshes by itself; the new-event form is in eventform.js, the board in board.js. */
import { API, ApiError, api, problemErrors } from "./api.js";
import { append, h, money, randomKey, redraw, saveFile, switchButton, toast } from "./dom.js";
import {
  boardScreen, eventLine, liveLine, shownRound, standingsNote, standingsOrWait,
  statusBadge, tableSides, tableState,
} from "./board.js";
import { EV, eventChanged, openEvent, roundLinks, showLive, stopEventPolling, watchEvent } from "./eventstate.js";
import { I18n, t } from "./i18n.js";
import { cardWaits, keyCard } from "./keycard.js";
import { problemText } from "./problems.js";
import { QR } from "./qr.js";
import { roundClock } from "./roundclock.js";
import { copy } from "./share.js";
import { variants } from "./state.js";
import { Events } from "./stores.js";

// -- the organiser's view ----------------------------------------------------------------------

// What the organiser is doing on this screen: kept across the redraws the poll brings.
const O = {
  // disputes: the disputed hands the service listed when the round was closed.
  // closed: how the shown round ended, from the organiser's history ({ key, entry }).
  id: null, selected: null, confirmClose: false, disputes: null, seating: null, errors: [], seatingErrors: [],
  roundErrors: [], busy: false, open: new Set(), players: 4, closed: null, prizes: null,
  clockDraft: null, clockErrors: [],
  // The door: the entrant whose actions are open, their link shown again, a name being added,
  // the entrant asked about before removing, and what the service refused.
  entrant: null, entrantLink: null, adding: "", removing: null, doorErrors: [],
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
  if (O.id !== id) {
    Object.assign(O, { id, selected: null, confirmClose: false, seating: null, open: new Set(),
      entrant: null, entrantLink: null, adding: "", removing: null });
    // At an event with a door, who has checked in is on show as they come.
    if (EV.event.checkin && !EV.event.rounds.length) O.open.add("roster");
  }
  O.doorErrors = [];
  Object.assign(O, { errors: [], seatingErrors: [], roundErrors: [], busy: false });
  const v = (await variants()).find((x) => x.id === EV.event.variant);
  O.players = v ? v.players : 4;
  remember();
  await loadDoorLink();
  await loadFieldKey();
  await loadLinks();
  await loadClose();
  await loadPrizes();
  drawOrganiser(true);
  watchEvent(async () => {
    await loadLinks();
    await loadClose();
    await loadPrizes();
    remember();
    // The free format's seating being written is not swept away by a poll.
    if (O.seating === null) drawOrganiser(false);
  });
}

function remember() {
  const ev = EV.event;
  Events.put(ev.id, { name: ev.name, variant: ev.variant, format: ev.format, status: ev.status });
}

/** The door's link (an event that takes check-ins), worked out by the service from the
 * organiser's token once. */
async function loadDoorLink() {
  if (!EV.event.checkin || Events.get(EV.id)?.links?.door) return;
  try {
    const { data } = await api("GET", `/events/${EV.id}/links`, { token: EV.token });
    Events.put(EV.id, { links: data.links, tokens: { door: data.tokens.door } });
  } catch (error) {
    if (error.status === 403) readOnly();
  }
}

/** The join key of the field the event hosts, worked out by the service from the organiser's
 * token once (another phone of the organiser's has not seen the create answer). */
async function loadFieldKey() {
  if (!EV.event.field?.hosts || Events.get(EV.id)?.tokens?.field) return;
  try {
    const { data } = await api("GET", `/events/${EV.id}/links`, { token: EV.token });
    Events.put(EV.id, { tokens: { field: data.tokens.field } });
  } catch (error) {
    if (error.status === 403) readOnly();
  }
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

/** How the shown round ended, once it has: its close in the organiser's history, read once
 * per round (a round ends once). */
async function loadClose() {
  const round = shownRound(EV.event);
  if (!round || round.state !== "closed") return;
  const key = `${EV.id}:${round.round}`;
  if (O.closed?.key === key) return;
  try {
    const { data } = await api("GET", `/events/${EV.id}/history`, { token: EV.token });
    const entry = data.actions.filter((a) => a.action === "close_round" && a.data.round === round.round).pop();
    O.closed = { key, entry: entry || null };
  } catch (error) {
    if (error.status === 403) readOnly();
  }
}

/** "Closed by the organiser", "Ended by itself when its last table finished", or, for a round
 * an earlier version of the service left open with every table finished, when it finished and
 * when the update closed it (the history's entry is written then). */
function closedLine(round) {
  const entry = O.closed?.key === `${EV.id}:${round.round}` ? O.closed.entry : null;
  if (!entry) return null;
  const when = (at) => new Date(at).toLocaleString(I18n.locale, { dateStyle: "medium", timeStyle: "short" });
  const kind = entry.data.upgrade ? "upgrade" : entry.data.clock ? "clock"
    : entry.data.automatic ? "automatic" : "organiser";
  return h("p", { class: "hint round-closed", id: "round-closed", "data-closed": kind },
    t(`ev.closedBy.${kind}`, { when: when(round.closed_at || entry.created_at), at: when(entry.created_at) }));
}

/** The prize list as the standings share it now, read with them (an event with prizes). */
async function loadPrizes() {
  if (!EV.event.prizes?.length) {
    O.prizes = null;
    return;
  }
  try {
    O.prizes = (await api("GET", `/events/${EV.id}/prizes`, { token: EV.token })).data;
  } catch (error) {
    if (error.status === 403) readOnly();
  }
}

/** The round's length, changed while it is played (a round running late given more time):
 * the round being played ends by the new length, and the next rounds last as long. */
function clockControl(ev) {
  const value = O.clockDraft ?? (ev.round_minutes ?? "");
  return h("div", { class: "field clock-control", "data-field": "round_minutes" },
    h("label", { for: "clock-minutes" }, t("ev.new.clock")),
    h("div", { class: "row" },
      h("input", {
        id: "clock-minutes", type: "number", inputmode: "numeric", min: 5, max: 240, value,
        oninput: (e) => { O.clockDraft = e.target.value; },
      }),
      h("button", { type: "button", class: "button", id: "clock-set", onclick: setClock }, t("ev.clock.set"))),
    errorBox("clock-errors", O.clockErrors));
}

async function setClock() {
  const typed = String(O.clockDraft ?? (EV.event.round_minutes ?? "")).trim();
  O.clockErrors = [];
  try {
    const { data } = await api("PUT", `/events/${EV.id}/clock`, {
      token: EV.token, body: { round_minutes: typed ? Number(typed) : null },
    });
    O.clockDraft = null;
    await eventChanged(data);
  } catch (error) {
    if (error.status === 403) return readOnly();
    O.clockErrors = problemErrors(error);
  }
  drawOrganiser(false);
  document.getElementById("clock-minutes")?.focus();
}

/** Who receives what, under the standings: provisional until the last round closes. */
function prizesList(found) {
  if (!found) return null;
  const line = (a) => h("li", { class: "prize", "data-place": a.place },
    h("span", { class: "place" }, `${a.place}.`), " ", h("strong", {}, a.entrant), " ",
    [a.amount ? money(a.amount, found.currency) : null, ...(a.labels || [])].filter(Boolean).join(" · "),
    a.shared_with.length ? h("small", {}, ` (${t("ev.prizes.shared", { names: a.shared_with.join(", ") })})`) : null);
  return h("div", { class: "prizes", id: "prizes", "data-final": String(found.final) },
    h("h3", {}, t("ev.prizes"), found.final ? null : h("small", {}, ` (${t("ev.prizes.provisional")})`)),
    h("ol", { class: "prize-list" }, found.awards.map(line)),
    found.unawarded_places.length
      ? h("p", { class: "hint" }, t("ev.prizes.unawarded", { places: found.unawarded_places.join(", ") })) : null);
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

  // The organiser's key: its card offered first until it is printed, then with the links.
  const key = keyCard("event", ev.id, EV.token, () => drawOrganiser(false));
  if (cardWaits("event", ev.id)) root.append(key);
  // At an event with a door: the door, then the next round's tap, then who has come.
  if (ev.checkin) root.append(doorCard(ev, saved), actions(ev, round), rosterFold(ev));
  else root.append(rosterFold(ev), actions(ev, round));
  // Before round 1 the door may still be opened (or closed again).
  if (!ev.checkin && !ev.rounds.length) root.append(h("section", { class: "card door-card", id: "door-offer" }, checkinSwitch(ev)));
  if (O.seating !== null) root.append(seatingEditor(ev));
  if (round) root.append(roundCard(ev, round));
  if (ev.field) root.append(fieldCard(ev, saved));
  if (ev.boards_secret) root.append(secretBoards(ev));
  if (ev.refusals?.boards.length) root.append(refusalsCard(ev));
  root.append(linksCard(ev, saved));
  root.append(publishCard(ev));
  if (!cardWaits("event", ev.id)) root.append(key);
  root.append(h("section", { class: "card standings-short", id: "standings-short", "aria-labelledby": "short-title" },
    h("h2", { id: "short-title" }, t("ev.standings"), " ", standingsNote(st, ev)),
    standingsOrWait(st, ev, { limit: 5, idPrefix: "top", wait: true }),
    st.rows.length > 5 ? h("p", { class: "hint" }, t("ev.moreOnBoard", { n: st.rows.length - 5 })) : null,
    prizesList(O.prizes)));
  root.append(h("div", { class: "row tools" }, h("a", { class: "button", href: "#/" }, t("action.home"))));

  redraw(root, first);
  showLive();
}

function rosterFold(ev) {
  const pairs = ev.format === "pairs";
  const summary = ev.checkin
    ? t(pairs ? "ev.door.inPairs" : "ev.door.inPlayers", { n: ev.entrants.length })
    : t(pairs ? "ev.rosterPairs" : "ev.rosterPlayers", { n: ev.entrants.length });
  const box = fold("roster", "card roster", summary, () => h("div", { id: "roster-body" }));
  // Drawn at every redraw (the fold's content is made once): who checked in fills it live.
  const body = box.querySelector("#roster-body");
  if (body) body.replaceChildren(rosterList(ev), addByHand(ev), errorBox("door-errors", O.doorErrors));
  box.addEventListener("toggle", () => {
    const filled = box.querySelector("#roster-body");
    if (box.open && filled && !filled.childElementCount) {
      filled.replaceChildren(rosterList(ev), addByHand(ev), errorBox("door-errors", O.doorErrors));
    }
  });
  return box;
}

/** The roster, each entrant a button that opens what the organiser may do with them: show
 * their own link again, withdraw them or bring them back, remove a mistaken check-in. */
function rosterList(ev) {
  return h("ol", { class: "roster-list", id: "roster-list" }, ev.entrants.map((e) => {
    const open = O.entrant === e.number;
    const notes = [
      e.from_round > 1 ? t("ev.door.fromRound", { n: e.from_round }) : null,
      e.withdrawn ? t("ev.door.withdrawnFrom", { n: e.withdrawn_from }) : null,
    ].filter(Boolean).join(" · ");
    return h("li", { class: `entrant-row${e.withdrawn ? " withdrawn" : ""}`, id: `entrant-${e.number}`, "data-entrant": e.number },
      h("button", {
        type: "button", class: "entrant-button", id: `entrant-button-${e.number}`, "aria-expanded": open ? "true" : "false",
        onclick: () => {
          O.entrant = open ? null : e.number;
          O.entrantLink = null;
          O.removing = null;
          drawOrganiser(false);
        },
      }, h("strong", {}, e.name),
      e.players ? h("span", { class: "muted" }, ` — ${e.players.join(" & ")}`) : null,
      notes ? h("span", { class: "muted entrant-notes" }, ` (${notes})`) : null),
      open ? entrantActions(ev, e) : null);
  }));
}

function entrantActions(ev, e) {
  const box = h("div", { class: "entrant-actions" });
  if (O.removing === e.number) {
    box.append(h("div", { class: "card warn", role: "group", "aria-labelledby": "remove-text" },
      h("p", { id: "remove-text" }, t("ev.door.removeAsk", { name: e.name })),
      h("div", { class: "row" },
        h("button", { type: "button", class: "button danger", id: "remove-yes", disabled: O.busy,
          onclick: () => entrantAction(e, "remove") }, t("ev.door.removeYes")),
        h("button", { type: "button", class: "button", id: "remove-no",
          onclick: () => { O.removing = null; drawOrganiser(false); } }, t("action.cancel")))));
    return box;
  }
  box.append(h("div", { class: "row" },
    h("button", { type: "button", class: "button small", id: `entrant-link-${e.number}`, disabled: O.busy,
      onclick: () => showEntrantLink(e) }, t("ev.door.showLink")),
    ev.status !== "over" ? h("button", {
      type: "button", class: "button small", id: `entrant-${e.withdrawn ? "return" : "withdraw"}-${e.number}`,
      disabled: O.busy, onclick: () => entrantAction(e, e.withdrawn ? "return" : "withdraw"),
    }, t(e.withdrawn ? "ev.door.return" : "ev.door.withdraw")) : null,
    !e.rounds_played ? h("button", {
      type: "button", class: "button small danger", id: `entrant-remove-${e.number}`,
      onclick: () => { O.removing = e.number; drawOrganiser(false); document.getElementById("remove-no")?.focus(); },
    }, t("ev.door.remove")) : null));
  if (O.entrantLink?.number === e.number) {
    const link = O.entrantLink.link;
    const inputId = `link-entrant-${e.number}`;
    box.append(h("div", { class: "link-block entrant-link" },
      h("p", { class: "hint" }, t("ev.door.linkHint", { name: e.name })),
      h("div", { class: "qr-box" }, QR.svg(link, t("entrant.qr", { name: e.name }))),
      h("label", { for: inputId, class: "visually-hidden" }, t("entrant.link")),
      h("input", { id: inputId, class: "link", type: "text", readonly: true, value: link, onfocus: (ev2) => ev2.target.select() }),
      h("div", { class: "row" },
        h("button", { type: "button", class: "button small", onclick: () => copy(link, inputId) }, t("share.copy")),
        h("a", { class: "button small", href: `#/events/${ev.id}/entrants/${e.number}` }, t("ev.door.openScreen")))));
  }
  return box;
}

async function showEntrantLink(e) {
  O.doorErrors = [];
  try {
    const { data } = await api("GET", `/events/${EV.id}/entrants/${e.number}`, { token: EV.token });
    O.entrantLink = { number: e.number, link: data.links.entrant };
  } catch (error) {
    if (error.status === 403) return readOnly();
    O.doorErrors = problemErrors(error);
  }
  drawOrganiser(false);
}

/** An entrant withdrawn, brought back or removed (a mistaken check-in) by the organiser. */
async function entrantAction(e, what) {
  await organiserChange("doorErrors", async () => {
    if (what === "remove") {
      await api("DELETE", `/events/${EV.id}/entrants/${e.number}`, { token: EV.token });
      O.entrant = null;
    } else {
      await api("POST", `/events/${EV.id}/entrants/${e.number}/${what}`, { token: EV.token });
    }
    toast(t(`ev.door.${what}Done`, { name: e.name }));
  }, { reread: true, settle: () => { O.removing = null; } });
}

/** One of the organiser's changes of the roster, the door or the results: the screen busy
 * while ``run`` runs, a refusal shown in ``O[errors]``, ``settle`` run whatever happened,
 * then the event read again (``reread``), the screen drawn again and the focus put back on
 * ``focus``. The read-only token's refusal turns the screen read-only instead. */
async function organiserChange(errors, run, { reread = false, focus = null, settle = null } = {}) {
  O.busy = true;
  O[errors] = [];
  try {
    await run();
  } catch (error) {
    if (error.status === 403) return readOnly();
    O[errors] = problemErrors(error);
  } finally {
    O.busy = false;
    settle?.();
  }
  if (reread) await eventChanged(null);
  drawOrganiser(false);
  if (focus) document.getElementById(focus)?.focus();
}

/** A name added by hand (someone with no phone, a late arrival the organiser met): a pair
 * as "Pair: Player, Player". */
function addByHand(ev) {
  const pairs = ev.format === "pairs";
  return h("div", { class: "field add-entrant", "data-field": "name" },
    h("label", { for: "add-entrant" }, t(pairs ? "ev.door.addPair" : "ev.door.add")),
    h("div", { class: "row" },
      h("input", {
        id: "add-entrant", type: "text", value: O.adding, autocomplete: "off", autocapitalize: "words",
        placeholder: pairs ? t("ev.new.rosterPairsPlaceholder").split("\n")[0] : "",
        oninput: (e) => { O.adding = e.target.value; },
        onkeydown: (e) => { if (e.key === "Enter") addEntrant(ev); },
      }),
      h("button", { type: "button", class: "button", id: "add-entrant-send", disabled: O.busy,
        onclick: () => addEntrant(ev) }, t("ev.door.addButton"))));
}

async function addEntrant(ev) {
  const line = O.adding.trim();
  if (!line) return;
  let body = { name: line };
  if (ev.format === "pairs") {
    const colon = line.indexOf(":");
    const players = colon >= 0 ? line.slice(colon + 1).split(",").map((p) => p.trim()).filter(Boolean) : [];
    body = { name: (colon >= 0 ? line.slice(0, colon) : line).trim(), players };
  }
  await organiserChange("doorErrors", async () => {
    await api("POST", `/events/${EV.id}/entrants`, { token: EV.token, body, headers: { "Idempotency-Key": randomKey() } });
    O.adding = "";
    toast(t("ev.door.added", { name: body.name }));
  }, { reread: true, focus: "add-entrant" });
}

/** The door: its link as a QR code (on a tablet at the entrance, or scanned from the
 * poster), the poster to print, and the door opened on this phone. */
function doorCard(ev, saved) {
  const link = saved.links?.door;
  const pairs = ev.format === "pairs";
  return h("section", { class: "card door-card", id: "door-card", "aria-labelledby": "door-title" },
    h("h2", { id: "door-title" }, t("ev.door.title")),
    ev.rounds.length ? null : checkinSwitch(ev),
    h("p", { id: "door-checked" }, t(pairs ? "ev.door.countPairs" : "ev.door.countPlayers", {
      n: ev.entrants.filter((e) => e.checked_in).length })),
    h("div", { class: "row" },
      h("button", { type: "button", class: "button", id: "poster-pdf",
        onclick: () => downloadPdf(ev, "poster.pdf", `segnapunti-poster-${ev.id}.pdf`) }, t("ev.door.poster")),
      h("a", { class: "button", id: "open-door", href: `#/events/${ev.id}/door` }, t("ev.door.open"))),
    link ? fold("door-link", "door-link", t("ev.door.link"), () => h("div", { class: "link-block" },
      h("p", { class: "hint" }, t("ev.door.linkHintDoor")),
      h("div", { class: "qr-box" }, QR.svg(link, t("ev.door.qr"))),
      h("label", { for: "link-door", class: "visually-hidden" }, t("ev.door.link")),
      h("input", { id: "link-door", class: "link", type: "text", readonly: true, value: link, onfocus: (e) => e.target.select() }),
      h("button", { type: "button", class: "button small", onclick: () => copy(link, "link-door") }, t("share.copy")))) : null);
}

/** Check-in at the door, switched on or off before round 1. */
function checkinSwitch(ev) {
  return switchButton("checkin-switch", t("ev.new.checkin"), Boolean(ev.checkin), (on) =>
    organiserChange("errors", async () => {
      const { data } = await api("PATCH", `/events/${EV.id}`, { token: EV.token, body: { checkin: on } });
      await eventChanged(data);
      if (on) {
        O.open.add("roster");
        await loadDoorLink();
      }
    }, { focus: "checkin-switch" }));
}

/** The results published (readable by anyone with the public page's link) or taken down. */
function publishCard(ev) {
  const url = `${location.origin}/results/events/${ev.id}`;
  return h("section", { class: "card publish", id: "publish", "aria-labelledby": "publish-title" },
    h("h2", { id: "publish-title" }, t("ev.publish.title")),
    switchButton("publish-switch", t("ev.publish.switch"), Boolean(ev.public), (on) => publish(on)),
    h("p", { class: "hint" }, t(ev.public ? "ev.publish.on" : "ev.publish.off")),
    ev.public ? h("a", { class: "button small", id: "public-link", href: url, target: "_blank", rel: "noopener" },
      t("ev.publish.link")) : null);
}

async function publish(on) {
  await organiserChange("errors", async () => {
    const { data } = await api("PATCH", `/events/${EV.id}`, { token: EV.token, body: { public: on } });
    await eventChanged(data);
    toast(t(on ? "ev.publish.done" : "ev.publish.undone"));
  }, { focus: "publish-switch" });
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
    await loadClose();
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

/** The entrants the next round seats: come by then, and not withdrawn from it. */
function activeNames(ev, next) {
  return ev.entrants.filter((e) => (e.from_round ?? 1) <= next && !(e.withdrawn && e.withdrawn_from <= next))
    .map((e) => e.name);
}

function openSeating(ev) {
  const names = activeNames(ev, ev.rounds.length + 1);
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
    const left = activeNames(ev, next).filter((n) => !seated.has(nameKey(n)));
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
  const closed = round.state === "closed" ? closedLine(round) : null;
  if (closed) box.append(closed);
  const clock = roundClock(round);
  if (clock) box.append(clock);
  if (round.state === "open") box.append(clockControl(ev));
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
      table.boards_owed ? boardsOwed(table) : null,
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

/** The boards a duplicate table still owes, in the order it plays them; once it owes none,
 * whether it played them all or its round was closed before (and after how many). */
function boardsOwed(table) {
  const played = table.hands_played;
  const text = table.boards_owed.length ? t("ev.boardsOwed", { boards: table.boards_owed.join(", ") })
    : table.status === "closed" ? t("ev.boardsClosed", { n: played, of: table.boards.length })
      : t("ev.boardsAllPlayed");
  return h("p", { class: "boards-owed", id: `owed-${table.table}`, "data-owed": table.boards_owed.join(" ") }, text);
}

/** A duplicate evening's refused records, table by table and board by board: a few are a
 * table's typing; many are a table probing a board's cards. A table that reached the limit
 * records that board no more until the organiser releases it here. */
function refusalsCard(ev) {
  const { limit, boards } = ev.refusals;
  return h("section", { class: "card refusals", id: "refusals", "aria-labelledby": "refusals-title" },
    h("h2", { id: "refusals-title" }, t("ev.refusals")),
    h("p", { class: "hint" }, t("ev.refusalsHint", { n: limit })),
    h("ul", { class: "refusal-list" }, boards.map((item) => {
      const key = `${item.round}-${item.table}-${item.board}`;
      return h("li", {
        class: `refusal${item.stopped ? " stopped" : ""}`, id: `refusal-${key}`,
        "data-round": item.round, "data-table": item.table, "data-board": item.board,
        "data-refused": item.refused,
      },
      h("span", {}, t("ev.refusalLine", { n: item.total, round: item.round, table: item.table, board: item.board })),
      item.total > item.refused ? h("span", { class: "muted" }, " ", t("ev.refusalSince", { n: item.refused })) : null,
      item.stopped ? h("strong", { class: "badge warn" }, " ", t("ev.refusalStopped")) : null,
      item.refused ? h("button", {
        type: "button", class: "button small", id: `release-${key}`, disabled: O.busy,
        onclick: () => releaseBoard(item),
      }, t("ev.release", { table: item.table, board: item.board })) : null);
    })));
}

async function releaseBoard(item) {
  const ev = EV.event;
  O.busy = true;
  O.errors = [];
  try {
    await api("POST", `/events/${ev.id}/rounds/${item.round}/tables/${item.table}/boards/${item.board}/release`,
      { token: EV.token });
    toast(t("ev.released", { table: item.table, board: item.board }));
  } catch (error) {
    if (error.status === 403) return readOnly();
    O.errors = problemErrors(error);
  } finally {
    O.busy = false;
  }
  await eventChanged(null);
  drawOrganiser(false);
  document.getElementById("refusals-title")?.focus();
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

// -- one field across many clubs ------------------------------------------------------------

/** The field the event plays in: for its host, what the other clubs' organisers join with (the
 * event's id and the join key, to copy); for every section, the way to the field's standings. */
function fieldCard(ev, saved) {
  const key = saved.tokens?.field;
  return h("section", { class: "card field-card", id: "field-card", "aria-labelledby": "field-card-title" },
    h("h2", { id: "field-card-title" }, t("field.card")),
    h("p", { class: "hint" }, t(ev.field.hosts ? "field.hostHint" : "field.sectionHint")),
    ev.field.hosts && key ? h("div", { class: "link-block" },
      h("label", { for: "field-host-id" }, t("field.hostId")),
      h("input", { id: "field-host-id", class: "link", type: "text", readonly: true, value: ev.id, onfocus: (e) => e.target.select() }),
      h("button", { type: "button", class: "button small", id: "copy-field-host", onclick: () => copy(ev.id, "field-host-id") }, t("share.copy")),
      h("label", { for: "field-key" }, t("field.key")),
      h("input", { id: "field-key", class: "link", type: "text", readonly: true, value: key, onfocus: (e) => e.target.select() }),
      h("button", { type: "button", class: "button small", id: "copy-field-key", onclick: () => copy(key, "field-key") }, t("share.copy"))) : null,
    h("a", { class: "button", id: "to-field", href: `#/events/${ev.id}/field` }, t("field.open")));
}

// -- a duplicate evening's secret boards ---------------------------------------------------

/** The boards still secret: a table due to play them has not yet, so the room's standings,
 * totals, exports and wall leave them out. The organiser's screen counts them live. */
function secretBoards(ev) {
  const secret = ev.boards_secret;
  return h("section", { class: "card secret-boards", id: "secret-boards", "aria-labelledby": "secret-title" },
    h("h2", { id: "secret-title" }, t("ev.secretTitle")),
    secret.length
      ? h("p", { id: "secret-list", "data-secret": secret.join(" ") },
        t("ev.secretBoards", { n: secret.length, boards: secret.join(", ") }))
      : h("p", { id: "secret-list", "data-secret": "" }, t("ev.noSecretBoard")),
    secret.length ? h("p", { class: "hint", id: "secret-hint" }, t("ev.secretHint")) : null);
}

// -- the board, the printable standings ------------------------------------------------------

function linksCard(ev, saved) {
  const read = saved.links?.read || (saved.tokens?.read
    ? `${location.origin}/#/events/${ev.id}/board?token=${saved.tokens.read}` : null);
  return h("section", { class: "card event-links", "aria-labelledby": "links-title" },
    h("h2", { id: "links-title" }, t("ev.linksTitle")),
    h("div", { class: "row" },
      h("a", { class: "button", href: `#/events/${ev.id}/board`, id: "to-board" }, t("ev.toBoard")),
      h("button", { type: "button", class: "button", id: "standings-pdf",
        onclick: () => downloadPdf(ev, "standings.pdf", `segnapunti-standings-${ev.id}.pdf`) }, t("ev.pdf")),
      // A duplicate evening's deal slips: what the club makes the boards from.
      ev.deals === "duplicate" ? h("button", { type: "button", class: "button", id: "slips-pdf",
        onclick: () => downloadPdf(ev, "boards.pdf", `segnapunti-boards-${ev.id}.pdf`) }, t("ev.slips")) : null),
    read ? fold("board-link", "board-link", t("ev.boardLink"), () => h("div", { class: "link-block" },
      h("p", { class: "hint" }, t("ev.boardLinkHint")),
      h("div", { class: "qr-box" }, QR.svg(read, t("ev.qr.board"))),
      h("label", { for: "link-board", class: "visually-hidden" }, t("ev.boardLink")),
      h("input", { id: "link-board", class: "link", type: "text", readonly: true, value: read, onfocus: (e) => e.target.select() }),
      h("button", { type: "button", class: "button small", onclick: () => copy(read, "link-board") }, t("share.copy"))))
      : h("p", { class: "hint" }, t("ev.boardLinkElsewhere")));
}

/** The event's ``path`` (a PDF of the organiser's) downloaded as ``filename``, in the page's
 * language. */
async function downloadPdf(ev, path, filename) {
  try {
    const response = await fetch(`${API}/events/${ev.id}/${path}?lang=${I18n.lang}`, {
      headers: { Authorization: `Bearer ${EV.token}`, "Accept-Language": I18n.lang },
    });
    if (!response.ok) {
      toast(t("ev.pdfFailed", { status: response.status }));
      return;
    }
    saveFile(await response.blob(), filename);
  } catch (error) {
    toast(t("err.network"));
  }
}

export { organiserScreen };
