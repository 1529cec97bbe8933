/* The page's state: the game on screen (``G``: its id, token and access, the game as last
 * read, the variant's data, which hands are open), the variants' data and rulebooks as read
 * once, the watch that keeps the game current (watch.js), and the sending of the hands and
 * players' verdicts the outbox keeps.
 * The screens read and change it; it draws no screen, and imports none: the one redraw it
 * asks for (the sheet, once the outbox has sent) is put in ``screens`` by app.js. */
import { ApiError, api, problemErrors } from "./api.js";
import { banner, h, toast } from "./dom.js";
import { I18n, t } from "./i18n.js";
import { Copies, Events, Outbox, Store } from "./stores.js";
import { watch } from "./watch.js";

// -- the variants' data and rulebooks, read once ------------------------------------------

const variantCache = { list: null, detail: {} };

async function variants() {
  if (!variantCache.list) variantCache.list = (await api("GET", "/variants")).data;
  return variantCache.list;
}

async function variantDetail(id) {
  if (!variantCache.detail[id]) {
    variantCache.detail[id] = (await api("GET", `/variants/${id}`)).data;
  }
  return variantCache.detail[id];
}

// Each variant's rulebook, by language: what a line's or a refusal's rule opens.
const rulesCache = {};

async function rulebook(variant) {
  const key = `${I18n.lang}/${variant}`;
  if (!rulesCache[key]) rulesCache[key] = (await api("GET", `/variants/${variant}/rules`)).data;
  return rulesCache[key];
}

/** A rule a line or a refusal cites, as a small link to its section of the rulebook: its
 * title where the book is at hand, else the word "rule". */
function ruleLink(ref, variant) {
  if (!ref || !variant) return null;
  const book = rulesCache[`${I18n.lang}/${variant}`];
  const section = book && book.sections.find((s) => s.ref === ref);
  return h("a", {
    class: "rule", href: `#/rules/${variant}/${encodeURIComponent(ref)}`,
    title: section ? `${ref} · ${section.title}` : ref,
  }, section ? section.title : t("rules.rule"));
}

function variantName(v) {
  return I18n.variantName(v.id, v.name);
}

/** The next hand's number and dealer, counting the hands still waiting to be sent: a
 * thrown-in deal leaves the deal where it was. At a duplicate table the hand is
 * the table's next board (`board`), dealt by that board's dealer. */
function nextHand(g) {
  let number = g.hands.length + 1;
  let dealer = g.next_dealer;
  for (const entry of Outbox.of(g.id)) {
    if (entry.kind !== "add") continue;
    number += 1;
    if (!entry.record.thrown_in && dealer !== null && dealer !== undefined) dealer = (dealer + 1) % g.seats.length;
  }
  if (g.boards) {
    const board = g.boards[number - 1] || null;
    return { number, dealer: board ? board.dealer : null, board };
  }
  return { number, dealer, board: null };
}

/** How many hands the game holds, if it says: a duplicate table's boards, or the variant's
 * hands a game. */
function handsInGame(g, detail) {
  return g.boards ? g.boards.length : detail.hands_per_game;
}

// -- the outbox, sent ---------------------------------------------------------------------

const sending = { busy: false, timer: null };

/** Send the game's waiting hands, in order, until one cannot go: with the game's token as
 * this phone keeps it (a newer link opened since included), else with the one kept with each
 * hand when it was saved, so a game forgotten on this phone since still gets them. */
