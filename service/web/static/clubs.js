/* A club's screens: a new club, and the club's page (#/clubs/{id}) — its roster for the
 * secretary (add, rename, deactivate, merge, forget), a new game or event of the club (the
 * forms of newgame.js and events.js, their seats filled from the roster: clubseats.js), its
 * seasons with their standings, their leaders evening by evening and their printouts (the
 * secretary opens new ones), its ratings family by family, the members' link to share and
 * the secretary's key (its key card, its link shown again: keycard.js); a
 * member's phone, holding the read link, reads it all and changes nothing. */
import { api, problemErrors } from "./api.js";
import { chartKey, hiddenTable, namedSteps, number, picture } from "./chart.js";
import { chipRadio, h, randomKey, redraw, saveFile, toast } from "./dom.js";
import { I18n, t } from "./i18n.js";
import { cardWaits, keyCard } from "./keycard.js";
import { placeProblems, problemText } from "./problems.js";
import { QR } from "./qr.js";
import { Clubs } from "./stores.js";

// -- a new club ---------------------------------------------------------------------------

function newClubScreen() {
  const errors = h("div", { id: "club-errors", role: "alert" });
  const input = h("input", { id: "club-name", type: "text", maxlength: 80, autocomplete: "off", required: true });
  const key = randomKey();
  const form = h("form", {
    class: "card", novalidate: true,
    onsubmit: async (event) => {
      event.preventDefault();
      const button = form.querySelector("button[type=submit]");
      button.disabled = true;
      try {
        const { data } = await api("POST", "/clubs", {
          body: { name: input.value.trim() }, headers: { "Idempotency-Key": key } });
        // Made here: the club's page offers its key card first, until it is printed.
        Clubs.put(data.id, { name: data.name, tokens: data.tokens, links: data.links, made: true });
        location.hash = `#/clubs/${data.id}`;
      } catch (error) {
        placeProblems(form, errors, problemErrors(error));
        button.disabled = false;
      }
    },
  },
  h("div", { class: "field", "data-field": "name" },
    h("label", { for: "club-name" }, t("club.name")), input),
  errors,
  h("button", { type: "submit", class: "button primary big", id: "create-club" }, t("club.create")));
  redraw(h("section", { class: "screen club" },
    h("h1", {}, t("club.newTitle")), h("p", { class: "lead" }, t("club.newLead")), form), true);
  input.focus();
}

// -- the club's page ----------------------------------------------------------------------

/** The club on screen: its data, the token this phone holds and what it may do, its seasons
 * (and the standings of the one open), and the ratings of the family chosen. */
const C = {
  id: null, club: null, token: null, edit: false, open: null, merging: null, renaming: null, forgetting: null,
  seasons: [], season: null, standings: null, family: "gatti", ratings: null, addingSeason: false,
  history: null,
};

const FAMILIES = ["gatti", "ottocento", "mitigatti"];

/** The token this phone holds for club ``id``: the secretary's, else the members'. None: the
 * screen (``screen``: its class) says the club was not opened on this phone, and the caller
 * stops. */
function heldClubToken(id, screen) {
  const saved = Clubs.get(id);
  const token = saved?.tokens?.edit || saved?.tokens?.read;
  if (!token) {
    redraw(h("section", { class: `screen ${screen}` }, h("h1", {}, t("club.title")),
      h("p", { class: "card" }, t("club.notOpened")),
      h("a", { class: "button primary", href: "#/" }, t("action.home"))), true);
  }
  return token;
}

async function clubScreen(id) {
  const token = heldClubToken(id, "club");
  if (!token) return;
  Object.assign(C, {
    id, token, edit: Boolean(Clubs.get(id).tokens.edit), open: null, merging: null, renaming: null, forgetting: null,
    season: null, standings: null, history: null, addingSeason: false,
  });
  await load();
  draw(true);
}

async function load() {
  const [club, seasons, ratings] = await Promise.all([
    api("GET", `/clubs/${C.id}`, { token: C.token }),
    api("GET", `/clubs/${C.id}/seasons`, { token: C.token }),
    api("GET", `/clubs/${C.id}/ratings?family=${C.family}`, { token: C.token }),
  ]);
  const { data } = club;
  C.seasons = seasons.data.seasons;
  C.ratings = ratings.data;
  if (C.season) C.standings = (await api("GET", `/clubs/${C.id}/seasons/${C.season}/standings`, { token: C.token })).data;
  C.club = data;
  Clubs.put(C.id, { name: data.name, members: data.members.filter((m) => m.status === "active").length });
}

