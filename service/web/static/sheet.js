/* The sheet: the game's hands, column by column with running totals (Mitigatti: marca and
 * balances, and who pays whom), each hand's details and what each line scored for, the
 * players' verdicts, the hands the outbox keeps, and the hand's correction or deletion; and
 * what follows a write the service refused because the game moved on: back to the sheet. */
import { API, api, problemErrors } from "./api.js";
import { Cards } from "./cards.js";
import { runningChart, runningTotals } from "./chart.js";
import { append, banner, h, initials, money, num, randomKey, redraw, saveFile, signed, toast } from "./dom.js";
import { Explain } from "./explain.js";
import { openNewGame, submitNew } from "./gamechoice.js";
import { I18n, t } from "./i18n.js";
import { problemLine, problemText } from "./problems.js";
import { roundClock } from "./roundclock.js";
import {
  G, canEdit, correctionRoute, flushOutbox, handsInGame, nextHand, openGame, refreshGame, rulebook, ruleLink,
  rulesCache, schedulePoll, seatName, sideNames,
} from "./state.js";
import { Outbox, Store } from "./stores.js";
import {
  disputesCard, handMark, requiredNotice, verdictButtons, verdictCard, verdictLines,
} from "./verdicts.js";

// The scorekeeper asked whether the evening is over (the game's id while the question is on
// screen): kept across the redraws a poll brings.
const ending = { game: null };

async function sheetScreen(id) {
  await openGame(id);
  if (ending.game !== id) ending.game = null;
  G.onChange = () => drawSheet(false);
  drawSheet(true);
  schedulePoll();
  // The rulebook the lines cite, in the page's language: their links then say each rule's
  // title, and it opens with no network later.
  if (!rulesCache[`${I18n.lang}/${G.game.variant}`]) {
    rulebook(G.game.variant).then(() => {
      if (location.hash === `#/games/${id}`) drawSheet(false);  // still on this sheet
    }).catch(() => {});
  }
}

function columnSide(result, column) {
  return (result.sides || []).find((s) => s.seats.includes(column.seats[0])) || null;
}

function lineMark(line) {
  switch (line.item) {
    case "meld":
    case "captured_meld":
      return line.kind === "three_of_a_kind" || line.kind === "four_of_a_kind"
        ? Cards.rankLabel(line.mark || "") : line.mark || "";
    case "bagatto_ultimo":
      return "B";
    case "declaration":
    case "captured":
      return ottocentoMark(line);
    case "doubling":
      return "×2";
    default:
      return line.entered === "points" ? "#" : "";
  }
}

function ottocentoMark(line) {
  // A sequence of trumps by the trumps' letter in the page's language (T4, A4 in French).
  if (line.kind !== "cricca" && line.type === "trumps") return t("face.trump", { n: line.length });
  const type = { trumps: "T", moors: "M", aces: "1", tarocchi: "T" }[line.type] ||
    Cards.SYMBOL[line.type] || Cards.rankLabel(line.type);
  return line.kind === "cricca" ? `${line.count}${type}` : `${type}${line.length}`;
}

