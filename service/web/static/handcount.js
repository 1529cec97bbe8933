/* What the hand form works out from what is entered, before the service is asked: each pile
 * (its tricks, the counting cards it holds, its cards and points), each side's points, and
 * the checks the form lists (what is still missing, what does not add up). Functions of the
 * form (handform.js) and of what it has entered. */
import { Cards } from "./cards.js";
import { num } from "./dom.js";
import { t } from "./i18n.js";
import { seatName } from "./state.js";

// -- live checks ----------------------------------------------------------------------

function pileOf(form, side) {
  const s = form.s;
  const V = form.V;
  const sides = form.sides();
  const entered = sides.filter((x) => x.side !== s.rest);
  let tricks = s.tricks[side] ?? 0;
  let counting;
  if (side === s.rest) {
    tricks = V.tricks_per_hand - entered.reduce((sum, x) => sum + (s.tricks[x.side] ?? 0), 0);
    counting = form.summary.filter((code) => s.owner[code] === undefined);
  } else {
    counting = form.summary.filter((code) => s.owner[code] === side);
  }
  const dealerSide = sides.find((x) => x.seats.includes(s.dealer))?.side ?? 0;
  const dealerTricks = dealerSide === s.rest
    ? V.tricks_per_hand - entered.reduce((sum, x) => sum + (s.tricks[x.side] ?? 0), 0)
    : (s.tricks[dealerSide] ?? 0);
  const holds = (side === dealerSide && dealerTricks > 0) ||
    (side !== dealerSide && dealerTricks === 0 && tricks > 0 && sides.length === 2);
  const extra = V.deal.discard;
  const cards = tricks <= 0 ? 0 : V.trick_size * tricks - (V.trick_size - extra) * (holds ? 1 : 0);
  const last = lastTrickPoints(form, side);
  return { side, tricks, counting, cards, points: deckPoints(V, tricks, cards, counting) + last };
}

/** A pile's deck points as the variant counts them (its ``deck_points_method``, as the
 * service publishes it): ``tricks`` won (the discard one where held), ``cards`` in all, the
 * ``listed`` cards a summary names at their values and every other card at the value the
 * variant gives a card a summary leaves out. */
function deckPoints(V, tricks, cards, listed) {
  const values = listed.reduce((sum, code) => sum + (V.counting[code] || 0), 0) +
    Math.max(0, cards - listed.length) * V.unlisted_card_value;
  switch (V.deck_points_method) {
    case "per_three_cards":  // §3: a point per three cards, a remainder of two rounding up
      return Math.floor((cards + 1) / 3) + values;
    case "in_pairs":  // §4.1: the values counted in pairs, a point off per pair
      return values - Math.floor(cards / 2);
    default:  // "per_trick", §2.6: a point a trick
      return Math.max(0, tricks) + values;
  }
}

/** The last trick's points, where the variant scores it apart, for the side that took it. */
function lastTrickPoints(form, side) {
  const taker = form.s.last_trick;
  return form.V.last_trick_points && taker !== null && form.sides()[side].seats.includes(taker)
    ? form.V.last_trick_points : 0;
}

/** What the piles' points add up to: the hand's total less the last trick's points. */
function pointsTotal(form) {
  return form.V.deck_points_total - (form.V.last_trick_points || 0);
}

/** A side's points as entered, or for the rest what the others leave of the total. */
function pointsOf(form, side) {
  const s = form.s;
  if (side !== s.rest) return s.points[side] ?? 0;
  const others = form.sides().filter((x) => x.side !== side);
  return pointsTotal(form) - others.reduce((sum, x) => sum + (s.points[x.side] ?? 0), 0);
}

function pointsChecks(form, out) {
  const s = form.s;
  const V = form.V;
  const sides = form.sides();
  const total = pointsTotal(form);
  const last = V.last_trick_points || 0;
  const values = sides.map((x) => pointsOf(form, x.side));
  const sum = values.reduce((a, b) => a + b, 0);
  const inRange = values.every((n) => n >= 0 && n <= total);
  for (const { side } of sides) {
    const n = pointsOf(form, side);
    if (side === s.rest && n < 0) {
      out.push({ ok: false, field: "piles", text: t("check.pointsOver", { n: total - n, of: total }) });
    } else if (n > total) {
      out.push({ ok: false, field: `pile:${side}.points`, text: t("check.pointsRange", { side: form.sideLabel(side), of: total }) });
    }
  }
  if (V.last_trick_points) {
    out.push(s.last_trick !== null ? { ok: true, text: t("check.lastTrick", { name: seatName(s.last_trick) }) }
      : { ok: false, field: "last_trick", text: t("check.lastTrickMissing") });
    const lastSide = s.last_trick === null ? null : sides.find((x) => x.seats.includes(s.last_trick));
    if (lastSide && pointsOf(form, lastSide.side) === 0) {
      out.push({ ok: false, field: "last_trick", text: t("check.lastTrickNoPoints", { side: form.sideLabel(lastSide.side) }) });
    }
  }
  const withLast = values.map((n, i) => n + (s.last_trick !== null && sides[i].seats.includes(s.last_trick) ? last : 0));
  out.push({
    ok: inRange && sum === total && !form.isBlank(), total: true,
    text: t("check.total", { parts: withLast.map(num).join(" + "), total: num(sum + (s.last_trick !== null ? last : 0)), of: V.deck_points_total }),
  });
}

