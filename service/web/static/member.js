/* A member's page (#/clubs/{id}/members/{m}): their statistics family by family,
 * over all time or one of the club's seasons, every variant or one, in words and tables —
 * each figure with the service's sentence saying what it counts, and a caution where it
 * comes from fewer than five games —, their rating game by game (the club page's chart),
 * points per hand month by month and Mitigatti's balance evening by evening as charts
 * (chart.js's picture), each chart's figures also in a table for a screen reader. */
import { api } from "./api.js";
import { bars, hiddenTable, namedSteps, number, picture } from "./chart.js";
import { heldClubToken, historyChart } from "./clubs.js";
import { chipRadio, h, redraw } from "./dom.js";
import { I18n, t } from "./i18n.js";
import { Clubs } from "./stores.js";

/** The member on screen: the club and the token this phone holds, the club's seasons, and
 * what is chosen (season, family, variant), the statistics and the family's rating. */
const M = {
  club: null, member: null, token: null, seasons: [], season: null, family: null, variant: null,
  stats: null, rating: null,
};

async function memberScreen(clubId, memberId) {
  const token = heldClubToken(clubId, "member");
  if (!token) return;
  Object.assign(M, { club: clubId, member: memberId, token, season: null, family: null, variant: null });
  M.seasons = (await api("GET", `/clubs/${clubId}/seasons`, { token })).data.seasons;
  await load();
  draw(true);
}

/** The statistics as chosen, and the rating of the family shown. */
async function load() {
  const query = M.season ? `?season=${encodeURIComponent(M.season)}` : "";
  M.stats = (await api("GET", `/clubs/${M.club}/members/${M.member}/stats${query}`, { token: M.token })).data;
  const families = M.stats.families.map((b) => b.family);
  if (!families.includes(M.family)) Object.assign(M, { family: families[0] || null, variant: null });
  await loadRating();
}

async function loadRating() {
  M.rating = M.family ? (await api("GET", `/clubs/${M.club}/members/${M.member}/ratings?family=${M.family}`,
    { token: M.token })).data : null;
}

/** A figure as the page's language writes it: two decimals at most, a true minus sign. */
function figure(value) {
  if (value === null || value === undefined) return "—";
  const text = new Intl.NumberFormat(I18n.locale, { maximumFractionDigits: 2 }).format(Math.abs(value));
  return value < 0 ? `−${text}` : text;
}

function capital(text) {
  return text ? text[0].toUpperCase() + text.slice(1) : text;
}

/** The block shown: the family's, or one variant's of it. */
function shown() {
  const family = M.stats.families.find((b) => b.family === M.family);
  if (!family) return null;
  return (M.variant && family.variants.find((v) => v.variant === M.variant)) || family;
}

function draw(first) {
  const stats = M.stats;
  const saved = Clubs.get(M.club) || {};
  const screen = h("section", { class: "screen member" },
    h("p", {}, h("a", { href: `#/clubs/${M.club}`, id: "member-back" }, t("member.back", { club: saved.name || "" }))),
    h("h1", {}, stats.member.name),
    h("p", { class: "lead" }, t("member.lead", { n: stats.games })));
  if (M.seasons.length) screen.append(seasonChips());
  const block = shown();
  if (!block) {
    screen.append(h("p", { class: "card muted", id: "member-empty" }, t("member.noGames")));
    redraw(screen, first);
    return;
  }
  const parts = [familyChips(), variantChips(), figuresCard(block), declaredCard(block),
    metCard(block.partners, "partners"), metCard(block.opponents, "opponents"), monthsCard(block),
    block.balance ? balanceCard(block) : null, eveningsCard(block), ratingCard()];
  screen.append(...parts.filter(Boolean));
  redraw(screen, first);
}

function chips(group, label, choices, chosen, choose) {
  return h("div", { class: "chips member-chips", role: "radiogroup", "aria-label": label },
    choices.map(([value, words]) => chipRadio(group, value, words, chosen === value, () => choose(value))));
}

/** All time, or one of the club's seasons. */
function seasonChips() {
  return chips("member-season", t("member.season"),
    [["all", t("member.allTime")], ...M.seasons.map((s) => [s.id, s.name])], M.season || "all",
    async (value) => {
      M.season = value === "all" ? null : value;
      await load();
      draw(false);
    });
}

function familyChips() {
  const families = M.stats.families.map((b) => b.family);
  if (families.length < 2) return null;
  return chips("member-family", t("member.family"),
    families.map((family) => [family, t(`family.${family}`)]), M.family, async (value) => {
      Object.assign(M, { family: value, variant: null });
      await loadRating();
      draw(false);
    });
}

