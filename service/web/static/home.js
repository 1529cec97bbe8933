/* The home screen: start a game or an event (a club night, a tournament), open one this phone
 * keeps (or forget it, after saying what is lost), read a family's rules. Whatever waits to
 * be sent is sent from here too, the hands of a game forgotten since included. */
import { api } from "./api.js";
import { banner, h, show } from "./dom.js";
import { I18n, t } from "./i18n.js";
import { RULEBOOKS } from "./rules.js";
import { flushAll } from "./state.js";
import { Clubs, Events, Outbox, Store } from "./stores.js";

/** Who may create on this service (health's ``creation``: open, clubs, admin), asked once;
 * until it answers (or offline), the page offers what an open service takes. */
let creation = "open";
let creationAsked = false;

function askCreation() {
  if (creationAsked) return;
  creationAsked = true;
  api("GET", "/health").then(({ data }) => {
    if (data && data.creation && data.creation !== creation) {
      creation = data.creation;
      if ((location.hash || "#/") === "#/" && location.pathname !== "/admin") homeScreen(false);
    }
  }).catch(() => { creationAsked = false; });
}

/** The row being forgotten, if any (its list's id and the kept id): it asks first. */
const forgetting = { list: null, id: null };

/** What this phone keeps in ``store``, the most recently seen first, as a list: each a link
 * (``item`` gives its address, its lines, the words of its forget button and what forgetting
 * it loses) and a button to forget it on this phone, which asks first. */
function keptList(store, id, item) {
  const list = h("ul", { class: "game-list", id });
  const kept = Object.values(store.all()).sort((a, b) => (b.seen || 0) - (a.seen || 0));
  for (const saved of kept) {
    const { href, lines, forget, lost } = item(saved);
    if (forgetting.list === id && forgetting.id === saved.id) {
      list.append(h("li", { class: "game-item forgetting" }, forgetCard(store, id, saved, forget, lost)));
      continue;
    }
    list.append(h("li", { class: "game-item" },
      h("a", { href, class: "game-link" }, ...lines),
      h("button", {
        type: "button", class: "icon-button forget", "aria-label": forget, "data-id": saved.id,
        onclick: () => {
          Object.assign(forgetting, { list: id, id: saved.id });
          homeScreen();
          document.getElementById("forget-text")?.focus();
        },
      }, "×")));
  }
  return kept.length ? list : null;
}

/** The question before forgetting: what this phone will no longer open, and what is lost. */
function forgetCard(store, listId, saved, forget, lost) {
  const done = () => {
    Object.assign(forgetting, { list: null, id: null });
    homeScreen();
    // Kept after all: the focus goes back to its "×".
    document.querySelector(`#${listId} .forget[data-id="${saved.id}"]`)?.focus();
  };
  return h("div", { class: "card forget-card", role: "group", "aria-labelledby": "forget-title" },
    h("h3", { id: "forget-title" }, forget),
    ...lost.map((text, i) => h("p", { class: i ? "hint" : "", id: i ? null : "forget-text", tabindex: i ? null : "-1" }, text)),
    h("div", { class: "row" },
      h("button", { type: "button", class: "button", id: "home-forget-cancel", onclick: done }, t("action.cancel")),
      h("button", {
        type: "button", class: "button danger", id: "home-forget-yes",
        onclick: () => {
          store.remove(saved.id);
          done();
        },
      }, t("home.forgetYes"))));
}

/** What forgetting a game loses on this phone; its hands still waiting are sent all the
 * same, and said so. */
function gameLost(saved) {
  const waiting = Outbox.of(saved.id).filter((e) => e.kind !== "verdict").length;
  const reader = saved.kind === "read" || saved.kind === "player";
  return [t(reader ? "home.forgetGameReadLost" : "home.forgetGameLost"),
    waiting ? t("home.forgetWaiting", { n: waiting }) : null].filter(Boolean);
}

function gameItem(saved) {
  const players = (saved.seats || []).join(", ");
  // Two games of the same players are told apart by their date and who leads.
  const when = saved.created ? new Date(saved.created).toLocaleString(I18n.locale, {
    day: "numeric", month: "short", year: "numeric", hour: "2-digit", minute: "2-digit" }) : null;
  const lead = saved.leader ? t(saved.status === "finished" ? "home.won" : "home.leads", {
    names: saved.leader.names.join(", "), n: saved.leader.score }) : null;
  return {
    href: `#/games/${saved.id}`,
    forget: t("home.forget", { name: players }),
    lost: gameLost(saved),
    lines: [
      h("strong", {}, I18n.variantName(saved.variant, saved.variant)),
      when ? h("span", { class: "game-date" }, when) : null,
      h("span", {}, players),
      lead ? h("span", { class: "game-leader" }, lead) : null,
      h("span", { class: "muted" },
        saved.status === "finished" ? t("home.finished") : t("home.hands", { n: saved.hands || 0 }),
        saved.kind === "read" ? ` · ${t("sheet.readOnly")}` : "")],
  };
}

