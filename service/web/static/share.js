/* The share screen: the game's links, each with its QR code (the scorekeeper's, to change it;
 * the read-only one; each player's own, to vouch for hands), to copy or send. */
import { api } from "./api.js";
import { h, show, toast } from "./dom.js";
import { t } from "./i18n.js";
import { QR } from "./qr.js";
import { G, openGame, schedulePoll, seatName } from "./state.js";
import { Store } from "./stores.js";

async function shareScreen(id) {
  await openGame(id);
  G.onChange = null;
  schedulePoll();
  const saved = Store.get(id) || {};
  const base = `${location.origin}/#/games/${id}?token=`;
  const links = {
    edit: saved.links?.edit || (G.kind === "edit" ? base + G.token : null),
    read: saved.links?.read || (saved.tokens?.read ? base + saved.tokens.read : (G.kind === "read" ? base + G.token : null)),
  };
  const box = h("section", { class: "screen share" },
    h("h1", {}, t("share.title")),
    h("p", { class: "lead" }, t("share.lead")));
  for (const kind of ["edit", "read"]) {
    if (!links[kind]) continue;
    const inputId = `link-${kind}`;
    box.append(h("article", { class: `card share-card ${kind}`, "data-link": kind },
      h("h2", {}, t(`share.${kind}`)),
      h("p", { class: "hint" }, t(`share.${kind}Hint`)),
      h("div", { class: "qr-box" }, QR.svg(links[kind], t(`share.qr.${kind}`))),
      h("label", { for: inputId, class: "visually-hidden" }, t(`share.${kind}`)),
      h("input", { id: inputId, class: "link", type: "text", readonly: true, value: links[kind], onfocus: (e) => e.target.select() }),
      h("div", { class: "row" },
        h("button", { type: "button", class: "button", onclick: () => copy(links[kind], inputId) }, t("share.copy")),
        navigator.share ? h("button", {
          type: "button", class: "button",
          onclick: () => navigator.share({ title: "Segnapunti", url: links[kind] }).catch(() => {}),
        }, t("share.send")) : null)));
  }
  if (G.kind === "edit") box.append(await playerLinks(id));
  if (!links.read) box.append(h("p", { class: "hint" }, t("share.readElsewhere")));
  box.append(h("a", { class: "button primary big", href: `#/games/${id}`, id: "to-sheet" }, t("share.toSheet")));
  show(box);
}

/** Each player's own link (for the scorekeeper's phone): it opens the game read-only, as
 * that player. Worked out by the service from the edit token, so they can be shown again
 * at any time; with no network the two links above are enough. */
async function playerLinks(id) {
  let links;
  try {
    links = (await api("GET", `/games/${id}/players`, { token: G.token })).data.links;
  } catch (error) {
    return null;
  }
  const box = h("article", { class: "card share-card players", "data-link": "players" },
    h("h2", {}, t("share.players")), h("p", { class: "hint" }, t("share.playersHint")));
  links.forEach((link, seat) => {
    if (!link) return;
    const name = seatName(seat);
    const inputId = `link-player-${seat}`;
    box.append(h("details", { class: "player-link" },
      h("summary", {}, name),
      h("div", { class: "qr-box" }, QR.svg(link, t("share.qr.player", { name }))),
      h("label", { for: inputId, class: "visually-hidden" }, t("share.playerLink", { name })),
      h("input", { id: inputId, class: "link", type: "text", readonly: true, value: link, onfocus: (e) => e.target.select() }),
      h("div", { class: "row" },
        h("button", { type: "button", class: "button small", onclick: () => copy(link, inputId) }, t("share.copy")))));
  });
  return box;
}

async function copy(text, inputId) {
  try {
    await navigator.clipboard.writeText(text);
    toast(t("share.copied"));
  } catch (error) {
    const input = document.getElementById(inputId);
    input.focus();
    input.select();
    toast(t("share.selectCopy"));
  }
}

export { copy, shareScreen };