/** A change to the club, then the club read again and drawn; a refusal is said at ``box``. */
async function change(method, path, body, box) {
  try {
    await api(method, `/clubs/${C.id}${path}`, { token: C.token, body, headers: { "Idempotency-Key": randomKey() } });
    Object.assign(C, { open: null, merging: null, renaming: null, forgetting: null, addingSeason: false });
    await load();
    draw(false);
    return true;
  } catch (error) {
    if (box) placeProblems(box, box.querySelector(".errors"), problemErrors(error));
    else toast(problemText(problemErrors(error)[0]));
    return false;
  }
}

function draw(first) {
  const club = C.club;
  const active = club.members.filter((m) => m.status === "active");
  const others = club.members.filter((m) => m.status !== "active");
  const screen = h("section", { class: "screen club" },
    h("h1", {}, club.name),
    h("p", { class: "lead" }, t("club.roster", { n: active.length }),
      C.edit ? "" : ` · ${t("club.readOnly")}`));
  // The secretary's key: its card offered first until it is printed, then with the links.
  const key = C.edit ? keyCard("club", C.id, C.token, () => draw(false)) : null;
  if (key && cardWaits("club", C.id)) screen.append(key);
  if (C.edit) screen.append(addForm());
  const list = h("ul", { class: "club-roster", id: "roster" });
  for (const member of active) list.append(memberRow(member));
  if (!active.length) list.append(h("li", { class: "muted" }, t("club.empty")));
  screen.append(list);
  if (others.length) {
    // Open while the secretary works in it: each change draws the page anew.
    const open = C.othersOpen || others.some((m) => m.id === C.open);
    screen.append(h("details", {
      class: "card roster-others", id: "roster-others", open,
      ontoggle: (event) => { C.othersOpen = event.target.open; },
    },
      h("summary", {}, t("club.others", { n: others.length })),
      h("ul", { class: "club-roster" }, others.map(memberRow))));
  }
  if (C.edit) screen.append(playCard());
  screen.append(seasonsCard(), ratingsCard());
  const share = C.edit ? shareCard() : null;
  if (share) screen.append(share);
  if (key && !cardWaits("club", C.id)) screen.append(key);
  screen.append(h("div", { class: "row" },
    h("a", { class: "button", href: `/api/v1/clubs/${C.id}.csv`, id: "club-csv",
      onclick: (event) => { event.preventDefault(); download(`/clubs/${C.id}.csv`, `${C.club.name}.csv`); } },
    t("club.csv"))));
  redraw(screen, first);
}

function addForm() {
  const input = h("input", { id: "member-name", type: "text", maxlength: 80, autocomplete: "off" });
  const initials = h("input", { id: "member-initials", type: "text", maxlength: 4, autocomplete: "off", class: "short" });
  const form = h("form", {
    class: "card add-member", novalidate: true,
    onsubmit: async (event) => {
      event.preventDefault();
      const body = { name: input.value.trim() };
      if (initials.value.trim()) body.initials = initials.value.trim();
      if (await change("POST", "/members", body, form)) document.getElementById("member-name")?.focus();
    },
  },
  h("div", { class: "row fields" },
    h("div", { class: "field grow", "data-field": "name" }, h("label", { for: "member-name" }, t("club.memberName")), input),
    h("div", { class: "field", "data-field": "initials" }, h("label", { for: "member-initials" }, t("club.initials")), initials)),
  h("div", { class: "errors", role: "alert" }),
  h("button", { type: "submit", class: "button primary", id: "add-member" }, t("club.add")));
  return form;
}

