/* The chart of a game's running totals on its sheet: one line per column from the
 * start through every hand — Ottocento's race with its target line, Mitigatti's balances in
 * marca from 10 with the zero line, any other game's running totals; the same picture draws a
 * member's rating game by game and a season's leaders evening by evening. Drawn here as SVG, in
 * the page's colours (light or dark, each line its own colour and dash), with a key of names
 * and last figures; for a screen reader the same figures are a table it can read, and the
 * picture is hidden from it. */
import { h } from "./dom.js";
import { I18n, t } from "./i18n.js";

const SVG = "http://www.w3.org/2000/svg";
const LINES = 6;  // colours and dashes (app.css: .chart .line-0 … .line-5)
const WIDTH = 340;
const HEIGHT = 190;
const PAD = { left: 38, right: 10, top: 12, bottom: 32 };

function s(tag, attrs, ...children) {
  const el = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs || {})) el.setAttribute(key, String(value));
  for (const child of children) el.append(child);
  return el;
}

/** Each column's figure at the start and after each hand: its running total, or in marca its
 * balance from 10 (with any pot it collected in the hand). ``after[i][key]`` is the figure
 * after hand i; ``start`` before the first. */
function runningTotals(g, marca) {
  const start = marca ? 10 : 0;
  const now = Object.fromEntries(g.columns.map((c) => [c.key, start]));
  const collected = {};
  for (const x of g.pot_collected || []) {
    collected[x.hand] = { ...(collected[x.hand] || {}), [String(x.seat)]: x.marca };
  }
  const after = g.hands.map((hand) => {
    const moves = marca ? hand.result.marca || {} : hand.result.columns || {};
    for (const c of g.columns) {
      now[c.key] += (moves[c.key] ?? 0) + (marca ? collected[hand.number]?.[c.key] ?? 0 : 0);
    }
    return { ...now };
  });
  // The last figure is the game's own: a rubber won during the declarations counts only
  // the acts up to the winning one (R13), which a hand's columns do not say.
  const standing = marca ? g.balances : g.totals;
  if (after.length && standing) {
    for (const c of g.columns) after[after.length - 1][c.key] = standing[c.key] ?? after[after.length - 1][c.key];
  }
  return { start, after };
}

/** How many decimals the figures are written with (at most two, as the service rounds). */
function decimalsOf(values) {
  let most = 0;
  for (const v of values) {
    const text = String(v);
    const dot = text.indexOf(".");
    if (dot >= 0) most = Math.max(most, Math.min(2, text.length - dot - 1));
  }
  return most;
}

/** The figures' axis: round steps (1, 2 or 5 times a power of ten, about five of them),
 * never finer than the figures themselves (whole points get whole steps, never halves), the
 * axis from a step at or below the lowest figure to one at or above the highest; one figure
 * alone gets a step either side. ``digits``: the decimals its labels are written with. */
function scale(values, decimals) {
  let low = Math.min(...values);
  let high = Math.max(...values);
  const unit = 10 ** -decimals;
  const raw = Math.max((high - low) / 5, unit);
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = Math.max(unit, [1, 2, 5, 10].map((k) => k * power).find((k) => k >= raw * (1 - 1e-9)));
  // Each bound a whole number of steps, so that 0.2 + 0.4 is never 0.6000000001.
  const at = (k) => Number((k * step).toPrecision(12));
  let first = Math.floor(low / step + 1e-9);
  let last = Math.ceil(high / step - 1e-9);
  if (first === last) { first -= 1; last += 1; }
  low = at(first);
  high = at(last);
  const ticks = [];
  for (let k = first; k <= last; k += 1) ticks.push(at(k));
  return { low, high, ticks, digits: decimalsOf([step]) };
}

/** A figure as the page's language writes it (Italian and French with a decimal comma),
 * ``digits`` decimals exactly when given, else as many as it has (two at most); a true
 * minus sign. */
function number(value, digits = null) {
  if (value === null || value === undefined || value === "") return "—";
  const v = Number(value);
  const places = digits ?? decimalsOf([value]);
  const text = new Intl.NumberFormat(I18n.locale, {
    minimumFractionDigits: places, maximumFractionDigits: places }).format(Math.abs(v));
  return v < 0 ? `−${text}` : text;
}

/** Each line's point marker, a shape of its own (with its colour and dash, a line told from
 * another where they cross or run together, in grey too). */
const SHAPES = ["circle", "square", "triangle", "diamond", "down", "cross"];

