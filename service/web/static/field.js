/* One field across many clubs: the field's sections (each club's event, its tables and where
 * it stands) and the field's standings, every result compared with every section's on the
 * same board, each row naming its section. Opened by any token this phone keeps for one of
 * the field's events (the organiser's or the room's), or by none once the host publishes.
 * Kept current while on show: told by the field's stream when any section moves (watch.js),
 * read again with its ETag, and drawn again in place. */
import { api, inOrder } from "./api.js";
import { banner, h, redraw } from "./dom.js";
import { t } from "./i18n.js";
import { Events } from "./stores.js";
import { watch } from "./watch.js";

const F = { id: null, token: null, etag: null, data: null };
/** A told wall reads within this many ms, at a moment of its own (watch.js). */
const SPREAD_MS = 1000;
const fieldReads = inOrder();

const live = watch(async (current, told) => {
  if (!F.id) return;
  const id = F.id;
  // Told by the stream, the newest field the service has made (max-stale): never waiting
  // for a state another section's hand is still making. A poll asks for the field as it is.
  const changed = await readField({ stale: told });
  if (current() && changed && F.id === id) drawField(false);
}, {
  follow: () => (F.id ? { path: `/api/v1/events/${F.id}/field`, token: F.token } : null),
  // Every section's wall is told of the field's change at once: each reads within a second.
  spread: SPREAD_MS,
});

/** The field read again (``stale``: or as last made, for a wall its stream told); whether it
 * changed. */
async function readField({ stale = false } = {}) {
  const id = F.id;
  const headers = F.etag ? { "If-None-Match": F.etag } : {};
  if (stale) headers["Cache-Control"] = "max-stale";
  // The wall shows each row's place and totals: the brief rows, not every board's sentence.
  const response = await fieldReads(
    () => api("GET", `/events/${id}/field?rows=brief`, { token: F.token, headers }));
  if (!response || F.id !== id || response.status === 304) return false;
  F.data = response.data;
  F.etag = response.headers.get("ETag");
  return true;
}

function stopField() {
  live.stop();
  F.id = null;
}

async function fieldScreen(id) {
  banner(null);
  live.stop();
  const saved = Events.get(id) || {};
  Object.assign(F, { id, token: saved.tokens?.edit || saved.tokens?.read || null, etag: null, data: null });
  await readField();
  if (F.id !== id || !F.data) return;  // another screen opened meanwhile
  drawField(true);
  live.start();
}

/** The field as last read: ``first``, shown anew; else drawn again in place, where the
 * reader was (dom.redraw). */
function drawField(first) {
  const id = F.id;
  const data = F.data;
  const saved = Events.get(id) || {};
  const back = saved.tokens?.edit ? `#/events/${id}` : `#/events/${id}/board`;
  const root = h("section", { class: "screen field-view", id: "field-view" },
    h("div", { class: "sheet-head" },
      h("h1", {}, t("field.title")),
      h("p", { class: "lead" }, t("field.lead", { n: data.sections.length }))),
    sectionsCard(data),
    standingsCard(data),
    h("div", { class: "row tools" },
      h("button", { type: "button", class: "button", id: "field-refresh", onclick: () => live.now() }, t("field.refresh")),
      h("a", { class: "button", href: back, id: "field-back" }, t("field.back"))));
  redraw(root, first);
}

function sectionsCard(data) {
  return h("section", { class: "card field-sections", "aria-labelledby": "field-sections-title" },
    h("h2", { id: "field-sections-title" }, t("field.sections")),
    h("ul", { class: "plain", id: "field-sections" }, data.sections.map((s) => h("li", { "data-event": s.event },
      h("strong", {}, s.name), " ",
      s.host ? h("span", { class: "badge" }, t("field.host")) : null, " ",
      h("span", { class: "hint" }, t("field.sectionLine", {
        tables: s.tables, status: t(`ev.status.${s.status}`),
      }))))));
}

function standingsCard(data) {
  const rows = data.rows;
  return h("section", { class: "card field-standings", "aria-labelledby": "field-standings-title" },
    h("h2", { id: "field-standings-title" }, t("field.standings"), " ",
      data.provisional ? h("span", { class: "badge" }, t("field.provisional")) : null),
    data.boards_complete.length
      ? h("p", { class: "hint", id: "field-boards" }, t("field.boards", { boards: data.boards_complete.join(", ") }))
      : h("p", { class: "hint", id: "field-boards" }, t("field.noBoard")),
    h("table", { class: "standings", id: "field-table" },
      h("thead", {}, h("tr", {},
        h("th", { scope: "col" }, t("field.place")), h("th", { scope: "col" }, t("field.entrant")),
        h("th", { scope: "col" }, t("field.section")), h("th", { scope: "col" }, t("field.boardsPlayed")),
        h("th", { scope: "col" }, t("field.percentage")))),
      h("tbody", {}, rows.map((r) => h("tr", { "data-section": r.section },
        h("td", {}, String(r.place)), h("th", { scope: "row" }, r.entrant),
        h("td", {}, r.section_name), h("td", {}, String(r.boards)),
        h("td", {}, `${r.percentage} %`))))));
}

export { fieldScreen, stopField };