function memberRow(member) {
  const label = [h("span", { class: "member-name" }, member.name,
    member.initials ? h("span", { class: "muted" }, ` (${member.initials})`) : null),
  member.status === "active" ? null : h("span", { class: "badge" }, t(`club.status.${member.status}`,
    { name: nameOf(member.merged_into) }))];
  if (!C.edit || member.status === "forgotten") {
    // A member's name opens their page (a forgotten member has none).
    const name = member.status === "forgotten" ? label
      : [h("a", { class: "member-link", href: memberPage(member), id: `stats-${member.id}` }, ...label)];
    return h("li", { class: `member ${member.status}`, "data-member": member.id }, ...name);
  }
  if (C.renaming === member.id) return renameEditor(member);
  if (C.merging === member.id) return mergeEditor(member);
  if (C.forgetting === member.id) return forgetEditor(member);
  // The secretary taps a name for what can be done with it: a long roster stays a list.
  const open = C.open === member.id;
  const row = h("li", { class: `member ${member.status} ${open ? "open" : ""}`, "data-member": member.id },
    h("button", {
      type: "button", class: "member-toggle", id: `member-${member.id}`, "aria-expanded": open ? "true" : "false",
      onclick: () => { C.open = open ? null : member.id; draw(false); },
    }, ...label, h("span", { class: "chevron", "aria-hidden": "true" }, open ? "▾" : "▸")));
  if (!open) return row;
  const actions = h("div", { class: "row member-actions" });
  if (member.status === "merged") {
    actions.append(button(`unmerge-${member.id}`, t("club.unmerge"), () => change("POST", `/members/${member.id}/unmerge`)));
  } else {
    actions.append(
      h("a", { class: "button small", id: `stats-${member.id}`, href: memberPage(member) }, t("member.open")),
      button(`rename-${member.id}`, t("club.rename"), () => { C.renaming = member.id; draw(false); }),
      button(`active-${member.id}`, t(member.active ? "club.deactivate" : "club.reactivate"),
        () => change("PATCH", `/members/${member.id}`, { active: !member.active })),
      button(`merge-${member.id}`, t("club.merge"), () => { C.merging = member.id; draw(false); }),
      button(`forget-${member.id}`, t("club.forget"), () => { C.forgetting = member.id; draw(false); }, "danger"));
  }
  row.append(actions);
  return row;
}

/** A member's page: their statistics and charts (member.js). */
function memberPage(member) {
  return `#/clubs/${C.id}/members/${member.id}`;
}

function button(id, label, onclick, kind = "") {
  return h("button", { type: "button", class: `button small ${kind}`, id, onclick }, label);
}

function nameOf(memberId) {
  return C.club.members.find((m) => m.id === memberId)?.name || "";
}

const cancel = () => {
  Object.assign(C, { merging: null, renaming: null, forgetting: null });
  draw(false);
};

function editor(member, title, fields, confirm) {
  const box = h("li", { class: "member card editing", "data-member": member.id },
    h("h2", {}, title), ...fields, h("div", { class: "errors", role: "alert" }),
    h("div", { class: "row" }, button("member-cancel", t("action.cancel"), cancel), confirm));
  return box;
}

function renameEditor(member) {
  const id = `rename-input-${member.id}`;
  const input = h("input", { id, type: "text", maxlength: 80, value: member.name, autocomplete: "off" });
  const box = editor(member, t("club.renameTitle", { name: member.name }),
    [h("div", { class: "field", "data-field": "name" }, h("label", { for: id }, t("club.newName")), input)],
    button("rename-save", t("club.renameSave"), () => change("PATCH", `/members/${member.id}`, { name: input.value.trim() }, box), "primary"));
  setTimeout(() => document.getElementById(id)?.focus(), 0);
  return box;
}

function mergeEditor(member) {
  const candidates = C.club.members.filter((m) => m.id !== member.id && m.status === "active");
  const id = `merge-into-${member.id}`;
  const select = h("select", { id },
    h("option", { value: "" }, t("club.mergeChoose")),
    candidates.map((m) => h("option", { value: m.id }, m.name)));
  const box = editor(member, t("club.mergeTitle", { name: member.name }),
    [h("p", { class: "hint" }, t("club.mergeHint", { name: member.name })),
      h("div", { class: "field", "data-field": "into" }, h("label", { for: id }, t("club.mergeInto")), select)],
    button("merge-save", t("club.mergeSave"), () => change("POST", `/members/${member.id}/merge`, { into: select.value }, box), "primary"));
  return box;
}

function forgetEditor(member) {
  return editor(member, t("club.forgetTitle", { name: member.name }),
    [h("p", { class: "hint" }, t("club.forgetHint", { name: member.name }))],
    button("forget-yes", t("club.forgetYes", { name: member.name }), () => change("POST", `/members/${member.id}/forget`, {}), "danger"));
}

// -- a game or an event of the club ------------------------------------------------------------

/** The secretary's way to a new game or event of the club: the usual forms, each seat filled
 * from the roster with a tap (clubseats.js). */
