/* The operator's page (``/admin``): the service's admin token pasted once, kept in this tab's
 * sessionStorage only (never in an address, never in localStorage) and sent as
 * ``Authorization``; the clubs, events and games of the instance by last activity, with what
 * each holds and its tokens' state; and, for each, new tokens, a token revoked or the whole
 * deleted — each asking first, saying what is lost. */
import { api } from "./api.js";
import { banner, h, show } from "./dom.js";
import { I18n, t } from "./i18n.js";

const KEY = "segnapunti.admin";
const KINDS = ["clubs", "events", "games"];
const PAGE = 20;
// The tokens each kind may have revoked (as the service takes them).
const REVOCABLE = { clubs: ["edit", "read"], events: ["edit", "read", "tables"], games: ["edit", "read", "players"] };

/** What the screen shows: the list chosen, its filters, its rows, the row asking a question. */
const view = { kind: "games", order: "newest", anonymous: false, days: "", rows: [], total: 0, asking: null, said: null };

function token() {
  try { return sessionStorage.getItem(KEY); } catch (error) { return null; }
}

function keep(value) {
  try {
    if (value) sessionStorage.setItem(KEY, value); else sessionStorage.removeItem(KEY);
  } catch (error) { /* a tab that keeps nothing asks again */ }
}

function when(iso) {
  return new Date(iso).toLocaleString(I18n.locale, {
    day: "numeric", month: "short", year: "numeric", hour: "2-digit", minute: "2-digit" });
}

function sizeText(size) {
  return Object.entries(size).map(([name, n]) => t(`admin.size.${name}`, { n })).join(" · ");
}

function tokensText(tokens) {
  return Object.entries(tokens).map(([kind, state]) => t(`admin.token.${state}`, { kind: t(`admin.kind.${kind}`) })).join(" · ");
}

/** The screen: the token asked for, or the lists. */
async function adminScreen() {
  banner(null);
  if (!token()) return tokenForm();
  return load(false);
}

function tokenForm(problem = null) {
  const input = h("input", { id: "admin-token", type: "password", autocomplete: "off", spellcheck: "false", class: "grow" });
  show(h("section", { class: "screen admin" },
    h("h1", {}, t("admin.title")),
    h("p", { class: "lead" }, t("admin.tokenLead")),
    problem ? h("p", { class: "card warn", role: "alert", id: "admin-problem" }, problem) : null,
    h("form", {
      class: "card", id: "admin-token-form",
      onsubmit: (e) => {
        e.preventDefault();
        if (!input.value.trim()) return;
        keep(input.value.trim());
        load(true);
      },
    },
    h("label", { for: "admin-token" }, t("admin.token")),
    h("div", { class: "row" }, input,
      h("button", { type: "submit", class: "button primary", id: "admin-open" }, t("admin.open"))))));
}

async function load(first, more = false) {
  const query = new URLSearchParams({ limit: String(PAGE), offset: String(more ? view.rows.length : 0), order: view.order });
  if (view.anonymous && view.kind !== "clubs") query.set("anonymous", "true");
  if (view.days !== "") query.set("inactive_days", view.days);
  try {
    const { data } = await api("GET", `/admin/${view.kind}?${query}`, { token: token() });
    view.rows = more ? view.rows.concat(data.rows) : data.rows;
    view.total = data.total;
  } catch (error) {
    if (error.status === 401 || error.status === 404) {
      keep(null);
      return tokenForm(t(error.status === 404 ? "admin.none" : "admin.wrongToken"));
    }
    banner(error.message, "error");
  }
  draw(first);
}

function draw(first = false) {
  show(h("section", { class: "screen admin" },
    h("h1", {}, t("admin.title")),
    h("div", { class: "row" },
      h("p", { class: "lead grow" }, t("admin.lead")),
      h("button", { type: "button", class: "button small", id: "admin-forget", onclick: () => { keep(null); tokenForm(); } }, t("admin.forgetToken"))),
    h("div", { class: "row", role: "group", "aria-label": t("admin.lists") }, KINDS.map((kind) => h("button", {
      type: "button", class: `button small ${view.kind === kind ? "primary" : ""}`, id: `admin-${kind}`,
      "aria-pressed": view.kind === kind ? "true" : "false",
      onclick: () => { Object.assign(view, { kind, asking: null, said: null }); load(false); },
    }, t(`admin.${kind}`)))),
    filters(),
    view.said ? h("div", { class: "card", role: "status", id: "admin-said" }, view.said) : null,
    h("p", { class: "muted", id: "admin-total" }, t("admin.total", { n: view.total })),
    view.rows.length ? h("ul", { class: "game-list admin-list", id: "admin-list" }, view.rows.map(item))
      : h("p", { class: "muted" }, t("admin.empty")),
    view.rows.length < view.total ? h("button", { type: "button", class: "button", id: "admin-more", onclick: () => load(false, true) }, t("admin.more")) : null),
  { focus: first });
}