function variantChips() {
  const family = M.stats.families.find((b) => b.family === M.family);
  if (!family || family.variants.length < 2) return null;
  return chips("member-variant", t("member.variant"),
    [["all", t("member.allVariants")], ...family.variants.map((v) => [v.variant, I18n.variantName(v.variant, v.variant)])],
    M.variant || "all", (value) => {
      M.variant = value === "all" ? null : value;
      draw(false);
    });
}

/** Where a block comes from too few games: the service's own words, once for the block. */
function caution(block) {
  const words = block.figures.find((f) => f.caution)?.caution;
  return block.few && words ? h("p", { class: "hint caution", id: "member-caution" }, capital(words)) : null;
}

/** Every figure: its name, its value and what it counts. */
function figuresCard(block) {
  const marca = Boolean(block.balance);
  const label = (key) => t(marca && key.startsWith("points_") ? `member.fig.marca_${key.slice(7)}` : `member.fig.${key}`);
  return h("section", { class: "card member-figures", id: "member-figures", "aria-labelledby": "member-figures-title" },
    h("h2", { id: "member-figures-title" }, t("member.figures")), caution(block),
    h("table", { class: "figures" },
      h("caption", { class: "visually-hidden" }, t("member.figures")),
      h("tbody", {}, block.figures.map((f) => h("tr", { "data-key": f.key },
        h("th", { scope: "row" }, label(f.key), h("span", { class: "says" }, capital(f.says))),
        h("td", { class: "num" }, figure(f.value)))))));
}

function declaredCard(block) {
  const kinds = block.declared.kinds;
  if (!kinds.length) return null;
  return h("section", { class: "card member-declared", id: "member-declared", "aria-labelledby": "member-declared-title" },
    h("h2", { id: "member-declared-title" }, t("member.declared")),
    h("p", { class: "hint" }, capital(block.declared.says)),
    h("table", { class: "standings" },
      h("caption", { class: "visually-hidden" }, t("member.declared")),
      h("thead", {}, h("tr", {}, h("th", { scope: "col", class: "entrant" }, t("member.kind")),
        h("th", { scope: "col", class: "num" }, t("member.times")))),
      h("tbody", {}, kinds.map((k) => h("tr", { "data-kind": k.kind },
        h("th", { scope: "row", class: "entrant" }, capital(k.label)), h("td", { class: "num" }, figure(k.value)))))));
}

/** The partners, or the opponents, met most, with the results with each. */
function metCard(met, which) {
  const opponent = which === "opponents";
  const id = `member-${which}`;
  const box = h("section", { class: `card ${id}`, id, "aria-labelledby": `${id}-title` },
    h("h2", { id: `${id}-title` }, t(`member.${which}`)), h("p", { class: "hint" }, capital(met.says)));
  if (!met.members.length) {
    box.append(h("p", { class: "muted" }, t("member.nobody")));
    return box;
  }
  // A phone's width holds five columns: against an opponent, who finished ahead says more
  // than the wins (which the service gives too).
  const columns = opponent ? ["games", "ahead", "level", "behind"] : ["games", "wins", "average_place", "points_per_game"];
  // Too wide for a phone, the table scrolls in a box of its own (its edge shaded while
  // there is more to see), never the page.
  box.append(h("div", { class: "table-scroll", role: "region", tabindex: "0", "aria-labelledby": `${id}-title` }, h("table", { class: "standings" },
    h("caption", { class: "visually-hidden" }, t(`member.${which}`)),
    h("thead", {}, h("tr", {}, h("th", { scope: "col", class: "entrant" }, t("club.member")),
      columns.map((c) => h("th", { scope: "col", class: "num" }, t(`member.col.${c}`))))),
    h("tbody", {}, met.members.map((m) => h("tr", { "data-member": m.member.id },
      h("th", { scope: "row", class: "entrant" }, m.member.name,
        m.few ? h("span", { class: "badge few", title: capital(m.caution || "") }, t("member.few")) : null),
      columns.map((c) => h("td", { class: "num" }, figure(m[c])))))))));
  return box;
}

/** A short month name ("mar 26") for a month "2026-03". */
function monthName(month, style = "short") {
  const [year, number] = month.split("-").map(Number);
  return new Date(Date.UTC(year, number - 1, 15)).toLocaleDateString(I18n.locale,
    { month: style, year: style === "short" ? "2-digit" : "numeric", timeZone: "UTC" });
}

/** A day (YYYY-MM-DD) as the page's language writes it, short ("5 mar") or whole. */
function dayName(iso, style = "short") {
  return new Date(`${iso}T12:00:00Z`).toLocaleDateString(I18n.locale, style === "short"
    ? { day: "numeric", month: "short", timeZone: "UTC" }
    : { weekday: "long", day: "numeric", month: "long", year: "numeric", timeZone: "UTC" });
}