function drawSheet(first) {
  const g = G.game;
  const V = G.detail;
  // The variant's rules not read yet (a send that ended first): the sheet is drawn once they are.
  if (!g || !V) return;
  const mitigatti = V.settles_in_marca;  // the sheet in marca and balances (Mitigatti)
  const finished = g.status === "finished";
  const root = h("section", { class: "screen sheet-screen" });
  const next = nextHand(g);
  const waiting = Outbox.of(g.id);
  // The hands waiting on the phone may already fill the game: no hand past its end is
  // counted ("Mano 5 di 4") nor offered. (The service's own hands may run past the count,
  // a tie's extra hands: the next of those is still offered.)
  const length = handsInGame(g, V);
  const past = Boolean(length) && next.number > Math.max(length, g.hands.length + 1);
  const dealerName = next.dealer !== null && next.dealer !== undefined ? seatName(next.dealer) : null;
  const evening = eveningState(g, V, waiting);
  append(root, [
    h("div", { class: "sheet-head" },
      h("h1", {}, I18n.variantName(g.variant, V.name)),
      h("p", { class: "status" },
        evening.waiting === "end" ? t("sheet.endWaiting")
          : evening.over ? t("sheet.eveningOver")
          : finished ? t("sheet.finished")
          : past ? t("sheet.allEntered", { of: length })
          : next.board ? t("sheet.boardOf", { board: next.board.board, n: next.number, of: length })
          : length ? t("sheet.handOf", { n: next.number, of: length })
            : t("sheet.hand", { n: next.number }),
        dealerName && !finished && !past && !evening.over ? ` · ${t("sheet.dealer", { name: dealerName })}` : ""),
      h("p", { class: "badges" },
        h("span", { class: "live", id: "live" }, h("span", { class: "dot", "aria-hidden": "true" }),
          h("span", { class: "live-text" }, t("sheet.live", { time: G.lastUpdate ? G.lastUpdate.toLocaleTimeString(I18n.locale) : "" }))),
        waiting.length ? h("span", { class: "badge waiting", id: "waiting" }, t("outbox.waiting", { n: waiting.length })) : null,
        canEdit() ? null : G.kind === "player" && G.seat !== null
          ? h("span", { class: "badge read", id: "player-badge" }, t("verdict.badge", { name: seatName(G.seat) }))
          : h("span", { class: "badge read" }, t("sheet.readOnly")))),
  ]);
  const clock = g.event ? roundClock(g.event, "table-clock") : null;
  if (clock) root.append(clock);
  if (G.kind === "player" && G.seat !== null && g.confirmation && g.confirmation.mode !== "none") {
    root.append(verdictCard({
      game: g, seat: G.seat, token: G.token, seatName,
      details: (hand) => handDetails(g, hand, V, { verdicts: false }),
      done: async () => { await refreshGame().catch(() => {}); drawSheet(false); },
      flush: () => flushOutbox(g.id),
    }));
  } else {
    append(root, [disputesCard(g, seatName, canEdit()), requiredNotice(g)]);
  }

  if (finished && g.winners.length) {
    const names = g.winners.map((key) => g.columns.find((c) => c.key === key)?.label || key);
    root.append(h("p", { class: "winner", role: "status" }, h("span", { class: "winner-star", "aria-hidden": "true" }, "★"), " ",
      t(names.length > 1 ? "sheet.winners" : "sheet.winner", { names: names.join(", ") }),
      g.ended_by && !evening.over && endedBy(g, V) ? h("small", {}, ` (${endedBy(g, V)})`) : null));
  }
  if (canEdit() && !finished && !past && !g.event?.closed && !evening.over) {
    root.append(h("a", { class: "button primary big", href: `#/games/${g.id}/hand`, id: "new-hand" },
      next.board ? t("sheet.newBoard", { n: next.board.board }) : t("sheet.newHand", { n: next.number })));
  }
  if (evening.endable) root.append(eveningControls(g, evening, next));
  if (finished && !g.event) {
    root.append(h("button", { type: "button", class: "button primary big", id: "play-again",
      onclick: (e) => playAgain(g, root, e.currentTarget) }, t("sheet.playAgain")));
  }
  if (g.target) root.append(progress(g));
  if (mitigatti) root.append(ledger(g, evening.over));
  root.append(sheetTable(g, V, mitigatti));
  const chart = runningChart(g, mitigatti);
  if (chart) root.append(chart);
  if (waiting.length) root.append(outboxCard(g, waiting));

  root.append(h("div", { class: "row tools" },
    h("button", { type: "button", class: "button", id: "pdf", onclick: downloadPdf }, t("sheet.pdf")),
    h("a", { class: "button", href: `#/games/${g.id}/share` }, t("sheet.share")),
    h("a", { class: "button", href: "#/" }, t("action.home"))));
  // A redraw (a poll, the rulebook arriving) keeps the keyboard's place and the scroll,
  // and waits for a finger on the screen to lift.
  redraw(root, first);
}

/** The hands this phone keeps until the service has them: each with its local count, and
 * what the service said where it refused one, with what to do about it. */