function marker(k, cx, cy, r, extra = "") {
  const shape = SHAPES[k % SHAPES.length];
  const c = (v) => Math.round(v * 100) / 100;
  const attrs = { class: `marker line-${k % LINES} ${extra}`.trim(), "data-shape": shape };
  if (shape === "circle") return s("circle", { ...attrs, cx: c(cx), cy: c(cy), r });
  const d = {
    square: `M${c(cx - r * 0.9)} ${c(cy - r * 0.9)}h${c(r * 1.8)}v${c(r * 1.8)}h${c(-r * 1.8)}Z`,
    triangle: `M${c(cx)} ${c(cy - r * 1.2)}L${c(cx + r * 1.1)} ${c(cy + r * 0.8)}L${c(cx - r * 1.1)} ${c(cy + r * 0.8)}Z`,
    diamond: `M${c(cx)} ${c(cy - r * 1.3)}L${c(cx + r * 1.1)} ${c(cy)}L${c(cx)} ${c(cy + r * 1.3)}L${c(cx - r * 1.1)} ${c(cy)}Z`,
    down: `M${c(cx)} ${c(cy + r * 1.2)}L${c(cx + r * 1.1)} ${c(cy - r * 0.8)}L${c(cx - r * 1.1)} ${c(cy - r * 0.8)}Z`,
    cross: `M${c(cx - r)} ${c(cy - r)}L${c(cx + r)} ${c(cy + r)}M${c(cx - r)} ${c(cy + r)}L${c(cx + r)} ${c(cy - r)}`,
  }[shape];
  return s("path", { ...attrs, d });
}

/** How far (px) each line's point at each step is moved off the others with the same figure
 * there: lines that run together are drawn side by side, a few pixels apart, not one hiding
 * the other. */
const APART = 5;

function offsets(series) {
  const out = series.map((line) => line.values.map(() => 0));
  const steps = Math.max(...series.map((line) => line.values.length));
  for (let i = 0; i < steps; i += 1) {
    const groups = new Map();
    series.forEach((line, k) => {
      const v = line.values[i];
      if (v === null || v === undefined) return;
      const key = Number(v);
      groups.set(key, [...(groups.get(key) || []), k]);
    });
    for (const group of groups.values()) {
      group.forEach((k, rank) => { out[k][i] = (rank - (group.length - 1) / 2) * APART; });
    }
  }
  return out;
}

/** The lines whose figures are the same all along: named together under the chart. */
function sameLines(series) {
  const groups = new Map();
  for (const line of series) {
    const key = line.values.map((v) => (v === null || v === undefined ? "" : Number(v))).join("|");
    groups.set(key, [...(groups.get(key) || []), line.label]);
  }
  return [...groups.values()].filter((names) => names.length > 1);
}

/** The chart's words: its title, and the line it measures against (if any). */
function chartWords(g, marca) {
  if (marca) return { title: t("chart.titleMarca"), reference: 0, label: t("chart.zero") };
  if (g.target) {
    return { title: t("chart.titleTarget", { target: g.target }), reference: g.target,
      label: t("chart.target", { target: g.target }) };
  }
  return { title: t("chart.title"), reference: null, label: "" };
}

/** The chart itself: a line per series over ``steps`` steps (hands, games, or a season's
 * evenings), the reference line where ``words`` has one; ``axis`` names the steps. A value
 * ``null`` is a step with no figure yet (a season's average before a member's first
 * evening): the line starts at the first figure it has. Each line has its colour, its dash
 * and its marker's shape; lines with the same figures are drawn a few pixels apart; a line
 * of a single point (one game, one month) is that point with its figure written beside it,
 * and so is each point of a lone line of a few. */
