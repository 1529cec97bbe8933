/* An entrant's own screen (docs/club-guide.md, "An evening that runs itself"): the link a
 * player gets at the door and keeps on the phone all evening. Where they sit now ("round 2 ·
 * table 5 · seat 2 · with Anna and Bruno") with a button that opens the table's game as that
 * seat's player, the round's clock, their standing and rounds played, and withdrawing from
 * the next round (asked first) or coming back. Read again every few seconds (with its ETag),
 * like the event's other live screens. The organiser's phone opens it too, with the
 * organiser's token. */
import { api, inOrder, problemErrors } from "./api.js";
import { append, h, redraw, toast } from "./dom.js";
import { I18n, t } from "./i18n.js";
import { problemText } from "./problems.js";
import { QR } from "./qr.js";
import { roundClock } from "./roundclock.js";
import { copy } from "./share.js";
import { Events } from "./stores.js";
import { watch } from "./watch.js";

const E = {
  id: null, number: null, token: null, reading: null, etag: null, confirm: false, busy: false,
  errors: [], live: true, at: null,
};

const live = watch(async (current) => {
  if (E.id === null) return;
  try {
    const changed = await readEntrant();
    if (!current()) return;
    E.live = true;
    if (changed) drawEntrant(false);
    else showLive();
  } catch (error) {
    if (!current()) return;
    E.live = false;
    showLive();
    throw error;
  }
}, {
  follow: () => (E.id === null ? null
    : { path: `/api/v1/events/${E.id}/entrants/${E.number}`, token: E.token }),
});

const entrantReads = inOrder();

function stopEntrant() {
  live.stop();
}

async function readEntrant() {
  const headers = E.etag ? { "If-None-Match": E.etag } : {};
  const key = `${E.id}/${E.number}`;
  const response = await entrantReads(
    () => api("GET", `/events/${E.id}/entrants/${E.number}`, { token: E.token, headers }));
  if (!response || `${E.id}/${E.number}` !== key) return false;
  E.at = new Date();
  if (response.status === 304) return false;
  E.reading = response.data;
  E.etag = response.headers.get("ETag");
  return true;
}

/** Entrant ``number`` of event ``id``: by the entrant's own token this phone keeps, or the
 * organiser's. */
async function entrantScreen(id, number) {
  const saved = Events.get(id) || {};
  const own = saved.tokens?.entrant && String(saved.entrant) === String(number);
  const token = own ? saved.tokens.entrant : saved.tokens?.edit;
  if (!token) throw Object.assign(new Error(t("ev.notOpened")), { status: 401 });
  if (E.id !== id || E.number !== Number(number)) Object.assign(E, { confirm: false });
  Object.assign(E, { id, number: Number(number), token, etag: null, errors: [], busy: false, live: true });
  await readEntrant();
  if (own) {
    Events.put(id, { name: E.reading.event.name, format: E.reading.event.format, status: E.reading.event.status,
      entrantName: E.reading.name });
  }
  drawEntrant(true);
  live.start();
}

function list(names) {
  try {
    return new Intl.ListFormat(I18n.locale, { type: "conjunction" }).format(names);
  } catch (error) {
    return names.join(", ");
  }
}

function showLive() {
  const el = document.getElementById("entrant-live");
  if (!el) return;
  el.classList.toggle("offline", !E.live);
  const time = E.at ? E.at.toLocaleTimeString(I18n.locale) : "";
  el.querySelector(".live-text").textContent = E.live ? t("sheet.live", { time })
    : time ? t("sheet.offlineSince", { time }) : t("sheet.offline");
}

function drawEntrant(first) {
  const r = E.reading;
  const ev = r.event;
  const saved = Events.get(E.id) || {};
  const own = E.token === saved.tokens?.entrant;
  const root = h("section", { class: "screen entrant", id: "entrant", "data-entrant": r.entrant },
    h("div", { class: "sheet-head" },
      h("h1", {}, r.name),
      h("p", { class: "lead", id: "entrant-event" }, ev.name),
      r.players ? h("p", { class: "muted" }, r.players.join(" & ")) : null,
      h("p", { class: "badges" },
        h("span", { class: "live", id: "entrant-live" }, h("span", { class: "dot", "aria-hidden": "true" }),
          h("span", { class: "live-text" })))));
  // The welcome until the player is seated (or says they have read it).
  if (own && saved.justCheckedIn && !r.now && ev.status !== "over") root.append(welcome(r));
  root.append(nowCard(r));
  root.append(standingCard(r));
  append(root, [withdrawCard(r)]);
  if (!own && r.links?.entrant) root.append(linkCard(r.links.entrant, t("entrant.linkHint", { name: r.name })));
  root.append(h("div", { class: "row tools" },
    saved.tokens?.edit ? h("a", { class: "button", href: `#/events/${E.id}`, id: "to-organiser" }, t("entrant.toOrganiser")) : null,
    h("a", { class: "button", href: "#/" }, t("action.home"))));
  redraw(root, first);
  showLive();
}

