/* Segnapunti's service worker: the page, its files and the variants' data from a cache of
 * this release, so that the page opens with no network once it has been opened once. The
 * service writes RELEASE and FILES in when it serves this at /sw.js (the page, its files, the
 * list of variants); a variant's data and rules are kept as the page reads them. A new
 * release is a new cache, and the old ones go. Games and hands are never cached here: they
 * travel with a token, and the page keeps its own copy of the games it has seen. */
"use strict";

const RELEASE = "__RELEASE__";
const FILES = __FILES__;
const CACHE = `segnapunti-${RELEASE}`;

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(FILES)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(caches.keys()
    .then((keys) => Promise.all(keys.filter((key) => key.startsWith("segnapunti-") && key !== CACHE)
      .map((key) => caches.delete(key))))
    .then(() => self.clients.claim()));
});

function kept(request) {
  return caches.open(CACHE).then((cache) => cache.match(request, { ignoreVary: true }));
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate") {
    // The page: the network's when it answers (a new release reaches the phone at once).
    event.respondWith(fetch(request).catch(() => kept("/")));
  } else if (url.pathname.startsWith("/app/")) {
    // The page's files, at their versions: ours first, they never change.
    event.respondWith(kept(request).then((hit) => hit || fetch(request)));
  } else if (url.pathname.startsWith("/api/v1/variants")) {
    // The variants' data: fresh when the network answers, else the copy of this release.
    event.respondWith(fetch(request).then((response) => {
      if (response.ok) {
        const copy = response.clone();
        caches.open(CACHE).then((cache) => cache.put(request, copy));
      }
      return response;
    }).catch(() => kept(request).then((hit) => hit || Response.error())));
  }
  // Everything else (games, hands, scoring) goes to the network as it is.
});