function playCard() {
  return h("section", { class: "card club-play", id: "club-play", "aria-labelledby": "club-play-title" },
    h("h2", { id: "club-play-title" }, t("club.play")),
    h("p", { class: "hint" }, t("club.playHint")),
    h("div", { class: "row" },
      h("a", { class: "button primary", id: "club-new-game", href: `#/clubs/${C.id}/new` }, t("club.newGame")),
      h("a", { class: "button", id: "club-new-event", href: `#/clubs/${C.id}/events/new` }, t("club.newEvent"))));
}

// -- seasons and ratings --------------------------------------------------------------------

/** The club's seasons: each opens its standings; the secretary opens a new one. */
function seasonsCard() {
  const box = h("section", { class: "card club-seasons", id: "seasons", "aria-labelledby": "seasons-title" },
    h("h2", { id: "seasons-title" }, t("club.seasons")));
  if (!C.seasons.length) box.append(h("p", { class: "muted" }, t("club.noSeason")));
  const chips = h("div", { class: "chips", role: "radiogroup", "aria-label": t("club.seasons") });
  for (const season of C.seasons) {
    chips.append(chipRadio("season", season.id, season.name, C.season === season.id, async () => {
      C.season = season.id;
      C.standings = (await api("GET", `/clubs/${C.id}/seasons/${season.id}/standings`, { token: C.token })).data;
      draw(false);
    }));
  }
  if (C.seasons.length) box.append(chips);
  if (C.season && C.standings) box.append(standingsTable(C.standings));
  if (C.edit) box.append(C.addingSeason ? seasonForm() : h("button", {
    type: "button", class: "button", id: "season-new", onclick: () => { C.addingSeason = true; draw(false); },
  }, t("club.seasonNew")));
  return box;
}

/** A day of the calendar (YYYY-MM-DD) as the page's language writes it. */
function day(iso) {
  return new Date(`${iso}T12:00:00`).toLocaleDateString(I18n.locale, { day: "numeric", month: "long", year: "numeric" });
}

function standingsTable(standings) {
  const season = standings.season;
  const box = h("div", { class: "season-standings" },
    h("p", { class: "hint" }, t("club.seasonDates", { from: day(season.from), to: day(season.to) }), " · ",
      t(`club.counting.${season.counting}`, { n: season.n })));
  if (!standings.rows.length) {
    box.append(h("p", { class: "muted" }, t("club.seasonEmpty")));
    return box;
  }
  const table = h("table", { class: "standings", id: "season-standings" },
    h("caption", { class: "visually-hidden" }, season.name),
    h("thead", {}, h("tr", {},
      h("th", { scope: "col" }, "#"), h("th", { scope: "col" }, t("club.member")),
      h("th", { scope: "col", class: "num" }, t("ev.col.matchPointsShort")),
      h("th", { scope: "col", class: "num" }, t("ev.col.pointsShort")))));
  const body = h("tbody");
  for (const row of standings.rows) {
    body.append(h("tr", { "data-member": row.member },
      h("td", {}, row.place), h("th", { scope: "row" }, row.entrant),
      h("td", { class: "num" }, number(row.match_points)), h("td", { class: "num" }, number(row.points))));
  }
  table.append(body);
  box.append(table, printouts(season), leadersChart(standings));
  return box;
}

/** The season's standings printed (in the page's language) and as a spreadsheet. */
function printouts(season) {
  const path = `/clubs/${C.id}/seasons/${season.id}/standings`;
  const file = `${C.club.name} ${season.name}`;
  const link = (id, kind, query, label) => h("a", {
    class: "button small", id, href: `/api/v1${path}.${kind}${query}`,
    onclick: (event) => { event.preventDefault(); download(`${path}.${kind}${query}`, `${file}.${kind}`); },
  }, label);
  return h("div", { class: "row season-printouts" },
    link("season-pdf", "pdf", `?lang=${I18n.lang}`, t("club.seasonPdf")),
    link("season-csv", "csv", "", t("club.seasonCsv")));
}

/** The season's evenings by day: an evening is a day at the club, however many stand-alone
 * games or events it held (they come in the order they ended, a day's together). Each day:
 * its date, how many games and events it held, and the season's evening after which it
 * ended (1 the first). */