/** Points (marca) per hand, month by month: a bar a month with its figure on it (one month
 * reads as well as twelve), and the same figures in a table. */
function monthsCard(block) {
  const months = block.months.months;
  const marca = Boolean(block.balance);
  const title = t(marca ? "member.monthsMarca" : "member.months");
  const svg = bars(months.map((m) => ({ label: monthName(m.month), value: m.points_per_hand })),
    t("member.monthsAxis"));
  const figures = hiddenTable(
    h("caption", {}, title),
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("member.month")),
      h("th", { scope: "col" }, t("member.perHand")), h("th", { scope: "col" }, t("club.games")))),
    h("tbody", {}, months.map((m) => h("tr", {},
      h("th", { scope: "row" }, monthName(m.month, "long")), h("td", {}, figure(m.points_per_hand)),
      h("td", {}, String(m.games))))));
  return h("section", { class: "card chart member-months", id: "member-months", "aria-labelledby": "member-months-title" },
    h("h2", { id: "member-months-title" }, title), h("p", { class: "hint" }, capital(block.months.says)),
    svg, figures);
}

/** Mitigatti's balance in marca evening by evening — an evening a day they played, however
 * many games it held —, from 0. */
function balanceCard(block) {
  const days = block.evenings.days;
  const title = t("member.balance");
  const values = [0, ...days.map((d) => d.balance)];
  const figures = hiddenTable(
    h("caption", {}, title),
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("member.evening")),
      h("th", { scope: "col" }, t("member.marca")), h("th", { scope: "col" }, t("member.fig.marca_balance")))),
    h("tbody", {}, days.map((d) => h("tr", {},
      h("th", { scope: "row" }, dayName(d.date, "long")),
      h("td", {}, figure(d.marca)), h("td", {}, figure(d.balance))))));
  const svg = namedSteps(picture([{ key: "balance", label: title, values }], { title, reference: 0, label: "0" },
    days.length, t("member.eveningsAxis")), ["", ...days.map((d) => dayName(d.date))]);
  return h("section", { class: "card chart member-balance", id: "member-balance", "aria-labelledby": "member-balance-title" },
    h("h2", { id: "member-balance-title" }, title), h("p", { class: "hint" }, capital(block.balance.says)),
    svg, figures);
}

/** The member's evenings, the latest first: each a day they played, with its games and its
 * points (marca), however many games or events the day held. */
const EVENINGS_SHOWN = 10;

function eveningsCard(block) {
  const days = block.evenings.days;
  if (!days.length) return null;
  const marca = Boolean(block.balance);
  const latest = days.slice(-EVENINGS_SHOWN).reverse();
  return h("section", { class: "card member-evenings", id: "member-evenings", "aria-labelledby": "member-evenings-title" },
    h("h2", { id: "member-evenings-title" }, t("member.evenings")),
    h("p", { class: "hint" }, capital(block.evenings.says), " · ", t("member.eveningsCount", { n: days.length })),
    h("table", { class: "standings" },
      h("caption", { class: "visually-hidden" }, t("member.evenings")),
      h("thead", {}, h("tr", {}, h("th", { scope: "col", class: "entrant" }, t("member.evening")),
        h("th", { scope: "col", class: "num" }, t("club.games")),
        h("th", { scope: "col", class: "num" }, t(marca ? "member.marca" : "ev.col.pointsShort")))),
      h("tbody", {}, latest.map((d) => h("tr", { "data-date": d.date },
        h("th", { scope: "row", class: "entrant" }, dayName(d.date, "long")),
        h("td", { class: "num" }, String(d.games)),
        h("td", { class: "num" }, figure(marca ? d.marca : d.points)))))));
}

/** The family's rating game by game, as the club's page draws it. */
function ratingCard() {
  const box = h("section", { class: "card member-rating", id: "member-rating", "aria-labelledby": "member-rating-title" },
    h("h2", { id: "member-rating-title" }, t("club.ratings")));
  if (!M.rating || !M.rating.history.length) {
    box.append(h("p", { class: "muted" }, t("club.noRatings")));
    return box;
  }
  // The certainty said in words: what it counts, how many games it rests on, and that it
  // settles as more are played.
  box.append(h("p", { class: "hint", id: "member-rating-sure" }, t("member.ratingSure", {
    rating: number(M.rating.rating), n: M.rating.games, certainty: number(M.rating.certainty) })),
  historyChart(M.rating));
  return box;
}

export { memberScreen };
