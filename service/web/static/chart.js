/* The chart of a game's running totals on its sheet (issue 29): one line per column from the
 * start through every hand — Ottocento's race with its target line, Mitigatti's balances in
 * marca from 10 with the zero line, any other game's running totals; the same picture draws a
 * member's rating game by game and a season's leaders evening by evening. Drawn here as SVG, in
 * the page's colours (light or dark, each line its own colour and dash), with a key of names
 * and last figures; for a screen reader the same figures are a table it can read, and the
 * picture is hidden from it. */
import { h, num } from "./dom.js";
import { t } from "./i18n.js";

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

/** Round steps for the figures' axis: 1, 2 or 5 times a power of ten, about five of them. */
function ticks(low, high) {
  const raw = (high - low) / 5 || 1;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((k) => k * power).find((k) => k >= raw);
  const out = [];
  // Each step counted from a whole number of steps, so that 0.2 + 0.4 is never 0.6000000001.
  for (let k = Math.ceil(low / step - 1e-9); k * step <= high + step * 1e-9; k += 1) {
    out.push(Number((k * step).toPrecision(12)));
  }
  return out;
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
 * evening): the line starts at the first figure it has. */
function picture(series, words, hands, axis = t("chart.hands")) {
  const all = series.flatMap((line) => line.values).filter((v) => v !== null);
  if (words.reference !== null) all.push(words.reference);
  let low = Math.min(...all);
  let high = Math.max(...all);
  if (high === low) { low -= 1; high += 1; }
  const plotW = WIDTH - PAD.left - PAD.right;
  const plotH = HEIGHT - PAD.top - PAD.bottom;
  const x = (i) => PAD.left + (plotW * i) / Math.max(hands, 1);
  const y = (v) => PAD.top + plotH - (plotH * (v - low)) / (high - low);
  const round = (v) => Math.round(v * 100) / 100;
  const svg = s("svg", {
    class: "chart-svg", viewBox: `0 0 ${WIDTH} ${HEIGHT}`, "aria-hidden": "true",
    focusable: "false", "data-low": low, "data-high": high,
  });
  for (const v of ticks(low, high)) {
    svg.append(s("line", { class: "grid", x1: PAD.left, x2: WIDTH - PAD.right, y1: round(y(v)), y2: round(y(v)) }));
    svg.append(s("text", { class: "tick", x: PAD.left - 5, y: round(y(v)) + 4, "text-anchor": "end" }, num(v)));
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
  series.forEach((line, k) => {
    const known = line.values.map((v, i) => [i, v]).filter(([, v]) => v !== null);
    const points = known.map(([i, v]) => `${round(x(i))},${round(y(v))}`).join(" ");
    svg.append(s("polyline", {
      class: `line line-${k % LINES}`, points, "data-col": line.key, "data-values": line.values.join(","),
    }));
    const [last, value] = known[known.length - 1];
    svg.append(s("circle", { class: `end line-${k % LINES}`, cx: round(x(last)), cy: round(y(value)), r: 3.5 }));
  });
  svg.append(s("text", { class: "axis-label", x: PAD.left + plotW / 2, y: HEIGHT - 2, "text-anchor": "middle" }, axis));
  return svg;
}

/** The same figures as a table, for a screen reader (the picture is hidden from it). */
function figures(g, series, words) {
  const table = h("table", { class: "visually-hidden chart-figures" },
    h("caption", {}, t("chart.caption", { title: words.title })),
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("sheet.handCol")),
      series.map((line) => h("th", { scope: "col" }, line.label)))));
  const body = h("tbody");
  const rows = series[0].values.length;
  for (let i = 0; i < rows; i += 1) {
    body.append(h("tr", {},
      h("th", { scope: "row" }, i === 0 ? t("chart.start") : t("sheet.handN", { n: g.hands[i - 1].number })),
      series.map((line) => h("td", {}, num(line.values[i])))));
  }
  table.append(body);
  return table;
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

/** The key under a chart: each line's swatch, its name and its last figure (hidden from a
 * screen reader, which reads the figures' table). */
function chartKey(series) {
  return h("ul", { class: "chart-key", "aria-hidden": "true" }, series.map((line, k) => h("li", {},
    s("svg", { class: "swatch", viewBox: "0 0 28 8", width: 28, height: 8 },
      s("line", { class: `line line-${k % LINES}`, x1: 1, x2: 27, y1: 4, y2: 4 })),
    h("span", { class: "chart-name" }, line.label), " ",
    h("strong", {}, num(line.values[line.values.length - 1])))));
}

export { chartKey, picture, runningChart, runningTotals };
