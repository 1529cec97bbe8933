/* The door of an event that takes check-ins (docs/club-guide.md, "An evening that runs
 * itself"): the door's link opens it on a tablet at the entrance or on a player's phone that
 * scanned the poster. At a club's event it lists the club's members not yet checked in (a
 * tap on one's name, a tap to confirm); a newcomer types a name once (a pair, two names).
 * Checked in, the phone keeps the entrant's own link and opens it (entrant.js). It reads the
 * door again every few seconds, so a member checked in elsewhere leaves the list. */
import { api, inOrder, problemErrors } from "./api.js";
import { h, randomKey, redraw } from "./dom.js";
import { t } from "./i18n.js";
import { problemText } from "./problems.js";
import { Events } from "./stores.js";
import { watch } from "./watch.js";

// What the door's screen is doing, kept across the redraws its reads bring.
const D = {
  id: null, token: null, door: null, etag: null, chosen: null, pair: [], typed: ["", ""],
  errors: [], busy: false, filter: "",
};

const live = watch(async (current) => {
  if (!D.id) return;
  const changed = await readDoor();
  if (current() && changed) drawDoor(false);
}, { follow: () => (D.id ? { path: `/api/v1/events/${D.id}/door`, token: D.token } : null) });

const doorReads = inOrder();

function stopDoor() {
  live.stop();
}

async function readDoor() {
  const headers = D.etag ? { "If-None-Match": D.etag } : {};
  const id = D.id;
  const response = await doorReads(() => api("GET", `/events/${id}/door`, { token: D.token, headers }));
  if (!response || D.id !== id || response.status === 304) return false;
  D.door = response.data;
  D.etag = response.headers.get("ETag");
  return true;
}

/** The door of event ``id``, opened with the door's token this phone keeps (or the
 * organiser's). */
async function doorScreen(id) {
  const saved = Events.get(id) || {};
  const token = saved.tokens?.door || saved.tokens?.edit;
  if (!token) throw Object.assign(new Error(t("ev.notOpened")), { status: 401 });
  if (D.id !== id) Object.assign(D, { chosen: null, pair: [], typed: ["", ""], filter: "" });
  Object.assign(D, { id, token, etag: null, errors: [], busy: false });
  await readDoor();
  Events.put(id, { name: D.door.event.name, variant: D.door.event.variant, format: D.door.event.format });
  drawDoor(true);
  live.start();
}

/** This phone's own check-in at this event, if it made one (its entrant link). */
function mine() {
  const saved = Events.get(D.id) || {};
  return saved.tokens?.entrant && saved.entrant !== undefined ? saved : null;
}

function drawDoor(first) {
  const door = D.door;
  const ev = door.event;
  const pairs = ev.format === "pairs";
  const root = h("section", { class: "screen door", id: "door", "data-open": String(door.open) },
    h("h1", {}, ev.name),
    h("p", { class: "lead" }, t("door.lead")),
    h("p", { class: "hint", id: "door-count" }, t(pairs ? "door.countPairs" : "door.countPlayers", { n: door.checked_in })));
  const me = mine();
  if (me) {
    root.append(h("div", { class: "card door-mine", id: "door-mine" },
      h("p", {}, t("door.youAre", { name: me.entrantName || "" })),
      h("a", { class: "button primary", id: "door-to-mine", href: `#/events/${D.id}/entrants/${me.entrant}` },
        t("door.toMine"))));
  }
  if (!door.open) {
    root.append(h("p", { class: "card warn", id: "door-closed", role: "status" }, t("door.closed")));
    redraw(root, first);
    return;
  }
  if (door.from_round > 1) {
    root.append(h("p", { class: "card", id: "door-late" }, t("door.late", { n: door.from_round })));
  }
  root.append(h("div", { class: "errors", id: "door-errors", role: "alert" },
    D.errors.map((e) => h("p", { class: "field-error" }, problemText(e)))));
  if (pairs) root.append(pairForm(door));
  else {
    if (door.members.length) root.append(memberList(door));
    root.append(newcomer());
  }
  redraw(root, first);
}

/** The club's members yet to come: a tap on a name asks "is it you?", a tap checks in. */
function memberList(door) {
  const filter = D.filter.trim().toLocaleLowerCase();
  const shown = door.members.filter((m) => !filter || m.name.toLocaleLowerCase().includes(filter));
  const box = h("section", { class: "card door-members", "aria-labelledby": "door-members-title" },
    h("h2", { id: "door-members-title" }, t("door.members")),
    door.members.length > 12 ? h("div", { class: "field" },
      h("label", { for: "door-filter", class: "visually-hidden" }, t("door.filter")),
      h("input", {
        id: "door-filter", type: "search", value: D.filter, autocomplete: "off", placeholder: t("door.filter"),
        oninput: (e) => { D.filter = e.target.value; drawDoor(false); },
      })) : null);
  const list = h("ul", { class: "door-list", id: "door-list" });
  for (const member of shown) {
    const chosen = D.chosen === member.id;
    list.append(h("li", { class: `door-member${chosen ? " chosen" : ""}`, "data-member": member.id },
      h("button", {
        type: "button", class: "button door-name", id: `member-${member.id}`,
        "aria-expanded": chosen ? "true" : "false",
        onclick: () => { D.chosen = chosen ? null : member.id; D.errors = []; drawDoor(false); },
      }, member.name),
      chosen ? h("div", { class: "door-confirm", role: "group", "aria-label": member.name },
        h("button", {
          type: "button", class: "button primary", id: "door-yes", disabled: D.busy,
          onclick: () => checkIn({ member: member.id }, member.name),
        }, t("door.yes", { name: member.name })),
        h("button", {
          type: "button", class: "button", id: "door-no",
          onclick: () => { D.chosen = null; drawDoor(false); },
        }, t("action.cancel"))) : null));
  }
  box.append(list);
  if (!shown.length) box.append(h("p", { class: "muted" }, t("door.noneFound")));
  return box;
}