function eveningDays(evenings) {
  const days = [];
  evenings.forEach((evening, i) => {
    const last = days[days.length - 1];
    if (last && last.date === evening.date) Object.assign(last, { held: last.held + 1, after: i + 1 });
    else days.push({ date: evening.date, held: 1, after: i + 1 });
  });
  return days;
}

/** A day (YYYY-MM-DD) short, as the page's language writes it ("5 mar"). */
function shortDay(iso) {
  return new Date(`${iso}T12:00:00`).toLocaleDateString(I18n.locale, { day: "numeric", month: "short" });
}

/** The season's leaders evening by evening — an evening a day —: the match points the
 * standings counted at the start and after each day, a line a member (an average has no
 * figure before their first evening), each line its colour, dash and marker's shape, lines
 * with the same figures side by side and said so under the key; and the same figures in a
 * table for a screen reader. */
function leadersChart(standings) {
  const leaders = standings.leaders || [];
  if (!leaders.length) return null;
  const title = t("club.leadersTitle", { n: leaders.length });
  const days = eveningDays(standings.evenings);
  const series = leaders.map((l) => ({
    key: l.member, label: l.entrant, values: [l.running[0], ...days.map((d) => l.running[d.after])] }));
  const figure = (value) => (value === null ? t("club.notYet") : number(value));
  const figures = hiddenTable(
    h("caption", {}, t("chart.caption", { title })),
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("club.evening")),
      series.map((line) => h("th", { scope: "col" }, line.label)))),
    h("tbody", {}, series[0].values.map((_, i) => h("tr", {},
      h("th", { scope: "row" }, i === 0 ? t("chart.start")
        : t("club.eveningDay", { k: i, date: day(days[i - 1].date), n: days[i - 1].held })),
      series.map((line) => h("td", {}, figure(line.values[i])))))));
  const svg = namedSteps(picture(series, { title, reference: null, label: "" }, days.length, t("club.eveningsAxis")),
    ["", ...days.map((d) => shortDay(d.date))]);
  return h("section", { class: "chart season-chart", id: "season-chart", "aria-labelledby": "season-chart-title" },
    h("h3", { id: "season-chart-title" }, title), svg, chartKey(series), figures);
}

function seasonForm() {
  const year = new Date().getFullYear();
  const field = (id, label, input) => h("div", { class: "field", "data-field": id.replace("season-", "") },
    h("label", { for: id }, label), input);
  const name = h("input", { id: "season-name", type: "text", maxlength: 60, value: String(year), autocomplete: "off" });
  const from = h("input", { id: "season-from", type: "date", value: `${year}-01-01` });
  const to = h("input", { id: "season-to", type: "date", value: `${year}-12-31` });
  const counting = h("select", { id: "season-counting" },
    ["sum", "average", "best_n"].map((c) => h("option", { value: c }, t(`club.counting.${c}`, { n: "n" }))));
  const n = h("input", { id: "season-n", type: "number", min: 1, max: 366, value: 8, inputmode: "numeric", class: "short" });
  const form = h("form", {
    class: "season-form", novalidate: true,
    onsubmit: async (event) => {
      event.preventDefault();
      const body = { name: name.value.trim(), from: from.value, to: to.value, counting: counting.value };
      if (counting.value === "best_n") body.n = Number(n.value);
      await change("POST", "/seasons", body, form);
    },
  },
  field("season-name", t("club.seasonName"), name), field("season-from", t("club.seasonFrom"), from),
  field("season-to", t("club.seasonTo"), to), field("season-counting", t("club.seasonCounting"), counting),
  field("season-n", t("club.seasonN"), n),
  h("div", { class: "errors", role: "alert" }),
  h("div", { class: "row" },
    h("button", { type: "button", class: "button", onclick: () => { C.addingSeason = false; draw(false); } }, t("action.cancel")),
    h("button", { type: "submit", class: "button primary", id: "season-save" }, t("club.seasonSave"))));
  return form;
}

