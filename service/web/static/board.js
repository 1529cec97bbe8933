/* The public board of an event, for a screen on the wall (1280 × 720, landscape: the standings
 * on the left, the current round's tables and their live totals on the right, and under them a
 * duplicate evening's boards finished with their tops) and still a single column on a phone.
 * It refreshes by itself and changes nothing: the read link opens it. Also the parts the
 * organiser's view shows the same way: the event's line, a table's sides with their totals,
 * the standings. */
import { ApiError, api } from "./api.js";
import { h, redraw } from "./dom.js";
import { EV, openEvent, showLive, watchEvent } from "./eventstate.js";
import { I18n, t } from "./i18n.js";
import { roundClock } from "./roundclock.js";
import { Events } from "./stores.js";

// -- the parts both screens show ------------------------------------------------------------

/** A number as the page's language writes it, with its sign where asked: "+2,5", "−3". */
function figure(value, { sign = false } = {}) {
  const n = Number(value);
  if (!Number.isFinite(n)) return String(value ?? "");
  const text = new Intl.NumberFormat(I18n.locale, {
    maximumFractionDigits: 1,
  }).format(Math.abs(n));
  if (n < 0) return `−${text}`;
  return sign && n > 0 ? `+${text}` : text;
}

/** A percentage as the page's language writes it, two decimals at most: "58.33%",
 * "58,33%", "58,33 %". */
function percentage(value) {
  const n = Number(value);
  if (!Number.isFinite(n)) return String(value ?? "");
  return new Intl.NumberFormat(I18n.locale, { style: "percent", maximumFractionDigits: 2 })
    .format(n / 100).replace("-", "−");
}

/** The round being played (or the last one played), or null before the first. */
function shownRound(ev) {
  if (!ev.rounds.length) return null;
  return ev.rounds.find((r) => r.round === ev.current_round) || ev.rounds[ev.rounds.length - 1];
}

/** "Gatti for four, in pairs · Individual · Round 2 of 3". */
function eventLine(ev) {
  const parts = [I18n.variantName(ev.variant, ev.variant), t(`ev.format.${ev.format}`)];
  if (ev.format === "pairs" && ev.pairing) parts.push(t(`ev.pairing.${ev.pairing}`));
  if (ev.rounds_planned) parts.push(t("ev.roundsPlanned", { n: ev.rounds_planned }));
  return parts.join(" · ");
}

function statusText(ev) {
  const n = ev.current_round || 0;
  if (ev.status === "playing") {
    return ev.rounds_planned ? t("ev.status.playingOf", { n, of: ev.rounds_planned })
      : t("ev.status.playing", { n });
  }
  return t(`ev.status.${ev.status}`, { n });
}

function statusBadge(ev) {
  return h("span", { class: `badge ev-status ${ev.status}`, id: "event-status" }, statusText(ev));
}

function liveLine() {
  const time = EV.lastUpdate ? EV.lastUpdate.toLocaleTimeString(I18n.locale) : "";
  return h("span", { class: `live ${EV.live ? "" : "offline"}`, id: "event-live" },
    h("span", { class: "dot", "aria-hidden": "true" }),
    h("span", { class: "live-text" }, EV.live ? t("sheet.live", { time }) : t("sheet.offline")));
}

/** A table's sides, each with who plays it and its total: in the pairs format the pair's name
 * (its players under it), else the players. ``unit(name, position)`` draws an entrant (the
 * organiser's view makes it a button to swap); its position is its place in the table's
 * ``entrants``. */
function tableSides(table, format, unit = (name) => h("span", { class: "unit" }, name)) {
  const list = h("ul", { class: "ev-sides" });
  table.columns.forEach((column, c) => {
    const names = column.seats.map((s) => table.seats[s]);
    let who;
    if (format === "pairs" && table.entrants[c] !== undefined) {
      who = [unit(table.entrants[c], c), h("span", { class: "players-of" }, names.join(" & "))];
    } else {
      who = names.flatMap((name, i) => {
        const position = table.entrants.indexOf(name);
        const drawn = position >= 0 ? unit(name, position) : h("span", { class: "unit dummy" }, name);
        return i ? [h("span", { class: "amp" }, " & "), drawn] : [drawn];
      });
    }
    const total = table.totals[column.key];
    list.append(h("li", { class: "ev-side", "data-column": column.key },
      h("span", { class: "ev-who" }, who),
      h("span", { class: "ev-total", "data-total": column.key,
        "aria-label": t("ev.totalOf", { name: column.label, n: figure(total) }) }, figure(total))));
  });
  return list;
}

