/* Entering a hand the way a table counts it, or correcting one: the form, its state (kept as
 * a draft on the phone at every change), the record it makes for the service, the preview
 * of what it scores, the service's refusals at their fields, and saving (into the outbox
 * when the network is away). What it works out before asking the service is in
 * handcount.js, its sections in handsections.js: functions of the form, which it calls. */
import { api, problemErrors } from "./api.js";
import { Cards } from "./cards.js";
import { banner, h, num, randomKey, show, signed, switchButton, toast } from "./dom.js";
import { checks, pileOf, pointsOf } from "./handcount.js";
import {
  bagattoSection, callSection, checkSection, contractSection, declarationSection, lastTrickSection, pilesSection,
} from "./handsections.js";
import { I18n, t } from "./i18n.js";
import { findField, problemLine } from "./problems.js";
import { lostRace } from "./sheet.js";
import {
  G, canEdit, correctionRoute, flushOutbox, handsInGame, nextHand, openGame, refreshGame, rulebook, schedulePoll, seatName,
  sideNames,
} from "./state.js";
import { Drafts, Outbox } from "./stores.js";

async function handScreen(id, number) {
  await openGame(id);
  const g = G.game;
  // A new hand needs the table's edit token and a game that takes hands; a correction, a
  // route for it (the organiser's, once the round is closed).
  if (number ? !correctionRoute() : !canEdit() || g.event?.closed) {
    location.hash = `#/games/${id}`;
    return;
  }
  rulebook(g.variant).catch(() => {});  // what a refusal's rule link will say
  const hand = number ? g.hands[number - 1] : null;
  if (number && !hand) {
    location.hash = `#/games/${id}`;
    return;
  }
  // No new hand past the game's end, counting the hands waiting on the phone.
  const ends = handsInGame(g, G.detail);
  if (!number && (g.status === "finished" || (ends && nextHand(g).number > Math.max(ends, g.hands.length + 1)))) {
    location.hash = `#/games/${id}`;
    return;
  }
  const form = new HandForm(g, G.detail, hand);
  const again = G.reenter;
  if (again && (again.kind === "add" ? !hand : hand && again.number === hand.number)) {
    form.load({ record: { ...again.record, dealer: form.s.dealer }, result: hand ? hand.result : { sides: [] } });
    G.reenter = null;
    Drafts.keep(form);
    form.restored = Date.now();
  }
  G.onChange = () => form.gameChanged();
  form.mount();
  schedulePoll();
}

class HandForm {
  constructor(game, detail, hand) {
    this.g = game;
    this.V = detail;
    this.hand = hand;
    this.baseHands = game.hands.length;
    const next = nextHand(game);
    this.number = hand ? hand.number : next.number;
    // A duplicate table's hand is a board: its number, its dealer, its exposed cards.
    this.board = game.boards ? game.boards[this.number - 1] || null : null;
    this.family = detail.family;
    this.seats = game.seats.map((_, i) => i);
    this.summary = detail.summary_cards;
    this.errors = [];
    this.previewSeq = 0;
    this.declOpen = false;
    this.decl = null;
    const bagattoOption = detail.bagatto_ultimo && (detail.bagatto_ultimo.optional ? game.options.bagatto_ultimo !== false : true);
    this.hasBagatto = Boolean(bagattoOption);
    this.hasDeclarations = detail.melds.length > 0 && game.options.melds !== "none" &&
      !(game.options.melds === "captured");
    // Whether a pile's combinations score: the variant scores melds from captures (Ottocento
    // always; Gatti where the game's melds option says so).
    this.combosScored = detail.melds.some((m) => m.captured) &&
      (!detail.options.melds || ["captured", "both"].includes(game.options.melds));
    this.comboPick = null;
    this.s = {
      // "points": each side's points as the table counted them; "cards": tricks and cards.
      mode: "points",
      points: {},
      combos: {},
      dealer: hand ? hand.dealer : next.dealer,
      thrown_in: false,
      call: { card: null, partner: null },
      contract: { type: "call", declarer: null, called_card: null, partner: null, sans_prendre: false },
      declarations: [],
      tricks: {},
      owner: {},
      rest: null,
      active: 0,
      bagatto: { on: false, seat: null, won: true, valid: true },
      last_trick: null,
    };
    this.s.contract.declarer = this.s.dealer;
    this.s.rest = this.sides().length - 1;
    this.s.active = 0;
    if (hand) this.load(hand);
    this.restored = Drafts.take(this);
  }