/** Just checked in: welcome, the link to take on one's own phone (the door may be a
 * tablet), and the door again for the next arrival. */
function welcome(r) {
  const link = r.links?.entrant || (Events.get(E.id) || {}).links?.entrant;
  return h("section", { class: "card welcome", id: "welcome", "aria-labelledby": "welcome-title" },
    h("h2", { id: "welcome-title" }, t("entrant.welcome", { name: r.name })),
    h("p", {}, r.from_round > 1 ? t("entrant.fromRound", { n: r.from_round }) : t("entrant.keep")),
    link ? h("details", { class: "welcome-link", id: "welcome-link" },
      h("summary", {}, t("entrant.onMyPhone")),
      h("div", { class: "qr-box" }, QR.svg(link, t("entrant.qr", { name: r.name })))) : null,
    h("div", { class: "row" },
      h("button", { type: "button", class: "button", id: "welcome-ok", onclick: () => {
        Events.put(E.id, { justCheckedIn: false });
        drawEntrant(false);
      } }, t("entrant.ok")),
      h("button", { type: "button", class: "button", id: "next-arrival", onclick: nextArrival }, t("entrant.next"))));
}

/** The door's device (a tablet at the entrance) forgets this entrant's link and opens the
 * door for the next arrival. */
function nextArrival() {
  const saved = Events.get(E.id) || {};
  const tokens = { ...(saved.tokens || {}) };
  delete tokens.entrant;
  const links = { ...(saved.links || {}) };
  delete links.entrant;
  const all = Events.all();
  all[E.id] = { ...saved, tokens, links, justCheckedIn: false };
  delete all[E.id].entrant;
  delete all[E.id].entrantName;
  Events.write(all);
  location.hash = `#/events/${E.id}/door`;
}

/** Where the entrant sits in the round being played, or what they wait for. */
function nowCard(r) {
  const ev = r.event;
  const now = r.now;
  const box = h("section", { class: "card entrant-now", id: "entrant-now", "aria-labelledby": "now-title" });
  if (ev.status === "over") {
    box.append(h("h2", { id: "now-title" }, t("entrant.over")));
    return box;
  }
  if (now && now.bye) {
    box.append(h("h2", { id: "now-title" }, t("entrant.round", { n: now.round })),
      h("p", { id: "now-where", "data-bye": "true" }, t("entrant.bye")));
  } else if (now) {
    const seats = now.seats.map((s) => s.seat).join(", ");
    append(box, [h("h2", { id: "now-title" },
      [t("entrant.round", { n: now.round }), t("entrant.table", { n: now.table }),
        t(now.seats.length > 1 ? "entrant.seats" : "entrant.seat", { n: seats })].join(" · ")),
    now.with.length ? h("p", { id: "now-with" }, t("entrant.with", { names: list(now.with) })) : null,
    now.status === "finished" || now.status === "closed"
      ? h("p", { class: "hint", id: "now-done" }, t("entrant.tableDone")) : null]);
    for (const seat of now.seats) {
      if (!seat.link) continue;
      box.append(h("a", {
        class: "button primary big open-game", id: `open-seat-${seat.seat}`, href: seat.link,
      }, now.seats.length > 1 ? t("entrant.openAs", { name: seat.name }) : t("entrant.open")));
    }
  } else {
    const next = Math.max((ev.current_round || 0) + 1, r.from_round);
    const withdrawn = r.withdrawn && r.withdrawn_from <= next;
    box.append(h("h2", { id: "now-title" }, withdrawn ? t("entrant.withdrawnTitle") : t("entrant.waiting", { n: next })),
      h("p", { class: "hint", id: "now-where" }, withdrawn ? t("entrant.withdrawnHint") : t("entrant.waitingHint")));
  }
  const clock = r.clock && now ? roundClock({ ends_at: r.clock.ends_at, closes_at: r.clock.auto_close ? r.clock.closes_at : null }, "entrant-clock") : null;
  if (clock) box.append(clock);
  return box;
}