function outboxCard(g, waiting) {
  const list = h("ol", { class: "outbox-list" });
  const finished = g.status === "finished";
  // Behind a refused hand the others wait for the player's decision, not for the network.
  const blocked = waiting.some((e) => e.problem);
  let behind = false;
  for (const entry of waiting) {
    const what = entry.kind === "end" || entry.kind === "reopen" ? t(`outbox.${entry.kind}`)
      : entry.kind === "add" ? t("outbox.hand", { n: entry.number, name: seatName(entry.dealer) })
      : entry.kind === "put" ? t("outbox.correction", { n: entry.number })
        : entry.kind === "verdict" ? t(entry.body.verdict === "confirm" ? "outbox.verdictConfirm" : "outbox.verdictDispute", { n: entry.number })
          : t("outbox.deletion", { n: entry.number });
    const points = g.columns.filter((c) => entry.preview && entry.preview[c.key] !== undefined)
      .map((c) => `${c.label} ${num(entry.preview[c.key])}`).join(" · ");
    const item = h("li", { class: `outbox-item ${entry.problem ? "refused" : ""}`, id: `outbox-${entry.seq}` },
      h("p", { class: "outbox-what" }, h("strong", {}, what), points ? ` — ${points}` : ""),
      h("p", { class: "muted" }, entry.problem ? t("outbox.refused")
        : behind ? t("outbox.blocked")
          : t("outbox.pending", {
            time: new Date(entry.at).toLocaleTimeString(I18n.locale, { hour: "2-digit", minute: "2-digit" }) })));
    if (entry.problem) {
      behind = true;
      for (const error of entry.problem.errors.slice(0, 3)) {
        item.append(h("p", { class: "field-error" }, problemLine(error)));
      }
      // A new hand the service already holds a hand of its number for: most likely the same
      // hand, entered on another phone. Dropping this copy comes first; recording it again
      // is a choice, never the main button. A finished game takes no hand: dropping it is
      // the only way, and asks.
      const add = entry.kind === "add";
      const recorded = add && g.hands.some((x) => x.number === entry.number);
      if (add && finished) item.append(h("p", { class: "hint" }, t("outbox.finishedNote")));
      const dropMine = recorded ? h("button", {
        type: "button", class: "button small primary", id: `outbox-already-${entry.seq}`,
        onclick: () => {
          Outbox.remove(entry.id);
          toast(t("outbox.droppedMine", { n: entry.number }));
          drawSheet(false);
          flushOutbox(g.id);
        },
      }, t("outbox.alreadyRecorded", { n: entry.number })) : null;
      const again = (entry.kind === "put" || (add && !finished)) ? h("button", {
        type: "button", class: `button small ${recorded ? "" : "primary"}`, id: `outbox-reenter-${entry.seq}`,
        onclick: () => reenter(g, entry),
      }, t(add ? "outbox.reenter" : "outbox.recorrect")) : null;
      item.append(h("div", { class: "row" }, dropMine, again,
        h("button", {
          type: "button", class: "button small danger", id: `outbox-drop-${entry.seq}`,
          onclick: () => {
            if (!window.confirm(t(add && finished ? "outbox.finishedDrop" : "outbox.dropConfirm", { what }))) return;
            Outbox.remove(entry.id);
            drawSheet(false);
            flushOutbox(g.id);
          },
        }, t("outbox.drop"))));
    }
    list.append(item);
  }
  return h("section", { class: "card outbox", id: "outbox", "aria-live": "polite" },
    h("h2", {}, waiting.every((e) => e.kind === "end" || e.kind === "reopen") ? t("outbox.titleEvening")
      : t(waiting.every((e) => e.kind === "verdict") ? "outbox.titleVerdicts" : "outbox.title", { n: waiting.length })),
    h("p", { class: "hint" }, blocked ? t("outbox.hintBlocked") : t("outbox.hint", { n: waiting.length })), list);
}

/** A new game of the same variant, options and players, the deal moved on by one seat
 * from this game's first dealer; it opens on its share screen (the players' new links). */