function tableState(table) {
  return h("span", { class: `badge table-state ${table.status}` }, t(`ev.table.${table.status}`));
}

// Which standings rows show how they were reached, by entrant number (kept across redraws).
const explained = new Set();

/** The standings as a table: place, entrant, match points, difference, points; each entrant a
 * button that shows how the row was reached. ``limit``: the top rows only. */
function standingsTable(st, ev, { limit = null, idPrefix = "st", pending = false } = {}) {
  const rows = limit ? st.rows.slice(0, limit) : st.rows;
  const duplicate = ev.deals === "duplicate";
  const body = h("tbody", {});
  for (const row of rows) {
    const whyId = `${idPrefix}-why-${row.number}`;
    const open = explained.has(`${idPrefix}.${row.number}`);
    const button = h("button", {
      type: "button", class: "row-button", id: `${idPrefix}-row-${row.number}`,
      "aria-expanded": open ? "true" : "false", "aria-controls": whyId,
      onclick: () => {
        const now = button.getAttribute("aria-expanded") !== "true";
        button.setAttribute("aria-expanded", now ? "true" : "false");
        document.getElementById(whyId).hidden = !now;
        if (now) explained.add(`${idPrefix}.${row.number}`);
        else explained.delete(`${idPrefix}.${row.number}`);
      },
    }, row.entrant);
    body.append(
      h("tr", { class: "standing", "data-entrant": row.entrant },
        h("td", { class: "place" }, pending ? "–" : row.place),
        h("th", { scope: "row", class: "entrant" }, button),
        // A duplicate event ranks by the boards' average percentage: it takes the first column.
        duplicate ? h("td", { class: `pct ${st.scoring === "match_points" ? "key" : ""}` }, pending ? "–" : percentage(row.percentage))
          : h("td", { class: `mp ${st.scoring === "match_points" ? "key" : ""}` }, pending ? "–" : figure(row.match_points)),
        h("td", { class: `diff ${st.scoring === "difference" ? "key" : ""}` }, pending ? "–" : figure(row.difference, { sign: true })),
        h("td", { class: "pts" }, pending ? "–" : figure(row.points))),
      h("tr", { class: "why", id: whyId, hidden: !open },
        h("td", { colspan: 5 }, h("ul", { class: "why-list" },
          row.explanation.map((line) => h("li", {}, line))))));
  }
  // Each heading in full, and short where the screen is narrow (a phone).
  const head = (cls, long, short) => h("th", { scope: "col", class: cls },
    h("span", { class: "long" }, long), short ? h("abbr", { class: "short", title: long }, short) : null);
  return h("table", { class: "standings", id: `${idPrefix}-table` },
    h("caption", { class: "visually-hidden" }, t("ev.standings")),
    h("thead", {}, h("tr", {},
      head("place", t("ev.col.place"), t("ev.col.placeShort")),
      head("entrant", ev.format === "pairs" ? t("ev.col.pair") : t("ev.col.player")),
      duplicate ? head("pct", t("ev.col.percentage"), "%") : head("mp", t("ev.col.matchPoints"), t("ev.col.matchPointsShort")),
      head("diff", t("ev.col.difference"), t("ev.col.differenceShort")),
      head("pts", t("ev.col.points"), t("ev.col.pointsShort")))),
    body);
}

/** Whether the standings count anything yet: a table's hand (a duplicate evening's: a board
 * played at every table due to play it). Before that every row would be first at 0 (0 %),
 * which says nothing: the rows are the roster, with no place and no figures yet. */
function standingsCount(st, ev) {
  return st.rows.some((row) => (ev.deals === "duplicate" ? row.boards > 0 : row.rounds.length > 0));
}

/** The standings; before anything counts, the roster in their place, and with ``wait`` a
 * line saying what they are waiting for. */
function standingsOrWait(st, ev, { wait = false, ...options } = {}) {
  const counted = standingsCount(st, ev);
  const table = standingsTable(st, ev, { ...options, pending: !counted });
  if (counted || !wait) return table;
  const key = !ev.current_round ? "ev.noStandings" : ev.deals === "duplicate" ? "ev.noBoardCounted" : "ev.noHandCounted";
  return [h("p", { class: "hint", id: `${options.idPrefix}-waiting` }, t(key)), table];
}

/** Whether the standings are final, and after which round: provisional while a round is
 * being played (the service says so once a table has a hand; the round is open before). */
