/* Each player vouches for the hand: the card a player's own link shows, to confirm
 * or dispute the next hand they have not vouched for; the sign each hand carries on the sheet;
 * who said what, in a hand's details; and the disputes the scorekeeper reads at the top of the
 * sheet. The screen passes in what it knows (the game, names, how to show a hand): nothing
 * here imports the page itself. */
import { api } from "./api.js";
import { h, randomKey, toast } from "./dom.js";
import { I18n, t } from "./i18n.js";
import { Outbox } from "./stores.js";

/** How many players have a say: a gatti-2 dummy's seat has none. */
function players(game) {
  const standing = game.hands.length ? game.hands[0].standing : null;
  if (standing && standing.status !== "not_asked") {
    return standing.confirmed.length + standing.disputed.length + standing.waiting.length;
  }
  return game.players.length;
}

/** Whether the sheet marks hands with verdicts: always when the game requires them; when
 * they are optional, once a player has given one (a table without player links sees none). */
function shown(game) {
  const mode = game.confirmation ? game.confirmation.mode : "none";
  return mode === "required" || (mode === "optional" && game.hands.some((hand) => hand.confirmations && hand.confirmations.length));
}

/** The sign a hand carries on the sheet, with what it stands for; null where the game takes
 * no verdicts. */
function handMark(game, hand) {
  const standing = hand.standing;
  if (!standing || standing.status === "not_asked" || !shown(game)) return null;
  if (standing.status === "disputed") return { mark: "!", kind: "disputed", meaning: t("verdict.legendDisputed") };
  if (standing.status === "confirmed") return { mark: "✓", kind: "confirmed", meaning: t("verdict.legendConfirmed") };
  const required = game.confirmation && game.confirmation.mode === "required";
  return {
    mark: `${standing.confirmed.length}/${players(game)}`, kind: "waiting",
    meaning: t(required ? "verdict.legendWaitingRequired" : "verdict.legendWaiting"),
  };
}

/** The hands a seat has not vouched for yet (as they are now), oldest first: a verdict
 * this phone keeps to send (the outbox) counts as given. */
function toVouch(game, seat) {
  const kept = new Set(Outbox.of(game.id).filter((e) => e.kind === "verdict").map((e) => `${e.number}/${e.version}`));
  return game.hands.filter((hand) => hand.standing && hand.standing.waiting.includes(seat) &&
    !kept.has(`${hand.number}/${hand.version}`));
}

/** Whether a verdict that did not arrive is to be sent again later: no network, the service
 * busy or away, or the game changing under it at that moment. */
function resendable(error) {
  return error.status === 0 || error.status >= 500 || error.status === 429 ||
    (error.status === 409 && error.problem && error.problem.code === "concurrent_change");
}

/** Who said what on a hand, for its details: confirmed by, disputed by (and why), waiting for. */
function verdictLines(hand, seatName) {
  const standing = hand.standing;
  if (!standing || standing.status === "not_asked") return null;
  const box = h("div", { class: "verdicts", "data-verdicts": hand.number });
  if (standing.confirmed.length) {
    box.append(h("p", { class: "verdict-line confirmed" }, h("span", { class: "verdict-sign", "aria-hidden": "true" }, "✓ "),
      t("verdict.confirmedBy", { names: standing.confirmed.map(seatName).join(", ") })));
  }
  for (const c of hand.confirmations.filter((x) => x.verdict === "dispute")) {
    box.append(h("p", { class: "verdict-line disputed" }, h("span", { class: "verdict-sign", "aria-hidden": "true" }, "! "),
      t("verdict.disputedBy", { name: seatName(c.seat) }), " ", h("q", {}, c.reason)));
  }
  if (standing.waiting.length) {
    box.append(h("p", { class: "verdict-line muted" },
      t("verdict.waitingFor", { names: standing.waiting.map(seatName).join(", ") })));
  }
  return box;
}

/** The disputes the scorekeeper reads at the top of the sheet: who disputes which hand and
 * why, with the way to correct it. */
function disputesCard(game, seatName, canEdit) {
  const disputed = game.hands.filter((hand) => hand.standing && hand.standing.status === "disputed");
  if (!disputed.length) return null;
  const list = h("ul", { class: "disputes-list" });
  for (const hand of disputed) {
    for (const c of hand.confirmations.filter((x) => x.verdict === "dispute")) {
      list.append(h("li", { "data-dispute": hand.number },
        h("strong", {}, t("verdict.disputeOf", { name: seatName(c.seat), n: hand.number })), " ", h("q", {}, c.reason),
        canEdit ? h("a", { class: "button small", href: `#/games/${game.id}/hands/${hand.number}`, id: `fix-${hand.number}` },
          t("verdict.correct", { n: hand.number })) : null));
    }
  }
  return h("section", { class: "card warn disputes", id: "disputes", role: "status" },
    h("h2", {}, t("verdict.disputesTitle", { n: disputed.length })), list);
}

/** Where the game stands for the scorekeeper when every hand must be confirmed. */
function requiredNotice(game) {
  const c = game.confirmation;
  if (!c || c.mode !== "required" || !c.waiting.length) return null;
  return h("p", { class: "hint", id: "not-final" }, t("verdict.notFinal", { hands: c.waiting.join(", ") }));
}

/** The player's card: the next hand they have not vouched for, shown whole (``details``
 * draws it), with confirm and dispute. ``ctx``: { game, seat, token, seatName, details,
 * done, flush } — ``done`` reloads the game and redraws the screen, ``flush`` sends what
 * the outbox keeps. */
