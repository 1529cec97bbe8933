/* What this phone keeps in localStorage: the games it has opened (with their tokens), the
 * events (club nights, tournaments) it has opened with theirs, the last copy of each game,
 * the hands being entered (drafts) and the hands waiting to be sent (the outbox). Each is
 * read whole and written whole; where storage is refused, reads give nothing and writes are
 * dropped, and the page still works for the visit. */

/** An object kept in localStorage under ``key``: read whole, written whole. Where storage
 * is refused (private mode, full), reads give {} and writes are dropped: the page still
 * works for this visit. */
function kept(key) {
  return {
    key,
    all() {
      try {
        return JSON.parse(localStorage.getItem(key)) || {};
      } catch (error) {
        return {};
      }
    },
    write(all) {
      try {
        localStorage.setItem(key, JSON.stringify(all));
      } catch (error) { /* not kept */ }
    },
    get(id) {
      return this.all()[id] || null;
    },
    remove(id) {
      const all = this.all();
      delete all[id];
      this.write(all);
    },
  };
}

// The games this phone has opened, by id: their tokens, kind and last copy.
const games = kept("segnapunti.games.v1");
const Store = {
  ...games,
  put(id, patch) {
    const all = this.all();
    all[id] = { ...(all[id] || {}), ...patch, id, seen: Date.now() };
    this.write(all);
    return all[id];
  },
  /** The game forgotten on this phone: its card and its copy go; a hand of it still
   * waiting to be sent keeps the game's token, so that it is sent all the same. */
  remove(id) {
    const saved = this.get(id) || {};
    // Its players' names go with them, to say whose they are.
    const label = (saved.seats || []).join(", ") || null;
    for (const entry of Outbox.of(id)) {
      Outbox.update(entry.id, { token: entry.token || saved.token || null, label, seats: saved.seats || [] });
    }
    games.remove.call(this, id);
    try {
      localStorage.removeItem(Copies.key(id));
    } catch (error) { /* nothing kept */ }
  },
};

// The events this phone has opened, by id: the organiser's token (edit) and the room's (read)
// as far as this phone was given them, the links shown when the event was created, and a few
// words to list it on the home screen.

/** ``patch`` kept for ``id``, its tokens and links added to those kept already. */
function putWithTokens(id, patch) {
  const all = this.all();
  const before = all[id] || {};
  all[id] = {
    ...before, ...patch, id, seen: Date.now(),
    tokens: { ...(before.tokens || {}), ...(patch.tokens || {}) },
    links: { ...(before.links || {}), ...(patch.links || {}) },
  };
  this.write(all);
  return all[id];
}

const Events = { ...kept("segnapunti.events.v1"), put: putWithTokens };

// The clubs this phone has opened, by id: the secretary's token (edit) or the members'
// (read), the links shown when the club was made, its name and how many are on its roster.
const Clubs = { ...kept("segnapunti.clubs.v1"), put: putWithTokens };

// -- the last copy of each game this phone has seen ----------------------------------------
// Kept at every read that brought a new version, with the variant's data, so that the game
// opens with no network. A game too large for the phone's storage is simply not kept.

const Copies = {
  key(id) {
    return `segnapunti.copy.${id}`;
  },
  keep(game, detail) {
    if (!game || !detail) return;
    try {
      localStorage.setItem(this.key(game.id), JSON.stringify({ game, detail, at: Date.now() }));
    } catch (error) { /* full: not kept */ }
  },
  get(id) {
    try {
      return JSON.parse(localStorage.getItem(this.key(id)));
    } catch (error) {
      return null;
    }
  },
};

// -- hands saved with no network: the outbox ------------------------------------------------
// A hand saved while the service cannot be reached is kept here, in order, with the
// Idempotency-Key minted when "save" was tapped (a correction with the If-Match it was made
// against), and sent as soon as the network is back, on every load and after each poll,
// backing off while it fails: a retry can never record a hand twice. A hand the service
// refuses when it arrives (another phone recorded that hand, the game moved on, a rule) is
// kept with what the service said, for the scorekeeper to re-enter, edit or drop. Each entry
// keeps the token it is sent with: forgetting the game on this phone does not stop it.

const Outbox = {
  ...kept("segnapunti.outbox.v1"),
  of(gameId) {
    return Object.values(this.all()).filter((e) => e.game === gameId).sort((a, b) => a.seq - b.seq);
  },
  push(entry) {
    const all = this.all();
    const seq = Math.max(0, ...Object.values(all).map((e) => e.seq || 0)) + 1;
    const id = `${entry.game}.${seq}`;
    const token = entry.token || Store.get(entry.game)?.token || null;
    all[id] = { ...entry, id, seq, token, at: Date.now(), tries: 0, problem: null };
    this.write(all);
    return all[id];
  },
  /** The games with hands waiting, each once, in the order their first hand was saved. */
  games() {
    const entries = Object.values(this.all()).sort((a, b) => a.seq - b.seq);
    return [...new Set(entries.map((e) => e.game))];
  },
  update(id, patch) {
    const all = this.all();
    if (all[id]) all[id] = { ...all[id], ...patch };
    this.write(all);
  },
  remove(id) {
    const all = this.all();
    delete all[id];
    this.write(all);
  },
};

// -- hands being entered, kept on this phone ----------------------------------------------
// Every change to a hand form is written here at once, so a reload, the Back button, a
// closed tab or a flat battery loses nothing: the form opens again where it was. Saving
// the hand, or discarding it (asked first), removes it.

const Drafts = {
  ...kept("segnapunti.drafts.v1"),
  keep(form) {
    const all = this.all();
    const month = Date.now() - 30 * 24 * 3600 * 1000;
    for (const [key, draft] of Object.entries(all)) if (!(draft.at > month)) delete all[key];
    // The Idempotency-Key goes with the hand once it is minted (at the first save), so a
    // save retried after a reload can never record the hand twice.
    all[form.draftKey()] = { s: form.s, key: form.key || null, at: Date.now() };
    this.write(all);
  },
  has(form) {
    return Boolean(this.all()[form.draftKey()]);
  },
  // The draft of this form, put into it; its time, or null when there is none.
  take(form) {
    const all = this.all();
    if (!form.hand) {
      // Drafts of this game's earlier new hands are of hands recorded since: gone.
      const prefix = `${form.g.id}.`;
      for (const key of Object.keys(all)) {
        const number = Number(key.slice(prefix.length).split(".")[0]);
        if (key.startsWith(prefix) && key.includes(".new.") && number < form.number) delete all[key];
      }
      this.write(all);
    }
    const found = all[form.draftKey()];
    if (!found || !found.s) return null;
    Object.assign(form.s, found.s);
    if (found.key) form.key = found.key;
    return found.at || Date.now();
  },
  drop(form) {
    const all = this.all();
    delete all[form.draftKey()];
    this.write(all);
  },
};

export { Clubs, Copies, Drafts, Events, Outbox, Store, kept };