function checks(form) {
  const s = form.s;
  const V = form.V;
  const out = [];
  if (s.thrown_in) return [{ ok: true, text: t("check.thrownIn") }];
  if (V.partnership === "call") {
    out.push(s.call.card && s.call.partner !== null
      ? { ok: true, text: t("check.call") } : { ok: false, text: t("check.callMissing"), field: "call" });
  }
  if (V.partnership === "contract") {
    const c = s.contract;
    const ready = c.type === "surrender" || (c.type === "solo" && (c.sans_prendre || c.called_card)) ||
      (c.type === "call" && c.called_card && c.partner !== null);
    const missing = c.type === "solo" ? "check.soloCardMissing" : "check.contractMissing";
    out.push(ready ? { ok: true, text: t("check.contract") } : { ok: false, text: t(missing), field: "contract" });
    if (c.type === "surrender") return out;
  }
  if (form.isBlank()) {
    // An untouched form says what is missing, not a sum of nothing ("0 + 0 + 78 = 78").
    out.push({ ok: false, field: "piles", text: t(s.mode === "points" ? "check.nothingEnteredPoints" : "check.nothingEntered") });
    if (form.hasBagatto && s.bagatto.on && s.bagatto.seat === null) {
      out.push({ ok: false, field: "bagatto", text: t("check.bagattoSeat") });
    }
    return out;
  }
  if (s.mode === "points") {
    pointsChecks(form, out);
    if (form.hasBagatto && s.bagatto.on && s.bagatto.seat === null) {
      out.push({ ok: false, field: "bagatto", text: t("check.bagattoSeat") });
    }
    return out;
  }
  const piles = form.sides().map((x) => pileOf(form, x.side));
  const tricks = piles.reduce((sum, p) => sum + p.tricks, 0);
  const restPile = s.rest !== null ? piles[s.rest] : null;
  const tricksOk = piles.every((p) => p.tricks >= 0) && tricks === V.tricks_per_hand;
  out.push({
    ok: tricksOk, field: "piles",
    text: restPile && restPile.tricks < 0
      ? t("check.tooManyTricks", { n: V.tricks_per_hand - restPile.tricks, of: V.tricks_per_hand })
      : t("check.tricks", { n: tricks, of: V.tricks_per_hand }),
  });
  const unplaced = form.summary.filter((code) => s.owner[code] === undefined);
  out.push(s.rest !== null || !unplaced.length
    ? { ok: true, text: t("check.placed", { n: form.summary.length }) }
    : { ok: false, field: "piles", text: t("check.unplaced", { n: unplaced.length, cards: unplaced.map(Cards.label).join(" ") }) });
  for (const p of piles) {
    if (p.tricks === 0 && p.counting.length) {
      out.push({ ok: false, field: `pile:${p.side}`, text: t("check.noTricksButCards", { side: form.sideLabel(p.side), n: p.counting.length }) });
    } else if (p.tricks > 0 && p.counting.length > p.cards) {
      out.push({ ok: false, field: `pile:${p.side}`, text: t("check.crowded", { side: form.sideLabel(p.side), n: p.counting.length, cards: p.cards }) });
    }
  }
  if (V.last_trick_points) {
    out.push(s.last_trick !== null ? { ok: true, text: t("check.lastTrick", { name: seatName(s.last_trick) }) }
      : { ok: false, field: "last_trick", text: t("check.lastTrickMissing") });
  }
  const total = piles.reduce((sum, p) => sum + p.points, 0);
  out.push({
    ok: tricksOk && total === V.deck_points_total && !form.isBlank(), total: true,
    text: t("check.total", { parts: piles.map((p) => num(p.points)).join(" + "), total: num(total), of: V.deck_points_total }),
  });
  if (form.hasBagatto && s.bagatto.on && s.bagatto.seat === null) {
    out.push({ ok: false, field: "bagatto", text: t("check.bagattoSeat") });
  }
  return out;
}

export { checks, pileOf, pointsChecks, pointsOf, pointsTotal };