function picture(series, words, hands, axis = t("chart.hands")) {
  const all = series.flatMap((line) => line.values).filter((v) => v !== null && v !== undefined);
  const decimals = decimalsOf(all);
  if (words.reference !== null) all.push(words.reference);
  const { low, high, ticks, digits } = scale(all.map(Number), decimals);
  const plotW = WIDTH - PAD.left - PAD.right;
  const plotH = HEIGHT - PAD.top - PAD.bottom;
  const x = (i) => (hands ? PAD.left + (plotW * i) / hands : PAD.left + plotW / 2);
  const y = (v) => PAD.top + plotH - (plotH * (Number(v) - low)) / (high - low);
  const round = (v) => Math.round(v * 100) / 100;
  const svg = s("svg", {
    class: "chart-svg", viewBox: `0 0 ${WIDTH} ${HEIGHT}`, "aria-hidden": "true",
    focusable: "false", "data-low": low, "data-high": high,
  });
  for (const v of ticks) {
    svg.append(s("line", { class: "grid", x1: PAD.left, x2: WIDTH - PAD.right, y1: round(y(v)), y2: round(y(v)) }));
    svg.append(s("text", { class: "tick figure-tick", x: PAD.left - 5, y: round(y(v)) + 4, "text-anchor": "end" }, number(v, digits)));
  }
  const every = [1, 2, 5, 10, 20, 50].find((k) => hands / k <= 10) || 100;
  for (let i = 0; i <= hands; i += every) {
    svg.append(s("text", { class: "tick", x: round(x(i)), y: HEIGHT - PAD.bottom + 14, "text-anchor": "middle" }, String(i)));
  }
  svg.append(s("line", { class: "axis", x1: PAD.left, x2: PAD.left, y1: PAD.top, y2: PAD.top + plotH }));
  svg.append(s("line", { class: "axis", x1: PAD.left, x2: WIDTH - PAD.right, y1: PAD.top + plotH, y2: PAD.top + plotH }));
  if (words.reference !== null) {
    const level = round(y(words.reference));
    svg.append(s("line", { class: "reference", x1: PAD.left, x2: WIDTH - PAD.right, y1: level, y2: level }));
    svg.append(s("text", { class: "reference-label", x: PAD.left + 4, y: level - 4 }, words.label));
  }
  const apart = offsets(series);
  const dotted = hands <= 30;
  const written = new Set();
  series.forEach((line, k) => {
    const known = line.values.map((v, i) => [i, v]).filter(([, v]) => v !== null && v !== undefined);
    const at = known.map(([i, v]) => [round(x(i)), round(y(v) + apart[k][i])]);
    svg.append(s("polyline", {
      class: `line line-${k % LINES}`, points: at.map((p) => p.join(",")).join(" "),
      "data-col": line.key, "data-values": line.values.join(","),
      "data-apart": known.map(([i]) => apart[k][i]).join(","),
    }));
    at.forEach(([cx, cy], n) => {
      const end = n === at.length - 1;
      if (end || dotted) svg.append(marker(k, cx, cy, end ? 4 : 3, end ? "end" : ""));
    });
    // A figure a reader cannot read off the axis: a lone point's, or each of a lone line's few.
    if (known.length === 1 || (series.length === 1 && known.length <= 6)) {
      known.forEach(([i, v], n) => {
        const [cx, cy] = at[n];
        // Said once where lines meet, and not where the reference line says it already.
        const said = `${i}:${Number(v)}`;
        if (written.has(said) || (i === 0 && words.reference !== null && Number(v) === Number(words.reference))) return;
        written.add(said);
        const above = cy - PAD.top > 16;
        svg.append(s("text", {
          class: `value line-${k % LINES}`, x: cx, y: above ? cy - 9 : cy + 18,
          "text-anchor": hands && i === hands ? "end" : hands && i === 0 ? "start" : "middle",
        }, number(v, decimals)));
      });
    }
  });
  svg.append(s("text", { class: "axis-label", x: PAD.left + plotW / 2, y: HEIGHT - 2, "text-anchor": "middle" }, axis));
  return svg;
}

/** Bars from zero, one a step (a member's months), each with its figure written on it and
 * its name under it: what a reader reads of one month as well as of twelve. */