function standingsNote(st, ev) {
  if (st.provisional || ev.status === "playing") {
    return h("span", { class: "badge provisional", id: "provisional" }, t("ev.provisional"));
  }
  if (!ev.current_round) return h("span", { class: "badge", id: "provisional" }, t("ev.noRoundYet"));
  return h("span", { class: "badge final", id: "provisional" }, t("ev.finalAfter", { n: ev.current_round }));
}

/** A board's top result in one column: its points and percentage (with ``scoring:
 * difference``, its difference). */
function topFigures(top, st) {
  const second = st.scoring === "difference" && top.difference !== undefined
    ? figure(top.difference, { sign: true }) : percentage(top.percentage);
  return `${figure(top.points)} · ${second}`;
}

/** A duplicate evening's boards finished across the room (every table due to play them has),
 * the latest first, each with its top result in every column and who made it. */
function boardsFinished(st) {
  const done = [...(st.boards_finished || [])].reverse();
  return h("section", { class: "board-boards", id: "boards-finished", "aria-labelledby": "boards-title" },
    h("h2", { id: "boards-title" }, t("ev.boardsFinished"), " ",
      h("span", { class: "badge", id: "boards-count" }, t("ev.boardsCount", { n: done.length }))),
    done.length ? h("ul", { class: "boards-done" }, done.map((board) => h("li", {
      class: "board-done", "data-board": board.board,
    },
    h("span", { class: "board-no" }, t("ev.boardN", { n: board.board })),
    h("span", { class: "visually-hidden" }, t("ev.boardTops")),
    h("ul", { class: "board-tops" }, board.tops.map((top) => h("li", { class: "board-top", "data-column": top.column },
      h("span", { class: "top-who" }, top.by.map((by) => by.entrants.join(" & ")).join(", ")), " ",
      h("span", { class: "top-figures" }, topFigures(top, st))))),
    travellerBox(board.board, st))))
      : h("p", { class: "muted" }, t("ev.noBoardFinished")));
}

// The travellers read so far and the boards whose traveller is open, by event and board: the
// screen is drawn again at every update, and an open traveller stays open.
const travellers = new Map();
const openTravellers = new Set();

/** A finished board's traveller (every table's result on it, as ``GET
 * /events/{id}/boards/{b}`` gives it once every table due to play the board has), read when
 * it is first opened. */
function travellerBox(number, st) {
  const key = `${EV.event.id}/${number}`;
  const body = h("div", { class: "traveller-body" });
  const box = h("details", { class: "traveller", id: `traveller-${number}`, open: openTravellers.has(key) },
    h("summary", {}, t("ev.traveller")), body);
  const fill = (found) => body.replaceChildren(travellerList(found, st));
  if (travellers.has(key)) fill(travellers.get(key));
  box.addEventListener("toggle", async () => {
    if (!box.open) { openTravellers.delete(key); return; }
    openTravellers.add(key);
    if (travellers.has(key)) return;
    body.replaceChildren(h("p", { class: "muted" }, t("ev.travellerLoading")));
    try {
      const { data } = await api("GET", `/events/${EV.event.id}/boards/${number}`, { token: EV.token });
      travellers.set(key, data);
      fill(data);
    } catch (error) {
      body.replaceChildren(h("p", { class: "field-error" }, error.message));
    }
  });
  return box;
}

/** A traveller's rows: each table (its round and number), then each column's players, its
 * points, matchpoints out of the top and percentage (or its difference). */
function travellerList(found, st) {
  return h("ol", { class: "traveller-rows" }, found.results.map((row) => {
    const columns = Object.keys(row.columns).map(Number);
    const who = (c) => row.seats.filter((_, seat) => seat % columns.length === c).join(" & ");
    return h("li", { class: "traveller-row", "data-round": row.round, "data-table": row.table },
      h("span", { class: "traveller-where" }, t("ev.travellerRow", { round: row.round, table: row.table })),
      h("ul", { class: "board-tops" }, columns.map((c) => h("li", { class: "board-top", "data-column": c },
        h("span", { class: "top-who" }, who(c)), " ",
        h("span", { class: "top-figures" }, st.scoring === "difference" && row.difference
          ? `${figure(row.columns[c])} · ${figure(row.difference[c], { sign: true })}`
          : `${figure(row.columns[c])} · ${row.matchpoints[c]}/${found.top} · ${percentage(row.percentage[c])}`)))));
  }));
}