function playAgain(g, root, button) {
  const options = { ...(g.options || {}) };
  const body = { variant: g.variant, players: g.players, first_dealer: (g.first_dealer + 1) % g.seats.length, options };
  submitNew(root, button, "/games", body, options, openNewGame, (problems) => banner(problemText(problems[0]), "warn"));
}

/** A refused hand, opened again with everything it said, to check and save: a new hand as
 * the next hand, a correction over the hand as it is now. It leaves the outbox for the form,
 * which keeps it as a draft. */
async function reenter(g, entry) {
  G.etag = null;
  await refreshGame().catch(() => {});
  if (entry.kind === "add" && G.game.status === "finished") {
    // The game ended meanwhile: it takes no hand; the hand goes only if the player says so.
    if (window.confirm(t("outbox.finishedDrop", { what: t("outbox.hand", { n: entry.number, name: seatName(entry.dealer) }) }))) {
      Outbox.remove(entry.id);
    }
    drawSheet(false);
    return;
  }
  Outbox.remove(entry.id);
  G.reenter = entry;
  location.hash = entry.kind === "add" ? `#/games/${g.id}/hand` : `#/games/${g.id}/hands/${entry.number}`;
}

function progress(g) {
  const box = h("div", { class: "card progress", "aria-label": t("sheet.progress", { target: g.target }) },
    h("h2", {}, t("sheet.progress", { target: g.target })));
  for (const column of g.columns) {
    const total = g.totals[column.key] || 0;
    const share = Math.max(0, Math.min(100, (total / g.target) * 100));
    const bar = h("span", { class: "bar-fill" });
    bar.style.width = `${share}%`;
    box.append(h("div", { class: "bar-row" },
      h("span", { class: "bar-label" }, column.label),
      h("span", {
        class: "bar", role: "progressbar", "aria-valuemin": 0, "aria-valuemax": g.target,
        "aria-valuenow": total, "aria-label": column.label,
      }, bar),
      h("span", { class: "bar-value" }, `${num(total)}`)));
    box.append(h("p", { class: "bar-to-go" }, total >= g.target ? t("sheet.reached", { name: column.label })
      : t("sheet.toGo", { name: column.label, n: num(g.target - total), count: g.target - total })));
  }
  return box;
}

/** How a finished game ended, in words: after its hands or its boards, at its target,
 * during a hand's declarations. */
function endedBy(g, V) {
  const n = g.ended_by === "R10" ? V.hands_per_game || g.hands.length : g.hands.length;
  const key = `sheet.endedBy.${g.ended_by}`;
  return I18n.has(key) ? t(key, { n, target: g.target }) : "";
}

/** Where a game with no natural end (a Mitigatti evening) stands: whether its scorekeeper
 * may say the evening is over or take it back here (``endable``: this phone's edit link, a
 * game that ends no other way, not a table of a closed round), whether it is ``over`` (as
 * the service says, or as this phone said with no network), and the word on the evening
 * still ``waiting`` in the outbox ("end", "reopen"), if any. */
function eveningState(g, V, waiting) {
  const noEnd = !g.boards && V.hands_per_game == null && V.target == null;
  const word = [...waiting].reverse().find((e) => e.kind === "end" || e.kind === "reopen");
  const saidOver = g.status === "finished" && g.ended_by === "evening_over";
  return {
    endable: noEnd && canEdit() && !g.event?.closed,
    over: word ? word.kind === "end" : saidOver,
    waiting: word ? word.kind : null,
  };
}

/** "The evening is over", asked first, under the next hand's button where the scorekeeper
 * looks at the end of the night; once over, its undo while no hand follows. Both go the way
 * hands do, through the outbox: with no network they wait on the phone and go when it is
 * back (an end still on the phone is taken back there alone). */
