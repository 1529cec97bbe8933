/* The rules screen: a variant's rulebook, section by section, opened at the section a line
 * or a refusal cites. */
import { banner, h, show } from "./dom.js";
import { t } from "./i18n.js";
import { rulebook, variantName, variants } from "./state.js";

/** Each family's rulebook, read from one of its variants (the books of a family's forms
 * differ only where the forms do, and each section says so). */
const RULEBOOKS = [["gatti", "gatti-3"], ["gatti-classic", "gatti-classic-4"],
  ["ottocento", "ottocento"], ["mitigatti", "mitigatti-4"]];

async function rulesScreen(variant, ref) {
  banner(null);
  const book = await rulebook(variant);
  const list = await variants();
  const known = list.find((v) => v.id === book.variant);
  const root = h("section", { class: "screen rules" },
    h("h1", {}, t("rules.of", { name: known ? variantName(known) : book.variant })),
    h("p", {}, h("a", { href: "#/", class: "button small", onclick: (e) => {
      if (history.length > 1) { e.preventDefault(); history.back(); }
    } }, t("action.back"))));
  for (const section of book.sections) {
    root.append(h("section", { class: `card rule-section ${section.ref === ref ? "target" : ""}`, id: `rule-${section.ref}` },
      h("h2", {}, h("span", { class: "rule-ref" }, section.ref), " ", section.title),
      h("p", {}, section.text)));
  }
  show(root);
  if (ref) {
    const target = document.getElementById(`rule-${ref}`);
    if (target) {
      target.scrollIntoView({ block: "start" });
      target.setAttribute("tabindex", "-1");
      target.focus({ preventScroll: true });
    }
  }
}

export { RULEBOOKS, rulesScreen };
