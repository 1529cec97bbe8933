/* The page's building blocks: elements from data, the few controls it repeats (chips,
 * switches, steppers), numbers and money as the page's language writes them, and the
 * notices at the top (banner) and bottom (toast) of the screen. */
import { Cards } from "./cards.js";
import { I18n, readable, t } from "./i18n.js";

const main = document.getElementById("main");

// -- DOM -------------------------------------------------------------------------------

function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") el.className = value;
    else if (key === "text") el.textContent = readable(String(value));
    else if (key.startsWith("on")) el.addEventListener(key.slice(2), value);
    else if (value === true) el.setAttribute(key, "");
    else el.setAttribute(key, key === "aria-label" || key === "title" ? readable(String(value)) : String(value));
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    // A text area's text is what it sends: kept as it is; any other's is read.
    const text = el.tagName === "TEXTAREA" ? String(child) : readable(String(child));
    el.append(child instanceof Node ? child : document.createTextNode(text));
  }
  return el;
}

/** A card as a small face: its label, its name (in the variant ``detail``'s words) on hover. */
function cardChip(code, detail, extra = {}) {
  return h("span", {
    class: `cardface ${Cards.isRed(code) ? "red" : ""} ${Cards.isTrump(code) ? "trump" : ""}`,
    title: Cards.name(code, detail), ...extra,
  }, Cards.label(code));
}

// A card button's accessible name: what it shows, then what that means ("K♥, re di cuori").
function cardName(code, detail) {
  return `${Cards.label(code)}, ${Cards.name(code, detail)}`;
}

// The currencies a game may settle in, as the new-game form offers them.
const CURRENCIES = ["EUR", "CHF", "GBP", "USD"];

/** Money as the page's language writes it, in the game's currency: "3,50 €", "€3.50". */
function money(text, currency = "EUR") {
  try {
    return new Intl.NumberFormat(I18n.locale, {
      style: "currency", currency: currency || "EUR",
    }).format(Number(text)).replace("-", "−");
  } catch (error) {
    return `${text} ${currency || ""}`.trim();
  }
}

function signed(n) {
  if (n > 0) return `+${n}`;
  if (n < 0) return `−${-n}`;
  return "0";
}

function num(n) {
  return n < 0 ? `−${-n}` : String(n);
}

function initials(name) {
  return name.split(/\s+/).filter(Boolean).map((w) => w[0]).join("").slice(0, 2).toUpperCase();
}

function randomKey() {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

let toastTimer = null;
function toast(text) {
  const el = document.getElementById("toast");
  el.textContent = text;
  el.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { el.hidden = true; }, 4000);
}

function banner(text, kind = "info") {
  const el = document.getElementById("banner");
  el.replaceChildren();
  if (!text) {
    el.hidden = true;
    return;
  }
  el.className = `banner ${kind}`;
  append(el, [h("span", {}, text), h("button", {
    type: "button", class: "banner-close", "aria-label": t("action.close"),
    onclick: () => banner(null),
  }, "×")]);
  el.hidden = false;
}

// A finger (or a mouse button) down on the screen: news a poll or a stream brings waits
// for it to lift. A redraw replaces every control with its copy, and a tap that began on one
// and ends on the other is no tap at all: the player's tap would be lost to the news.
let pressing = false;
let waiting = null;
document.addEventListener("pointerdown", () => { pressing = true; }, true);
function lifted() {
  pressing = false;
  // After the click the lift brings, whose own redraw (drawn from the state as it is then,
  // news included) drops what waited.
  setTimeout(() => {
    const draw = waiting;
    waiting = null;
    if (draw && !pressing) draw();
  }, 0);
}
document.addEventListener("pointerup", lifted, true);
document.addEventListener("pointercancel", lifted, true);
window.addEventListener("blur", () => { if (pressing) lifted(); });

function show(view, { focus = true } = {}) {
  waiting = null;
  main.replaceChildren(view);
  if (focus) {
    const heading = main.querySelector("h1");
    if (heading) {
      heading.setAttribute("tabindex", "-1");
      heading.focus({ preventScroll: true });
    }
    window.scrollTo(0, 0);
  }
}

/** A screen shown anew (``first``: focused and scrolled to the top as a new screen) or redrawn
 * in place with news from a poll, keeping where the reader was: the scroll and the control
 * that had the focus; news that comes while a finger is down is drawn once it lifts. */
function redraw(view, first) {
  if (!first && pressing) {
    waiting = () => redraw(view, false);
    return;
  }
  const active = document.activeElement && document.activeElement.id;
  const scroll = window.scrollY;
  show(view, { focus: first });
  if (!first) {
    window.scrollTo(0, scroll);
    if (active) document.getElementById(active)?.focus({ preventScroll: true });
  }
}

function chipRadio(group, value, label, checked, onchange, extra = {}) {
  const id = `${group}-${value}`;
  return h("label", { class: `chip ${checked ? "on" : ""}`, ...extra },
    h("input", { type: "radio", name: group, value, id, checked, onchange }),
    h("span", {}, label));
}

function switchButton(id, label, on, onchange) {
  return h("button", {
    type: "button", id, class: `switch ${on ? "on" : ""}`, role: "switch",
    "aria-checked": on ? "true" : "false", onclick: () => onchange(!on),
  }, h("span", { class: "switch-track", "aria-hidden": "true" }, h("span", { class: "switch-knob" })),
  h("span", {}, label));
}

/** A number field's handlers so that the focus reaching it selects what it holds, and what is
 * typed replaces it: a tap must not leave the caret inside "20", where ⌫ leaves a "0" and a
 * digit writes beside it. (The tap's own mouseup would otherwise drop the selection.) */
function selectOnFocus() {
  return {
    onfocus: (e) => { e.target.select(); e.target.dataset.justFocused = "1"; },
    onmouseup: (e) => {
      if (e.target.dataset.justFocused) { e.preventDefault(); delete e.target.dataset.justFocused; }
    },
    onblur: (e) => { delete e.target.dataset.justFocused; },
    oninput: (e) => { delete e.target.dataset.justFocused; },
  };
}

function stepper(id, value, min, max, onchange, label) {
  const set = (n) => onchange(Math.max(min, Math.min(max, n)));
  return h("div", { class: "stepper", role: "group", "aria-label": label },
    h("button", { type: "button", class: "step-button", id: `${id}-minus`, "aria-label": t("action.less"), disabled: value <= min, onclick: () => set(value - 1) }, "−"),
    h("input", {
      id, type: "number", inputmode: "numeric", min, max, value, "aria-label": label, ...selectOnFocus(),
      onchange: (e) => set(Number(e.target.value) || 0),
    }),
    h("button", { type: "button", class: "step-button", id: `${id}-plus`, "aria-label": t("action.more"), disabled: value >= max, onclick: () => set(value + 1) }, "+"));
}

/** Saves ``blob`` on the phone as ``filename`` (a PDF the service printed). */
function saveFile(blob, filename) {
  const url = URL.createObjectURL(blob);
  const link = h("a", { href: url, download: filename });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
}

export {
  CURRENCIES, append, banner, cardChip, cardName, chipRadio, h, initials, money, num, randomKey,
  redraw, saveFile, selectOnFocus, show, signed, stepper, switchButton, toast,
};