function filters() {
  const days = h("input", { id: "admin-days", type: "number", inputmode: "numeric", min: 0, max: 36500, value: view.days, class: "narrow" });
  return h("form", {
    class: "card admin-filters", id: "admin-filters",
    onsubmit: (e) => {
      e.preventDefault();
      view.days = days.value.trim();
      view.said = null;
      load(false);
    },
  },
  h("div", { class: "row" },
    h("label", { for: "admin-order" }, t("admin.order")),
    h("select", { id: "admin-order", onchange: (e) => { view.order = e.target.value; } },
      h("option", { value: "newest", selected: view.order === "newest" }, t("admin.newest")),
      h("option", { value: "oldest", selected: view.order === "oldest" }, t("admin.oldest")))),
  view.kind !== "clubs" ? h("label", { class: "row" },
    h("input", { type: "checkbox", id: "admin-anonymous", checked: view.anonymous, onchange: (e) => { view.anonymous = e.target.checked; } }),
    t(view.kind === "games" ? "admin.anonymousGames" : "admin.anonymousEvents")) : null,
  h("div", { class: "row" }, h("label", { for: "admin-days" }, t("admin.inactiveDays")), days),
  h("button", { type: "submit", class: "button small", id: "admin-show" }, t("admin.show")));
}

function item(row) {
  const name = row.name || row.id;
  const asking = view.asking && view.asking.id === row.id ? view.asking : null;
  return h("li", { class: "card admin-row", "data-id": row.id },
    h("strong", {}, name),
    h("span", { class: "muted" }, [row.variant ? I18n.variantName(row.variant, row.variant) : null, row.id,
      row.anonymous && view.kind !== "clubs" ? t("admin.anonymousTag") : null].filter(Boolean).join(" · ")),
    h("span", {}, t("admin.lastActivity", { when: when(row.last_activity) })),
    h("span", { class: "muted" }, t("admin.created", { when: when(row.created_at) })),
    h("span", {}, sizeText(row.size)),
    h("span", { class: "muted" }, tokensText(row.tokens)),
    asking ? question(row, name, asking) : h("div", { class: "row" },
      h("button", { type: "button", class: "button small", onclick: () => ask(row, "renew") }, t("admin.renew")),
      REVOCABLE[view.kind].map((which) => h("button", {
        type: "button", class: "button small", onclick: () => ask(row, "revoke", which),
      }, t("admin.revoke", { kind: t(`admin.kind.${which}`) }))),
      h("button", { type: "button", class: "button small danger", onclick: () => ask(row, "delete") }, t("admin.delete"))));
}

function ask(row, action, which = null) {
  view.asking = { id: row.id, action, which };
  view.said = null;
  draw();
  document.getElementById("admin-question")?.focus();
}

/** The question before acting: what the action does, and for a deletion what is lost. */
function question(row, name, asking) {
  const words = {
    renew: t("admin.renewAsk", { name }),
    revoke: t("admin.revokeAsk", { name, kind: t(`admin.kind.${asking.which}`) }),
    delete: t(`admin.delete${view.kind[0].toUpperCase()}${view.kind.slice(1, -1)}`, { name, size: sizeText(row.size) }),
  }[asking.action];
  return h("div", { class: "card warn", role: "group" },
    h("p", { id: "admin-question", tabindex: "-1" }, words),
    h("div", { class: "row" },
      h("button", { type: "button", class: "button", id: "admin-cancel", onclick: () => { view.asking = null; draw(); } }, t("action.cancel")),
      h("button", { type: "button", class: `button ${asking.action === "delete" ? "danger" : "primary"}`, id: "admin-yes", onclick: () => act(row, asking) },
        t(asking.action === "delete" ? "admin.deleteYes" : asking.action === "renew" ? "admin.renew" : "admin.revokeYes"))));
}

async function act(row, asking) {
  const path = `/admin/${view.kind}/${row.id}`;
  try {
    if (asking.action === "delete") {
      await api("DELETE", `${path}?confirm=${encodeURIComponent(row.id)}`, { token: token() });
      view.said = t("admin.deleted", { name: row.name || row.id });
    } else if (asking.action === "renew") {
      const { data } = await api("POST", `${path}/tokens`, { token: token() });
      const link = new URL(data.links.edit, location.href).href;
      view.said = h("div", {}, h("p", {}, t("admin.renewed")), h("p", { class: "admin-link" }, h("code", {}, link)));
    } else {
      await api("POST", `${path}/tokens`, { token: token(), body: { action: "revoke", which: [asking.which] } });
      view.said = t("admin.revoked", { kind: t(`admin.kind.${asking.which}`) });
    }
  } catch (error) {
    view.said = error.message;
  }
  view.asking = null;
  await load(false);
}

export { adminScreen };