  // The key this hand's draft is kept under on the phone: a new hand by its number and
  // dealer, a correction by the version it corrects (a draft of another version is stale).
  draftKey() {
    const which = this.hand ? `v${this.hand.version}` : `new.d${this.s.dealer}`;
    return `${this.g.id}.${this.number}.${which}`;
  }

  // The sides of the hand as the record will have them.
  sides() {
    const V = this.V;
    const s = this.s;
    if (V.partnership === "call") {
      const first = s.call.partner === null ? [s.dealer] : [...new Set([s.dealer, s.call.partner])];
      return [{ side: 0, seats: first }, { side: 1, seats: this.seats.filter((x) => !first.includes(x)) }];
    }
    if (V.partnership === "contract") {
      const c = s.contract;
      const first = c.type === "call" && c.partner !== null ? [c.declarer, c.partner] : [c.declarer];
      return [{ side: 0, seats: first }, { side: 1, seats: this.seats.filter((x) => !first.includes(x)) }];
    }
    return V.sides.map((x) => ({ side: x.side, seats: x.seats }));
  }

  sideLabel(side) {
    const V = this.V;
    const seats = this.sides()[side].seats;
    if (V.partnership === "call" && side === 0 && this.s.call.partner === null) {
      return `${sideNames(seats)} & ?`;
    }
    return sideNames(seats);
  }

  load(hand) {
    const rec = hand.record;
    const s = this.s;
    s.dealer = rec.dealer;
    s.thrown_in = Boolean(rec.thrown_in);
    if (rec.tricks) this.unsupported = true;
    if (rec.call) s.call = { card: rec.call.card, partner: rec.call.partner ?? null };
    if (rec.contract) {
      s.contract = { type: rec.contract.type, declarer: rec.contract.declarer, called_card: rec.contract.called_card ?? null,
        partner: rec.contract.partner ?? null,
        // A solo without a called card is played sans prendre: the switch says so.
        sans_prendre: Boolean(rec.contract.sans_prendre) || (rec.contract.type === "solo" && !rec.contract.called_card) };
    }
    s.declarations = (rec.declarations || []).map((d) => ({ ...d }));
    const piles = rec.piles || [];
    const given = new Set(piles.map((p) => p.side));
    const all = this.sides().map((x) => x.side);
    const missing = all.filter((x) => !given.has(x));
    s.rest = missing.length === 1 ? missing[0] : null;
    s.mode = piles.some((p) => p.points !== undefined) ? "points" : (piles.length ? "cards" : s.mode);
    for (const pile of piles) {
      if (pile.points !== undefined) {
        s.points[pile.side] = pile.points;
        if (pile.combinations) s.combos[pile.side] = pile.combinations.map((c) => ({ ...c }));
        continue;
      }
      let counting = pile.counting || [];
      let tricks = pile.tricks;
      if (pile.cards) {
        counting = pile.cards.filter((c) => this.summary.includes(c));
        const line = (hand.result.sides.find((x) => x.side === pile.side)?.lines || [])
          .find((l) => l.item === "deck_points");
        tricks = line ? line.tricks : Math.round(pile.cards.length / this.V.trick_size);
      }
      s.tricks[pile.side] = tricks;
      for (const code of counting) s.owner[code] = pile.side;
    }
    s.active = all.find((x) => x !== s.rest) ?? 0;
    if (rec.bagatto) s.bagatto = { on: true, seat: rec.bagatto.seat, won: rec.bagatto.won, valid: rec.bagatto.valid !== false };
    if (rec.last_trick !== undefined && rec.last_trick !== null) s.last_trick = rec.last_trick;
  }

  mount() {
    this.root = h("section", { class: "screen hand-form" });
    this.draw(true);
    show(this.root);
    this.preview();
  }

  gameChanged() {
    if (!this.hand && nextHand(G.game).number !== this.number) {
      banner(t("race.recordedElsewhere", { n: this.baseHands + 1 }), "warn");
    }
  }

  update(fn) {
    fn(this.s);
    this.errors = [];
    Drafts.keep(this);
    this.draw(false);
    this.preview();
  }

  // Nothing counted yet: no side entered has a trick or a card (the form as it opened).
  isBlank() {
    const s = this.s;
    if (s.thrown_in) return false;
    if (this.V.partnership === "contract" && s.contract.type === "surrender") return false;
    const entered = this.sides().filter((x) => x.side !== s.rest);
    if (s.mode === "points") {
      return entered.every((x) => s.points[x.side] === undefined) &&
        Object.values(s.combos).every((list) => !list.length);
    }
    return entered.every((x) => !(s.tricks[x.side] > 0)) && Object.keys(s.owner).length === 0;
  }