function eveningControls(g, evening, next) {
  const box = h("div", { class: "evening-end", id: "evening-end" });
  if (evening.over) {
    box.append(h("button", {
      type: "button", class: "button", id: "reopen-evening",
      onclick: () => sayEvening(g, "reopen"),
    }, t("sheet.reopen")));
    return box;
  }
  if (next.number <= 1) return box;  // no hand yet: no evening to end
  if (ending.game === g.id) {
    box.append(h("div", { class: "card warn confirm-end", role: "group", "aria-labelledby": "end-text" },
      h("p", { id: "end-text" }, t("sheet.endConfirm")),
      h("div", { class: "row" },
        h("button", { type: "button", class: "button danger", id: "end-yes",
          onclick: () => sayEvening(g, "end") }, t("sheet.endYes")),
        h("button", { type: "button", class: "button", id: "end-no",
          onclick: () => {
            ending.game = null;
            drawSheet(false);
            document.getElementById("end-evening")?.focus();
          } }, t("action.cancel")))));
    return box;
  }
  box.append(h("button", {
    type: "button", class: "button big", id: "end-evening", "aria-describedby": "end-hint",
    onclick: () => {
      ending.game = g.id;
      drawSheet(false);
      document.getElementById("end-yes")?.focus();
    },
  }, t("sheet.endEvening")),
  h("p", { class: "hint", id: "end-hint" }, t("sheet.endHint")));
  return box;
}

/** The scorekeeper's word on the evening ("end" or "reopen"), kept in the outbox and sent:
 * at once with the network, else when it is back. Taking back an end that has not left the
 * phone only drops it. */
function sayEvening(g, kind) {
  ending.game = null;
  // An end still on the phone (waiting, or refused by the service) is simply dropped.
  const pending = Outbox.of(g.id).filter((e) => e.kind === "end").at(-1);
  if (kind === "reopen" && pending) {
    Outbox.remove(pending.id);
    toast(t("sheet.reopened"));
  } else {
    Outbox.push({ game: g.id, kind, key: randomKey() });
  }
  drawSheet(false);
  document.getElementById(kind === "end" ? "reopen-evening" : "end-evening")?.focus();
  flushOutbox(g.id);
}

function ledger(g, final = false) {
  const box = h("div", { class: "card ledger" }, h("h2", {}, t("sheet.balances")));
  const list = h("div", { class: "balances" });
  g.seats.forEach((name, seat) => {
    const value = g.balances ? g.balances[String(seat)] : 10;
    const cash = g.money ? g.money[String(seat)] : null;
    list.append(h("div", { class: `balance ${value < 10 ? "down" : value > 10 ? "up" : ""}`, "data-seat": seat },
      h("span", { class: "balance-name" }, name),
      h("span", { class: "balance-value" }, num(value)),
      cash !== null && cash !== undefined ? h("span", { class: "balance-money" }, money(cash, g.options.currency)) : null));
  });
  box.append(list);
  if (g.pot) box.append(h("p", { class: "hint" }, t("sheet.pot", { n: g.pot })));
  const transfers = g.transfers || [];
  box.append(h("h3", { id: "transfers-title" }, t(final ? "sheet.transfersFinal" : "sheet.transfers")));
  if (!transfers.length) {
    box.append(h("p", { class: "muted" }, t("sheet.noTransfers")));
  } else {
    // Who pays whom, as the service says it (the players' names, the money as the language
    // writes it).
    box.append(h("ul", { class: "transfers" }, transfers.map((x) => h("li", {}, x.text))));
  }
  return box;
}

