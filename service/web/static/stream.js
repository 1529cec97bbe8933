/* A screen's stream: the service's Server-Sent Events beside the resource the screen shows
 * (``<resource>/stream``), read with fetch, since EventSource cannot send the token as
 * Authorization and a token never goes in an address. Each ``change`` event says the resource
 * moved (its ``id`` is the resource's version; a game's also carries the game);
 * ``gone`` says the token no longer opens it. The watch (watch.js) reads the resource when
 * told, and polls as before whenever no stream can be held. */

/** Why a stream could not be held: the answer's status (0: no answer, or no stream). */
class StreamClosed extends Error {
  constructor(status) {
    super(`stream closed (${status})`);
    this.status = status;
  }
}

/** Whether this browser can read a stream with fetch. */
function canStream() {
  return typeof fetch === "function" && typeof ReadableStream === "function"
    && typeof TextDecoderStream === "function" && typeof AbortController === "function";
}

/** Hold the stream at ``url`` until it ends or ``signal`` aborts it. ``onOpen()`` once it is
 * held; ``onChange(id, data)`` for each change, ``data`` what the event says (a game's
 * carries the game: ``etag`` and ``body``), or null; ``onGone()`` when the token no longer
 * opens it.
 * ``lastId``: the version this screen last heard, so that a stream opened again says at once
 * only what moved since. Resolves with the last id heard when the service ends the stream;
 * throws ``StreamClosed`` when it is refused or cut. */
async function holdStream(url, { token, lastId, language, signal, onOpen, onChange, onGone }) {
  const headers = { Accept: "text/event-stream" };
  if (token) headers.Authorization = `Bearer ${token}`;
  if (lastId) headers["Last-Event-ID"] = lastId;
  if (language) headers["Accept-Language"] = language;
  let response;
  try {
    response = await fetch(url, { headers, signal, cache: "no-store" });
  } catch (error) {
    throw new StreamClosed(0);
  }
  const type = response.headers.get("Content-Type") || "";
  if (!response.ok || !type.startsWith("text/event-stream") || !response.body) {
    throw new StreamClosed(response.ok ? 0 : response.status);
  }
  onOpen();
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let last = lastId;
  let pending = "";
  let kind = "";
  let id = null;
  let data = [];
  for (;;) {
    let chunk;
    try {
      chunk = await reader.read();
    } catch (error) {
      throw new StreamClosed(0);
    }
    if (chunk.done) return last;
    pending += chunk.value;
    const lines = pending.split(/\r\n|\r|\n/);
    pending = lines.pop();
    for (const line of lines) {
      if (line === "") {  // an event ends
        if (kind === "gone") {
          onGone();
          return last;
        }
        if (kind === "change" && id !== null && id !== last) {
          last = id;
          onChange(id, said(data));
        }
        kind = "";
        id = null;
        data = [];
      } else if (line.startsWith("event:")) {
        kind = line.slice(6).trim();
      } else if (line.startsWith("id:")) {
        id = line.slice(3).trim();
      } else if (line.startsWith("data:")) {
        data.push(line.slice(line.startsWith("data: ") ? 6 : 5));
      }
      // retry and comments: nothing to do
    }
  }
}

/** An event's data lines as the object they spell, or null. */
function said(lines) {
  if (!lines.length) return null;
  try {
    return JSON.parse(lines.join("\n"));
  } catch (error) {
    return null;
  }
}

export { StreamClosed, canStream, holdStream };