function standingCard(r) {
  const s = r.standing;
  const box = h("section", { class: "card entrant-standing", id: "entrant-standing", "aria-labelledby": "standing-title" },
    h("h2", { id: "standing-title" }, t("entrant.standing")));
  if (!s) {
    box.append(h("p", { class: "muted" }, t("entrant.noStanding")));
  } else {
    box.append(h("p", { class: "entrant-place", id: "entrant-place" }, t("entrant.place", { n: s.place })),
      h("p", {}, [t("entrant.matchPoints", { n: s.match_points }), t("entrant.points", { n: s.points }),
        s.difference !== undefined ? t("entrant.difference", { n: s.difference }) : null].filter(Boolean).join(" · ")));
  }
  box.append(h("p", { class: "hint", id: "entrant-rounds" }, t("entrant.roundsPlayed", { n: r.rounds_played })));
  return box;
}

/** Withdrawing from the next round (asked first), or coming back before it starts. */
function withdrawCard(r) {
  const ev = r.event;
  if (ev.status === "over") return null;
  const box = h("section", { class: "card entrant-withdraw", id: "entrant-withdraw" });
  box.append(h("div", { class: "errors", id: "entrant-errors", role: "alert" },
    E.errors.map((e) => h("p", { class: "field-error" }, problemText(e)))));
  if (r.withdrawn) {
    box.append(h("p", { id: "withdrawn-line" }, t("entrant.withdrawnFrom", { n: r.withdrawn_from })),
      h("button", { type: "button", class: "button primary", id: "entrant-return", disabled: E.busy,
        onclick: () => act("return") }, t("entrant.return")));
  } else if (E.confirm) {
    box.append(h("div", { class: "card warn", role: "group", "aria-labelledby": "withdraw-text" },
      h("p", { id: "withdraw-text" }, t(r.now && !r.now.bye ? "entrant.withdrawAfter" : "entrant.withdrawAsk")),
      h("div", { class: "row" },
        h("button", { type: "button", class: "button danger", id: "withdraw-yes", disabled: E.busy,
          onclick: () => act("withdraw") }, t("entrant.withdrawYes")),
        h("button", { type: "button", class: "button", id: "withdraw-no",
          onclick: () => { E.confirm = false; drawEntrant(false); document.getElementById("entrant-withdraw-ask")?.focus(); } },
        t("action.cancel")))));
  } else {
    box.append(h("button", { type: "button", class: "button", id: "entrant-withdraw-ask",
      onclick: () => { E.confirm = true; drawEntrant(false); document.getElementById("withdraw-no")?.focus(); } },
    t("entrant.withdraw")));
  }
  return box;
}

async function act(what) {
  E.busy = true;
  E.errors = [];
  drawEntrant(false);
  try {
    const { data } = await api("POST", `/events/${E.id}/entrants/${E.number}/${what}`, { token: E.token });
    E.reading = data;
    E.etag = null;
    E.confirm = false;
    toast(t(what === "withdraw" ? "entrant.withdrawn" : "entrant.returned"));
  } catch (error) {
    E.errors = problemErrors(error);
  }
  E.busy = false;
  drawEntrant(false);
}

/** An entrant's link shown again (the organiser's phone), as a QR code to scan and a field
 * to copy. */
function linkCard(link, hint) {
  return h("section", { class: "card entrant-link", id: "entrant-link" },
    h("h2", {}, t("entrant.link")),
    h("p", { class: "hint" }, hint),
    h("div", { class: "qr-box" }, QR.svg(link, t("entrant.link"))),
    h("label", { for: "link-entrant", class: "visually-hidden" }, t("entrant.link")),
    h("input", { id: "link-entrant", class: "link", type: "text", readonly: true, value: link, onfocus: (e) => e.target.select() }),
    h("button", { type: "button", class: "button small", onclick: () => copy(link, "link-entrant") }, t("share.copy")));
}

export { entrantScreen, stopEntrant };
