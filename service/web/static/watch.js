/* A live watch: what a screen shows, read again every few seconds while the page is on show.
 * Hidden, it reads nothing; back in view, or with the network back, it reads at once. A read
 * that fails (no network, the service busy) makes the next wait twice as long, up to eight
 * times the usual, so a room's phones do not keep knocking on a service that cannot answer;
 * the first read that works brings the usual pace back. The game's sheet (state.js) and an
 * event's screens (eventstate.js) each keep one. */

const EVERY_MS = Number(window.SEGNAPUNTI_POLL_MS) || 4000;
/** The longest wait, in usual waits. */
const SLOWEST = 8;

/** A watch that runs ``step(current)`` each time: an async read that throws when it failed.
 * ``current()`` says whether the watch is still the one that started the read (a screen that
 * went meanwhile drops what comes back). */
function watch(step, { every = EVERY_MS } = {}) {
  let timer = null;
  let generation = 0;
  let running = false;
  let failures = 0;
  let busy = false;

  function wait() {
    return every * Math.min(SLOWEST, 2 ** failures);
  }

  function schedule(ms) {
    clearTimeout(timer);
    timer = running && document.visibilityState === "visible" ? setTimeout(tick, ms) : null;
  }

  async function tick() {
    clearTimeout(timer);
    timer = null;
    if (!running) return;
    if (busy) {  // the read of a watch stopped and started again is still on its way
      schedule(wait());
      return;
    }
    const mine = generation;
    const current = () => running && mine === generation;
    busy = true;
    try {
      await step(current);
      failures = 0;
    } catch (error) {
      failures += 1;
    } finally {
      busy = false;
    }
    if (current()) schedule(wait());
  }

  /** Read now, where the watch runs and no read is on its way. */
  function now() {
    if (running && !busy) tick();
  }

  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") now();
    else schedule(0);  // hidden: no timer until the page is on show again
  });
  window.addEventListener("online", () => now());

  return {
    /** Watch from now on, the first read after the usual wait (a screen that just read). */
    start() {
      generation += 1;
      running = true;
      failures = 0;
      schedule(every);
    },
    /** No more reads; one on its way is dropped when it comes back. */
    stop() {
      generation += 1;
      running = false;
      clearTimeout(timer);
      timer = null;
    },
    now,
    get running() { return running; },
  };
}

export { watch };