function sheetTable(g, V, mitigatti) {
  const table = h("table", { class: `sheet cols-${g.columns.length}` });
  table.append(h("caption", { class: "visually-hidden" }, t("sheet.caption")));
  table.append(h("thead", {}, h("tr", {},
    h("th", { scope: "col", class: "hand-col" }, h("span", { class: "visually-hidden" }, t("sheet.handCol")), "#"),
    g.columns.map((c) => h("th", { scope: "col" }, c.label)))));
  const body = h("tbody");
  // Where each column stands after each hand (Mitigatti: its balance, with any pot collected)
  const { after } = runningTotals(g, mitigatti);
  const marks = new Map(); // each mark on this sheet, and what it stands for
  g.hands.forEach((hand, index) => {
    const result = hand.result;
    const thrown = (result.events || []).includes("thrown_in");
    const open = G.expanded.has(hand.number);
    const row = h("tr", { class: `hand ${open ? "open" : ""}`, "data-hand": hand.number });
    row.append(h("th", { scope: "row", class: "hand-col" },
      h("button", {
        type: "button", class: "hand-button", "aria-expanded": open ? "true" : "false",
        "aria-controls": `details-${hand.number}`,
        onclick: () => {
          if (G.expanded.has(hand.number)) G.expanded.delete(hand.number);
          else G.expanded.add(hand.number);
          drawSheet(false);
        },
      }, h("span", { class: "hand-number" }, hand.board ?? hand.number),
      // Its name is what it shows, and what the initial stands for: "1, details of hand 1,
      // dealt by Anna" (WCAG 2.5.3, the visible label inside the name); a duplicate table's
      // hand shows its board.
      h("span", { class: "visually-hidden" }, hand.board
        ? t("sheet.boardDetailsOf", { n: hand.board, name: seatName(hand.dealer) })
        : t("sheet.handDetailsOf", { n: hand.number, name: seatName(hand.dealer) })),
      h("span", { class: "hand-dealer", "aria-hidden": "true", title: t("sheet.dealtBy", { name: seatName(hand.dealer) }) },
        initials(seatName(hand.dealer)))),
      verdictMark(g, hand, marks)));
    for (const column of g.columns) {
      const cell = h("td", { "data-col": column.key });
      const points = result.columns[column.key] ?? 0;
      if (mitigatti) {
        const marca = result.marca ? result.marca[column.key] ?? 0 : 0;
        if (thrown) {
          cell.append(h("div", { class: "mark-line muted" }, "—"));
        } else {
          cell.append(h("div", { class: `marca ${marca > 0 ? "up" : marca < 0 ? "down" : ""}` }, signed(marca)));
          const byPoints = (result.sides || []).some((x) => x.lines.some((line) => line.entered === "points"));
          if (byPoints) marks.set("#", t("legend.byPoints"));
          cell.append(h("div", { class: "mark-line muted" }, t("sheet.cardPoints", { n: points }),
            byPoints ? h("span", { class: "mark" }, " #") : null));
        }
        cell.append(h("div", { class: "running" }, h("span", { class: "running-label" }, t("sheet.balanceShort")), " ", num(after[index][column.key])));
      } else {
        const side = columnSide(result, column);
        for (const line of side ? side.lines : []) {
          if (line.points === 0 && line.item !== "deck_points" && line.item !== "card_points") continue;
          const mark = lineMark(line);
          const captured = line.item === "captured_meld" || line.item === "captured";
          if (mark) marks.set(mark, Explain.markMeaning(line));
          cell.append(h("div", { class: `mark-line ${mark ? "" : "deck"} ${captured ? "captured" : ""}` },
            num(line.points), mark ? h("span", { class: "mark" }, ` ${mark}`) : null));
        }
        cell.append(h("div", { class: "running" }, h("span", { class: "running-label" }, t("sheet.totalShort")), " ", num(after[index][column.key])));
      }
      row.append(cell);
    }
    body.append(row);
    if (open) {
      body.append(h("tr", { class: "details-row" },
        h("td", { colspan: g.columns.length + 1, id: `details-${hand.number}` }, handDetails(g, hand, V))));
    }
  });
  if (!g.hands.length) {
    body.append(h("tr", {}, h("td", { colspan: g.columns.length + 1, class: "empty" }, t("sheet.empty"))));
  }
  table.append(body);
  const foot = h("tr", { class: "totals" }, h("th", { scope: "row", class: "hand-col" }, "Σ"));
  for (const column of g.columns) {
    const winner = g.winners.includes(column.key);
    foot.append(h("td", { class: winner ? "winner-cell" : "", "data-total": column.key },
      mitigatti ? num(g.balances ? g.balances[column.key] : 10) : num(g.totals[column.key] ?? 0),
      winner ? h("span", { class: "crown", "aria-label": t("sheet.wins") }, " ★") : null));
  }
  table.append(h("tfoot", {}, foot));
  return h("div", { class: "sheet-block" }, h("div", { class: "sheet-wrap" }, table),
    g.hands.length ? legend(marks, mitigatti) : null);
}

