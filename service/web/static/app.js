/* Segnapunti's phone page: start a game, share it, enter hands the way a table counts them,
 * and keep the sheet on screen; run a club night or a tournament and show its board on the
 * wall. Plain JavaScript over the public API (/api/v1); game and event tokens live in the URL
 * fragment, in memory and in localStorage, and travel only as "Authorization: Bearer".
 *
 * This module is the page's entry: the router (an address, a screen), the language switch and
 * the start. The page's state is in state.js (an event's in eventstate.js), each screen in its
 * own module (home.js, rules.js, newgame.js, share.js, sheet.js, handform.js, eventform.js for
 * the new event, events.js for the organiser's view, board.js for the public board, clubs.js
 * for a club's page, clubseats.js for a game or event started from a club), over the API
 * client (api.js), the stores and the outbox (stores.js) and the building blocks (dom.js).
 * None of them imports this one: what a screen needs of another it imports, what the state
 * needs of a screen (the sheet's redraw) is given to it here. */
import { adminScreen } from "./admin.js";
import { boardScreen } from "./board.js";
import { clubScreen, newClubScreen } from "./clubs.js";
import { openClub } from "./clubseats.js";
import { api } from "./api.js";
import { h, show } from "./dom.js";
import { doorScreen, stopDoor } from "./door.js";
import { entrantScreen, stopEntrant } from "./entrant.js";
import { newEventScreen } from "./eventform.js";
import { fieldScreen, stopField } from "./field.js";
import { organiserScreen } from "./events.js";
import { stopEventPolling } from "./eventstate.js";
import { handScreen } from "./handform.js";
import { homeScreen } from "./home.js";
import { I18n, t } from "./i18n.js";
import { memberScreen } from "./member.js";
import { newGameScreen } from "./newgame.js";
import { rulesScreen } from "./rules.js";
import { shareScreen } from "./share.js";
import { drawSheet, sheetScreen } from "./sheet.js";
import { G, flushAll, flushOutbox, screens, stopPolling } from "./state.js";
import { Clubs, Events, Store } from "./stores.js";

// -- routing -----------------------------------------------------------------------------