function verdictCard(ctx) {
  const { game, seat, seatName } = ctx;
  const pending = toVouch(game, seat);
  const me = seatName(seat);
  if (!game.hands.length) return h("section", { class: "card verdict-card", id: "verdict" },
    h("h2", {}, t("verdict.youAre", { name: me })), h("p", { class: "hint" }, t("verdict.noneYet")));
  if (!pending.length) {
    return h("section", { class: "card verdict-card done", id: "verdict" },
      h("h2", {}, t("verdict.youAre", { name: me })), h("p", {}, t("verdict.allDone")));
  }
  // The hand whose dispute the player is writing, else the newest: the hand just played.
  const hand = pending.find((x) => writing.has(draftKey(game, x))) || pending[pending.length - 1];
  const box = h("section", { class: "card verdict-card", id: "verdict", "aria-labelledby": "verdict-title" },
    h("h2", { id: "verdict-title" }, t("verdict.check", { n: hand.number })),
    h("p", { class: "hint" }, t("verdict.checkHint", { name: me }),
      pending.length > 1 ? ` ${t("verdict.more", { n: pending.length - 1, hands: later(pending, hand) })}` : ""),
    ctx.details(hand));
  box.append(verdictButtons(ctx, hand));
  return box;
}

/** The other hands waiting for the player, in the order the card will show them: the
 * newest first (the hand just played is the one the table remembers best). */
function later(pending, shown) {
  const numbers = pending.filter((x) => x !== shown).map((x) => x.number).sort((a, b) => b - a);
  return new Intl.ListFormat(I18n.lang, { type: "conjunction" }).format(numbers.map(String));
}

/** A dispute being written, by game, hand and version, with what the service last said of
 * it: the sheet redraws itself on every poll, and what a player is typing must survive it. */
const writing = new Map();
const draftKey = (game, hand) => `${game.id}/${hand.number}/${hand.version}`;

/** Confirm and dispute for one hand, as ``ctx.seat``; a dispute asks why first. */
function verdictButtons(ctx, hand) {
  const row = h("div", { class: "row verdict-actions" });
  const key = draftKey(ctx.game, hand);
  const draw = () => {
    writing.delete(key);
    drawButtons();
  };
  const drawButtons = () => row.replaceChildren(
    h("button", {
      type: "button", class: "button primary", id: `confirm-${hand.number}`,
      onclick: () => send(ctx, hand, { verdict: "confirm" }, row),
    }, t("verdict.confirm")),
    h("button", {
      type: "button", class: "button danger", id: `dispute-${hand.number}`,
      onclick: () => askWhy(true),
    }, t("verdict.dispute")));
  const askWhy = (focus) => {
    const id = `reason-${hand.number}`;
    const area = h("textarea", { id, rows: 3, maxlength: 280, required: true, autocomplete: "off" });
    const draft = writing.get(key) || { text: "", error: null };
    area.value = draft.text;
    writing.set(key, draft);
    area.addEventListener("input", () => { draft.text = area.value; });
    row.replaceChildren(h("div", { class: "field reason-field", "data-field": "reason" },
      h("label", { for: id }, t("verdict.why")), area,
      h("div", { class: "row" },
        h("button", {
          type: "button", class: "button danger", id: `send-dispute-${hand.number}`,
          onclick: () => send(ctx, hand, { verdict: "dispute", reason: area.value }, row),
        }, t("verdict.sendDispute")),
        h("button", { type: "button", class: "button", onclick: draw }, t("action.cancel")))));
    if (draft.error) row.append(h("p", { class: "field-error", role: "alert" }, draft.error));
    if (focus) area.focus();
  };
  if (writing.has(key)) askWhy(false);  // redrawn while the player writes: the form stays
  else drawButtons();
  return row;
}

async function send(ctx, hand, body, row) {
  for (const old of row.querySelectorAll(".field-error")) old.remove();
  for (const button of row.querySelectorAll("button")) button.disabled = true;
  const key = randomKey();
  try {
    await api("POST", `/games/${ctx.game.id}/hands/${hand.number}/confirmations`, {
      token: ctx.token, body, headers: { "If-Match": hand.etag, "Idempotency-Key": key },
    });
    writing.delete(draftKey(ctx.game, hand));
    toast(t(body.verdict === "confirm" ? "verdict.confirmed" : "verdict.disputed", { n: hand.number }));
    await ctx.done();
  } catch (error) {
    if (error.status === 412) {
      // Corrected while the player read it: the new version is what to vouch for.
      toast(t("verdict.changed", { n: hand.number }));
      await ctx.done();
      return;
    }
    if (resendable(error)) {
      // Kept on the phone like a hand, with its key and the version it speaks for, and sent
      // as soon as it can be: a resend is never a second verdict, nor one on a corrected hand.
      Outbox.push({ game: ctx.game.id, kind: "verdict", number: hand.number, version: hand.version,
        ifMatch: hand.etag, key, body });
      writing.delete(draftKey(ctx.game, hand));
      toast(t("outbox.keptVerdict", { n: hand.number }));
      await ctx.done();
      if (ctx.flush) ctx.flush();
      return;
    }
    for (const button of row.querySelectorAll("button")) button.disabled = false;
    const text = (error.problem && error.problem.errors && error.problem.errors.length
        ? error.problem.errors.map((e) => e.message).join(" · ") : error.message);
    row.append(h("p", { class: "field-error", role: "alert" }, text));
    const draft = writing.get(draftKey(ctx.game, hand));
    if (draft) draft.error = text;
  }
}

export { disputesCard, handMark, requiredNotice, toVouch, verdictButtons, verdictCard, verdictLines };
