/* The service's public API as the page calls it: JSON in and out, the page's language asked
 * for, problem+json turned into an ApiError that keeps every problem. */

const API = "/api/v1";
const t = (key, params) => I18n.t(key, params);

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
  try {
    response = await fetch(API + path, init);
  } catch (error) {
    throw new ApiError(0, { title: t("err.network"), detail: t("err.network") });
  }
  if (response.status === 304) return { status: 304, headers: response.headers };
  const type = response.headers.get("Content-Type") || "";
  // 204 and other answers without a body have nothing to read, whatever their type says.
  const text = response.status === 204 ? "" : await response.text();
  const data = text && type.includes("json") ? JSON.parse(text) : null;
  if (!response.ok) {
    throw new ApiError(response.status, data || { detail: `HTTP ${response.status}` },
      response.headers);
  }
  return { status: response.status, data, headers: response.headers };
}

function problemErrors(error) {
  const problem = error.problem || {};
  if (problem.errors && problem.errors.length) return problem.errors;
  return [{ field: "", message: problem.detail || error.message, code: problem.code }];
}

export { API, ApiError, api, problemErrors };