async function flushOutbox(gameId) {
  if (sending.busy || !gameId) return;
  const waiting = Outbox.of(gameId);
  if (!waiting.length || waiting[0].problem) return;
  const saved = Store.get(gameId);
  const tokenOf = (entry) => saved?.token || entry.token;
  if (!tokenOf(waiting[0])) return;
  sending.busy = true;
  clearTimeout(sending.timer);
  sending.timer = null;
  let sent = 0;
  let vouched = 0;
  let evening = null;  // the scorekeeper's last word on the evening sent: "end" or "reopen"
  let refused = false;
  try {
    for (const entry of waiting) {
      if (entry.problem) break;
      try {
        if (entry.kind === "verdict") {
          // A player's verdict, on the version of the hand they read (If-Match).
          await api("POST", `/games/${gameId}/hands/${entry.number}/confirmations`, {
            body: entry.body, token: tokenOf(entry),
            headers: { "If-Match": entry.ifMatch, "Idempotency-Key": entry.key },
          });
          Outbox.remove(entry.id);
          vouched += 1;
          continue;
        }
        if (entry.kind === "end" || entry.kind === "reopen") {
          // "The evening is over", or taken back: with its key, so a resend is the same word.
          await api("POST", `/games/${gameId}/${entry.kind}`, {
            token: saved.token, headers: { "Idempotency-Key": entry.key },
          });
          Outbox.remove(entry.id);
          evening = entry.kind;
          continue;
        }
        if (entry.kind === "add") {
          await api("POST", `/games/${gameId}/hands`, {
            body: entry.record, token: tokenOf(entry), headers: { "Idempotency-Key": entry.key },
          });
        } else if (entry.kind === "put") {
          await api("PUT", `/games/${gameId}/hands/${entry.number}`, {
            body: entry.record, token: tokenOf(entry), headers: { "If-Match": entry.ifMatch },
          });
        } else {
          await api("DELETE", `/games/${gameId}/hands/${entry.number}`, {
            token: tokenOf(entry), headers: { "If-Match": entry.ifMatch },
          });
        }
        Outbox.remove(entry.id);
        sent += 1;
      } catch (error) {
        if (entry.kind === "verdict" && error.status === 412) {
          // The hand was corrected meanwhile: the verdict spoke for a version that is gone,
          // and the player is asked about the new one.
          Outbox.remove(entry.id);
          refused = true;
          toast(t("verdict.changed", { n: entry.number }));
          continue;
        }
        if (error.status === 0 || error.status >= 500 || error.status === 429 ||
            (error.status === 409 && error.problem && error.problem.code === "concurrent_change")) {
          // Not reached (or not now): again later, waiting longer each time, a minute at most.
          const tries = (entry.tries || 0) + 1;
          Outbox.update(entry.id, { tries });
          sending.timer = setTimeout(() => flushOutbox(gameId), Math.min(60, 2 ** (tries - 1)) * 1000);
        } else {
          Outbox.update(entry.id, { problem: { status: error.status, errors: problemErrors(error) } });
          refused = true;
        }
        break;
      }
    }
  } finally {
    sending.busy = false;
  }
  if (G.id === gameId) {
    if (sent || vouched || evening || refused) {  // a refusal says the game moved on: read it as it is now
      G.etag = null;
      await refreshGame().catch(() => {});
    }
    if (sent) toast(t("outbox.sent", { n: sent }));
    else if (vouched) toast(t("outbox.sentVerdicts", { n: vouched }));
    else if (evening) toast(t(evening === "end" ? "sheet.ended" : "sheet.reopened"));
    if (location.hash === `#/games/${gameId}`) screens.drawSheet(false);
  }
}

/** Send what waits of every game, one game after another: on start, when the network comes
 * back, and on the home screen, whatever this phone still keeps of each game. */
async function flushAll() {
  for (const gameId of Outbox.games()) await flushOutbox(gameId);
}

// -- the current game --------------------------------------------------------------------

const G = {
  id: null, token: null, kind: null, game: null, etag: null, carried: null, detail: null,
  onChange: null, expanded: new Set(), lastUpdate: null,
};

/** What the state asks of the screens, filled in by app.js at start-up. */
const screens = {
  drawSheet: (first) => {},  // the sheet redrawn in place (``first``: as when it opens)
};

/** The game on screen, read again while it is: what changed redrawn (``G.onChange``), the
 * "updated at" line said, and the outbox sent. */
const live = watch(async (current) => {
  if (!G.id) return;
  try {
    const changed = await refreshGame();
    if (!current()) return;
    // Drawn once the game's variant is known (a game still opening is drawn by its screen).
    if (changed && G.onChange && G.detail) G.onChange();
    setLive(true);
    if (!sending.timer || !Outbox.of(G.id).length) flushOutbox(G.id);
  } catch (error) {
    if (current()) setLive(false);
    throw error;
  }
}, {
  follow: () => (G.id ? {
    path: `/api/v1/games/${G.id}`,
    token: G.token,
    // A game's change event carries the game as a read answers it: kept for the read it
    // brings, which then asks the service nothing.
    told: (data) => {
      if (data.kind === "game" && data.etag && data.body) {
        G.carried = { etag: data.etag, game: data.body };
      }
    },
  } : null),
});

/** The game on screen watched from now (a screen that has just drawn it). */
function schedulePoll() {
  live.start();
}

function stopPolling() {
  live.stop();
}

function setLive(ok) {
  const el = document.getElementById("live");
  if (!el) return;
  el.classList.toggle("offline", !ok);
  const time = G.lastUpdate ? G.lastUpdate.toLocaleTimeString(I18n.locale) : "";
  el.querySelector(".live-text").textContent = ok ? t("sheet.live", { time })
    : time ? t("sheet.offlineSince", { time }) : t("sheet.offline");
}

/** Who leads the game (its winners once it is over): their columns' labels and score, or
 * null before any hand. What the home list says of a game beside its date and variant. */
function leaderOf(game) {
  const columns = game.columns || [];
  const score = (c) => (game.balances ? game.balances[String(c.seats[0])] : game.totals?.[c.key]) ?? 0;
  if (!(game.hands_played ?? (game.hands || []).length) || !columns.length) return null;
  let best = columns.filter((c) => (game.winners || []).includes(c.key));
  if (!best.length) {
    const top = Math.max(...columns.map(score));
    best = columns.filter((c) => score(c) === top);
  }
  return { names: best.map((c) => c.label), score: score(best[0]) };
}