function bars(items, axis) {
  const values = items.map((item) => Number(item.value ?? 0));
  const decimals = decimalsOf(items.map((item) => item.value ?? 0));
  const { low, high, ticks, digits } = scale([0, ...values], decimals);
  const plotW = WIDTH - PAD.left - PAD.right;
  const plotH = HEIGHT - PAD.top - PAD.bottom;
  const y = (v) => PAD.top + plotH - (plotH * (v - low)) / (high - low);
  const round = (v) => Math.round(v * 100) / 100;
  const slot = plotW / Math.max(items.length, 1);
  const width = Math.min(56, slot * 0.7);
  const svg = s("svg", {
    class: "chart-svg bars", viewBox: `0 0 ${WIDTH} ${HEIGHT}`, "aria-hidden": "true",
    focusable: "false", "data-low": low, "data-high": high, "data-values": values.join(","),
  });
  for (const v of ticks) {
    svg.append(s("line", { class: v === 0 ? "axis" : "grid", x1: PAD.left, x2: WIDTH - PAD.right, y1: round(y(v)), y2: round(y(v)) }));
    svg.append(s("text", { class: "tick figure-tick", x: PAD.left - 5, y: round(y(v)) + 4, "text-anchor": "end" }, number(v, digits)));
  }
  svg.append(s("line", { class: "axis", x1: PAD.left, x2: PAD.left, y1: PAD.top, y2: PAD.top + plotH }));
  const every = Math.ceil(items.length / 6);
  items.forEach((item, i) => {
    const v = values[i];
    const middle = PAD.left + slot * (i + 0.5);
    const top = y(Math.max(v, 0));
    svg.append(s("rect", {
      class: "chart-bar line-0", x: round(middle - width / 2), y: round(top), width: round(width),
      height: Math.max(round(Math.abs(y(v) - y(0))), 1), "data-value": v,
    }));
    if (items.length <= 8) {
      svg.append(s("text", {
        class: "value line-0", x: round(middle), y: v < 0 ? round(y(v)) + 14 : round(top) - 5, "text-anchor": "middle",
      }, number(item.value, decimals)));
    }
    if (i % every === 0) {
      svg.append(s("text", { class: "tick", x: round(middle), y: HEIGHT - PAD.bottom + 14, "text-anchor": "middle" }, item.label));
    }
  });
  svg.append(s("text", { class: "axis-label", x: PAD.left + plotW / 2, y: HEIGHT - 2, "text-anchor": "middle" }, axis));
  return svg;
}

/** ``svg``'s steps named by ``names`` (the picture numbers them from 0). */
function namedSteps(svg, names) {
  for (const tick of svg.querySelectorAll("text.tick[text-anchor='middle']")) {
    const name = names[Number(tick.textContent)];
    if (name !== undefined) tick.textContent = name;
  }
  return svg;
}

/** A table for a screen reader only: kept in a box one pixel wide, so that however long its
 * rows it never makes a phone's page wider. */
function hiddenTable(...children) {
  return h("div", { class: "visually-hidden chart-figures" }, h("table", {}, ...children));
}

/** The same figures as a table, for a screen reader (the picture is hidden from it). */
function figures(g, series, words) {
  const body = h("tbody");
  const rows = series[0].values.length;
  for (let i = 0; i < rows; i += 1) {
    body.append(h("tr", {},
      h("th", { scope: "row" }, i === 0 ? t("chart.start") : t("sheet.handN", { n: g.hands[i - 1].number })),
      series.map((line) => h("td", {}, number(line.values[i])))));
  }
  return hiddenTable(
    h("caption", {}, t("chart.caption", { title: words.title })),
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("sheet.handCol")),
      series.map((line) => h("th", { scope: "col" }, line.label)))), body);
}

/** The chart card of a game with at least one hand, else nothing. */
function runningChart(g, marca) {
  if (!g.hands.length) return null;
  const { start, after } = runningTotals(g, marca);
  const words = chartWords(g, marca);
  const series = g.columns.map((c) => ({
    key: c.key, label: c.label, values: [start, ...after.map((row) => row[c.key])],
  }));
  return h("section", { class: "card chart", id: "chart" },
    h("h2", { id: "chart-title" }, words.title),
    picture(series, words, g.hands.length), chartKey(series), figures(g, series, words));
}

/** The key under a chart: each line's swatch (its colour, dash and marker), its name and its
 * last figure (hidden from a screen reader, which reads the figures' table); under it, the
 * lines whose figures are the same all along, said in words (drawn side by side). */
function chartKey(series) {
  const key = h("ul", { class: "chart-key", "aria-hidden": "true" }, series.map((line, k) => h("li", {},
    s("svg", { class: "swatch", viewBox: "0 0 28 12", width: 28, height: 12 },
      s("line", { class: `line line-${k % LINES}`, x1: 1, x2: 27, y1: 6, y2: 6 }), marker(k, 14, 6, 3.5)),
    h("span", { class: "chart-name" }, line.label), " ",
    h("strong", {}, number(line.values[line.values.length - 1])))));
  const same = sameLines(series);
  if (!same.length) return key;
  return h("div", { class: "chart-keys" }, key, same.map((names) => h("p", { class: "hint chart-same" },
    t("chart.same", { names: new Intl.ListFormat(I18n.locale, { type: "conjunction" }).format(names) }))));
}

export { bars, chartKey, hiddenTable, namedSteps, number, picture, runningChart, runningTotals, scale };