/** What the sheet's signs mean, under it: the dealer's badge, the running total, and each
 * mark the sheet shows. */
function legend(marks, mitigatti) {
  const items = [
    h("li", {}, h("span", { class: "hand-dealer sample", "aria-hidden": "true" }, "A"), " ", t("legend.dealer")),
    h("li", {}, h("span", { class: "running-label" }, t(mitigatti ? "sheet.balanceShort" : "sheet.totalShort")), " ",
      t(mitigatti ? "legend.balance" : "legend.total")),
    ...[...marks].sort(([a], [b]) => a.localeCompare(b)).map(([mark, meaning]) =>
      h("li", {}, h("span", { class: "mark" }, mark), " ", meaning)),
  ];
  return h("details", { class: "legend", id: "legend" },
    h("summary", {}, t("legend.title")), h("ul", {}, items));
}

/** A hand's sign for the players' verdicts (✓ all confirmed, ! disputed, 1/3 waiting),
 * noted for the legend. */
function verdictMark(g, hand, marks) {
  const found = handMark(g, hand);
  if (!found) return null;
  marks.set(found.kind === "waiting" ? `0/${found.mark.split("/")[1]}` : found.mark, found.meaning);
  return h("span", { class: `verdict-mark ${found.kind}`, title: found.meaning },
    h("span", { "aria-hidden": "true" }, found.mark), h("span", { class: "visually-hidden" }, found.meaning));
}

function handDetails(g, hand, V, { verdicts = true } = {}) {
  const result = hand.result;
  const box = h("div", { class: "details" });
  box.append(h("p", { class: "details-head" },
    h("strong", {}, hand.board ? t("sheet.boardN", { n: hand.board }) : t("sheet.handN", { n: hand.number })),
    ` · ${t("sheet.dealer", { name: seatName(hand.dealer) })}`,
    hand.version > 1 ? ` · ${t("sheet.corrected", { n: hand.version - 1 })}` : ""));
  for (const event of result.events || []) {
    box.append(h("p", { class: "event" }, I18n.has(`event.${event}`) ? t(`event.${event}`) : event));
  }
  // Who played with whom (a contract, a call), as the service said it.
  if (result.contract_text) box.append(h("p", { class: "contract" }, result.contract_text));
  // A hand recorded under earlier rules that a ruling since would refuse: the referee reads why
  // it still stands, as the service said it.
  if (result.earlier_rules) box.append(h("p", { class: "earlier-rules hint" }, result.earlier_rules));
  // Each line as the service said it: in the page's language, the players by their names.
  for (const side of result.sides || []) {
    const list = h("ul", { class: "lines" });
    for (const line of side.lines) {
      list.append(h("li", {}, h("span", { class: "line-points" }, num(line.points)),
        h("span", { class: "line-text" }, line.text),
        ruleLink(line.rule, g.variant)));
    }
    box.append(h("div", { class: "side" }, h("h4", {}, sideNames(side.seats), h("span", { class: "side-total" }, num(side.total))), list));
  }
  if (result.payments && result.payments.length) {
    box.append(h("h4", {}, t("sheet.payments")));
    box.append(h("ul", { class: "lines payments" }, paymentGroups(result.payments).map((group) => h("li", {},
      h("span", { class: "line-points" }, group.marca),
      h("span", { class: "line-text" }, group.text, " ",
        h("span", { class: "payment-who" }, `(${group.payments.map((p) => p.flow).join(", ")})`)),
      ruleLink(group.rule, g.variant)))));
  }
  for (const x of g.pot_collected || []) {
    if (x.hand === hand.number) box.append(h("p", { class: "event pot-collected" }, x.text, " ", ruleLink("R15", g.variant)));
  }
  for (const v of result.violations || []) {
    box.append(h("p", { class: "event" }, `${t("sheet.violation")}: ${v.message}`));
  }
  if (verdicts) {
    const said = verdictLines(hand, seatName);
    if (said) box.append(said);
    // A player may change their mind on any hand, from its details.
    if (G.kind === "player" && G.seat !== null && said) {
      box.append(verdictButtons({
        game: g, seat: G.seat, token: G.token, seatName,
        done: async () => { await refreshGame().catch(() => {}); drawSheet(false); },
      }, hand));
    }
  }
  const route = correctionRoute();
  if (route) {
    const last = hand.number === g.hands.length && !route.organiser;
    const actions = h("div", { class: "row" },
      h("a", { class: "button", href: `#/games/${g.id}/hands/${hand.number}`, id: `correct-${hand.number}` },
        t("sheet.correct")),
      last ? h("button", {
        type: "button", class: "button danger", id: `delete-${hand.number}`,
        onclick: () => confirmDelete(actions, hand),
      }, t("sheet.delete")) : null);
    box.append(actions);
  }
  return box;
}