  leave() {
    if (Drafts.has(this) && !window.confirm(t("hand.discardConfirm", { n: this.number }))) return;
    Drafts.drop(this);
    location.hash = `#/games/${this.g.id}`;
  }

  // -- the record -----------------------------------------------------------------------

  record() {
    const s = this.s;
    const V = this.V;
    const rec = { dealer: s.dealer };
    if (s.thrown_in) {
      rec.thrown_in = true;
      return rec;
    }
    if (V.partnership === "call") {
      rec.call = {};
      if (s.call.card) rec.call.card = s.call.card;
      if (s.call.partner !== null) rec.call.partner = s.call.partner;
    }
    const surrendered = V.partnership === "contract" && s.contract.type === "surrender";
    if (V.partnership === "contract") {
      const c = s.contract;
      rec.contract = { type: c.type, declarer: c.type === "call" ? s.dealer : c.declarer };
      if (c.type === "call") {
        if (c.called_card) rec.contract.called_card = c.called_card;
        if (c.partner !== null) rec.contract.partner = c.partner;
      } else if (c.type === "solo") {
        // What the form shows is what is scored: sans prendre when the switch is on, else
        // the called card (the checks ask for one).
        if (c.sans_prendre) rec.contract.sans_prendre = true;
        else if (c.called_card) rec.contract.called_card = c.called_card;
      }
    }
    if (s.declarations.length) rec.declarations = s.declarations.map((d) => ({ ...d }));
    if (surrendered) return rec;
    this.pileIndex = [];
    rec.piles = [];
    for (const { side } of this.sides()) {
      const combos = this.combosScored ? (s.combos[side] || []) : [];
      // The rest is the service's to work out, unless its pile holds combinations to say.
      if (side === s.rest && (s.mode !== "points" || !combos.length)) continue;
      this.pileIndex.push(side);
      if (s.mode === "points") {
        const pile = { side, points: side === s.rest ? pointsOf(this, side) : (s.points[side] ?? 0) };
        if (combos.length) pile.combinations = combos.map((c) => ({ ...c }));
        rec.piles.push(pile);
        continue;
      }
      rec.piles.push({
        side, tricks: s.tricks[side] ?? 0,
        counting: this.summary.filter((code) => s.owner[code] === side),
      });
    }
    if (this.hasBagatto && s.bagatto.on && s.bagatto.seat !== null) {
      rec.bagatto = { seat: s.bagatto.seat, won: s.bagatto.won };
      if (V.bagatto_ultimo.lead_condition && !s.bagatto.valid) rec.bagatto.valid = false;
    }
    if (V.last_trick_points && s.last_trick !== null) rec.last_trick = s.last_trick;
    return rec;
  }

  // -- the preview ----------------------------------------------------------------------

  async preview() {
    const seq = ++this.previewSeq;
    const box = this.root.querySelector("#preview");
    if (!box) return;
    const failing = checks(this).filter((c) => !c.ok);
    if (failing.length) {
      box.replaceChildren(h("p", { class: "muted" }, t("preview.waiting")));
      return;
    }
    clearTimeout(this.previewTimer);
    this.previewTimer = setTimeout(async () => {
      try {
        const { data } = await api("POST", "/score", { body: { variant: this.g.variant, options: this.g.options, seats: this.g.seats, hand: this.record() } });
        if (seq !== this.previewSeq) return;
        box.replaceChildren(h("p", { class: "preview-ok" }, t("preview.scores")),
          h("ul", { class: "preview-cols" }, this.g.columns.map((c) => h("li", {},
            h("span", {}, c.label), h("strong", {}, data.marca
              ? signed(data.marca[c.key] ?? 0) + " " + t("marcaShort")
              : num(data.columns[c.key] ?? 0))))));
      } catch (error) {
        if (seq !== this.previewSeq) return;
        const errors = problemErrors(error);
        box.replaceChildren(h("p", { class: "preview-bad" }, t("preview.problems", { n: errors.length })),
          h("ul", { class: "preview-errors" }, errors.map((e) => h("li", {}, problemLine(e)))));
      }
    }, 300);
  }

  // -- drawing --------------------------------------------------------------------------