/** The ratings of one family: the conservative figure, how sure it is, the games counted. */
function ratingsCard() {
  const box = h("section", { class: "card club-ratings", id: "ratings", "aria-labelledby": "ratings-title" },
    h("h2", { id: "ratings-title" }, t("club.ratings")),
    h("div", { class: "chips", role: "radiogroup", "aria-label": t("club.ratings") },
      FAMILIES.map((family) => chipRadio("rating-family", family, t(`family.${family}`), C.family === family, async () => {
        C.family = family;
        C.history = null;
        C.ratings = (await api("GET", `/clubs/${C.id}/ratings?family=${family}`, { token: C.token })).data;
        draw(false);
      }))));
  const rows = C.ratings ? C.ratings.ratings : [];
  if (!rows.length) {
    box.append(h("p", { class: "muted" }, t("club.noRatings")));
    return box;
  }
  box.append(h("p", { class: "hint" }, t("club.ratingsHint")),
    h("p", { class: "hint", id: "ratings-certainty" }, t("club.certaintyHint")));
  const table = h("table", { class: "standings", id: "ratings-table" },
    h("caption", { class: "visually-hidden" }, t("club.ratings")),
    h("thead", {}, h("tr", {},
      h("th", { scope: "col" }, "#"), h("th", { scope: "col" }, t("club.member")),
      h("th", { scope: "col", class: "num" }, t("club.rating")),
      h("th", { scope: "col", class: "num", "aria-describedby": "ratings-certainty" }, t("club.certainty")),
      h("th", { scope: "col", class: "num" }, t("club.games")))));
  const body = h("tbody");
  for (const row of rows) {
    const open = C.history && C.history.member.id === row.member.id;
    body.append(h("tr", { "data-member": row.member.id },
      h("td", {}, row.place),
      h("th", { scope: "row" }, h("button", {
        type: "button", class: "row-button", id: `rating-${row.member.id}`,
        "aria-expanded": open ? "true" : "false", "aria-controls": "rating-chart",
        onclick: () => showHistory(open ? null : row.member.id),
      }, row.member.name)),
      h("td", { class: "num" }, row.rating), h("td", { class: "num certainty" }, new Intl.NumberFormat(I18n.locale, {
        style: "percent", maximumFractionDigits: 2 }).format(row.certainty / 100)),
      h("td", { class: "num" }, row.games)));
  }
  table.append(body);
  box.append(table);
  if (C.history) box.append(historyChart(C.history));
  return box;
}

/** A member's rating game by game, under the table (``null``: none shown). */
async function showHistory(memberId) {
  C.history = memberId ? (await api("GET", `/clubs/${C.id}/members/${memberId}/ratings?family=${C.family}`,
    { token: C.token })).data : null;
  draw(false);
}

/** The rating after each game as a chart, from the newcomer's 1000, and the same figures in
 * a table for a screen reader. */
function historyChart(history) {
  const values = [1000, ...history.history.map((p) => p.rating)];
  const words = { title: t("club.ratingOver", { name: history.member.name }), reference: 1000, label: number(1000) };
  const series = [{ key: history.member.id, label: history.member.name, values }];
  const figures = hiddenTable(
    h("caption", {}, words.title),
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("club.games")), h("th", { scope: "col" }, t("club.rating")))),
    h("tbody", {}, values.map((value, i) => h("tr", {},
      h("th", { scope: "row" }, i === 0 ? t("chart.start") : String(i)), h("td", {}, number(value))))));
  return h("section", { class: "chart", id: "rating-chart" },
    h("h3", {}, words.title), picture(series, words, values.length - 1, t("club.gamesAxis")), figures);
}

/** The members' read link, to share (the secretary's phone only). */
function shareCard() {
  const saved = Clubs.get(C.id) || {};
  const link = saved.links?.read || (saved.tokens?.read ? `${location.origin}/#/clubs/${C.id}?token=${saved.tokens.read}` : null);
  if (!link) return null;
  return h("article", { class: "card share-card read", "data-link": "read" },
    h("h2", {}, t("club.readLink")),
    h("p", { class: "hint" }, t("club.readLinkHint")),
    h("div", { class: "qr-box" }, QR.svg(link, t("club.readLinkQr"))),
    h("label", { for: "club-link", class: "visually-hidden" }, t("club.readLink")),
    h("input", { id: "club-link", class: "link", type: "text", readonly: true, value: link, onfocus: (e) => e.target.select() }));
}

/** A file of the club's (its export, a season's printouts), fetched with this phone's token
 * and saved as ``filename``. */
async function download(path, filename) {
  try {
    const response = await fetch(`/api/v1${path}`, { headers: { Authorization: `Bearer ${C.token}` } });
    if (!response.ok) throw new Error(String(response.status));
    saveFile(await response.blob(), filename);
  } catch (error) {
    toast(t("club.downloadFailed"));
  }
}

export { clubScreen, heldClubToken, historyChart, newClubScreen };
