/* The home screen: start a game, open one this phone keeps (or forget it), read a family's
 * rules. */
import { banner, h, show } from "./dom.js";
import { RULEBOOKS } from "./rules.js";
import { Store } from "./stores.js";

const t = (key, params) => I18n.t(key, params);

function homeScreen() {
  banner(null);
  const games = Object.values(Store.all()).sort((a, b) => (b.seen || 0) - (a.seen || 0));
  const list = h("ul", { class: "game-list" });
  for (const saved of games) {
    const players = (saved.seats || []).join(", ");
    const name = I18n.variantName(saved.variant, saved.variant);
    list.append(h("li", { class: "game-item" },
      h("a", { href: `#/games/${saved.id}`, class: "game-link" },
        h("strong", {}, name),
        h("span", {}, players),
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
  show(h("section", { class: "screen home" },
    h("h1", {}, t("home.title")),
    h("p", { class: "lead" }, t("home.lead")),
    h("a", { class: "button primary big", href: "#/new", id: "new-game" }, t("home.new")),
    games.length ? h("h2", {}, t("home.saved")) : null,
    games.length ? list : h("p", { class: "muted" }, t("home.none")),
    h("h2", {}, t("rules.title")),
    h("ul", { class: "rules-links" }, RULEBOOKS.map(([family, variant]) => h("li", {},
      h("a", { href: `#/rules/${variant}`, id: `rules-${family}` }, t(`family.${family}`))))),
    h("p", { class: "footnote" }, h("a", { href: "/api/v1/docs" }, t("home.api")))));
}

export { homeScreen };