function remember(game, patch = {}) {
  return Store.put(game.id, {
    variant: game.variant, seats: game.seats, status: game.status,
    hands: game.hands_played ?? game.hands.length, created: game.created_at, leader: leaderOf(game),
    ...patch,
  });
}

async function refreshGame() {
  const carried = G.carried;
  G.carried = null;
  if (carried && carried.game.id === G.id && G.kind && G.etag) {
    // The stream brought the game: as a read would, without one (the token's access and
    // seat are as the last read said; a token revoked ends the stream instead). A read
    // asked for afresh (no entity tag: after this phone's own write) asks the service.
    G.lastUpdate = new Date();
    if (carried.etag === G.etag) return false;
    return took(carried.game, carried.etag);
  }
  const headers = G.etag ? { "If-None-Match": G.etag } : {};
  const response = await api("GET", `/games/${G.id}`, { token: G.token, headers });
  G.lastUpdate = new Date();
  // The service says what this phone's token may do: no change has to be tried to learn it.
  const access = response.headers.get("Game-Access");
  if (access) G.kind = access;
  // A player's link speaks for one seat: the page shows that player their own buttons.
  const seat = response.headers.get("Game-Seat");
  G.seat = seat === null ? null : Number(seat);
  if (response.status === 304) return false;
  return took(response.data, response.headers.get("ETag"));
}

/** The game as read now (its entity tag ``etag``): kept, remembered, and copied for offline. */
function took(game, etag) {
  G.game = game;
  G.etag = etag;
  if (G.copyAt) banner(null);  // the network is back: the copy's notice goes
  G.copyAt = null;
  remember(G.game);
  Copies.keep(G.game, G.detail);
  return true;
}

/** The game being opened, while it is: a second screen asking for the same game (a route
 * run twice, a tap on "new hand" while the sheet still loads) waits for that one instead of
 * emptying ``G`` under it. */
let opening = null;

/** The game ``id`` in ``G``, with its variant's detail: at once when it is there already. */
function openGame(id) {
  if (G.id === id && G.game && G.detail) return Promise.resolve();
  if (opening && opening.id === id) return opening.promise;
  const promise = loadGame(id).finally(() => {
    if (opening && opening.promise === promise) opening = null;
  });
  opening = { id, promise };
  return promise;
}

async function loadGame(id) {
  stopPolling();
  const saved = Store.get(id);
  if (!saved || !saved.token) throw new ApiError(401, { detail: t("err.noToken") });
  Object.assign(G, {
    id, token: saved.token, kind: saved.kind || null, seat: saved.seat ?? null, game: null, etag: null, carried: null, detail: null,
    expanded: new Set(), copyAt: null,
  });
  try {
    await refreshGame();
    G.detail = await variantDetail(G.game.variant);
    Copies.keep(G.game, G.detail);
    flushOutbox(id);
  } catch (error) {
    // No network: the game as this phone last saw it, said to be a copy, and when from.
    const copy = error.status === 0 ? Copies.get(id) : null;
    if (!copy) throw error;
    Object.assign(G, { game: copy.game, detail: copy.detail, copyAt: copy.at, etag: null });
    banner(t("offline.copy", { time: new Date(copy.at).toLocaleString(I18n.locale, {
      day: "numeric", month: "short", hour: "2-digit", minute: "2-digit" }) }), "warn");
    return;
  }
  Store.put(id, { kind: G.kind, seat: G.seat });
}

const canEdit = () => G.kind === "edit";

/** Where a correction of this game's hands goes: the game itself while it takes them; once
 * its round of an event is closed, the event's own address, when this phone holds the
 * event's edit token (the organiser's: they may still correct a closed round's hands);
 * otherwise nowhere (``null``). */
function correctionRoute() {
  const event = G.game && G.game.event;
  if (!event || !event.closed) return canEdit() ? { prefix: `/games/${G.id}`, token: G.token } : null;
  const token = Events.get(event.id)?.tokens?.edit;
  return token ? {
    prefix: `/events/${event.id}/rounds/${event.round}/tables/${event.table}`, token, organiser: true,
  } : null;
}

function seatName(seat) {
  return G.game.seats[seat] ?? `#${seat + 1}`;
}

function sideNames(seats) {
  return seats.map((s) => seatName(s)).join(" & ");
}

export {
  G, canEdit, correctionRoute, flushAll, flushOutbox, handsInGame, nextHand, openGame, refreshGame, rulebook, ruleLink, rulesCache,
  schedulePoll, screens, seatName, sideNames, stopPolling, variantDetail, variantName, variants,
};
