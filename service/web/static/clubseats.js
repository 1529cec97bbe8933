/* A game or an event started from a club (docs/clubs.md#the-phone-page: "starting a
 * game or an event from the club fills the seats from the roster with a tap each"). The
 * new-game and new-event forms take an optional club — its id, name, the secretary's token
 * and its active members, read here by ``openClub`` — and show the members as buttons: a tap
 * seats a member (the next empty seat of a game, the next line of an event's roster), a tap
 * again frees the seat. A name typed that is not on the roster still works: the service makes
 * it a new member. What is sent names each member by id (``{"member": id}``), with the club
 * and its token (``Club-Authorization``), as the API asks. */
import { ApiError, api } from "./api.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { Clubs } from "./stores.js";

/** The club a form starts a game or event of: only a phone holding its edit token may. */
async function openClub(id) {
  const token = Clubs.get(id)?.tokens?.edit;
  if (!token) throw new ApiError(401, { detail: t("club.notOpened") });
  const { data } = await api("GET", `/clubs/${id}`, { token });
  return {
    id, token, name: data.name,
    members: data.members.filter((m) => m.status === "active").map((m) => ({ id: m.id, name: m.name })),
  };
}

/** A name as the roster compares it: case, accents and spaces aside. */
function nameKey(name) {
  return name.normalize("NFKD").replace(/\p{M}/gu, "").replace(/\s+/g, " ").trim().toLocaleLowerCase();
}

/** The member of the roster a name on the form is, or null. */
function memberNamed(club, name) {
  const key = nameKey(name || "");
  return key ? club.members.find((m) => nameKey(m.name) === key) || null : null;
}

/** A seat (a player, an entrant, a pair's player) as the API takes it in a game or event of
 * the club: ``{"member": id}`` for a member of the roster, else the name as typed. */
function seatOf(club, name) {
  const member = club ? memberNamed(club, name) : null;
  return member ? { member: member.id } : name.trim();
}

/** What a request for the club carries besides its body: the club's edit token. */
function clubHeaders(club) {
  return club ? { "Club-Authorization": `Bearer ${club.token}` } : {};
}

/** The roster as buttons, for a form of the club: ``seated(member)`` says whether a member is
 * on the form already (the button pressed), ``tap(member, seated)`` seats or frees them;
 * ``full``: no empty seat is left, so only the seated can be tapped (to free theirs). */
function rosterButtons(club, seated, tap, full = false) {
  const box = h("div", { class: "club-seats", id: "club-seats" },
    h("p", { class: "hint", id: "club-seats-hint" }, t("club.seatsHint", { club: club.name })));
  if (!club.members.length) {
    box.append(h("p", { class: "muted" }, t("club.seatsNone")));
    return box;
  }
  box.append(h("div", { class: "chips roster-chips", role: "group", "aria-labelledby": "club-seats-hint" },
    club.members.map((member) => {
      const on = seated(member);
      return h("button", {
        type: "button", class: `chip ${on ? "on" : ""}`, id: `seat-member-${member.id}`,
        "data-member": member.id, "aria-pressed": on ? "true" : "false", disabled: full && !on,
        onclick: () => tap(member, on),
      }, member.name);
    })));
  return box;
}

/** An event's roster lines (``{name, players}`` as the form reads them) with ``member``
 * added at the end (in pairs: to the first pair still one player short, which is then named
 * after both unless it was given a name), or taken off when ``seated``. */
function tapEntrant(entrants, member, seated, pairs) {
  const key = nameKey(member.name);
  const named = (pair) => pair.players.join(" & ");
  if (!pairs) {
    return seated ? entrants.filter((e) => nameKey(e.name) !== key) : [...entrants, { name: member.name }];
  }
  const out = entrants.map((e) => ({ ...e, players: [...e.players] }));
  if (seated) {
    return out.flatMap((pair) => {
      const auto = pair.name === named(pair);
      const players = pair.players.filter((p) => nameKey(p) !== key);
      if (players.length === pair.players.length) return [pair];
      if (!players.length) return [];
      return [{ name: auto ? named({ players }) : pair.name, players }];
    });
  }
  const open = out.find((pair) => pair.players.length === 1);
  if (open) {
    const auto = open.name === named(open);
    open.players.push(member.name);
    if (auto) open.name = named(open);
    return out;
  }
  return [...out, { name: member.name, players: [member.name] }];
}

/** An event's roster lines as the form's text: a name a line, or "Pair: Player, Player". */
function rosterText(entrants, pairs) {
  return entrants.map((e) => (pairs ? `${e.name}: ${e.players.join(", ")}` : e.name)).join("\n");
}

/** Whether a member is on an event's roster (an entrant, or a pair's player). */
function onRoster(entrants, member, pairs) {
  const key = nameKey(member.name);
  return entrants.some((e) => (pairs ? e.players : [e.name]).some((n) => nameKey(n) === key));
}

export { clubHeaders, memberNamed, onRoster, openClub, rosterButtons, rosterText, seatOf, tapEntrant };