/** A duplicate evening's progress on the wall: the round's tables that have finished, and the
 * boards complete (played at every table due to play them) out of those seated so far. What
 * the wall's figures count: a board still secret counts nowhere in the room's answers. */
function boardProgress(ev, round) {
  const tables = round ? round.tables : [];
  const done = tables.filter((table) => table.status !== "playing").length;
  const complete = (ev.boards_complete || []).length;
  const seated = complete + (ev.boards_secret || []).length;
  return h("p", { class: "board-progress", id: "board-progress", "data-tables-done": done,
    "data-boards-complete": complete },
  h("span", { id: "tables-done" }, t("ev.tablesDone", { n: done, of: tables.length })), " · ",
  h("span", { id: "boards-complete" }, t("ev.boardsComplete", { n: complete, of: seated })));
}

// -- the board -------------------------------------------------------------------------------

/** The screens the board is laid out for a wall on (as app.css says). */
const WALL = "(min-width: 960px) and (orientation: landscape)";

async function boardScreen(id) {
  const saved = Events.get(id) || {};
  const token = saved.tokens?.read || saved.tokens?.edit;
  if (!token) throw new ApiError(401, { detail: t("ev.notOpened") });
  await openEvent(id, token);
  Events.put(id, { name: EV.event.name, variant: EV.event.variant, status: EV.event.status });
  drawBoard(true);
  watchEvent(() => drawBoard(false));
}

function drawBoard(first) {
  const ev = EV.event;
  const st = EV.standings;
  const round = shownRound(ev);
  const tables = h("div", { class: "board-tables" });
  if (round) {
    for (const table of round.tables) {
      tables.append(h("article", { class: "board-table", "data-table": table.table, id: `board-table-${table.table}` },
        h("h3", {}, t("ev.table", { n: table.table }), " ", tableState(table)),
        h("p", { class: "hands-played" }, t("ev.hands", { n: table.hands_played })),
        tableSides(table, ev.format)));
    }
  }
  const root = h("section", { class: "screen board", "data-status": ev.status },
    h("div", { class: "board-head" },
      h("h1", {}, ev.name),
      h("p", { class: "board-meta" }, h("span", {}, eventLine(ev)), statusBadge(ev), liveLine(),
        // A section of a field: the field's standings, every club's results compared.
        ev.field ? h("a", { class: "button small", id: "board-to-field", href: `#/events/${ev.id}/field` },
          t("field.open")) : null)),
    h("div", { class: "board-grid" },
      h("section", { class: "board-standings", "aria-labelledby": "standings-title" },
        h("h2", { id: "standings-title" }, t("ev.standings"), " ", standingsNote(st, ev)),
        standingsOrWait(st, ev, { idPrefix: "board" })),
      h("div", { class: "board-side" },
        h("section", { class: "board-round", "aria-labelledby": "round-title" },
          h("h2", { id: "round-title" }, round ? t("ev.roundTables", { n: round.round }) : t("ev.noRoundYet")),
          roundClock(round, "board-clock"),
          round ? tables : h("p", { class: "muted" }, t("ev.waitingFirst")),
          round && round.byes.length ? h("p", { class: "byes", id: "byes" }, t("ev.byes", { names: round.byes.join(", ") })) : null),
        ev.deals === "duplicate" ? boardProgress(ev, round) : null,
        ev.deals === "duplicate" ? boardsFinished(st) : null)));
  // On the wall the type grows to fill the screen's height with the rows there are (set
  // through the CSSOM: the page's policy refuses style attributes).
  root.style.setProperty("--rows", String(Math.max(8, st.rows.length)));
  redraw(root, first);
  fitWall(root);
  showLive();
}

/** On the wall (a landscape screen) the board never scrolls: its type a little smaller (down
 * to 13 px), then the boards finished, the latest first, lose their oldest until the screen
 * holds the rest (the count still says them all). */
function fitWall(root) {
  const boards = [...root.querySelectorAll(".board-done")];
  for (const board of boards) board.hidden = false;
  if (!window.matchMedia(WALL).matches) return;
  const page = document.documentElement;
  const over = () => page.scrollHeight > window.innerHeight;
  let size = parseFloat(getComputedStyle(root).fontSize);
  while (over() && size > 13) {
    size -= 1;
    root.style.fontSize = `${size}px`;
  }
  for (let k = boards.length - 1; k > 0 && over(); k -= 1) boards[k].hidden = true;
}

export {
  boardScreen, eventLine, figure, liveLine, shownRound, standingsNote, standingsOrWait,
  standingsTable, statusBadge, tableSides, tableState,
};