/** A hand's payments by what the service says of them: one sentence (a declaration paid by
 * each other player, a partida) with every transfer it makes, and their marca where each is
 * the same. */
function paymentGroups(payments) {
  const groups = [];
  for (const p of payments) {
    const last = groups[groups.length - 1];
    if (last && last.text === p.text && last.rule === p.rule) {
      last.payments.push(p);
      if (last.marca !== p.marca) last.marca = "";
    } else {
      groups.push({ text: p.text, rule: p.rule, marca: p.marca, payments: [p] });
    }
  }
  return groups;
}

function confirmDelete(actions, hand) {
  actions.replaceChildren(
    h("p", { class: "confirm-text" }, t("sheet.deleteConfirm", { n: hand.number })),
    h("button", {
      type: "button", class: "button danger", id: "delete-yes",
      onclick: () => deleteHand(hand),
    }, t("sheet.deleteYes")),
    h("button", { type: "button", class: "button", onclick: () => drawSheet(false) }, t("action.cancel")));
  actions.querySelector("#delete-yes").focus();
}

async function deleteHand(hand) {
  try {
    await api("DELETE", `/games/${G.id}/hands/${hand.number}`, {
      token: G.token, headers: { "If-Match": hand.etag },
    });
    G.expanded.delete(hand.number);
    await refreshGame();
    toast(t("sheet.deleted", { n: hand.number }));
    drawSheet(false);
  } catch (error) {
    if (error.status === 0) {  // no network: the deletion waits with the hands to send
      Outbox.push({ game: G.id, kind: "delete", number: hand.number, ifMatch: hand.etag });
      toast(t("outbox.keptDeletion", { n: hand.number }));
      drawSheet(false);
      return;
    }
    await lostRace(error);
  }
}

/** After a write the server refused because the game moved on (409, 412, or a hand whose
 * dealer is no longer next): say so, reload, and show the sheet. */
async function lostRace(error, { number = null, message = null } = {}) {
  if (error.status === 403) {
    G.kind = "read";
    Store.put(G.id, { kind: "read" });
    banner(t("race.readOnly"), "warn");
  } else if (message) {
    banner(message, "warn");
  } else if (error.status === 409 || error.status === 412) {
    banner(number ? t("race.changed", { n: number }) : t("race.reloaded"), "warn");
  } else {
    banner(problemText(problemErrors(error)[0]), "warn");
  }
  G.etag = null;
  await refreshGame().catch(() => {});
  if (location.hash === `#/games/${G.id}`) drawSheet(true);
  else location.hash = `#/games/${G.id}`;
}

async function downloadPdf() {
  try {
    // The game's own language where it has one (a table's sheet), else the reader's.
    const lang = G.game.options?.language || I18n.lang;
    const response = await fetch(`${API}/games/${G.id}/sheet.pdf?lang=${lang}`, {
      headers: { Authorization: `Bearer ${G.token}` },
    });
    if (!response.ok) {
      toast(response.status === 404 ? t("sheet.pdfMissing") : t("sheet.pdfFailed", { status: response.status }));
      return;
    }
    saveFile(await response.blob(), `segnapunti-${G.id}.pdf`);
  } catch (error) {
    toast(t("err.network"));
  }
}

export { drawSheet, lostRace, sheetScreen };
