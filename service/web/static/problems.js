/* The service's refusals as the page shows them: in the page's words, with the seats named as
 * the players are, the rule each cites as a link to its rulebook, each at the field it is
 * about (a form marks its fields with ``data-field``). */
import { h } from "./dom.js";
import { I18n, t } from "./i18n.js";
import { G, ruleLink, seatName } from "./state.js";

/** A problem of the service in the page's words: its title in the page's language where
 * the page knows the code, the service's message with seats named as the players are. */
function problemText(error) {
  const known = error.code && I18n.lang !== "en" && I18n.has(`code.${error.code}`) ? t(`code.${error.code}`) : null;
  let message = String(error.message || "");
  if (G.game) {
    const names = (a, b) => (b !== undefined ? `${seatName(Number(a))} & ${seatName(Number(b))}` : seatName(Number(a)));
    message = message.replace(/\bseats? (\d+)(?: and (\d+))?/g, (_, a, b) => names(a, b));
    // The Italian says "il posto 0", "del posto 0", "ai posti 0 e 2": a name takes no article.
    const preposition = { il: "", i: "", al: "a ", ai: "a ", del: "di ", dei: "di ", dal: "da ", dai: "da " };
    message = message.replace(/\b(?:([Ii]l|[Ii]|[Aa]l|[Aa]i|[Dd]el|[Dd]ei|[Dd]al|[Dd]ai) )?[Pp]ost[oi] (\d+)(?: e (\d+))?/g,
      (_, article, a, b) => {
        const word = article ? preposition[article.toLowerCase()] : "";
        const said = `${word}${names(a, b)}`;
        return article && article[0] === article[0].toUpperCase() ? said[0].toUpperCase() + said.slice(1) : said;
      });
  }
  message = message.replace(/ ?\((?:declarations|piles)\[\d+\][^)]*\)/g, "");
  if (G.game) {
    // "seat 2 (Carla)" once named is "Carla (Carla)": the name once is enough.
    for (const name of G.game.seats) message = message.split(`${name} (${name})`).join(name);
  }
  return known ? `${known}: ${message}` : message;
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