  title() {
    if (this.board) {
      return t(this.hand ? "hand.correctBoardTitle" : "hand.boardTitle", { board: this.board.board, n: this.number });
    }
    return this.hand ? t("hand.correctTitle", { n: this.number }) : t("hand.title", { n: this.number });
  }

  draw(first) {
    const active = document.activeElement && document.activeElement.id;
    const s = this.s;
    const V = this.V;
    const root = this.root;
    root.replaceChildren();
    root.append(h("div", { class: "form-head" },
      h("h1", {}, this.title()),
      h("p", { class: "dealer-line", "data-field": "dealer" }, t("hand.dealerIs"), " ", h("strong", {}, seatName(s.dealer))),
      this.board && this.board.exposed.length
        ? h("p", { class: "exposed-line", id: "board-exposed" }, t("hand.boardExposed"), " ",
          h("strong", {}, this.board.exposed.map((code) => Cards.name(code, V)).join(", ")))
        : null));
    if (this.restored) {
      root.append(h("div", { class: "card info draft-note", role: "status" },
        h("p", {}, t("hand.draftRestored", { time: new Date(this.restored).toLocaleTimeString(I18n.locale, { hour: "2-digit", minute: "2-digit" }) })),
        h("button", {
          type: "button", class: "button small", id: "draft-discard",
          onclick: () => {
            if (!window.confirm(t("hand.discardConfirm", { n: this.number }))) return;
            Drafts.drop(this);
            const fresh = new HandForm(this.g, this.V, this.hand);
            fresh.mount();
          },
        }, t("hand.startOver"))));
    }
    if (this.unsupported) {
      root.append(h("p", { class: "card warn" }, t("hand.tricksRecord")));
      root.append(h("a", { class: "button", href: `#/games/${this.g.id}` }, t("action.back")));
      return;
    }
    if (V.throw_in) {
      root.append(h("section", { class: "step", "data-field": "thrown_in" },
        switchButton("thrown-in", t("hand.thrownIn"), s.thrown_in, (on) => this.update((x) => { x.thrown_in = on; })),
        h("p", { class: "hint" }, t("hand.thrownInHint"))));
    }
    if (!s.thrown_in) {
      if (V.partnership === "call") root.append(callSection(this));
      if (V.partnership === "contract") root.append(contractSection(this));
      if (this.hasDeclarations) root.append(declarationSection(this));
      const surrendered = V.partnership === "contract" && s.contract.type === "surrender";
      if (!surrendered) {
        root.append(pilesSection(this));
        if (V.last_trick_points) root.append(lastTrickSection(this));
        if (this.hasBagatto) root.append(bagattoSection(this));
      }
    }
    root.append(checkSection(this));
    root.append(h("div", { class: "errors", id: "form-errors", role: "alert" }));
    root.append(h("div", { class: "actions sticky" },
      h("button", { type: "button", class: "button", id: "cancel", onclick: () => this.leave() }, t("action.cancel")),
      h("button", { type: "button", class: "button primary big", id: "save", onclick: () => this.save() },
        this.hand ? t("hand.saveCorrection") : t("hand.save"))));
    this.showErrors();
    if (!first && active) {
      const el = document.getElementById(active);
      if (el) el.focus({ preventScroll: true });
    }
  }

  /** After typing a number: keep the draft, and redraw what follows from it (the rest, the
   * checks, the preview) but not the field being typed in. */
  refresh() {
    this.errors = [];
    Drafts.keep(this);
    const s = this.s;
    if (s.rest !== null) {
      const rest = this.root.querySelector(`#points-rest-${s.rest} strong`);
      if (rest) rest.textContent = num(Math.max(0, pointsOf(this, s.rest)));
    }
    this.root.querySelector(".step.checks")?.replaceWith(checkSection(this));
    for (const el of this.root.querySelectorAll(".field-error")) el.remove();
    this.preview();
  }

  // -- errors and saving ----------------------------------------------------------------

  /** A field path of the record as the page's data-field keys name it. */
  fieldKey(path) {
    let p = (path || "").replace(/^hand\./, "");
    const m = /^piles\[(\d+)\](.*)$/.exec(p);
    if (m && this.pileIndex && this.pileIndex[Number(m[1])] !== undefined) {
      const side = this.pileIndex[Number(m[1])];
      let rest = m[2];
      const card = /^\.counting\[(\d+)\]/.exec(rest);
      if (card) {
        const pile = this.lastRecord && this.lastRecord.piles ? this.lastRecord.piles[Number(m[1])] : null;
        const code = pile ? pile.counting[Number(card[1])] : null;
        rest = code ? `.card:${code}` : ".counting";
      }
      p = `pile:${side}${rest}`;
    }
    return p;
  }