function eventItem(saved) {
  const organiser = Boolean(saved.tokens && saved.tokens.edit);
  const name = saved.name || saved.id;
  // A player's own link at an event (kept when they checked in at its door).
  const entrant = !organiser && saved.tokens?.entrant && saved.entrant !== undefined;
  if (entrant) {
    return {
      href: `#/events/${saved.id}/entrants/${saved.entrant}`,
      forget: t("home.forgetEvent", { name }),
      lost: [t("home.forgetEntrantLost", { name })],
      lines: [h("strong", {}, name), saved.entrantName ? h("span", {}, saved.entrantName) : null,
        h("span", { class: "muted" }, t("home.eventEntrant"))],
    };
  }
  if (!organiser && saved.tokens?.door && !saved.tokens?.read) {  // the door's device
    return {
      href: `#/events/${saved.id}/door`,
      forget: t("home.forgetEvent", { name }),
      lost: [t("home.forgetDoorLost", { name })],
      lines: [h("strong", {}, name), h("span", { class: "muted" }, t("home.eventDoor"))],
    };
  }
  return {
    href: organiser ? `#/events/${saved.id}` : `#/events/${saved.id}/board`,
    forget: t("home.forgetEvent", { name }),
    lost: [t(organiser ? "home.forgetEventLost" : "home.forgetBoardLost", { name })],
    lines: [
      h("strong", {}, name),
      h("span", {}, I18n.variantName(saved.variant, saved.variant || "")),
      h("span", { class: "muted" }, organiser ? t("home.eventOrganiser") : t("home.eventBoard"))],
  };
}

function clubItem(saved) {
  const name = saved.name || saved.id;
  return {
    href: `#/clubs/${saved.id}`,
    forget: t("home.forgetClub", { name }),
    lost: [t(saved.tokens?.edit ? "home.forgetClubLost" : "home.forgetMemberLost", { name })],
    lines: [
      h("strong", {}, name),
      saved.members !== undefined ? h("span", {}, t("club.roster", { n: saved.members })) : null,
      h("span", { class: "muted" }, saved.tokens?.edit ? t("home.clubSecretary") : t("home.clubMember"))],
  };
}

/** The hands waiting of games this phone no longer lists (forgotten since they were saved):
 * each game by its players, what waits, and a way back to it (its card kept again from the
 * token the hands carry). They are sent by themselves; a refused one waits here for the
 * scorekeeper. */
function orphanList() {
  const orphans = Outbox.games().filter((id) => !Store.get(id));
  if (!orphans.length) return null;
  return h("section", { class: "card outbox orphans", id: "orphans", "aria-labelledby": "orphans-title" },
    h("h2", { id: "orphans-title" }, t("home.orphansTitle")),
    h("ul", { class: "game-list" }, orphans.map((id) => {
      const entries = Outbox.of(id);
      const name = entries[0].label || id;
      const refused = entries.some((e) => e.problem);
      return h("li", { class: "game-item", "data-game": id },
        h("span", { class: "grow" }, refused ? t("home.orphanRefused", { name })
          : t("home.orphanWaiting", { name, n: entries.length })),
        h("button", {
          type: "button", class: "button small", id: `orphan-${id}`,
          onclick: () => {
            Store.put(id, { token: entries[0].token, kind: null, seats: entries[0].seats || [] });
            location.hash = `#/games/${id}`;
          },
        }, t("home.orphanOpen")));
    })));
}

function homeScreen(send = true) {
  banner(null);
  if (send) {
    // What waits is sent; the list of what no card shows any more is drawn again after.
    const before = Outbox.games().length;
    flushAll().then(() => {
      if ((location.hash || "#/") === "#/" && Outbox.games().length !== before) homeScreen(false);
    });
  }
  askCreation();
  const games = keptList(Store, "game-list", gameItem);
  const events = keptList(Events, "event-list", eventItem);
  const clubs = keptList(Clubs, "club-list", clubItem);
  // A service where not everyone creates says who does, instead of buttons that would fail.
  const open = creation === "open";
  show(h("section", { class: "screen home" },
    h("h1", {}, t("home.title")),
    h("p", { class: "lead" }, t("home.lead")),
    open ? null : h("p", { class: "card", id: "creation-note" },
      t(creation === "admin" ? "home.creationAdmin" : "home.creationClubs")),
    open ? h("a", { class: "button primary big", href: "#/new", id: "new-game" }, t("home.new")) : null,
    open ? h("a", { class: "button big", href: "#/events/new", id: "new-event" }, t("home.newEvent")) : null,
    games ? h("h2", {}, t("home.saved")) : null,
    games || h("p", { class: "muted" }, t("home.none")),
    orphanList(),
    events ? h("h2", {}, t("home.events")) : null,
    events,
    h("h2", {}, t("home.clubs")),
    clubs || h("p", { class: "muted" }, t("home.clubsLead")),
    open ? h("a", { class: "button", href: "#/clubs/new", id: "new-club" }, t("home.newClub")) : null,
    h("h2", {}, t("rules.title")),
    h("ul", { class: "rules-links" }, RULEBOOKS.map(([family, variant]) => h("li", {},
      h("a", { href: `#/rules/${variant}`, id: `rules-${family}` }, t(`family.${family}`))))),
    h("p", { class: "footnote" }, h("a", { href: "/api/v1/docs" }, t("home.api")))));
}

export { homeScreen };