/** A newcomer (or anyone, at an event of no club): a name typed once. */
function newcomer() {
  const club = D.door.members.length > 0;
  const send = () => {
    const name = D.typed[0].trim();
    if (name) checkIn({ name }, name);
  };
  return h("section", { class: "card door-new", "aria-labelledby": "door-new-title" },
    h("h2", { id: "door-new-title" }, t(club ? "door.newcomer" : "door.yourName")),
    h("div", { class: "field", "data-field": "name" },
      h("label", { for: "door-name" }, t("door.name")),
      h("input", {
        id: "door-name", type: "text", value: D.typed[0], autocomplete: "off", autocapitalize: "words",
        maxlength: 80, enterkeyhint: "go",
        oninput: (e) => { D.typed[0] = e.target.value; },
        onkeydown: (e) => { if (e.key === "Enter") send(); },
      })),
    h("button", { type: "button", class: "button primary big", id: "door-send", disabled: D.busy, onclick: send },
      t("door.checkIn")));
}

/** A pair: its two players, each a member tapped or a name typed; the pair is named after
 * both. */
function pairForm(door) {
  const box = h("section", { class: "card door-pair", "aria-labelledby": "door-pair-title" },
    h("h2", { id: "door-pair-title" }, t("door.pair")));
  const taken = new Set(D.pair.filter(Boolean).map((p) => p.id));
  [0, 1].forEach((i) => {
    const member = D.pair[i];
    box.append(h("div", { class: "field", "data-field": `players[${i}]` },
      h("label", { for: `door-player-${i}` }, t("door.player", { n: i + 1 })),
      member ? h("p", { class: "row" }, h("strong", { id: `door-player-${i}` }, member.name), " ",
        h("button", { type: "button", class: "button small", id: `door-clear-${i}`,
          onclick: () => { D.pair[i] = null; drawDoor(false); } }, t("action.cancel")))
        : h("input", {
          id: `door-player-${i}`, type: "text", value: D.typed[i], autocomplete: "off", autocapitalize: "words",
          maxlength: 80, oninput: (e) => { D.typed[i] = e.target.value; },
        })));
  });
  if (door.members.length) {
    box.append(h("p", { class: "hint" }, t("door.pairMembers")),
      h("div", { class: "chips door-chips" }, door.members.filter((m) => !taken.has(m.id)).map((m) => h("button", {
        type: "button", class: "chip", id: `member-${m.id}`, "data-member": m.id,
        disabled: Boolean(D.pair[0] && D.pair[1]),
        onclick: () => { D.pair[D.pair[0] ? 1 : 0] = m; drawDoor(false); },
      }, m.name))));
  }
  const send = () => {
    const players = [0, 1].map((i) => (D.pair[i] ? { member: D.pair[i].id } : D.typed[i].trim()));
    const names = [0, 1].map((i) => (D.pair[i] ? D.pair[i].name : D.typed[i].trim()));
    if (names.some((n) => !n)) return;
    checkIn({ name: names.join(" & "), players }, names.join(" & "));
  };
  box.append(h("button", { type: "button", class: "button primary big", id: "door-send", disabled: D.busy, onclick: send },
    t("door.checkInPair")));
  return box;
}

async function checkIn(body, name) {
  D.busy = true;
  D.errors = [];
  drawDoor(false);
  try {
    const { data } = await api("POST", `/events/${D.id}/checkins`, {
      body, token: D.token, headers: { "Idempotency-Key": randomKey() },
    });
    Events.put(D.id, {
      tokens: { entrant: data.tokens.entrant }, links: { entrant: data.links.entrant },
      entrant: data.entrant, entrantName: data.name, justCheckedIn: true,
    });
    Object.assign(D, { chosen: null, pair: [], typed: ["", ""], filter: "", busy: false });
    stopDoor();
    location.hash = `#/events/${D.id}/entrants/${data.entrant}`;
    return;
  } catch (error) {
    const code = error.problem?.code;
    // The door's two refusals said as its reader needs them: what to do, then whom.
    D.errors = code === "already_checked_in" || code === "checkin_closed"
      ? [{ field: "", message: doorWords(code, name, error.problem.detail || "") }] : problemErrors(error);
    if (code === "checkin_closed") D.etag = null;
  }
  D.busy = false;
  await readDoor().catch(() => false);
  drawDoor(false);
  document.querySelector("#door-errors .field-error")?.scrollIntoView({ block: "center" });
}

/** A refusal at the door said as the door's reader needs it: what to do about it, then the
 * service's words (which entrant the name is already). */
function doorWords(code, name, detail) {
  if (code === "already_checked_in") return `${t("door.already", { name })} (${detail})`;
  return t("door.closed");
}

export { doorScreen, stopDoor };