async function route() {
  const hash = location.hash || "#/";
  stopEventPolling();
  stopDoor();
  stopEntrant();
  stopField();
  // The operator's page, at its own address (/admin): its screen, whatever the page's others.
  if (location.pathname === "/admin" && hash === "#/") return adminScreen();
  let m = /^#\/events\/([a-z0-9]{1,32})\/door\?(.*)$/.exec(hash);
  if (m) {
    // The door's link (a tablet at the entrance, a phone that scanned the poster).
    const token = new URLSearchParams(m[2]).get("token");
    if (token) Events.put(m[1], { tokens: { door: token } });
    history.replaceState(null, "", `#/events/${m[1]}/door`);
    return route();
  }
  m = /^#\/events\/([a-z0-9]{1,32})\/entrants\/(\d{1,5})\?(.*)$/.exec(hash);
  if (m) {
    // An entrant's own link: kept on this phone all evening (the organiser's phone opens
    // the entrant's screen with its own token, and keeps none).
    const token = new URLSearchParams(m[3]).get("token");
    const saved = Events.get(m[1]) || {};
    if (token && token !== saved.tokens?.edit) {
      Events.put(m[1], { tokens: { entrant: token }, entrant: Number(m[2]) });
    }
    history.replaceState(null, "", `#/events/${m[1]}/entrants/${m[2]}`);
    return route();
  }
  m = /^#\/events\/([a-z0-9]{1,32})(\/board)?\?(.*)$/.exec(hash);
  if (m) {
    // An event's link: the organiser's (edit) opens its view, the room's (read) its board.
    const token = new URLSearchParams(m[3]).get("token");
    if (token) Events.put(m[1], { tokens: { [m[2] ? "read" : "edit"]: token } });
    history.replaceState(null, "", `#/events/${m[1]}${m[2] || ""}`);
    return route();
  }
  m = /^#\/games\/([a-z0-9]{1,32})\?(.*)$/.exec(hash);
  if (m) {
    const token = new URLSearchParams(m[2]).get("token");
    const saved = Store.get(m[1]) || {};
    if (token) {
      let kind = null;
      if (saved.tokens) kind = token === saved.tokens.edit ? "edit" : token === saved.tokens.read ? "read" : null;
      else if (saved.token === token) kind = saved.kind || null;
      Store.put(m[1], { token, kind });
      if (G.id === m[1]) G.id = null;
    }
    // The token stays out of the address bar (and out of anything copied from it).
    history.replaceState(null, "", `#/games/${m[1]}`);
    return route();
  }
  m = /^#\/clubs\/([a-z0-9]{1,32})\?(.*)$/.exec(hash);
  if (m) {
    // A club's link: the secretary's (edit) or the members' (read); the service says which.
    const token = new URLSearchParams(m[2]).get("token");
    if (token) Clubs.put(m[1], { tokens: await clubTokenKind(m[1], token) });
    history.replaceState(null, "", `#/clubs/${m[1]}`);
    return route();
  }
  try {
    if ((m = /^#\/games\/([a-z0-9]{1,32})$/.exec(hash))) return await sheetScreen(m[1]);
    if ((m = /^#\/games\/([a-z0-9]{1,32})\/share$/.exec(hash))) return await shareScreen(m[1]);
    if ((m = /^#\/games\/([a-z0-9]{1,32})\/hand$/.exec(hash))) return await handScreen(m[1], null);
    if ((m = /^#\/games\/([a-z0-9]{1,32})\/hands\/(\d+)$/.exec(hash))) {
      return await handScreen(m[1], Number(m[2]));
    }
    stopPolling();
    G.id = null;
    G.game = null;
    G.onChange = null;
    if (hash === "#/new") return await newGameScreen();
    if (hash === "#/events/new") return await newEventScreen();
    if (hash === "#/clubs/new") return newClubScreen();
    if ((m = /^#\/clubs\/([a-z0-9]{1,32})$/.exec(hash))) return await clubScreen(m[1]);
    if ((m = /^#\/clubs\/([a-z0-9]{1,32})\/members\/([a-z0-9]{1,32})$/.exec(hash))) {
      return await memberScreen(m[1], m[2]);
    }
    // A game or an event of a club: the usual forms, the seats filled from its roster.
    if ((m = /^#\/clubs\/([a-z0-9]{1,32})\/new$/.exec(hash))) return await newGameScreen(await openClub(m[1]));
    if ((m = /^#\/clubs\/([a-z0-9]{1,32})\/events\/new$/.exec(hash))) return await newEventScreen(await openClub(m[1]));
    if ((m = /^#\/events\/([a-z0-9]{1,32})$/.exec(hash))) return await organiserScreen(m[1]);
    if ((m = /^#\/events\/([a-z0-9]{1,32})\/board$/.exec(hash))) return await boardScreen(m[1]);
    if ((m = /^#\/events\/([a-z0-9]{1,32})\/door$/.exec(hash))) return await doorScreen(m[1]);
    if ((m = /^#\/events\/([a-z0-9]{1,32})\/field$/.exec(hash))) return await fieldScreen(m[1]);
    if ((m = /^#\/events\/([a-z0-9]{1,32})\/entrants\/(\d{1,5})$/.exec(hash))) return await entrantScreen(m[1], m[2]);
    if ((m = /^#\/rules\/([a-z0-9-]{1,40})(?:\/([^/]+))?$/.exec(hash))) {
      return await rulesScreen(m[1], m[2] ? decodeURIComponent(m[2]) : null);
    }
    return homeScreen();
  } catch (error) {
    return errorScreen(error);
  }
}

/** Which of a club's tokens ``token`` is: the secretary's opens the members' link (edit),
 * the members' does not (read). Unknown (no network), it is kept as the members'. */
async function clubTokenKind(id, token) {
  try {
    await api("GET", `/clubs/${id}/links`, { token });
    return { edit: token };
  } catch (error) {
    return { read: token };
  }
}

function errorScreen(error) {
  stopPolling();
  stopEventPolling();
  const status = error.status;
  const hash = location.hash || "";
  const notOpened = hash.startsWith("#/events/") ? "ev.notOpened"
    : hash.startsWith("#/clubs/") ? "club.notOpened" : "err.gameNotOpened";
  const text = status === 401 || status === 404 ? t(notOpened)
    : status === 0 ? t("err.network") : error.message;
  show(h("section", { class: "screen" },
    h("h1", {}, t("err.title")),
    h("p", { class: "card" }, text),
    h("a", { class: "button primary", href: "#/" }, t("action.home"))));
}

// -- start -------------------------------------------------------------------------------

// The sheet, for the state to redraw once the outbox has sent.
screens.drawSheet = drawSheet;

/** The page in ``lang``: its words fetched if this phone has not read them yet (a language
 * that cannot be had now, with no network and not kept, leaves the page as it is). */
async function setLanguage(lang) {
  try {
    await I18n.setLang(lang);
  } catch (error) {
    return false;
  }
  document.querySelectorAll("[data-lang]").forEach((b) => b.setAttribute("aria-pressed", b.dataset.lang === I18n.lang ? "true" : "false"));
  document.querySelector(".skip").textContent = t("action.skip");
  document.querySelector("meta[name='description']")?.setAttribute("content", t("page.description"));
  return true;
}

document.querySelectorAll("[data-lang]").forEach((button) => button.addEventListener("click", async () => {
  if (!(await setLanguage(button.dataset.lang))) return;
  G.id && G.game && location.hash === `#/games/${G.id}` ? drawSheet(false) : route();
}));
window.addEventListener("hashchange", () => { route(); });
// The network back: every game's waiting hands are sent, the one on screen first.
window.addEventListener("online", () => {
  flushOutbox(G.id).then(flushAll).then(() => {
    if ((location.hash || "#/") === "#/") homeScreen(false);  // what no card lists, drawn again
  });
});
// The page and its files kept by a service worker, so that it opens with no network. Only
// on a secure origin (https, or localhost): on plain http over a club's Wi-Fi the browser
// offers none, and the page works as before, online.
if ("serviceWorker" in navigator) {
  navigator.serviceWorker.register("/sw.js").catch(() => { /* not offered here */ });
}
/** The app opened at its start (no address of a screen) on a phone that checked in at an
 * event lately, still being played: it opens that entrant's own screen again. */
function resume() {
  if ((location.hash || "#/") !== "#/" || location.pathname !== "/") return;
  const lately = Date.now() - 12 * 3600 * 1000;
  const entrant = Object.values(Events.all())
    .filter((e) => e.tokens?.entrant && e.entrant !== undefined && e.status !== "over" && (e.seen || 0) > lately)
    .sort((a, b) => (b.seen || 0) - (a.seen || 0))[0];
  if (entrant) history.replaceState(null, "", `#/events/${entrant.id}/entrants/${entrant.entrant}`);
}

// Whatever waits to be sent since the last visit goes once the first screen is drawn.
resume();
setLanguage(I18n.lang).then(route).then(flushAll);
