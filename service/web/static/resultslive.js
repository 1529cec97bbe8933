/* A published results page (made by the service, whole without a script) kept current by its
 * stream: told that the results moved, the page reads itself again and puts its new main part
 * in place, where the reader is. Hidden, it holds no stream; back in view, it reads itself
 * once. Where no stream can be held (an old browser, a proxy without streams, the results
 * taken down) the page stays as it is, as it would without a script; a reload shows the
 * latest. */
import { StreamClosed, canStream, holdStream } from "./stream.js";

const STREAM = `${location.pathname}/stream`;
const REOPEN_MS = 3000;
const LONGEST_MS = 120000;

let controller = null;
let wait = REOPEN_MS;
let timer = null;
let heard = null;  // the version the stream said first: the page as it was served

async function readAgain() {
  const response = await fetch(location.pathname + location.search,
    { cache: "no-cache", headers: { Accept: "text/html" } });
  if (!response.ok) return;
  const next = new DOMParser().parseFromString(await response.text(), "text/html");
  const main = next.querySelector("main");
  const here = document.querySelector("main");
  if (main && here) here.replaceWith(document.adoptNode(main));
}

function follow() {
  clearTimeout(timer);
  if (controller || !canStream() || document.visibilityState !== "visible") return;
  const mine = new AbortController();
  controller = mine;
  holdStream(STREAM, {
    lastId: heard,
    language: document.documentElement.lang,
    signal: mine.signal,
    onOpen() { wait = REOPEN_MS; },
    onChange(id) {
      const first = heard === null;
      heard = id;
      if (!first) readAgain().catch(() => {});
    },
    onGone() {},
  }).then(() => {
    if (controller !== mine) return;
    controller = null;
    timer = setTimeout(follow, wait);
  }, (error) => {
    if (controller !== mine) return;
    controller = null;
    if (error instanceof StreamClosed && error.status === 404) return;
    wait = Math.min(LONGEST_MS, wait * 2);
    timer = setTimeout(follow, wait);
  });
}

document.addEventListener("visibilitychange", () => {
  if (document.visibilityState === "visible") {
    follow();
    if (heard !== null) readAgain().catch(() => {});
  } else if (controller) {
    const open = controller;
    controller = null;
    open.abort();
  }
});

follow();