  showErrors() {
    const root = this.root;
    const box = root.querySelector("#form-errors");
    if (!box) return;
    box.replaceChildren();
    for (const error of this.errors) {
      const key = this.fieldKey(error.field);
      const side = /^pile:(\d+)/.exec(key);
      if (this.s.mode === "cards" && side && Number(side[1]) !== this.s.active && Number(side[1]) !== this.s.rest) {
        this.s.active = Number(side[1]);
        this.draw(false);
        return;
      }
      const target = findField(root, key);
      const message = h("p", { class: "field-error", "data-error-field": error.field || "" }, problemLine(error));
      if (target) {
        target.classList.add("invalid");
        target.setAttribute("aria-invalid", "true");
        if (target.tagName === "BUTTON") {
          const section = target.closest("[data-field='piles'], section") || target.parentElement;
          section.append(message);
        } else {
          target.append(message);
        }
      } else {
        box.append(message);
      }
    }
  }

  async save() {
    const button = this.root.querySelector("#save");
    if (this.isBlank()) {
      this.errors = [{ field: "piles", code: "nothing_entered", message: t("check.nothingEntered") }];
      this.draw(false);
      this.root.querySelector("[data-field='piles']")?.scrollIntoView({ block: "center" });
      return;
    }
    const record = this.record();
    this.lastRecord = record;
    button.disabled = true;
    if (!this.hand && !this.key) {
      this.key = randomKey();
      Drafts.keep(this);
    }
    // The organiser's correction of a closed round goes through the event, at once; a round
    // closed while the form was open leaves the table's own route, which the service refuses.
    const route = this.hand
      ? correctionRoute() || { prefix: `/games/${this.g.id}`, token: G.token } : null;
    // Hands already waiting go first: this one joins the queue behind them.
    if (!route?.organiser && Outbox.of(this.g.id).length) {
      this.queue(record);
      return;
    }
    try {
      if (this.hand) {
        await api("PUT", `${route.prefix}/hands/${this.hand.number}`, {
          body: record, token: route.token, headers: { "If-Match": this.hand.etag },
        });
      } else {
        await api("POST", `/games/${this.g.id}/hands`, {
          body: record, token: G.token, headers: { "Idempotency-Key": this.key || (this.key = randomKey()) },
        });
      }
      Drafts.drop(this);
      G.etag = null;
      await refreshGame();
      banner(null);
      toast(this.hand ? t("hand.corrected", { n: this.number }) : t("hand.saved", { n: this.number }));
      G.expanded.clear();
      location.hash = `#/games/${this.g.id}`;
    } catch (error) {
      button.disabled = false;
      if (error.status === 0 && !route?.organiser) {
        // No network: the hand is kept on the phone and sent when the network is back.
        this.queue(record);
        return;
      }
      const problems = problemErrors(error);
      const race = error.status === 409 || error.status === 412 || error.status === 403 ||
        problems.some((p) => p.code === "wrong_dealer");
      if (race) {
        await lostRace(error, {
          number: this.number,
          message: this.hand || error.status === 403 ? null : t("race.lost", { n: this.number }),
        });
        return;
      }
      this.errors = problems;
      this.key = null;
      this.draw(false);
      const first = this.root.querySelector(".field-error");
      if (first) {
        first.scrollIntoView({ block: "center" });
        first.setAttribute("tabindex", "-1");
        first.focus({ preventScroll: true });
      }
    }
  }

  /** Keep the hand in the outbox (the network is away, or hands wait before it), with
   * what the phone can say of it: each column's points by the local count. */
  queue(record) {
    const preview = {};
    for (const column of this.g.columns) {
      const side = this.sides().find((x) => x.seats.includes(column.seats[0]));
      if (!side) continue;
      preview[column.key] = this.s.mode === "points" ? pointsOf(this, side.side) : pileOf(this, side.side).points;
    }
    Outbox.push(this.hand
      ? { game: this.g.id, kind: "put", number: this.number, record, ifMatch: this.hand.etag, preview }
      : { game: this.g.id, kind: "add", number: this.number, dealer: this.s.dealer, record, key: this.key, preview });
    Drafts.drop(this);
    G.expanded.clear();
    toast(t("outbox.kept", { n: this.number }));
    location.hash = `#/games/${this.g.id}`;
    flushOutbox(this.g.id);
  }
}

export { handScreen };
