/* The key of a club or an event, on the phone that holds it (the secretary's, the
 * organiser's): the key card to print (a PDF the service draws: the edit link as a QR code and
 * as text, what it opens, to keep it safe), and the edit link itself shown again, behind a tap
 * and a warning, as a QR code to pass to a second secretary or organiser. Until the card is
 * printed on this phone, the club's or event's page offers it first. */
import { API } from "./api.js";
import { h, saveFile, toast } from "./dom.js";
import { I18n, t } from "./i18n.js";
import { QR } from "./qr.js";
import { copy } from "./share.js";
import { Clubs, Events } from "./stores.js";

const STORES = { club: Clubs, event: Events };
const PATHS = { club: "clubs", event: "events" };

/** Where each club's or event's edit link stands on this phone: asked (the warning shown) or
 * shown (the QR code); kept across the page's redraws. */
const stage = new Map();

/** Whether the card still waits to be printed: a club or event made on this phone whose
 * card was not printed here. */
function cardWaits(kind, id) {
  const saved = STORES[kind].get(id) || {};
  return Boolean(saved.made) && !saved.printed;
}

/** The edit link of ``id``: as shown when it was made, else worked out from the token. */
function editLink(kind, id, token) {
  const saved = STORES[kind].get(id) || {};
  return saved.links?.edit || `${location.origin}/#/${PATHS[kind]}/${id}?token=${token}`;
}

/** The card of the key: print it, and show the edit link again (``redraw``: the screen drawn
 * anew, as the warning or the link opens). */
function keyCard(kind, id, token, redraw) {
  const key = `${kind}/${id}`;
  const waits = cardWaits(kind, id);
  const box = h("section", {
    class: `card key-card ${waits ? "warn" : ""}`, id: "key-card", "aria-labelledby": "key-card-title",
  },
  h("h2", { id: "key-card-title" }, t(`keycard.${kind}.title`)),
  h("p", { class: "hint" }, t(waits ? `keycard.${kind}.waits` : `keycard.${kind}.hint`)),
  h("div", { class: "row" },
    h("button", { type: "button", class: `button ${waits ? "primary" : ""}`, id: "keycard-pdf",
      onclick: () => printCard(kind, id, token, redraw) }, t("keycard.print")),
    stage.has(key) ? null : h("button", { type: "button", class: "button", id: "edit-link-show",
      onclick: () => { stage.set(key, "asked"); redraw(); } }, t(`keycard.${kind}.show`))));
  if (stage.get(key) === "asked") {
    box.append(h("div", { class: "card warn edit-link-warning", role: "alert" },
      h("p", {}, t(`keycard.${kind}.warning`)),
      h("div", { class: "row" },
        h("button", { type: "button", class: "button", id: "edit-link-cancel",
          onclick: () => { stage.delete(key); redraw(); } }, t("action.cancel")),
        h("button", { type: "button", class: "button danger", id: "edit-link-yes",
          onclick: () => { stage.set(key, "shown"); redraw(); } }, t("keycard.showYes")))));
  } else if (stage.get(key) === "shown") {
    const link = editLink(kind, id, token);
    box.append(h("div", { class: "link-block", "data-link": "edit" },
      h("p", { class: "hint" }, t(`keycard.${kind}.shown`)),
      h("div", { class: "qr-box" }, QR.svg(link, t(`keycard.${kind}.qr`))),
      h("label", { for: "edit-link", class: "visually-hidden" }, t(`keycard.${kind}.title`)),
      h("input", { id: "edit-link", class: "link", type: "text", readonly: true, value: link, onfocus: (e) => e.target.select() }),
      h("div", { class: "row" },
        h("button", { type: "button", class: "button small", onclick: () => copy(link, "edit-link") }, t("share.copy")),
        h("button", { type: "button", class: "button small", id: "edit-link-hide",
          onclick: () => { stage.delete(key); redraw(); } }, t("keycard.hide")))));
  }
  return box;
}

/** The key card fetched with the edit token (in the Authorization header, never in the
 * address) in the page's language, and saved as a PDF. */
async function printCard(kind, id, token, redraw) {
  try {
    const response = await fetch(`${API}/${PATHS[kind]}/${id}/keycard.pdf?lang=${I18n.lang}`, {
      headers: { Authorization: `Bearer ${token}`, "Accept-Language": I18n.lang },
    });
    if (!response.ok) {
      toast(t("keycard.failed", { status: response.status }));
      return;
    }
    saveFile(await response.blob(), `segnapunti-keycard-${id}.pdf`);
    STORES[kind].put(id, { printed: true });
    redraw();
  } catch (error) {
    toast(t("err.network"));
  }
}

export { cardWaits, keyCard };
