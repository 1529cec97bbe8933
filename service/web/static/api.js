/* The service's public API as the page calls it: JSON in and out, the page's language asked
 * for, problem+json turned into an ApiError that keeps every problem. A read, or a change sent
 * with its Idempotency-Key (which the service answers once), is sent again when the service
 * asks for a moment (429, 503): after its Retry-After, when that is short (a 429 without one
 * is not sent again). */

import { I18n, t } from "./i18n.js";
import { Store } from "./stores.js";

const API = "/api/v1";
// How many times a request the service asked to wait is sent again, and the longest wait.
const RETRIES = 3;
const LONGEST_WAIT_MS = 10000;

/** How long to wait before sending again what ``response`` refused (null: not again). */
function retryWait(response, attempt, init) {
  if (response.status !== 429 && response.status !== 503) return null;
  // A 429 that names no time to wait is no moment to wait out: a duplicate table stopped on a
  // board records it again once the organiser releases it.
  if (response.status === 429 && !response.headers.has("Retry-After")) return null;
  if (attempt >= RETRIES) return null;
  if (!["GET", "HEAD"].includes(init.method) && !init.headers["Idempotency-Key"]) return null;
  const after = Number(response.headers.get("Retry-After"));
  const wait = response.headers.has("Retry-After") && after >= 0 ? after * 1000 : 1000 * 2 ** attempt;
  // A little spread, so that a room's phones do not all come back in the same instant.
  return wait > LONGEST_WAIT_MS ? null : wait + Math.random() * 500;
}

// -- API -------------------------------------------------------------------------------

class ApiError extends Error {
  constructor(status, problem, headers) {
    super(problem.detail || problem.title || `HTTP ${status}`);
    this.status = status;
    this.problem = problem;
    this.headers = headers;
  }
}

async function api(method, path, { body, token, headers = {} } = {}) {
  // The service says its problems in the page's language (Accept-Language).
  const init = { method, headers: { Accept: "application/json", "Accept-Language": I18n.lang, ...headers } };
  if (token) init.headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let response;
  for (let attempt = 0; ; attempt += 1) {
    try {
      response = await fetch(API + path, init);
    } catch (error) {
      throw new ApiError(0, { title: t("err.network"), detail: t("err.network") });
    }
    const wait = retryWait(response, attempt, init);
    if (wait === null) break;
    await new Promise((resolve) => setTimeout(resolve, wait));
  }
  if (response.status === 304) return { status: 304, headers: response.headers };
  const type = response.headers.get("Content-Type") || "";
  // 204 and other answers without a body have nothing to read, whatever their type says.
  const text = response.status === 204 ? "" : await response.text();
  const data = text && type.includes("json") ? JSON.parse(text) : null;
  if (!response.ok) {
    throw new ApiError(response.status, named(data || { detail: `HTTP ${response.status}` }, path),
      response.headers);
  }
  return { status: response.status, data, headers: response.headers };
}

/** A game as people say it: by its players and its game ("di Anna, Bruno e Carla (Gatti a
 * tre)"), from what this phone keeps of it; null for a game it does not know. */
function gameWords(id) {
  const saved = Store.get(id);
  if (!saved || !saved.seats || !saved.seats.length) return null;
  let players = saved.seats.join(", ");
  try {
    players = new Intl.ListFormat(I18n.lang, { type: "conjunction" }).format(saved.seats);
  } catch (error) { /* the commas will do */ }
  return t("game.named", { players, variant: I18n.variantName(saved.variant, saved.variant || "") });
}

/** A refusal about a game says the game by its players and its game, never by its internal
 * id (the service's sentences name it by id: "game {game} is finished"). */
function named(problem, path) {
  const match = /^\/games\/([^/?#]+)/.exec(path);
  const words = match && gameWords(decodeURIComponent(match[1]));
  if (!words) return problem;
  const id = decodeURIComponent(match[1]);
  const say = (text) => (typeof text === "string" ? text.split(id).join(words) : text);
  return {
    ...problem, title: say(problem.title), detail: say(problem.detail),
    errors: Array.isArray(problem.errors)
      ? problem.errors.map((e) => ({ ...e, message: say(e.message) })) : problem.errors,
  };
}

function problemErrors(error) {
  const problem = error.problem || {};
  if (problem.errors && problem.errors.length) return problem.errors;
  return [{ field: "", message: problem.detail || error.message, code: problem.code }];
}

/** Reads of one resource that may overlap (a poll still on its way when the screen is opened
 * again and reads afresh): ``reads(read)`` runs ``read`` and gives its answer, or null when a
 * read started after it was answered first. An older state, come back late, never replaces a
 * newer one (nor its entity tag, which would bring the newer state again as news). */
function inOrder() {
  let started = 0;
  let taken = 0;
  return async (read) => {
    const mine = ++started;
    const answer = await read();
    if (mine < taken) return null;
    taken = mine;
    return answer;
  };
}

export { API, ApiError, api, inOrder, problemErrors };
