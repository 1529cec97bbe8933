/* The home screen: start a game or an event (a club night, a tournament), open one this phone
 * keeps (or forget it), read a family's rules. */
import { banner, h, show } from "./dom.js";
import { RULEBOOKS } from "./rules.js";
import { Events, Store } from "./stores.js";

const t = (key, params) => I18n.t(key, params);

function homeScreen() {
  banner(null);
  const games = Object.values(Store.all()).sort((a, b) => (b.seen || 0) - (a.seen || 0));
  const list = h("ul", { class: "game-list" });
  for (const saved of games) {
    const players = (saved.seats || []).join(", ");
    const name = I18n.variantName(saved.variant, saved.variant);
    // Two games of the same players are told apart by their date and who leads.
    const when = saved.created ? new Date(saved.created).toLocaleString(I18n.locale, {
      day: "numeric", month: "short", year: "numeric", hour: "2-digit", minute: "2-digit" }) : null;
    const lead = saved.leader ? t(saved.status === "finished" ? "home.won" : "home.leads", {
      names: saved.leader.names.join(", "), n: saved.leader.score }) : null;
    list.append(h("li", { class: "game-item" },
      h("a", { href: `#/games/${saved.id}`, class: "game-link" },
        h("strong", {}, name),
        when ? h("span", { class: "game-date" }, when) : null,
        h("span", {}, players),
        lead ? h("span", { class: "game-leader" }, lead) : null,
        h("span", { class: "muted" },
          saved.status === "finished" ? t("home.finished") : t("home.hands", { n: saved.hands || 0 }),
          saved.kind === "read" ? ` · ${t("sheet.readOnly")}` : "")),
      h("button", {
        type: "button", class: "icon-button", "aria-label": t("home.forget", { name: players }),
        onclick: () => {
          Store.remove(saved.id);
          homeScreen();
        },
      }, "×")));
  }
  const events = Object.values(Events.all()).sort((a, b) => (b.seen || 0) - (a.seen || 0));
  const eventList = h("ul", { class: "game-list", id: "event-list" });
  for (const saved of events) {
    const organiser = Boolean(saved.tokens && saved.tokens.edit);
    const name = saved.name || saved.id;
    eventList.append(h("li", { class: "game-item" },
      h("a", { href: organiser ? `#/events/${saved.id}` : `#/events/${saved.id}/board`, class: "game-link" },
        h("strong", {}, name),
        h("span", {}, I18n.variantName(saved.variant, saved.variant || "")),
        h("span", { class: "muted" }, organiser ? t("home.eventOrganiser") : t("home.eventBoard"))),
      h("button", {
        type: "button", class: "icon-button", "aria-label": t("home.forgetEvent", { name }),
        onclick: () => {
          Events.remove(saved.id);
          homeScreen();
        },
      }, "×")));
  }
  show(h("section", { class: "screen home" },
    h("h1", {}, t("home.title")),
    h("p", { class: "lead" }, t("home.lead")),
    h("a", { class: "button primary big", href: "#/new", id: "new-game" }, t("home.new")),
    h("a", { class: "button big", href: "#/events/new", id: "new-event" }, t("home.newEvent")),
    games.length ? h("h2", {}, t("home.saved")) : null,
    games.length ? list : h("p", { class: "muted" }, t("home.none")),
    events.length ? h("h2", {}, t("home.events")) : null,
    events.length ? eventList : null,
    h("h2", {}, t("rules.title")),
    h("ul", { class: "rules-links" }, RULEBOOKS.map(([family, variant]) => h("li", {},
      h("a", { href: `#/rules/${variant}`, id: `rules-${family}` }, t(`family.${family}`))))),
    h("p", { class: "footnote" }, h("a", { href: "/api/v1/docs" }, t("home.api")))));
}

export { homeScreen };
