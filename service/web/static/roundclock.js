/* The round's clock on screen (the wall board, the organiser's screen, a table's sheet): the
 * time left of a round of an event with a clock, counting down each second, then "last hand"
 * once it is up (and, when the round closes by itself, when it will). It reads the round's
 * end as the service said it (ends_at, closes_at) against this device's clock; the watch that
 * reads the event again shows the round closed when the service has closed it. */
import { h } from "./dom.js";
import { I18n, t } from "./i18n.js";

let ticker = null;

/** "12:05" from a number of seconds; "1:02:05" past the hour. */
function minutes(seconds) {
  const hours = Math.floor(seconds / 3600);
  const mm = String(Math.floor((seconds % 3600) / 60));
  const ss = String(seconds % 60).padStart(2, "0");
  return hours ? `${hours}:${mm.padStart(2, "0")}:${ss}` : `${mm}:${ss}`;
}

function show(el) {
  const left = Date.parse(el.dataset.endsAt) - Date.now();
  if (left > 0) {
    el.dataset.clock = "running";
    el.querySelector(".clock-text").textContent = t("ev.clock.left", { time: minutes(Math.ceil(left / 1000)) });
    el.querySelector(".clock-closes").textContent = "";
    return;
  }
  el.dataset.clock = "up";
  el.querySelector(".clock-text").textContent = t("ev.clock.lastHand");
  const closes = el.dataset.closesAt;
  el.querySelector(".clock-closes").textContent = closes ? ` ${t("ev.clock.closesAt", {
    time: new Date(closes).toLocaleTimeString(I18n.locale, { hour: "2-digit", minute: "2-digit" }),
  })}` : "";
}

function tick() {
  const shown = document.querySelectorAll(".round-clock[data-ends-at]");
  shown.forEach(show);
  if (!shown.length) {
    clearInterval(ticker);
    ticker = null;
  }
}

/** The clock of a round being played (``round``: its ``ends_at`` and ``closes_at``, as the
 * event's reading or a table's game says them); nothing for a round without a clock or one
 * closed. ``id``: the element's. */
function roundClock(round, id = "round-clock") {
  if (!round?.ends_at || round.state === "closed" || round.closed) return null;
  const el = h("div", {
    class: "round-clock", id, role: "timer", "data-ends-at": round.ends_at,
    "data-closes-at": round.closes_at || "",
  }, h("span", { class: "clock-text" }), h("span", { class: "clock-closes" }));
  show(el);
  if (!ticker) ticker = setInterval(tick, 1000);
  return el;
}

export { roundClock };
