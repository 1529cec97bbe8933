/* The event on screen (the organiser's view or the public board): its id and token, the event
 * and its standings as last read with their entity tags, each round's table links (for the
 * organiser), and the watch that keeps them current (watch.js): every few seconds, both asked
 * with If-None-Match, so an unchanged event costs two 304s. It draws nothing: the screen on
 * show says what to redraw when something moved. */
import { api } from "./api.js";
import { I18n, t } from "./i18n.js";
import { watch } from "./watch.js";

const EV = {
  id: null, token: null, event: null, standings: null, etags: {}, links: {},
  onChange: null, lastUpdate: null, live: true,
};

/** The event on screen, read again while it is: the screen told what moved, the "updated at"
 * line said. */
const live = watch(async (current, told) => {
  if (!EV.id) return;
  try {
    // Told by its stream, the screen takes the newest state the service has made
    // (max-stale): the stream made it before it told, and tells of the next; it never waits
    // for a state a later hand is still making. A poll asks for the state as it is now.
    const changed = await refreshEvent({ stale: told });
    if (!current()) return;
    EV.live = true;
    if (changed && EV.onChange) await EV.onChange();
  } catch (error) {
    if (!current()) return;
    EV.live = false;
    showLive();
    throw error;
  }
  showLive();
}, { follow: () => (EV.id ? { path: `/api/v1/events/${EV.id}`, token: EV.token } : null) });

/** The watch stopped, and whatever read is on its way dropped when it comes back. */
function stopEventPolling() {
  live.stop();
  EV.onChange = null;
}

/** The event ``id`` read afresh with ``token`` (its standings too). */
async function openEvent(id, token) {
  stopEventPolling();
  Object.assign(EV, {
    id, token, event: null, standings: null, etags: {}, links: {}, lastUpdate: null, live: true,
  });
  await refreshEvent();
}

async function read(id, path, key, stale) {
  const headers = EV.etags[key] ? { "If-None-Match": EV.etags[key] } : {};
  if (stale) headers["Cache-Control"] = "max-stale";
  const response = await api("GET", path, { token: EV.token, headers });
  if (EV.id !== id || response.status === 304) return false;
  EV[key] = response.data;
  EV.etags[key] = response.headers.get("ETag");
  return true;
}

/** The event and its standings as they are now (``stale``: or as last made, while the
 * service makes them as they are now, for a screen its stream told); true when either
 * changed. */
async function refreshEvent({ stale = false } = {}) {
  const id = EV.id;
  const [event, standings] = await Promise.all([
    read(id, `/events/${id}`, "event", stale), read(id, `/events/${id}/standings`, "standings", stale),
  ]);
  if (EV.id === id) EV.lastUpdate = new Date();
  return event || standings;
}

/** An answer that changed the event (a swap, a closed round): kept as the event now is, and
 * its standings asked for again at once. */
async function eventChanged(data) {
  if (data) {
    EV.event = data;
    EV.etags.event = null;
  }
  await refreshEvent().catch(() => {});
}

/** The tables' links of round ``number`` (the edit token only), read once. */
async function roundLinks(number, { again = false } = {}) {
  if (!EV.links[number] || again) {
    const id = EV.id;
    const { data } = await api("GET", `/events/${id}/rounds/${number}`, { token: EV.token });
    if (EV.id !== id) return null;
    EV.links[number] = data;
  }
  return EV.links[number];
}

/** Read every few seconds while the page is on show; ``onChange`` redraws the screen. */
function watchEvent(onChange) {
  EV.onChange = onChange;
  live.start();
}

/** The "updated at" line, in place (``#event-live``). */
function showLive() {
  const el = document.getElementById("event-live");
  if (!el) return;
  el.classList.toggle("offline", !EV.live);
  const time = EV.lastUpdate ? EV.lastUpdate.toLocaleTimeString(I18n.locale) : "";
  el.querySelector(".live-text").textContent = EV.live ? t("sheet.live", { time })
    : time ? t("sheet.offlineSince", { time }) : t("sheet.offline");
}

export { EV, eventChanged, openEvent, refreshEvent, roundLinks, showLive, stopEventPolling, watchEvent };
