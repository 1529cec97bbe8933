/* A live watch: what a screen shows, read again whenever it changes while the page is on
 * show. Where the service offers a stream beside the resource (stream.js), the watch holds
 * it and reads when told; otherwise, or while the stream is down, it reads every few seconds
 * (with the resource's ETag, so an unchanged one costs a 304). Hidden, it reads nothing and
 * holds no stream; back in view, or with the network back, it reads at once. A read that
 * fails (no network, the service busy) makes the next wait twice as long, up to eight times
 * the usual, so a room's phones do not keep knocking on a service that cannot answer; the
 * first read that works brings the usual pace back. A stream refused or cut is opened again
 * later, each time a little later (a service without streams: every few minutes), and the
 * polls go on meanwhile. The game's sheet (state.js), an event's screens (eventstate.js), the
 * door (door.js) and an entrant's screen (entrant.js) each keep one. */
import { StreamClosed, canStream, holdStream } from "./stream.js";

const EVERY_MS = Number(window.SEGNAPUNTI_POLL_MS) || 4000;
/** The longest wait, in usual waits. */
const SLOWEST = 8;
/** While a stream is held, a read every this many usual waits all the same (a notice lost). */
const STREAMING = 15;
/** Waits before a stream is opened again: after it ended or was cut (doubled each time it
 * fails again, up to the longest), and where the service has no streams (404). */
const REOPEN_MS = 3000;
const REOPEN_LONGEST_MS = 120000;
const NO_STREAMS_MS = 300000;

/** A watch that runs ``step(current, told)`` each time: an async read that throws when it
 * failed. ``current()`` says whether the watch is still the one that started the read (a
 * screen that went meanwhile drops what comes back); ``told``, whether the read is its
 * stream's telling of a change (the stream tells once the service has made the new state:
 * such a read may take the newest state made), not a poll, a return to the screen or a read
 * after the stream was cut (each of those asks for the state as it is now). ``follow()``:
 * the resource's path and token (``{ path: "/api/v1/games/…", token, told }``), or null, for
 * its stream; ``told(data)``, where given, takes what a change event carries before the
 * read it brings. ``spread``: told of a change, read within that many ms, at a moment of its
 * own (a wall told at the same moment as many others, which no one waits for to the tenth
 * of a second), not at once. */
function watch(step, { every = EVERY_MS, follow = null, spread = 0 } = {}) {
  let timer = null;
  let generation = 0;
  let running = false;
  let failures = 0;
  let busy = false;
  let again = false;  // told of a change while a read was on its way: read once more
  let told = false;  // the next read is a stream's telling of a change
  // The stream: its abort, whether it is held now, its failures in a row, its next opening,
  // the last version it said, and the path it follows (a new path starts afresh).
  let controller = null;
  let streaming = false;
  let streamFailures = 0;
  let reopen = null;
  let lastId = null;
  let followed = null;
  let quietUntil = 0;  // a stream refused or cut is not asked for again before this moment

  function wait() {
    if (streaming && failures === 0) return every * STREAMING;
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
    again = false;
    const byStream = told;
    told = false;
    try {
      await step(current, byStream);
      failures = 0;
    } catch (error) {
      failures += 1;
    } finally {
      busy = false;
    }
    if (!current()) return;
    if (again) tick();
    else schedule(wait());
  }

  /** Read now, where the watch runs (once more when a read is on its way). */
  function now() {
    if (!running) return;
    if (busy) again = true;
    else tick();
  }

  function closeStream() {
    clearTimeout(reopen);
    reopen = null;
    if (controller) controller.abort();
    controller = null;
    streaming = false;
  }

  function reopenIn(ms) {
    clearTimeout(reopen);
    quietUntil = Math.max(quietUntil, Date.now() + ms);
    reopen = running ? setTimeout(openStream, ms) : null;
  }

  /** Hold the resource's stream while the watch runs and the page is on show. */
  function openStream() {
    clearTimeout(reopen);
    reopen = null;
    if (!running || controller || !follow || !canStream()) return;
    if (document.visibilityState !== "visible" || navigator.onLine === false) return;
    const target = follow();
    if (!target) return;
    const url = `${target.path}/stream`;
    if (url !== followed) {
      followed = url;
      lastId = null;
      streamFailures = 0;
      quietUntil = 0;
    }
    if (Date.now() < quietUntil) {
      reopenIn(quietUntil - Date.now());
      return;
    }
    const mine = new AbortController();
    controller = mine;
    holdStream(url, {
      token: target.token,
      lastId,
      language: document.documentElement.lang || undefined,
      signal: mine.signal,
      onOpen() {
        streaming = true;
        streamFailures = 0;
        if (!busy) schedule(wait());
      },
      onChange(id, data) {
        lastId = id;
        // What the event carries (a game's, the game itself) goes to the screen first: its
        // read then takes it instead of asking the service.
        const target = follow();
        if (data && target && target.told) target.told(data);
        told = true;
        if (!spread) now();
        else if (busy) again = true;
        else schedule(Math.random() * spread);
      },
      onGone() {
        now();  // the read says what happened, as a poll would
      },
    }).then(() => {
      if (controller !== mine) return;
      controller = null;
      streaming = false;
      quietUntil = 0;
      reopenIn(REOPEN_MS);
      now();
    }, (error) => {
      if (controller !== mine) return;  // closed on purpose
      controller = null;
      const held = streaming;
      streaming = false;
      if (error instanceof StreamClosed && [404, 405, 501].includes(error.status)) {
        reopenIn(NO_STREAMS_MS);
      } else {
        streamFailures += 1;
        reopenIn(Math.min(REOPEN_LONGEST_MS, REOPEN_MS * 2 ** streamFailures));
      }
      if (held) now();  // what changed while the stream was cut
      else if (!busy) schedule(wait());
    });
  }

  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") {
      openStream();
      now();
    } else {
      closeStream();
      schedule(0);  // hidden: no timer until the page is on show again
    }
  });
  window.addEventListener("online", () => {
    openStream();
    now();
  });
  window.addEventListener("offline", () => closeStream());

  return {
    /** Watch from now on, the first read after the usual wait (a screen that just read). */
    start() {
      generation += 1;
      running = true;
      failures = 0;
      if (controller && follow && follow() && `${follow().path}/stream` !== followed) {
        closeStream();  // another resource now: its own stream
      }
      schedule(every);
      openStream();
    },
    /** No more reads; one on its way is dropped when it comes back. */
    stop() {
      generation += 1;
      running = false;
      clearTimeout(timer);
      timer = null;
      closeStream();
    },
    now,
    get running() { return running; },
    /** Whether a stream tells this watch of each change now. */
    get streaming() { return streaming; },
  };
}

export { watch };
