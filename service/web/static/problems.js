/* The service's refusals as the page shows them: the service's own words (it says them in
 * the page's language, and names a game's players where it knows the game), the rule each
 * cites as a link to its rulebook, each at the field it is about (a form marks its fields
 * with ``data-field``). */
import { h } from "./dom.js";
import { I18n, colon, t } from "./i18n.js";
import { G, ruleLink } from "./state.js";

/** A problem of the service as the page says it: its message as sent, after the page's
 * title for its code where the page knows one in its language. */
function problemText(error) {
  const known = error.code && I18n.lang !== "en" && I18n.has(`code.${error.code}`) ? t(`code.${error.code}`) : null;
  const message = String(error.message || "");
  return known ? `${known}${colon()} ${message}` : message;
}

/** A refusal as the page shows it at its field: the words, then the rule it cites as a
 * link to that section of the game's rulebook. */
function problemLine(error) {
  const variant = G.game ? G.game.variant : null;
  const link = error.rule && variant ? ruleLink(error.rule, variant) : null;
  return link ? [problemText(error), " ", link] : [problemText(error)];
}

/** The element that shows a field, trying the path and then each shorter prefix. */
function findField(root, path) {
  let p = path.replace(/^hand\./, "");
  while (p) {
    const el = root.querySelector(`[data-field="${CSS.escape(p)}"]`);
    if (el) return el;
    const cut = Math.max(p.lastIndexOf("."), p.lastIndexOf("["));
    p = cut > 0 ? p.slice(0, cut) : "";
  }
  return null;
}

/** Each problem at the field it names, marked invalid, and those no field takes in ``box``:
 * said by ``describe`` (the problem's text, unless a form says more). */
function placeProblems(root, box, errors, describe = problemText) {
  root.querySelectorAll(".field-error").forEach((el) => el.remove());
  root.querySelectorAll("[aria-invalid]").forEach((el) => el.removeAttribute("aria-invalid"));
  box.replaceChildren();
  for (const error of errors) {
    const target = findField(root, error.field || "");
    const message = describe(error);
    if (target) {
      target.append(h("p", { class: "field-error" }, message));
      const input = target.querySelector("input, textarea");
      if (input) input.setAttribute("aria-invalid", "true");
    } else {
      box.append(h("p", { class: "field-error" }, message));
    }
  }
}

/** Brings the first field the service refused into view. */
function scrollToFirstProblem(root) {
  const first = root.querySelector(".field-error");
  if (first) first.scrollIntoView({ block: "center" });
}

export { findField, placeProblems, problemLine, problemText, scrollToFirstProblem };
