/* Segnapunti's phone page: start a game, share it, enter hands the way a table counts them,
 * and keep the sheet on screen. Plain JavaScript over the public API (/api/v1); game tokens
 * live in the URL fragment, in memory and in localStorage, and travel only as
 * "Authorization: Bearer". */
import { API, ApiError, api, problemErrors } from "./api.js";
import {
  CURRENCIES, append, banner, cardChip, cardName, chipRadio, h, money, num, randomKey, show,
  signed, stepper, switchButton, toast,
} from "./dom.js";
import { Explain } from "./explain.js";
import { Copies, Drafts, Outbox, Store } from "./stores.js";
import {
  disputesCard, handMark, requiredNotice, verdictButtons, verdictCard, verdictLines,
} from "./verdicts.js";

(() => {
  const POLL_MS = Number(window.SEGNAPUNTI_POLL_MS) || 4000;
  const t = (key, params) => I18n.t(key, params);

  const variantCache = { list: null, detail: {} };

  async function variants() {
    if (!variantCache.list) variantCache.list = (await api("GET", "/variants")).data;
    return variantCache.list;
  }

  async function variantDetail(id) {
    if (!variantCache.detail[id]) {
      variantCache.detail[id] = (await api("GET", `/variants/${id}`)).data;
    }
    return variantCache.detail[id];
  }

  // Each variant's rulebook, by language: what a line's or a refusal's rule opens.
  const rulesCache = {};

  async function rulebook(variant) {
    const key = `${I18n.lang}/${variant}`;
    if (!rulesCache[key]) rulesCache[key] = (await api("GET", `/variants/${variant}/rules`)).data;
    return rulesCache[key];
  }

  /** A rule a line or a refusal cites, as a small link to its section of the rulebook: its
   * title where the book is at hand, else the word "rule". */
  function ruleLink(ref, variant) {
    if (!ref || !variant) return null;
    const book = rulesCache[`${I18n.lang}/${variant}`];
    const section = book && book.sections.find((s) => s.ref === ref);
    return h("a", {
      class: "rule", href: `#/rules/${variant}/${encodeURIComponent(ref)}`,
      title: section ? `${ref} · ${section.title}` : ref,
    }, section ? section.title : t("rules.rule"));
  }

  function variantName(v) {
    return I18n.variantName(v.id, v.name);
  }

  /** The next hand's number and dealer, counting the hands still waiting to be sent: a
   * thrown-in deal leaves the deal where it was. */
  function nextHand(g) {
    let number = g.hands.length + 1;
    let dealer = g.next_dealer;
    for (const entry of Outbox.of(g.id)) {
      if (entry.kind !== "add") continue;
      number += 1;
      if (!entry.record.thrown_in && dealer !== null && dealer !== undefined) dealer = (dealer + 1) % g.seats.length;
    }
    return { number, dealer };
  }

  const sending = { busy: false, timer: null };

  /** Send the game's waiting hands, in order, until one cannot go. */
  async function flushOutbox(gameId) {
    if (sending.busy || !gameId) return;
    const waiting = Outbox.of(gameId);
    if (!waiting.length || waiting[0].problem) return;
    const saved = Store.get(gameId);
    if (!saved || !saved.token) return;
    sending.busy = true;
    clearTimeout(sending.timer);
    sending.timer = null;
    let sent = 0;
    let refused = false;
    try {
      for (const entry of waiting) {
        if (entry.problem) break;
        try {
          if (entry.kind === "add") {
            await api("POST", `/games/${gameId}/hands`, {
              body: entry.record, token: saved.token, headers: { "Idempotency-Key": entry.key },
            });
          } else if (entry.kind === "put") {
            await api("PUT", `/games/${gameId}/hands/${entry.number}`, {
              body: entry.record, token: saved.token, headers: { "If-Match": entry.ifMatch },
            });
          } else {
            await api("DELETE", `/games/${gameId}/hands/${entry.number}`, {
              token: saved.token, headers: { "If-Match": entry.ifMatch },
            });
          }
          Outbox.remove(entry.id);
          sent += 1;
        } catch (error) {
          if (error.status === 0 || error.status >= 500 || error.status === 429) {
            // Not reached (or not now): again later, waiting longer each time, a minute at most.
            const tries = (entry.tries || 0) + 1;
            Outbox.update(entry.id, { tries });
            sending.timer = setTimeout(() => flushOutbox(gameId), Math.min(60, 2 ** (tries - 1)) * 1000);
          } else {
            Outbox.update(entry.id, { problem: { status: error.status, errors: problemErrors(error) } });
            refused = true;
          }
          break;
        }
      }
    } finally {
      sending.busy = false;
    }
    if (G.id === gameId) {
      if (sent || refused) {  // a refusal says the game moved on: read it as it is now
        G.etag = null;
        await refreshGame().catch(() => {});
      }
      if (sent) toast(t("outbox.sent", { n: sent }));
      if (location.hash === `#/games/${gameId}`) drawSheet(false);
    }
  }

  window.addEventListener("online", () => { if (G.id) flushOutbox(G.id); });

  function remember(game, patch = {}) {
    return Store.put(game.id, {
      variant: game.variant, seats: game.seats, status: game.status,
      hands: game.hands_played ?? game.hands.length, ...patch,
    });
  }

  // -- the current game ------------------------------------------------------------------

  const G = {
    id: null, token: null, kind: null, game: null, etag: null, detail: null, timer: null,
    onChange: null, expanded: new Set(), lastUpdate: null,
  };

  function stopPolling() {
    clearTimeout(G.timer);
    G.timer = null;
  }

  function schedulePoll() {
    stopPolling();
    G.timer = setTimeout(poll, POLL_MS);
  }

  async function poll() {
    if (!G.id) return;
    if (document.visibilityState === "visible") {
      try {
        const changed = await refreshGame();
        if (changed && G.onChange) G.onChange();
        setLive(true);
        if (!sending.timer || !Outbox.of(G.id).length) flushOutbox(G.id);
      } catch (error) {
        setLive(false);
      }
    }
    schedulePoll();
  }

  function setLive(ok) {
    const el = document.getElementById("live");
    if (!el) return;
    el.classList.toggle("offline", !ok);
    const time = G.lastUpdate ? G.lastUpdate.toLocaleTimeString(I18n.lang) : "";
    el.querySelector(".live-text").textContent = ok ? t("sheet.live", { time })
      : time ? t("sheet.offlineSince", { time }) : t("sheet.offline");
  }

  async function refreshGame() {
    const headers = G.etag ? { "If-None-Match": G.etag } : {};
    const response = await api("GET", `/games/${G.id}`, { token: G.token, headers });
    G.lastUpdate = new Date();
    // The service says what this phone's token may do: no change has to be tried to learn it.
    const access = response.headers.get("Game-Access");
    if (access) G.kind = access;
    // A player's link speaks for one seat: the page shows that player their own buttons.
    const seat = response.headers.get("Game-Seat");
    G.seat = seat === null ? null : Number(seat);
    if (response.status === 304) return false;
    G.game = response.data;
    G.etag = response.headers.get("ETag");
    if (G.copyAt) banner(null);  // the network is back: the copy's notice goes
    G.copyAt = null;
    remember(G.game);
    Copies.keep(G.game, G.detail);
    return true;
  }

  async function openGame(id) {
    if (G.id === id && G.game) return;
    stopPolling();
    const saved = Store.get(id);
    if (!saved || !saved.token) throw new ApiError(401, { detail: t("err.noToken") });
    Object.assign(G, {
      id, token: saved.token, kind: saved.kind || null, seat: saved.seat ?? null, game: null, etag: null, detail: null,
      expanded: new Set(), copyAt: null,
    });
    try {
      await refreshGame();
      G.detail = await variantDetail(G.game.variant);
      Copies.keep(G.game, G.detail);
      flushOutbox(id);
    } catch (error) {
      // No network: the game as this phone last saw it, said to be a copy, and when from.
      const copy = error.status === 0 ? Copies.get(id) : null;
      if (!copy) throw error;
      Object.assign(G, { game: copy.game, detail: copy.detail, copyAt: copy.at, etag: null });
      banner(t("offline.copy", { time: new Date(copy.at).toLocaleString(I18n.lang, {
        day: "numeric", month: "short", hour: "2-digit", minute: "2-digit" }) }), "warn");
      return;
    }
    Store.put(id, { kind: G.kind, seat: G.seat });
  }

  const canEdit = () => G.kind === "edit";

  function seatName(seat) {
    return G.game.seats[seat] ?? `#${seat + 1}`;
  }

  function sideNames(seats) {
    return seats.map((s) => seatName(s)).join(" & ");
  }

  // -- routing ---------------------------------------------------------------------------

  async function route() {
    const hash = location.hash || "#/";
    let m = /^#\/games\/([a-z0-9]{1,32})\?(.*)$/.exec(hash);
    if (m) {
      const token = new URLSearchParams(m[2]).get("token");
      const saved = Store.get(m[1]) || {};
      if (token) {
        let kind = null;
        if (saved.tokens) kind = token === saved.tokens.edit ? "edit" : token === saved.tokens.read ? "read" : null;
        else if (saved.token === token) kind = saved.kind || null;
        Store.put(m[1], { token, kind });
        if (G.id === m[1]) G.id = null;
      }
      // The token stays out of the address bar (and out of anything copied from it).
      history.replaceState(null, "", `#/games/${m[1]}`);
      return route();
    }
    try {
      if ((m = /^#\/games\/([a-z0-9]{1,32})$/.exec(hash))) return await sheetScreen(m[1]);
      if ((m = /^#\/games\/([a-z0-9]{1,32})\/share$/.exec(hash))) return await shareScreen(m[1]);
      if ((m = /^#\/games\/([a-z0-9]{1,32})\/hand$/.exec(hash))) return await handScreen(m[1], null);
      if ((m = /^#\/games\/([a-z0-9]{1,32})\/hands\/(\d+)$/.exec(hash))) {
        return await handScreen(m[1], Number(m[2]));
      }
      stopPolling();
      G.id = null;
      G.game = null;
      G.onChange = null;
      if (hash === "#/new") return await newGameScreen();
      if ((m = /^#\/rules\/([a-z0-9-]{1,40})(?:\/([^/]+))?$/.exec(hash))) {
        return await rulesScreen(m[1], m[2] ? decodeURIComponent(m[2]) : null);
      }
      return homeScreen();
    } catch (error) {
      return errorScreen(error);
    }
  }

  function errorScreen(error) {
    stopPolling();
    const status = error.status;
    const text = status === 401 || status === 404 ? t("err.gameNotOpened")
      : status === 0 ? t("err.network") : error.message;
    show(h("section", { class: "screen" },
      h("h1", {}, t("err.title")),
      h("p", { class: "card" }, text),
      h("a", { class: "button primary", href: "#/" }, t("action.home"))));
  }

  // -- home ------------------------------------------------------------------------------

  function homeScreen() {
    banner(null);
    const games = Object.values(Store.all()).sort((a, b) => (b.seen || 0) - (a.seen || 0));
    const list = h("ul", { class: "game-list" });
    for (const saved of games) {
      const players = (saved.seats || []).join(", ");
      const name = I18n.variantName(saved.variant, saved.variant);
      list.append(h("li", { class: "game-item" },
        h("a", { href: `#/games/${saved.id}`, class: "game-link" },
          h("strong", {}, name),
          h("span", {}, players),
          h("span", { class: "muted" },
            saved.status === "finished" ? t("home.finished") : t("home.hands", { n: saved.hands || 0 }),
            saved.kind === "read" ? ` · ${t("sheet.readOnly")}` : "")),
        h("button", {
          type: "button", class: "icon-button", "aria-label": t("home.forget", { name: players }),
          onclick: () => {
            Store.remove(saved.id);
            homeScreen();
          },
        }, "×")));
    }
    show(h("section", { class: "screen home" },
      h("h1", {}, t("home.title")),
      h("p", { class: "lead" }, t("home.lead")),
      h("a", { class: "button primary big", href: "#/new", id: "new-game" }, t("home.new")),
      games.length ? h("h2", {}, t("home.saved")) : null,
      games.length ? list : h("p", { class: "muted" }, t("home.none")),
      h("h2", {}, t("rules.title")),
      h("ul", { class: "rules-links" }, RULEBOOKS.map(([family, variant]) => h("li", {},
        h("a", { href: `#/rules/${variant}`, id: `rules-${family}` }, t(`family.${family}`))))),
      h("p", { class: "footnote" }, h("a", { href: "/api/v1/docs" }, t("home.api")))));
  }

  // -- the rules ---------------------------------------------------------------------------

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

  // -- a new game ------------------------------------------------------------------------

  const FAMILIES = ["gatti", "gatti-classic", "ottocento", "mitigatti"];

  async function newGameScreen() {
    banner(null);
    const list = await variants();
    const state = { variant: "gatti-3", options: {}, names: [], dealer: 0, errors: [] };
    const root = h("section", { class: "screen" });

    function seatLabels(v) {
      const names = state.names.slice(0, v.players).map((n, i) => n.trim() || t("new.player", { n: i + 1 }));
      if (v.partnership === "dummies") {
        return [...names, ...names.map((n) => t("new.dummy", { name: n }))];
      }
      return names;
    }

    function draw() {
      const active = document.activeElement && document.activeElement.id;
      const v = list.find((x) => x.id === state.variant);
      root.replaceChildren();
      append(root, [h("h1", {}, t("new.title"))]);

      // 1. The game: its family, then its table form
      const families = FAMILIES.filter((f) => list.some((x) => x.family === f));
      const members = list.filter((x) => x.family === v.family);
      const picker = h("div", { class: "variant-picker" },
        h("div", { class: "chips", role: "radiogroup", "aria-label": t("new.game"), id: "families" },
          families.map((family) => chipRadio("family", family, t(`family.${family}`), family === v.family, () => {
            state.variant = list.find((x) => x.family === family).id;
            state.options = {};
            state.dealer = 0;
            draw();
          }))),
        members.length > 1 ? h("div", { class: "chips forms", role: "radiogroup", "aria-label": t("new.form"), id: "forms" },
          members.map((x) => chipRadio("variant", x.id, t(`form.${x.partnership}`, { n: x.players }), x.id === v.id, () => {
            state.variant = x.id;
            state.options = {};
            state.dealer = 0;
            draw();
          }))) : null,
        h("div", { class: "variant-summary", id: "variant-summary", "data-variant": v.id },
          h("h3", {}, variantName(v)),
          h("p", {}, I18n.variantSummary(v.id, v.summary)),
          optionsEditor(v)));
      root.append(h("section", { class: "step" }, h("h2", {}, t("new.step1")), picker));

      // 2. The players
      const players = h("div", { class: "players" });
      for (let i = 0; i < v.players; i++) {
        const id = `player-${i}`;
        players.append(h("div", { class: "field", "data-field": `players[${i}]` },
          h("label", { for: id }, t("new.player", { n: i + 1 })),
          h("input", {
            id, type: "text", value: state.names[i] || "", maxlength: 60, autocomplete: "off",
            autocapitalize: "words", enterkeyhint: i + 1 < v.players ? "next" : "done",
            oninput: (e) => {
              state.names[i] = e.target.value;
              updateDealerLabels();
            },
          })));
      }
      const pairing = v.partnership === "fixed_pairs" ? h("p", { class: "hint", id: "pairing" }) : null;
      root.append(h("section", { class: "step", "data-field": "players" },
        h("h2", {}, t("new.step2")),
        h("p", { class: "hint" }, t(v.partnership === "dummies" ? "new.orderDummies" : "new.order")),
        players, pairing));

      // 3. The first dealer
      const dealers = h("div", { class: "chips", role: "radiogroup", "aria-label": t("new.step3"), id: "dealers" });
      root.append(h("section", { class: "step", "data-field": "first_dealer" },
        h("h2", {}, t("new.step3")), dealers));
      root.append(h("div", { class: "errors", id: "new-errors", role: "alert" }));
      root.append(h("div", { class: "actions sticky" },
        h("button", { type: "button", class: "button primary big", id: "start", onclick: start }, t("new.start"))));

      function updateDealerLabels() {
        const labels = seatLabels(v);
        dealers.replaceChildren(...labels.map((label, seat) => chipRadio("dealer", seat, label,
          state.dealer === seat, () => { state.dealer = seat; updateDealerLabels(); })));
        if (pairing) {
          pairing.textContent = t("new.pairs", {
            a: `${labels[0]} & ${labels[2]}`, b: `${labels[1]} & ${labels[3]}`,
          });
        }
      }
      updateDealerLabels();
      showErrors();
      if (active && document.getElementById(active)) document.getElementById(active).focus({ preventScroll: true });
    }

    function optionsEditor(v) {
      const box = h("div", { class: "options" });
      for (const [name, spec] of Object.entries(v.options || {})) {
        const current = state.options[name] ?? spec.default;
        if (name === "melds") {
          box.append(h("div", { class: "field", "data-field": `options.${name}` },
            h("span", { class: "label" }, t("opt.melds")),
            h("div", { class: "chips", role: "radiogroup", "aria-label": t("opt.melds") },
              spec.choices.map((choice) => chipRadio("opt-melds", choice, t(`opt.melds.${choice}`),
                current === choice, () => { state.options.melds = choice; draw(); })))));
        } else if (name === "bagatto_ultimo") {
          box.append(h("div", { class: "field", "data-field": `options.${name}` },
            switchButton("opt-bagatto", t("opt.bagatto"), current === true, (on) => {
              state.options.bagatto_ultimo = on;
              draw();
            })));
        } else if (name === "marca_value") {
          box.append(h("div", { class: "field", "data-field": `options.${name}` },
            h("label", { for: "opt-marca" }, t("opt.marca")),
            h("input", {
              id: "opt-marca", type: "text", inputmode: "decimal", placeholder: "0.50",
              value: state.options.marca_value || "",
              oninput: (e) => { state.options.marca_value = e.target.value.trim().replace(",", "."); },
            }),
            h("p", { class: "hint" }, t("opt.marcaHint"))));
        } else if (name === "currency") {
          box.append(h("div", { class: "field", "data-field": `options.${name}` },
            h("label", { for: "opt-currency" }, t("opt.currency")),
            h("select", {
              id: "opt-currency",
              onchange: (e) => { state.options.currency = e.target.value; },
            }, CURRENCIES.map((code) => h("option", { value: code, selected: code === current ? true : null },
              `${code} — ${money("1", code)}`)))));
        }
      }
      return box;
    }

    function showErrors() {
      const box = root.querySelector("#new-errors");
      root.querySelectorAll(".field-error").forEach((el) => el.remove());
      root.querySelectorAll("[aria-invalid]").forEach((el) => el.removeAttribute("aria-invalid"));
      box.replaceChildren();
      for (const error of state.errors) {
        const target = findField(root, error.field || "");
        const message = problemText(error);
        if (target) {
          target.append(h("p", { class: "field-error" }, message));
          const input = target.querySelector("input");
          if (input) input.setAttribute("aria-invalid", "true");
        } else {
          box.append(h("p", { class: "field-error" }, message));
        }
      }
    }

    async function start() {
      const v = list.find((x) => x.id === state.variant);
      const options = {};
      for (const [name, value] of Object.entries(state.options)) {
        if (name === "marca_value" && !value) continue;
        options[name] = value;
      }
      // The table plays where this phone is: the sheet prints its times in the phone's zone.
      const zone = (Intl.DateTimeFormat().resolvedOptions() || {}).timeZone;
      if (zone && v.options && v.options.time_zone) options.time_zone = zone;
      const body = {
        variant: v.id, players: Array.from({ length: v.players }, (_, i) => (state.names[i] || "").trim()),
        first_dealer: state.dealer, options,
      };
      const button = root.querySelector("#start");
      button.disabled = true;
      const create = () => api("POST", "/games", { body, headers: { "Idempotency-Key": randomKey() } });
      try {
        let data;
        try {
          ({ data } = await create());
        } catch (error) {
          // A zone the service's database does not know: the game's own default instead.
          if (!problemErrors(error).some((p) => p.field === "options.time_zone")) throw error;
          delete options.time_zone;
          ({ data } = await create());
        }
        Store.put(data.id, {
          token: data.tokens.edit, kind: "edit", tokens: data.tokens, links: data.links,
          variant: data.variant, seats: data.seats, status: data.status, hands: 0,
        });
        location.hash = `#/games/${data.id}/share`;
      } catch (error) {
        button.disabled = false;
        state.errors = problemErrors(error);
        showErrors();
        const first = root.querySelector(".field-error");
        if (first) first.scrollIntoView({ block: "center" });
      }
    }

    draw();
    show(root);
  }

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

  // -- sharing ---------------------------------------------------------------------------

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

  // -- the sheet -------------------------------------------------------------------------

  async function sheetScreen(id) {
    await openGame(id);
    G.onChange = () => drawSheet(false);
    drawSheet(true);
    schedulePoll();
    // The rulebook the lines cite, in the page's language: their links then say each rule's
    // title, and it opens with no network later.
    if (!rulesCache[`${I18n.lang}/${G.game.variant}`]) {
      rulebook(G.game.variant).then(() => {
        if (location.hash === `#/games/${id}`) drawSheet(false);  // still on this sheet
      }).catch(() => {});
    }
  }

  function columnSide(result, column) {
    return (result.sides || []).find((s) => s.seats.includes(column.seats[0])) || null;
  }

  function lineMark(line) {
    switch (line.item) {
      case "meld":
      case "captured_meld":
        return line.mark || "";
      case "bagatto_ultimo":
        return "B";
      case "declaration":
      case "captured":
        return ottocentoMark(line);
      case "doubling":
        return "×2";
      default:
        return line.entered === "points" ? "#" : "";
    }
  }

  function ottocentoMark(line) {
    const type = { trumps: "T", moors: "M", aces: "1", tarocchi: "T" }[line.type] ||
      Cards.SYMBOL[line.type] || line.type;
    return line.kind === "cricca" ? `${line.count}${type}` : `${type}${line.length}`;
  }

  function drawSheet(first) {
    const g = G.game;
    const V = G.detail;
    // A redraw (a poll, the rulebook arriving) keeps the keyboard's place.
    const active = document.activeElement && document.activeElement.id;
    const mitigatti = V.family === "mitigatti";
    const finished = g.status === "finished";
    const scroll = window.scrollY;
    const root = h("section", { class: "screen sheet-screen" });
    const next = nextHand(g);
    const waiting = Outbox.of(g.id);
    const dealerName = next.dealer !== null && next.dealer !== undefined ? seatName(next.dealer) : null;
    append(root, [
      h("div", { class: "sheet-head" },
        h("h1", {}, I18n.variantName(g.variant, V.name)),
        h("p", { class: "status" },
          finished ? t("sheet.finished")
            : V.hands_per_game ? t("sheet.handOf", { n: next.number, of: V.hands_per_game })
              : t("sheet.hand", { n: next.number }),
          dealerName && !finished ? ` · ${t("sheet.dealer", { name: dealerName })}` : ""),
        h("p", { class: "badges" },
          h("span", { class: "live", id: "live" }, h("span", { class: "dot", "aria-hidden": "true" }),
            h("span", { class: "live-text" }, t("sheet.live", { time: G.lastUpdate ? G.lastUpdate.toLocaleTimeString(I18n.lang) : "" }))),
          waiting.length ? h("span", { class: "badge waiting", id: "waiting" }, t("outbox.waiting", { n: waiting.length })) : null,
          canEdit() ? null : G.kind === "player" && G.seat !== null
            ? h("span", { class: "badge read", id: "player-badge" }, t("verdict.badge", { name: seatName(G.seat) }))
            : h("span", { class: "badge read" }, t("sheet.readOnly")))),
    ]);
    if (G.kind === "player" && G.seat !== null && g.confirmation && g.confirmation.mode !== "none") {
      root.append(verdictCard({
        game: g, seat: G.seat, token: G.token, seatName,
        details: (hand) => handDetails(g, hand, V, { verdicts: false }),
        done: async () => { await refreshGame().catch(() => {}); drawSheet(false); },
      }));
    } else {
      append(root, [disputesCard(g, seatName, canEdit()), requiredNotice(g)]);
    }

    if (finished && g.winners.length) {
      const names = g.winners.map((key) => g.columns.find((c) => c.key === key)?.label || key);
      root.append(h("p", { class: "winner", role: "status" }, h("span", { class: "winner-star", "aria-hidden": "true" }, "★"), " ",
        t(names.length > 1 ? "sheet.winners" : "sheet.winner", { names: names.join(", ") }),
        g.ended_by ? h("small", {}, ` (${g.ended_by})`) : null));
    }
    if (canEdit() && !finished) {
      root.append(h("a", { class: "button primary big", href: `#/games/${g.id}/hand`, id: "new-hand" },
        t("sheet.newHand", { n: next.number })));
    }
    if (g.target) root.append(progress(g));
    if (mitigatti) root.append(ledger(g));
    root.append(sheetTable(g, V, mitigatti));
    if (waiting.length) root.append(outboxCard(g, waiting));

    root.append(h("div", { class: "row tools" },
      h("button", { type: "button", class: "button", id: "pdf", onclick: downloadPdf }, t("sheet.pdf")),
      h("a", { class: "button", href: `#/games/${g.id}/share` }, t("sheet.share")),
      h("a", { class: "button", href: "#/" }, t("action.home"))));
    show(root, { focus: first });
    if (!first) {
      window.scrollTo(0, scroll);
      if (active) document.getElementById(active)?.focus({ preventScroll: true });
    }
  }

  /** The hands this phone keeps until the service has them: each with its local count, and
   * what the service said where it refused one, with what to do about it. */
  function outboxCard(g, waiting) {
    const list = h("ol", { class: "outbox-list" });
    for (const entry of waiting) {
      const what = entry.kind === "add" ? t("outbox.hand", { n: entry.number, name: seatName(entry.dealer) })
        : entry.kind === "put" ? t("outbox.correction", { n: entry.number }) : t("outbox.deletion", { n: entry.number });
      const points = g.columns.filter((c) => entry.preview && entry.preview[c.key] !== undefined)
        .map((c) => `${c.label} ${num(entry.preview[c.key])}`).join(" · ");
      const item = h("li", { class: `outbox-item ${entry.problem ? "refused" : ""}`, id: `outbox-${entry.seq}` },
        h("p", { class: "outbox-what" }, h("strong", {}, what), points ? ` — ${points}` : ""),
        h("p", { class: "muted" }, entry.problem ? t("outbox.refused") : t("outbox.pending", {
          time: new Date(entry.at).toLocaleTimeString(I18n.lang, { hour: "2-digit", minute: "2-digit" }) })));
      if (entry.problem) {
        for (const error of entry.problem.errors.slice(0, 3)) {
          item.append(h("p", { class: "field-error" }, problemLine(error)));
        }
        item.append(h("div", { class: "row" },
          entry.kind !== "delete" ? h("button", {
            type: "button", class: "button small primary", id: `outbox-reenter-${entry.seq}`,
            onclick: () => reenter(g, entry),
          }, t(entry.kind === "add" ? "outbox.reenter" : "outbox.recorrect")) : null,
          h("button", {
            type: "button", class: "button small danger", id: `outbox-drop-${entry.seq}`,
            onclick: () => {
              if (!window.confirm(t("outbox.dropConfirm", { what }))) return;
              Outbox.remove(entry.id);
              drawSheet(false);
              flushOutbox(g.id);
            },
          }, t("outbox.drop"))));
      }
      list.append(item);
    }
    return h("section", { class: "card outbox", id: "outbox", "aria-live": "polite" },
      h("h2", {}, t("outbox.title", { n: waiting.length })),
      h("p", { class: "hint" }, t("outbox.hint", { n: waiting.length })), list);
  }

  /** A refused hand, opened again with everything it said, to check and save: a new hand as
   * the next hand, a correction over the hand as it is now. It leaves the outbox for the form,
   * which keeps it as a draft. */
  async function reenter(g, entry) {
    Outbox.remove(entry.id);
    G.reenter = entry;
    G.etag = null;
    await refreshGame().catch(() => {});
    location.hash = entry.kind === "add" ? `#/games/${g.id}/hand` : `#/games/${g.id}/hands/${entry.number}`;
  }

  function progress(g) {
    const box = h("div", { class: "card progress", "aria-label": t("sheet.progress", { target: g.target }) },
      h("h2", {}, t("sheet.progress", { target: g.target })));
    for (const column of g.columns) {
      const total = g.totals[column.key] || 0;
      const share = Math.max(0, Math.min(100, (total / g.target) * 100));
      const bar = h("span", { class: "bar-fill" });
      bar.style.width = `${share}%`;
      box.append(h("div", { class: "bar-row" },
        h("span", { class: "bar-label" }, column.label),
        h("span", {
          class: "bar", role: "progressbar", "aria-valuemin": 0, "aria-valuemax": g.target,
          "aria-valuenow": total, "aria-label": column.label,
        }, bar),
        h("span", { class: "bar-value" }, `${num(total)}`)));
      box.append(h("p", { class: "bar-to-go" }, total >= g.target ? t("sheet.reached", { name: column.label })
        : t("sheet.toGo", { name: column.label, n: num(g.target - total) })));
    }
    return box;
  }

  function ledger(g) {
    const box = h("div", { class: "card ledger" }, h("h2", {}, t("sheet.balances")));
    const list = h("div", { class: "balances" });
    g.seats.forEach((name, seat) => {
      const value = g.balances ? g.balances[String(seat)] : 10;
      const cash = g.money ? g.money[String(seat)] : null;
      list.append(h("div", { class: `balance ${value < 10 ? "down" : value > 10 ? "up" : ""}`, "data-seat": seat },
        h("span", { class: "balance-name" }, name),
        h("span", { class: "balance-value" }, num(value)),
        cash !== null && cash !== undefined ? h("span", { class: "balance-money" }, money(cash, g.options.currency)) : null));
    });
    box.append(list);
    if (g.pot) box.append(h("p", { class: "hint" }, t("sheet.pot", { n: g.pot })));
    const transfers = g.transfers || [];
    box.append(h("h3", {}, t("sheet.transfers")));
    if (!transfers.length) {
      box.append(h("p", { class: "muted" }, t("sheet.noTransfers")));
    } else {
      box.append(h("ul", { class: "transfers" }, transfers.map((x) => h("li", {},
        h("strong", {}, seatName(Number(x.from))), " → ", h("strong", {}, seatName(Number(x.to))),
        `: ${t("marca", { n: x.marca })}`, x.money ? ` (${money(x.money, g.options.currency)})` : ""))));
    }
    return box;
  }

  function sheetTable(g, V, mitigatti) {
    const table = h("table", { class: `sheet cols-${g.columns.length}` });
    table.append(h("caption", { class: "visually-hidden" }, t("sheet.caption")));
    table.append(h("thead", {}, h("tr", {},
      h("th", { scope: "col", class: "hand-col" }, h("span", { class: "visually-hidden" }, t("sheet.handCol")), "#"),
      g.columns.map((c) => h("th", { scope: "col" }, c.label)))));
    const body = h("tbody");
    const running = {};
    const balance = {};
    const marks = new Map(); // each mark on this sheet, and what it stands for
    g.columns.forEach((c) => { running[c.key] = 0; balance[c.key] = 10; });
    for (const hand of g.hands) {
      const result = hand.result;
      const thrown = (result.events || []).includes("thrown_in");
      const open = G.expanded.has(hand.number);
      const row = h("tr", { class: `hand ${open ? "open" : ""}`, "data-hand": hand.number });
      row.append(h("th", { scope: "row", class: "hand-col" },
        h("button", {
          type: "button", class: "hand-button", "aria-expanded": open ? "true" : "false",
          "aria-controls": `details-${hand.number}`,
          onclick: () => {
            if (G.expanded.has(hand.number)) G.expanded.delete(hand.number);
            else G.expanded.add(hand.number);
            drawSheet(false);
          },
        }, h("span", { class: "hand-number" }, hand.number),
        // Its name is what it shows, and what the initial stands for: "1, details of hand 1,
        // dealt by Anna" (WCAG 2.5.3, the visible label inside the name).
        h("span", { class: "visually-hidden" }, t("sheet.handDetailsOf", { n: hand.number, name: seatName(hand.dealer) })),
        h("span", { class: "hand-dealer", "aria-hidden": "true", title: t("sheet.dealtBy", { name: seatName(hand.dealer) }) },
          initials(seatName(hand.dealer)))),
        verdictMark(g, hand, marks)));
      for (const column of g.columns) {
        const cell = h("td", { "data-col": column.key });
        const points = result.columns[column.key] ?? 0;
        running[column.key] += points;
        if (mitigatti) {
          const marca = result.marca ? result.marca[column.key] ?? 0 : 0;
          balance[column.key] += marca;
          if (thrown) {
            cell.append(h("div", { class: "mark-line muted" }, "—"));
          } else {
            cell.append(h("div", { class: `marca ${marca > 0 ? "up" : marca < 0 ? "down" : ""}` }, signed(marca)));
            const byPoints = (result.sides || []).some((x) => x.lines.some((line) => line.entered === "points"));
            if (byPoints) marks.set("#", t("legend.byPoints"));
            cell.append(h("div", { class: "mark-line muted" }, t("sheet.cardPoints", { n: points }),
              byPoints ? h("span", { class: "mark" }, " #") : null));
          }
          cell.append(h("div", { class: "running" }, h("span", { class: "running-label" }, t("sheet.balanceShort")), " ", num(balance[column.key])));
        } else {
          const side = columnSide(result, column);
          for (const line of side ? side.lines : []) {
            if (line.points === 0 && line.item !== "deck_points" && line.item !== "card_points") continue;
            const mark = lineMark(line);
            const captured = line.item === "captured_meld" || line.item === "captured";
            if (mark) marks.set(mark, Explain.markMeaning(line));
            cell.append(h("div", { class: `mark-line ${mark ? "" : "deck"} ${captured ? "captured" : ""}` },
              num(line.points), mark ? h("span", { class: "mark" }, ` ${mark}`) : null));
          }
          cell.append(h("div", { class: "running" }, h("span", { class: "running-label" }, t("sheet.totalShort")), " ", num(running[column.key])));
        }
        row.append(cell);
      }
      body.append(row);
      if (open) {
        body.append(h("tr", { class: "details-row" },
          h("td", { colspan: g.columns.length + 1, id: `details-${hand.number}` }, handDetails(g, hand, V))));
      }
    }
    if (!g.hands.length) {
      body.append(h("tr", {}, h("td", { colspan: g.columns.length + 1, class: "empty" }, t("sheet.empty"))));
    }
    table.append(body);
    const foot = h("tr", { class: "totals" }, h("th", { scope: "row", class: "hand-col" }, "Σ"));
    for (const column of g.columns) {
      const winner = g.winners.includes(column.key);
      foot.append(h("td", { class: winner ? "winner-cell" : "", "data-total": column.key },
        mitigatti ? num(g.balances ? g.balances[column.key] : 10) : num(g.totals[column.key] ?? 0),
        winner ? h("span", { class: "crown", "aria-label": t("sheet.wins") }, " ★") : null));
    }
    table.append(h("tfoot", {}, foot));
    return h("div", { class: "sheet-block" }, h("div", { class: "sheet-wrap" }, table),
      g.hands.length ? legend(marks, mitigatti) : null);
  }

  /** What the sheet's signs mean, under it: the dealer's badge, the running total, and each
   * mark the sheet shows. */
  function legend(marks, mitigatti) {
    const items = [
      h("li", {}, h("span", { class: "hand-dealer sample", "aria-hidden": "true" }, "A"), " ", t("legend.dealer")),
      h("li", {}, h("span", { class: "running-label" }, t(mitigatti ? "sheet.balanceShort" : "sheet.totalShort")), " ",
        t(mitigatti ? "legend.balance" : "legend.total")),
      ...[...marks].sort(([a], [b]) => a.localeCompare(b)).map(([mark, meaning]) =>
        h("li", {}, h("span", { class: "mark" }, mark), " ", meaning)),
    ];
    return h("details", { class: "legend", id: "legend" },
      h("summary", {}, t("legend.title")), h("ul", {}, items));
  }

  function initials(name) {
    return name.split(/\s+/).filter(Boolean).map((w) => w[0]).join("").slice(0, 2).toUpperCase();
  }

  /** A hand's sign for the players' verdicts (✓ all confirmed, ! disputed, 1/3 waiting),
   * noted for the legend. */
  function verdictMark(g, hand, marks) {
    const found = handMark(g, hand);
    if (!found) return null;
    marks.set(found.kind === "waiting" ? `0/${found.mark.split("/")[1]}` : found.mark, found.meaning);
    return h("span", { class: `verdict-mark ${found.kind}`, title: found.meaning },
      h("span", { "aria-hidden": "true" }, found.mark), h("span", { class: "visually-hidden" }, found.meaning));
  }

  function handDetails(g, hand, V, { verdicts = true } = {}) {
    const result = hand.result;
    const box = h("div", { class: "details" });
    box.append(h("p", { class: "details-head" },
      h("strong", {}, t("sheet.handN", { n: hand.number })), ` · ${t("sheet.dealer", { name: seatName(hand.dealer) })}`,
      hand.version > 1 ? ` · ${t("sheet.corrected", { n: hand.version - 1 })}` : ""));
    for (const event of result.events || []) {
      box.append(h("p", { class: "event" }, I18n.has(`event.${event}`) ? t(`event.${event}`) : event));
    }
    if (hand.record.contract) box.append(h("p", {}, Explain.contract(hand.record.contract, seatName)));
    if (hand.record.call) box.append(h("p", {}, Explain.call(hand.record.call, hand.dealer, seatName, V.family)));
    for (const side of result.sides || []) {
      const list = h("ul", { class: "lines" });
      for (const line of side.lines) {
        list.append(h("li", {}, h("span", { class: "line-points" }, num(line.points)),
          h("span", { class: "line-text" }, Explain.line(line, seatName, V.family)),
          ruleLink(line.rule, g.variant)));
      }
      box.append(h("div", { class: "side" }, h("h4", {}, sideNames(side.seats), h("span", { class: "side-total" }, num(side.total))), list));
    }
    if (result.payments && result.payments.length) {
      box.append(h("h4", {}, t("sheet.payments")));
      box.append(h("ul", { class: "lines payments" }, result.payments.map((p) => h("li", {},
        h("span", { class: "line-points" }, p.marca),
        h("span", { class: "line-text" }, Explain.payment(p, seatName)),
        ruleLink(p.rule, g.variant)))));
    }
    for (const v of result.violations || []) {
      box.append(h("p", { class: "event" }, `${t("sheet.violation")}: ${v.message}`));
    }
    if (verdicts) {
      const said = verdictLines(hand, seatName);
      if (said) box.append(said);
      // A player may change their mind on any hand, from its details.
      if (G.kind === "player" && G.seat !== null && said) {
        box.append(verdictButtons({
          game: g, seat: G.seat, token: G.token, seatName,
          done: async () => { await refreshGame().catch(() => {}); drawSheet(false); },
        }, hand));
      }
    }
    if (canEdit()) {
      const last = hand.number === g.hands.length;
      const actions = h("div", { class: "row" },
        h("a", { class: "button", href: `#/games/${g.id}/hands/${hand.number}`, id: `correct-${hand.number}` },
          t("sheet.correct")),
        last ? h("button", {
          type: "button", class: "button danger", id: `delete-${hand.number}`,
          onclick: () => confirmDelete(actions, hand),
        }, t("sheet.delete")) : null);
      box.append(actions);
    }
    return box;
  }

  function confirmDelete(actions, hand) {
    actions.replaceChildren(
      h("p", { class: "confirm-text" }, t("sheet.deleteConfirm", { n: hand.number })),
      h("button", {
        type: "button", class: "button danger", id: "delete-yes",
        onclick: () => deleteHand(hand),
      }, t("sheet.deleteYes")),
      h("button", { type: "button", class: "button", onclick: () => drawSheet(false) }, t("action.cancel")));
    actions.querySelector("#delete-yes").focus();
  }

  async function deleteHand(hand) {
    try {
      await api("DELETE", `/games/${G.id}/hands/${hand.number}`, {
        token: G.token, headers: { "If-Match": hand.etag },
      });
      G.expanded.delete(hand.number);
      await refreshGame();
      toast(t("sheet.deleted", { n: hand.number }));
      drawSheet(false);
    } catch (error) {
      if (error.status === 0) {  // no network: the deletion waits with the hands to send
        Outbox.push({ game: G.id, kind: "delete", number: hand.number, ifMatch: hand.etag });
        toast(t("outbox.keptDeletion", { n: hand.number }));
        drawSheet(false);
        return;
      }
      await lostRace(error);
    }
  }

  /** After a write the server refused because the game moved on (409, 412, or a hand whose
   * dealer is no longer next): say so, reload, and show the sheet. */
  async function lostRace(error, { number = null, message = null } = {}) {
    if (error.status === 403) {
      G.kind = "read";
      Store.put(G.id, { kind: "read" });
      banner(t("race.readOnly"), "warn");
    } else if (message) {
      banner(message, "warn");
    } else if (error.status === 409 || error.status === 412) {
      banner(number ? t("race.changed", { n: number }) : t("race.reloaded"), "warn");
    } else {
      banner(problemText(problemErrors(error)[0]), "warn");
    }
    G.etag = null;
    await refreshGame().catch(() => {});
    if (location.hash === `#/games/${G.id}`) drawSheet(true);
    else location.hash = `#/games/${G.id}`;
  }

  async function downloadPdf() {
    try {
      const response = await fetch(`${API}/games/${G.id}/sheet.pdf?lang=${I18n.lang}`, {
        headers: { Authorization: `Bearer ${G.token}` },
      });
      if (!response.ok) {
        toast(response.status === 404 ? t("sheet.pdfMissing") : t("sheet.pdfFailed", { status: response.status }));
        return;
      }
      const blob = await response.blob();
      const url = URL.createObjectURL(blob);
      const link = h("a", { href: url, download: `segnapunti-${G.id}.pdf` });
      document.body.append(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10000);
    } catch (error) {
      toast(t("err.network"));
    }
  }

  // -- entering a hand -------------------------------------------------------------------

  async function handScreen(id, number) {
    await openGame(id);
    if (!canEdit()) {
      location.hash = `#/games/${id}`;
      return;
    }
    const g = G.game;
    rulebook(g.variant).catch(() => {});  // what a refusal's rule link will say
    const hand = number ? g.hands[number - 1] : null;
    if (number && !hand) {
      location.hash = `#/games/${id}`;
      return;
    }
    if (!number && g.status === "finished") {
      location.hash = `#/games/${id}`;
      return;
    }
    const form = new HandForm(g, G.detail, hand);
    const again = G.reenter;
    if (again && (again.kind === "add" ? !hand : hand && again.number === hand.number)) {
      form.load({ record: { ...again.record, dealer: form.s.dealer }, result: hand ? hand.result : { sides: [] } });
      G.reenter = null;
      Drafts.keep(form);
      form.restored = Date.now();
    }
    G.onChange = () => form.gameChanged();
    form.mount();
    schedulePoll();
  }

  class HandForm {
    constructor(game, detail, hand) {
      this.g = game;
      this.V = detail;
      this.hand = hand;
      this.baseHands = game.hands.length;
      const next = nextHand(game);
      this.number = hand ? hand.number : next.number;
      this.family = detail.family;
      this.seats = game.seats.map((_, i) => i);
      this.summary = Cards.summaryCards(detail);
      this.errors = [];
      this.previewSeq = 0;
      this.declOpen = false;
      this.decl = null;
      const bagattoOption = detail.bagatto_ultimo && (detail.bagatto_ultimo.optional ? game.options.bagatto_ultimo !== false : true);
      this.hasBagatto = Boolean(bagattoOption);
      this.hasDeclarations = detail.melds.length > 0 && game.options.melds !== "none" &&
        !(game.options.melds === "captured");
      // Whether a pile's combinations score (Ottocento's captures, Gatti's captured melds).
      this.combosScored = this.family === "ottocento" ||
        (detail.melds.some((m) => m.captured) && ["captured", "both"].includes(game.options.melds));
      this.comboPick = null;
      this.s = {
        // "points": each side's points as the table counted them; "cards": tricks and cards.
        mode: "points",
        points: {},
        combos: {},
        dealer: hand ? hand.dealer : next.dealer,
        thrown_in: false,
        call: { card: null, partner: null },
        contract: { type: "call", declarer: null, called_card: null, partner: null, sans_prendre: false },
        declarations: [],
        tricks: {},
        owner: {},
        rest: null,
        active: 0,
        bagatto: { on: false, seat: null, won: true, valid: true },
        last_trick: null,
      };
      this.s.contract.declarer = this.s.dealer;
      this.s.rest = this.sides().length - 1;
      this.s.active = 0;
      if (hand) this.load(hand);
      this.restored = Drafts.take(this);
    }

    // The key this hand's draft is kept under on the phone: a new hand by its number and
    // dealer, a correction by the version it corrects (a draft of another version is stale).
    draftKey() {
      const which = this.hand ? `v${this.hand.version}` : `new.d${this.s.dealer}`;
      return `${this.g.id}.${this.number}.${which}`;
    }

    // The sides of the hand as the record will have them.
    sides() {
      const V = this.V;
      const s = this.s;
      if (V.partnership === "call") {
        const first = s.call.partner === null ? [s.dealer] : [...new Set([s.dealer, s.call.partner])];
        return [{ side: 0, seats: first }, { side: 1, seats: this.seats.filter((x) => !first.includes(x)) }];
      }
      if (V.partnership === "contract") {
        const c = s.contract;
        const first = c.type === "call" && c.partner !== null ? [c.declarer, c.partner] : [c.declarer];
        return [{ side: 0, seats: first }, { side: 1, seats: this.seats.filter((x) => !first.includes(x)) }];
      }
      return V.sides.map((x) => ({ side: x.side, seats: x.seats }));
    }

    sideLabel(side) {
      const V = this.V;
      const seats = this.sides()[side].seats;
      if (V.partnership === "call" && side === 0 && this.s.call.partner === null) {
        return `${sideNames(seats)} & ?`;
      }
      return sideNames(seats);
    }

    load(hand) {
      const rec = hand.record;
      const s = this.s;
      s.dealer = rec.dealer;
      s.thrown_in = Boolean(rec.thrown_in);
      if (rec.tricks) this.unsupported = true;
      if (rec.call) s.call = { card: rec.call.card, partner: rec.call.partner ?? null };
      if (rec.contract) {
        s.contract = { type: rec.contract.type, declarer: rec.contract.declarer, called_card: rec.contract.called_card ?? null,
          partner: rec.contract.partner ?? null,
          // A solo without a called card is played sans prendre: the switch says so.
          sans_prendre: Boolean(rec.contract.sans_prendre) || (rec.contract.type === "solo" && !rec.contract.called_card) };
      }
      s.declarations = (rec.declarations || []).map((d) => ({ ...d }));
      const piles = rec.piles || [];
      const given = new Set(piles.map((p) => p.side));
      const all = this.sides().map((x) => x.side);
      const missing = all.filter((x) => !given.has(x));
      s.rest = missing.length === 1 ? missing[0] : null;
      s.mode = piles.some((p) => p.points !== undefined) ? "points" : (piles.length ? "cards" : s.mode);
      for (const pile of piles) {
        if (pile.points !== undefined) {
          s.points[pile.side] = pile.points;
          if (pile.combinations) s.combos[pile.side] = pile.combinations.map((c) => ({ ...c }));
          continue;
        }
        let counting = pile.counting || [];
        let tricks = pile.tricks;
        if (pile.cards) {
          counting = pile.cards.filter((c) => this.summary.includes(c));
          const line = (hand.result.sides.find((x) => x.side === pile.side)?.lines || [])
            .find((l) => l.item === "deck_points");
          tricks = line ? line.tricks : Math.round(pile.cards.length / this.V.trick_size);
        }
        s.tricks[pile.side] = tricks;
        for (const code of counting) s.owner[code] = pile.side;
      }
      s.active = all.find((x) => x !== s.rest) ?? 0;
      if (rec.bagatto) s.bagatto = { on: true, seat: rec.bagatto.seat, won: rec.bagatto.won, valid: rec.bagatto.valid !== false };
      if (rec.last_trick !== undefined && rec.last_trick !== null) s.last_trick = rec.last_trick;
    }

    mount() {
      this.root = h("section", { class: "screen hand-form" });
      this.draw(true);
      show(this.root);
      this.preview();
    }

    gameChanged() {
      if (!this.hand && nextHand(G.game).number !== this.number) {
        banner(t("race.recordedElsewhere", { n: this.baseHands + 1 }), "warn");
      }
    }

    update(fn) {
      fn(this.s);
      this.errors = [];
      Drafts.keep(this);
      this.draw(false);
      this.preview();
    }

    // Nothing counted yet: no side entered has a trick or a card (the form as it opened).
    isBlank() {
      const s = this.s;
      if (s.thrown_in) return false;
      if (this.V.partnership === "contract" && s.contract.type === "surrender") return false;
      const entered = this.sides().filter((x) => x.side !== s.rest);
      if (s.mode === "points") {
        return entered.every((x) => s.points[x.side] === undefined) &&
          Object.values(s.combos).every((list) => !list.length);
      }
      return entered.every((x) => !(s.tricks[x.side] > 0)) && Object.keys(s.owner).length === 0;
    }

    leave() {
      if (Drafts.has(this) && !window.confirm(t("hand.discardConfirm", { n: this.number }))) return;
      Drafts.drop(this);
      location.hash = `#/games/${this.g.id}`;
    }

    // -- the record ---------------------------------------------------------------------

    record() {
      const s = this.s;
      const V = this.V;
      const rec = { dealer: s.dealer };
      if (s.thrown_in) {
        rec.thrown_in = true;
        return rec;
      }
      if (V.partnership === "call") {
        rec.call = {};
        if (s.call.card) rec.call.card = s.call.card;
        if (s.call.partner !== null) rec.call.partner = s.call.partner;
      }
      const surrendered = V.partnership === "contract" && s.contract.type === "surrender";
      if (V.partnership === "contract") {
        const c = s.contract;
        rec.contract = { type: c.type, declarer: c.type === "call" ? s.dealer : c.declarer };
        if (c.type === "call") {
          if (c.called_card) rec.contract.called_card = c.called_card;
          if (c.partner !== null) rec.contract.partner = c.partner;
        } else if (c.type === "solo") {
          // What the form shows is what is scored: sans prendre when the switch is on, else
          // the called card (the checks ask for one).
          if (c.sans_prendre) rec.contract.sans_prendre = true;
          else if (c.called_card) rec.contract.called_card = c.called_card;
        }
      }
      if (s.declarations.length) rec.declarations = s.declarations.map((d) => ({ ...d }));
      if (surrendered) return rec;
      this.pileIndex = [];
      rec.piles = [];
      for (const { side } of this.sides()) {
        const combos = this.combosScored ? (s.combos[side] || []) : [];
        // The rest is the service's to work out, unless its pile holds combinations to say.
        if (side === s.rest && (s.mode !== "points" || !combos.length)) continue;
        this.pileIndex.push(side);
        if (s.mode === "points") {
          const pile = { side, points: side === s.rest ? this.pointsOf(side) : (s.points[side] ?? 0) };
          if (combos.length) pile.combinations = combos.map((c) => ({ ...c }));
          rec.piles.push(pile);
          continue;
        }
        rec.piles.push({
          side, tricks: s.tricks[side] ?? 0,
          counting: this.summary.filter((code) => s.owner[code] === side),
        });
      }
      if (this.hasBagatto && s.bagatto.on && s.bagatto.seat !== null) {
        rec.bagatto = { seat: s.bagatto.seat, won: s.bagatto.won };
        if (this.family === "mitigatti" && !s.bagatto.valid) rec.bagatto.valid = false;
      }
      if (this.family === "ottocento" && s.last_trick !== null) rec.last_trick = s.last_trick;
      return rec;
    }

    // -- live checks --------------------------------------------------------------------

    pileOf(side) {
      const s = this.s;
      const V = this.V;
      const sides = this.sides();
      const entered = sides.filter((x) => x.side !== s.rest);
      let tricks = s.tricks[side] ?? 0;
      let counting;
      if (side === s.rest) {
        tricks = V.tricks_per_hand - entered.reduce((sum, x) => sum + (s.tricks[x.side] ?? 0), 0);
        counting = this.summary.filter((code) => s.owner[code] === undefined);
      } else {
        counting = this.summary.filter((code) => s.owner[code] === side);
      }
      const dealerSide = sides.find((x) => x.seats.includes(s.dealer))?.side ?? 0;
      const dealerTricks = dealerSide === s.rest
        ? V.tricks_per_hand - entered.reduce((sum, x) => sum + (s.tricks[x.side] ?? 0), 0)
        : (s.tricks[dealerSide] ?? 0);
      const holds = (side === dealerSide && dealerTricks > 0) ||
        (side !== dealerSide && dealerTricks === 0 && tricks > 0 && sides.length === 2);
      const extra = V.deal.discard;
      const cards = tricks <= 0 ? 0 : V.trick_size * tricks - (V.trick_size - extra) * (holds ? 1 : 0);
      const values = counting.reduce((sum, code) => sum + Cards.value(V, code), 0);
      let points;
      if (this.family === "ottocento") {
        const all = values + Math.max(0, cards - counting.length);
        const last = s.last_trick !== null && sides[side].seats.includes(s.last_trick) ? V.last_trick_points : 0;
        points = all - Math.floor(cards / 2) + last;
      } else if (this.family === "gatti-classic") {
        points = Math.floor((cards + 1) / 3) + values;
      } else {
        points = Math.max(0, tricks) + values;
      }
      return { side, tricks, counting, cards, points };
    }

    /** What the piles' points add up to: the hand's total less the last trick's points. */
    pointsTotal() {
      return this.V.deck_points_total - (this.V.last_trick_points || 0);
    }

    /** A side's points as entered, or for the rest what the others leave of the total. */
    pointsOf(side) {
      const s = this.s;
      if (side !== s.rest) return s.points[side] ?? 0;
      const others = this.sides().filter((x) => x.side !== side);
      return this.pointsTotal() - others.reduce((sum, x) => sum + (s.points[x.side] ?? 0), 0);
    }

    pointsChecks(out) {
      const s = this.s;
      const V = this.V;
      const sides = this.sides();
      const total = this.pointsTotal();
      const last = V.last_trick_points || 0;
      const values = sides.map((x) => this.pointsOf(x.side));
      const sum = values.reduce((a, b) => a + b, 0);
      const inRange = values.every((n) => n >= 0 && n <= total);
      for (const { side } of sides) {
        const n = this.pointsOf(side);
        if (side === s.rest && n < 0) {
          out.push({ ok: false, field: "piles", text: t("check.pointsOver", { n: total - n, of: total }) });
        } else if (n > total) {
          out.push({ ok: false, field: `pile:${side}.points`, text: t("check.pointsRange", { side: this.sideLabel(side), of: total }) });
        }
      }
      if (this.family === "ottocento") {
        out.push(s.last_trick !== null ? { ok: true, text: t("check.lastTrick", { name: seatName(s.last_trick) }) }
          : { ok: false, field: "last_trick", text: t("check.lastTrickMissing") });
        const lastSide = s.last_trick === null ? null : sides.find((x) => x.seats.includes(s.last_trick));
        if (lastSide && this.pointsOf(lastSide.side) === 0) {
          out.push({ ok: false, field: "last_trick", text: t("check.lastTrickNoPoints", { side: this.sideLabel(lastSide.side) }) });
        }
      }
      if (this.family === "mitigatti") {
        const dealerSide = sides.find((x) => x.seats.includes(s.dealer));
        if (dealerSide && !this.isBlank() && this.pointsOf(dealerSide.side) === 0) {
          out.push({ ok: false, field: "piles", text: t("check.dealerNoPoints", { side: this.sideLabel(dealerSide.side) }) });
        }
      }
      const withLast = values.map((n, i) => n + (s.last_trick !== null && sides[i].seats.includes(s.last_trick) ? last : 0));
      out.push({
        ok: inRange && sum === total && !this.isBlank(), total: true,
        text: t("check.total", { parts: withLast.map(num).join(" + "), total: num(sum + (s.last_trick !== null ? last : 0)), of: V.deck_points_total }),
      });
    }

    checks() {
      const s = this.s;
      const V = this.V;
      const out = [];
      if (s.thrown_in) return [{ ok: true, text: t("check.thrownIn") }];
      if (V.partnership === "call") {
        out.push(s.call.card && s.call.partner !== null
          ? { ok: true, text: t("check.call") } : { ok: false, text: t("check.callMissing"), field: "call" });
      }
      if (V.partnership === "contract") {
        const c = s.contract;
        const ready = c.type === "surrender" || (c.type === "solo" && (c.sans_prendre || c.called_card)) ||
          (c.type === "call" && c.called_card && c.partner !== null);
        const missing = c.type === "solo" ? "check.soloCardMissing" : "check.contractMissing";
        out.push(ready ? { ok: true, text: t("check.contract") } : { ok: false, text: t(missing), field: "contract" });
        if (c.type === "surrender") return out;
      }
      if (this.isBlank()) {
        out.push({ ok: false, field: "piles", text: t(s.mode === "points" ? "check.nothingEnteredPoints" : "check.nothingEntered") });
      }
      if (s.mode === "points") {
        this.pointsChecks(out);
        if (this.hasBagatto && s.bagatto.on && s.bagatto.seat === null) {
          out.push({ ok: false, field: "bagatto", text: t("check.bagattoSeat") });
        }
        return out;
      }
      const piles = this.sides().map((x) => this.pileOf(x.side));
      const tricks = piles.reduce((sum, p) => sum + p.tricks, 0);
      const restPile = s.rest !== null ? piles[s.rest] : null;
      const tricksOk = piles.every((p) => p.tricks >= 0) && tricks === V.tricks_per_hand;
      out.push({
        ok: tricksOk, field: "piles",
        text: restPile && restPile.tricks < 0
          ? t("check.tooManyTricks", { n: V.tricks_per_hand - restPile.tricks, of: V.tricks_per_hand })
          : t("check.tricks", { n: tricks, of: V.tricks_per_hand }),
      });
      const unplaced = this.summary.filter((code) => s.owner[code] === undefined);
      out.push(s.rest !== null || !unplaced.length
        ? { ok: true, text: t("check.placed", { n: this.summary.length }) }
        : { ok: false, field: "piles", text: t("check.unplaced", { n: unplaced.length, cards: unplaced.map(Cards.label).join(" ") }) });
      for (const p of piles) {
        if (p.tricks === 0 && p.counting.length) {
          out.push({ ok: false, field: `pile:${p.side}`, text: t("check.noTricksButCards", { side: this.sideLabel(p.side), n: p.counting.length }) });
        } else if (p.tricks > 0 && p.counting.length > p.cards) {
          out.push({ ok: false, field: `pile:${p.side}`, text: t("check.crowded", { side: this.sideLabel(p.side), n: p.counting.length, cards: p.cards }) });
        }
      }
      if (this.family === "ottocento") {
        out.push(s.last_trick !== null ? { ok: true, text: t("check.lastTrick", { name: seatName(s.last_trick) }) }
          : { ok: false, field: "last_trick", text: t("check.lastTrickMissing") });
      }
      const total = piles.reduce((sum, p) => sum + p.points, 0);
      out.push({
        ok: tricksOk && total === V.deck_points_total && !this.isBlank(), total: true,
        text: t("check.total", { parts: piles.map((p) => num(p.points)).join(" + "), total: num(total), of: V.deck_points_total }),
      });
      if (this.hasBagatto && s.bagatto.on && s.bagatto.seat === null) {
        out.push({ ok: false, field: "bagatto", text: t("check.bagattoSeat") });
      }
      return out;
    }

    async preview() {
      const seq = ++this.previewSeq;
      const box = this.root.querySelector("#preview");
      if (!box) return;
      const failing = this.checks().filter((c) => !c.ok);
      if (failing.length) {
        box.replaceChildren(h("p", { class: "muted" }, t("preview.waiting")));
        return;
      }
      clearTimeout(this.previewTimer);
      this.previewTimer = setTimeout(async () => {
        try {
          const { data } = await api("POST", "/score", { body: { variant: this.g.variant, options: this.g.options, hand: this.record() } });
          if (seq !== this.previewSeq) return;
          box.replaceChildren(h("p", { class: "preview-ok" }, t("preview.scores")),
            h("ul", { class: "preview-cols" }, this.g.columns.map((c) => h("li", {},
              h("span", {}, c.label), h("strong", {}, this.family === "mitigatti"
                ? signed(data.marca ? data.marca[c.key] ?? 0 : 0) + " " + t("marcaShort")
                : num(data.columns[c.key] ?? 0))))));
        } catch (error) {
          if (seq !== this.previewSeq) return;
          const errors = problemErrors(error);
          box.replaceChildren(h("p", { class: "preview-bad" }, t("preview.problems", { n: errors.length })),
            h("ul", { class: "preview-errors" }, errors.map((e) => h("li", {}, problemLine(e)))));
        }
      }, 300);
    }

    // -- drawing ------------------------------------------------------------------------

    draw(first) {
      const active = document.activeElement && document.activeElement.id;
      const s = this.s;
      const V = this.V;
      const root = this.root;
      root.replaceChildren();
      root.append(h("div", { class: "form-head" },
        h("h1", {}, this.hand ? t("hand.correctTitle", { n: this.number }) : t("hand.title", { n: this.number })),
        h("p", { class: "dealer-line", "data-field": "dealer" }, t("hand.dealerIs"), " ", h("strong", {}, seatName(s.dealer)))));
      if (this.restored) {
        root.append(h("div", { class: "card info draft-note", role: "status" },
          h("p", {}, t("hand.draftRestored", { time: new Date(this.restored).toLocaleTimeString(I18n.lang, { hour: "2-digit", minute: "2-digit" }) })),
          h("button", {
            type: "button", class: "button small", id: "draft-discard",
            onclick: () => {
              if (!window.confirm(t("hand.discardConfirm", { n: this.number }))) return;
              Drafts.drop(this);
              const fresh = new HandForm(this.g, this.V, this.hand);
              fresh.mount();
            },
          }, t("hand.startOver"))));
      }
      if (this.unsupported) {
        root.append(h("p", { class: "card warn" }, t("hand.tricksRecord")));
        root.append(h("a", { class: "button", href: `#/games/${this.g.id}` }, t("action.back")));
        return;
      }
      if (this.family === "mitigatti") {
        root.append(h("section", { class: "step", "data-field": "thrown_in" },
          switchButton("thrown-in", t("hand.thrownIn"), s.thrown_in, (on) => this.update((x) => { x.thrown_in = on; })),
          h("p", { class: "hint" }, t("hand.thrownInHint"))));
      }
      if (!s.thrown_in) {
        if (V.partnership === "call") root.append(this.callSection());
        if (V.partnership === "contract") root.append(this.contractSection());
        if (this.hasDeclarations) root.append(this.declarationSection());
        const surrendered = V.partnership === "contract" && s.contract.type === "surrender";
        if (!surrendered) {
          root.append(this.pilesSection());
          if (this.family === "ottocento") root.append(this.lastTrickSection());
          if (this.hasBagatto) root.append(this.bagattoSection());
        }
      }
      root.append(this.checkSection());
      root.append(h("div", { class: "errors", id: "form-errors", role: "alert" }));
      root.append(h("div", { class: "actions sticky" },
        h("button", { type: "button", class: "button", id: "cancel", onclick: () => this.leave() }, t("action.cancel")),
        h("button", { type: "button", class: "button primary big", id: "save", onclick: () => this.save() },
          this.hand ? t("hand.saveCorrection") : t("hand.save"))));
      this.showErrors();
      if (!first && active) {
        const el = document.getElementById(active);
        if (el) el.focus({ preventScroll: true });
      }
    }

    seatChips(group, selected, onpick, { exclude = [], labels = {} } = {}) {
      return h("div", { class: "chips seats", role: "radiogroup" },
        this.seats.filter((x) => !exclude.includes(x)).map((seat) => chipRadio(group, seat,
          labels[seat] || seatName(seat), selected === seat, () => onpick(seat))));
    }

    cardChips(group, codes, selected, onpick) {
      return h("div", { class: "chips cards", role: "radiogroup" },
        codes.map((code) => chipRadio(group, code, Cards.label(code), selected === code, () => onpick(code), {
          title: Cards.name(code, this.family),
          class: `chip card-chip ${selected === code ? "on" : ""} ${Cards.isRed(code) ? "red" : ""}`,
        })));
    }

    callSection() {
      const s = this.s;
      const calls = ["KH", "KD", "KC", "KS", "QH", "QD", "QC", "QS"];
      return h("section", { class: "step", "data-field": "call" },
        h("h2", {}, t("hand.call")),
        h("div", { class: "field", "data-field": "call.card" },
          h("span", { class: "label" }, t("hand.calledCard")),
          this.cardChips("call-card", calls, s.call.card, (code) => this.update((x) => { x.call.card = code; }))),
        h("div", { class: "field", "data-field": "call.partner" },
          h("span", { class: "label" }, t("hand.partner")),
          this.seatChips("call-partner", s.call.partner, (seat) => this.update((x) => { x.call.partner = seat; }),
            { labels: { [s.dealer]: t("hand.alone", { name: seatName(s.dealer) }) } })));
    }

    contractSection() {
      const s = this.s;
      const c = s.contract;
      const box = h("section", { class: "step", "data-field": "contract" },
        h("h2", {}, t("hand.contract")),
        h("div", { class: "field", "data-field": "contract.type" },
          h("div", { class: "chips", role: "radiogroup", "aria-label": t("hand.contract") },
            ["call", "solo", "surrender"].map((type) => chipRadio("contract-type", type, t(`contract.${type}`),
              c.type === type, () => this.update((x) => {
                x.contract.type = type;
                x.contract.partner = null;
                x.contract.called_card = null;
                x.contract.declarer = x.dealer;
              }))))),
        h("p", { class: "hint" }, t(`contract.${c.type}Hint`)));
      if (c.type === "call") {
        box.append(h("div", { class: "field", "data-field": "contract.called_card" },
          h("span", { class: "label" }, t("hand.calledCard")),
          this.cardChips("contract-card", ["KH", "KD", "KC", "KS", "T20"], c.called_card,
            (code) => this.update((x) => { x.contract.called_card = code; }))));
        box.append(h("div", { class: "field", "data-field": "contract.partner" },
          h("span", { class: "label" }, t("hand.partner")),
          this.seatChips("contract-partner", c.partner, (seat) => this.update((x) => { x.contract.partner = seat; }),
            { exclude: [s.dealer] })));
      } else {
        box.append(h("div", { class: "field", "data-field": "contract.declarer" },
          h("span", { class: "label" }, t(c.type === "solo" ? "hand.soloPlayer" : "hand.declarer")),
          this.seatChips("contract-declarer", c.declarer, (seat) => this.update((x) => { x.contract.declarer = seat; }))));
      }
      if (c.type === "solo") {
        box.append(h("div", { class: "field", "data-field": "contract.sans_prendre" },
          switchButton("sans-prendre", t("hand.sansPrendre"), c.sans_prendre,
            (on) => this.update((x) => { x.contract.sans_prendre = on; x.contract.called_card = null; }))));
        if (!c.sans_prendre) {
          const codes = this.V.pack.cards.filter((code) => code !== "FOOL");
          box.append(h("details", { class: "field", "data-field": "contract.called_card", open: true },
            h("summary", {}, t("hand.soloCall"), c.called_card ? ` · ${Cards.label(c.called_card)}` : ""),
            this.packGrid("solo-card", codes, (code) => c.called_card === code,
              (code) => this.update((x) => { x.contract.called_card = x.contract.called_card === code ? null : code; }))));
        }
      }
      return box;
    }

    // Declarations ----------------------------------------------------------------------

    meldKinds() {
      return this.V.melds.filter((m) => !(this.g.options.melds === "captured" && !m.captured))
        .map((m) => m.kind);
    }

    declarationSection() {
      const s = this.s;
      const box = h("section", { class: "step", "data-field": "declarations" },
        h("h2", {}, t(`hand.declarations.${this.family}`)));
      const list = h("ul", { class: "decl-list" });
      s.declarations.forEach((d, i) => {
        list.append(h("li", { class: "decl", "data-field": `declarations[${i}]` },
          h("div", { class: "decl-main" },
            h("span", { class: "decl-seat" }, seatName(d.seat)), " ",
            h("span", { class: "decl-what" }, Explain.declaration(d, this.family)),
            d.cards ? h("span", { class: "decl-cards" }, d.cards.map((c) => cardChip(c, this.family))) : null),
          h("button", {
            type: "button", class: "icon-button", id: `decl-remove-${i}`,
            "aria-label": t("hand.removeDecl", { what: Explain.declaration(d, this.family), name: seatName(d.seat) }),
            onclick: () => this.update((x) => { x.declarations.splice(i, 1); }),
          }, "×")));
      });
      if (s.declarations.length) box.append(list);
      else box.append(h("p", { class: "muted" }, t("hand.noDecl")));
      if (!this.declOpen) {
        box.append(h("button", {
          type: "button", class: "button", id: "decl-add",
          onclick: () => {
            this.declOpen = true;
            this.decl = { seat: null, mode: this.family === "ottocento" ? "cards" : "kind", kind: null, cards: [], suggestions: null };
            this.draw(false);
            document.getElementById("decl-seat-group")?.querySelector("input")?.focus();
          },
        }, t("hand.addDecl")));
      } else {
        box.append(this.declarationEditor());
      }
      return box;
    }

    declarationEditor() {
      const d = this.decl;
      const box = h("div", { class: "card decl-editor" });
      const redraw = () => this.draw(false);
      box.append(h("div", { class: "field", id: "decl-seat-group" },
        h("span", { class: "label" }, t("hand.whoDeclares")),
        this.seatChips("decl-seat", d.seat, (seat) => { d.seat = seat; redraw(); })));
      if (this.family !== "ottocento") {
        box.append(h("div", { class: "chips tabs", role: "radiogroup", "aria-label": t("hand.declMode") },
          chipRadio("decl-mode", "kind", t("hand.byKind"), d.mode === "kind", () => { d.mode = "kind"; redraw(); }),
          chipRadio("decl-mode", "cards", t("hand.byCards"), d.mode === "cards", () => { d.mode = "cards"; redraw(); })));
      }
      if (d.mode === "kind") {
        box.append(h("div", { class: "field" },
          h("span", { class: "label" }, t("hand.what")),
          h("div", { class: "chips", role: "radiogroup" }, this.meldKinds().map((kind) => chipRadio("decl-kind", kind,
            t(`meld.${kind}`), d.kind === kind, () => {
              d.kind = kind;
              const rule = this.V.melds.find((m) => m.kind === kind);
              d.suit = null;
              d.rank = null;
              d.count = rule.at_least || null;
              redraw();
            })))));
        if (d.kind === "family") {
          box.append(h("div", { class: "field" }, h("span", { class: "label" }, t("hand.suit")),
            h("div", { class: "chips", role: "radiogroup" }, Cards.SUITS.map((suit) => chipRadio("decl-suit", suit,
              Cards.SYMBOL[suit], d.suit === suit, () => { d.suit = suit; redraw(); },
              { class: `chip suit ${d.suit === suit ? "on" : ""} ${suit === "H" || suit === "D" ? "red" : ""}`, title: t(`suit.french.${suit}`) })))));
        }
        if (d.kind === "three_of_a_kind" || d.kind === "four_of_a_kind") {
          box.append(h("div", { class: "field" }, h("span", { class: "label" }, t("hand.rank")),
            h("div", { class: "chips", role: "radiogroup" }, ["J", "C", "Q", "K"].map((rank) => chipRadio("decl-rank", rank,
              rank, d.rank === rank, () => { d.rank = rank; redraw(); }, { title: t(`rank.${rank}`) })))));
        }
        if (d.kind === "frilli" || d.kind === "trumps") {
          const rule = this.V.melds.find((m) => m.kind === d.kind);
          box.append(h("div", { class: "field" }, h("span", { class: "label", id: "decl-count-label" }, t("hand.count")),
            stepper("decl-count", d.count, rule.at_least, d.kind === "frilli" ? 40 : 21, (n) => { d.count = n; redraw(); }, t("hand.count"))));
        }
        const ready = d.seat !== null && d.kind && (d.kind !== "family" || d.suit) &&
          (!["three_of_a_kind", "four_of_a_kind"].includes(d.kind) || d.rank);
        box.append(h("div", { class: "row" },
          h("button", { type: "button", class: "button", onclick: () => { this.declOpen = false; redraw(); } }, t("action.cancel")),
          h("button", {
            type: "button", class: "button primary", id: "decl-confirm", disabled: !ready,
            onclick: () => {
              const out = { seat: d.seat, kind: d.kind };
              if (d.kind === "family") out.suit = d.suit;
              if (d.kind === "three_of_a_kind" || d.kind === "four_of_a_kind") out.rank = d.rank;
              if (d.kind === "frilli" || d.kind === "trumps") out.count = d.count;
              this.declOpen = false;
              this.update((x) => { x.declarations.push(out); });
              document.getElementById("decl-add")?.focus();
            },
          }, t("hand.addThis"))));
      } else {
        box.append(h("p", { class: "hint" }, t("hand.tapCards")));
        box.append(this.packGrid("decl-card", this.V.pack.cards, (code) => d.cards.includes(code), (code) => {
          const i = d.cards.indexOf(code);
          if (i >= 0) d.cards.splice(i, 1);
          else d.cards.push(code);
          d.suggestions = null;
          redraw();
        }));
        box.append(h("div", { class: "row" },
          h("button", { type: "button", class: "button", onclick: () => { this.declOpen = false; redraw(); } }, t("action.cancel")),
          h("button", {
            type: "button", class: "button primary", id: "decl-suggest", disabled: d.seat === null || !d.cards.length,
            onclick: async () => {
              try {
                const { data } = await api("POST", "/melds/suggest", { body: { variant: this.g.variant, cards: d.cards } });
                d.suggestions = data;
              } catch (error) {
                d.suggestions = [];
                toast(problemText(problemErrors(error)[0]));
              }
              redraw();
              const first = document.getElementById("suggestions");
              if (first) {
                first.scrollIntoView({ block: "center" });
                first.querySelector("button")?.focus({ preventScroll: true });
              }
            },
          }, t("hand.suggest", { n: d.cards.length }))));
        if (d.suggestions) {
          const list = h("ul", { class: "suggestions", id: "suggestions" });
          if (!d.suggestions.length) list.append(h("li", { class: "muted" }, t("hand.noSuggestions")));
          d.suggestions.forEach((sug, i) => {
            list.append(h("li", {},
              h("button", {
                type: "button", class: "suggestion", id: `suggestion-${i}`,
                onclick: () => {
                  this.declOpen = false;
                  this.update((x) => { x.declarations.push({ seat: d.seat, ...sug.declaration }); });
                  document.getElementById("decl-add")?.focus();
                },
              }, h("span", { class: "sug-label" }, Explain.suggestion(sug, this.family)),
              h("span", { class: "sug-points" }, sug.marca !== undefined ? t("marca", { n: sug.marca }) : t("points", { n: sug.points })))));
          });
          box.append(list);
        }
      }
      return box;
    }

    packGrid(group, codes, isOn, toggle) {
      const grid = h("div", { class: "pack-grid dense" });
      for (const row of Cards.groups(codes)) {
        grid.append(h("div", { class: "grid-row" },
          h("span", { class: `row-label ${row.key === "H" || row.key === "D" ? "red" : ""}`, "aria-hidden": "true" },
            row.key === "T" ? "T" : Cards.SYMBOL[row.key]),
          h("div", { class: "grid-cards" }, row.codes.map((code) => h("button", {
            type: "button", id: `${group}-${code}`, class: `gcard ${Cards.isRed(code) ? "red" : ""} ${isOn(code) ? "on" : ""}`,
            "aria-pressed": isOn(code) ? "true" : "false", "aria-label": cardName(code, this.family),
            onclick: () => toggle(code),
          }, Cards.label(code))))));
      }
      return grid;
    }

    // Piles -----------------------------------------------------------------------------

    pileModeSwitch() {
      const s = this.s;
      return h("div", { class: "chips pile-mode", role: "radiogroup", "aria-label": t("hand.pileMode") },
        ["points", "cards"].map((mode) => chipRadio("pile-mode", mode, t(`hand.mode.${mode}`), s.mode === mode,
          () => this.update((x) => { x.mode = mode; }))));
    }

    pilesSection() {
      const s = this.s;
      const V = this.V;
      const sides = this.sides();
      if (s.mode === "points") return this.pointsSection();
      if (s.active === s.rest || !sides[s.active]) s.active = sides.find((x) => x.side !== s.rest)?.side ?? 0;
      const box = h("section", { class: "step piles", "data-field": "piles" },
        h("h2", {}, t("hand.piles")), this.pileModeSwitch(),
        h("p", { class: "hint" }, t(`hand.pilesHint.${this.family === "ottocento" ? "ottocento" : "gatti"}`)));
      const tabs = h("div", { class: "side-tabs", role: "tablist", "aria-label": t("hand.piles") });
      for (const { side } of sides) {
        const pile = this.pileOf(side);
        const selected = side === s.active;
        tabs.append(h("button", {
          type: "button", role: "tab", id: `side-tab-${side}`, class: `side-tab side-${side} ${selected ? "on" : ""} ${side === s.rest ? "rest" : ""}`,
          "aria-selected": selected ? "true" : "false", "data-field": `pile:${side}`,
          onclick: () => this.update((x) => {
            // The rest's tab: count that side too, as "Count this side too" does.
            if (side === x.rest) x.rest = null;
            x.active = side;
          }),
        }, h("span", { class: "side-name" }, this.sideLabel(side)),
        h("span", { class: "side-sum" }, side === s.rest ? t("hand.rest") : t("hand.tricksShort", { n: pile.tricks }),
          " · ", t("points", { n: num(pile.points) }))));
      }
      box.append(tabs);
      const activePile = this.pileOf(s.active);
      box.append(h("div", { class: "field tricks-field", "data-field": `pile:${s.active}.tricks` },
        h("span", { class: "label", id: "tricks-label" }, t("hand.tricksOf", { side: this.sideLabel(s.active) })),
        stepper("tricks", s.tricks[s.active] ?? 0, 0, V.tricks_per_hand, (n) => this.update((x) => { x.tricks[x.active] = n; }),
          t("hand.tricksOf", { side: this.sideLabel(s.active) })),
        h("p", { class: "hint" }, t(V.deal.discard_must_be_covered || this.family === "gatti-classic" || this.family === "mitigatti" ? "hand.tricksHint" : "hand.tricksHintPlain"))));
      const grid = h("div", { class: "pack-grid counting", "data-field": `pile:${s.active}.counting` });
      for (const row of Cards.groups(this.summary)) {
        grid.append(h("div", { class: "grid-row" },
          h("span", { class: `row-label ${row.key === "H" || row.key === "D" ? "red" : ""}`, "aria-hidden": "true" }, row.key === "T" ? "T" : Cards.SYMBOL[row.key]),
          h("div", { class: "grid-cards" }, row.codes.map((code) => {
            const owner = s.owner[code];
            const here = owner === s.active;
            const where = owner === undefined ? s.rest : owner;
            const ownerLabel = where === null || where === undefined ? t("hand.unplaced") : this.sideLabel(where);
            return h("button", {
              type: "button", id: `card-${code}`, "data-card": code, "data-field": `pile:${s.active}.card:${code}`,
              class: `gcard ${Cards.isRed(code) ? "red" : ""} ${here ? "on" : ""} ${owner !== undefined && !here ? "elsewhere" : ""} ${owner === undefined && s.rest !== null ? "in-rest" : ""} ${where === null || where === undefined ? "unplaced" : ""}`,
              "aria-pressed": here ? "true" : "false",
              "aria-label": `${cardName(code, this.family)}${V.counting[code] && this.family !== "ottocento" ? `, ${t("points", { n: V.counting[code] })}` : ""} — ${ownerLabel}`,
              title: `${Cards.name(code, this.family)} — ${ownerLabel}`,
              onclick: () => this.update((x) => {
                if (x.owner[code] === x.active) delete x.owner[code];
                else x.owner[code] = x.active;
              }),
              // The card's value and where it lies are drawn by the style sheet from these, so
              // the button's text is the card alone and its name can hold it (WCAG 2.5.3).
              "data-value": V.counting[code] && this.family !== "ottocento" ? V.counting[code] : null,
              "data-owner": owner !== undefined && !here ? initials(this.sideLabel(owner)) : null,
            }, h("span", { class: "gcard-label" }, Cards.label(code)));
          }))));
      }
      box.append(grid);
      box.append(h("p", { class: "hint" }, t("hand.cardsIn", { side: this.sideLabel(s.active), n: activePile.counting.length }),
        " ", h("span", { class: "nowrap" }, activePile.counting.map((c) => cardChip(c, this.family)))));
      if (s.rest !== null) {
        const rest = this.pileOf(s.rest);
        box.append(h("div", { class: "rest-box card" },
          h("p", {}, h("strong", {}, this.sideLabel(s.rest)), " — ", t("hand.restExplained", { tricks: rest.tricks, n: rest.counting.length, points: num(rest.points) })),
          h("p", { class: "nowrap" }, rest.counting.map((c) => cardChip(c, this.family))),
          h("div", { class: "row" },
            sides.length > 1 ? h("button", {
              type: "button", class: "button small", id: "count-rest",
              onclick: () => this.update((x) => {
                const old = x.rest;
                x.rest = null;
                x.active = old;
              }),
            }, t("hand.countAll")) : null)));
      } else {
        box.append(h("div", { class: "row" }, sides.map(({ side }) => h("button", {
          type: "button", class: "button small", id: `rest-${side}`,
          onclick: () => this.update((x) => {
            x.rest = side;
            for (const code of Object.keys(x.owner)) if (x.owner[code] === side) delete x.owner[code];
            delete x.tricks[side];
          }),
        }, t("hand.makeRest", { side: this.sideLabel(side) })))));
      }
      return box;
    }

    // Each side's points, as the table counted them: a number field a side, the last side
    // the rest of the total, and where they score the combinations each pile holds.
    pointsSection() {
      const s = this.s;
      const sides = this.sides();
      const total = this.pointsTotal();
      const box = h("section", { class: "step piles", "data-field": "piles" },
        h("h2", {}, t("hand.piles")), this.pileModeSwitch(),
        h("p", { class: "hint" }, t(`hand.pointsHint.${this.family === "ottocento" ? "ottocento" : "deck"}`, { of: total })));
      for (const { side } of sides) {
        const label = this.sideLabel(side);
        const row = h("div", { class: `field points-field side-${side}`, "data-field": `pile:${side}.points` });
        if (side === s.rest) {
          const n = this.pointsOf(side);
          row.append(h("span", { class: "label" }, label),
            h("p", { class: "rest-points", id: `points-rest-${side}`, "aria-live": "polite" },
              h("strong", {}, num(Math.max(0, n))), " ", t("hand.restPoints")),
            sides.length > 1 ? h("button", {
              type: "button", class: "button small", id: "count-rest",
              onclick: () => this.update((x) => { x.points[side] = Math.max(0, n); x.rest = null; }),
            }, t("hand.countAll")) : null);
        } else {
          const id = `points-${side}`;
          row.append(h("label", { class: "label", for: id }, label),
            h("input", {
              id, class: "points-input", type: "text", inputmode: "numeric", pattern: "[0-9]*",
              autocomplete: "off", enterkeyhint: "next", maxlength: 3,
              value: s.points[side] === undefined ? "" : String(s.points[side]),
              "aria-describedby": "points-total",
              oninput: (e) => {
                const digits = e.target.value.replace(/\D/g, "").slice(0, 3);
                if (digits !== e.target.value) e.target.value = digits;
                this.s.points[side] = digits === "" ? undefined : Number(digits);
                this.refresh();
                // A number no further digit could fit is complete: on to the next side's.
                if (digits !== "" && (digits === "0" || Number(`${digits}0`) > total)) {
                  const next = sides.find((x) => x.side > side && x.side !== this.s.rest);
                  if (next) document.getElementById(`points-${next.side}`)?.focus();
                }
              },
            }));
        }
        if (this.combosScored) row.append(this.comboList(side));
        box.append(row);
      }
      box.append(h("p", { class: "hint", id: "points-total" }, t("hand.pointsTotal", { of: total })));
      if (s.rest === null) {
        box.append(h("div", { class: "row" }, sides.map(({ side }) => h("button", {
          type: "button", class: "button small", id: `rest-${side}`,
          onclick: () => this.update((x) => { x.rest = side; delete x.points[side]; }),
        }, t("hand.makeRestPoints", { side: this.sideLabel(side) })))));
      }
      return box;
    }

    /** After typing a number: keep the draft, and redraw what follows from it (the rest, the
     * checks, the preview) but not the field being typed in. */
    refresh() {
      this.errors = [];
      Drafts.keep(this);
      const s = this.s;
      if (s.rest !== null) {
        const rest = this.root.querySelector(`#points-rest-${s.rest} strong`);
        if (rest) rest.textContent = num(Math.max(0, this.pointsOf(s.rest)));
      }
      this.root.querySelector(".step.checks")?.replaceWith(this.checkSection());
      for (const el of this.root.querySelectorAll(".field-error")) el.remove();
      this.preview();
    }

    comboKinds() {
      return this.family === "ottocento" ? ["cricca", "sequence"]
        : this.V.melds.filter((m) => m.captured).map((m) => m.kind);
    }

    comboLabel(c) {
      return this.family === "ottocento" ? Explain.combo(c.kind, c.type, c.count) : Explain.declaration(c, this.family);
    }

    /** The combinations a pile holds: chips to remove, and a small picker to add one by kind. */
    comboList(side) {
      const s = this.s;
      const list = s.combos[side] || [];
      const box = h("div", { class: "combos", "data-field": `pile:${side}.combinations` },
        h("span", { class: "label small" }, t(this.family === "ottocento" ? "hand.combosOttocento" : "hand.combosGatti")));
      const chips = h("ul", { class: "combo-list", "aria-label": t("hand.combosOf", { side: this.sideLabel(side) }) });
      list.forEach((c, i) => chips.append(h("li", { "data-field": `pile:${side}.combinations[${i}]` },
        h("span", {}, this.comboLabel(c)),
        h("button", {
          type: "button", class: "icon-button", id: `combo-remove-${side}-${i}`,
          "aria-label": t("hand.removeCombo", { what: this.comboLabel(c) }),
          onclick: () => this.update((x) => { x.combos[side].splice(i, 1); }),
        }, "×"))));
      if (list.length) box.append(chips);
      const pick = this.comboPick && this.comboPick.side === side ? this.comboPick : null;
      if (!pick) {
        box.append(h("button", {
          type: "button", class: "button small", id: `combo-add-${side}`,
          onclick: () => { this.comboPick = { side }; this.draw(false); },
        }, t("hand.addCombo")));
        return box;
      }
      box.append(this.comboPicker(pick));
      return box;
    }

    comboPicker(pick) {
      const redraw = () => this.draw(false);
      const add = (combo) => {
        this.comboPick = null;
        this.update((x) => { (x.combos[pick.side] = x.combos[pick.side] || []).push(combo); });
      };
      const box = h("div", { class: "card combo-picker", id: "combo-picker" });
      const chips = (group, values, label, selected, onpick, word = String) => h("div", { class: "chips", role: "radiogroup", "aria-label": label },
        values.map((v) => chipRadio(group, v, word(v), selected === v, () => onpick(v))));
      const sequence = pick.kind === "sequence";
      box.append(chips("combo-kind", this.comboKinds(), t("hand.comboKind"), pick.kind, (kind) => {
        this.comboPick = { side: pick.side, kind };
        if (kind === "gatti") add({ kind });
        else redraw();
      }, (kind) => t(`meld.${kind}`)));
      if (this.family === "ottocento" && pick.kind) {
        const types = pick.kind === "cricca" ? ["tarocchi", "K", "Q", "C", "J"] : ["trumps", ...Cards.SUITS, "moors", "aces"];
        box.append(chips("combo-type", types, t("hand.comboType"), pick.type, (type) => {
          this.comboPick = { ...pick, type };
          redraw();
        }, (type) => t(sequence && Cards.SUITS.includes(type) ? `combo.suit.${type}` : `combo.type.${type}`)));
        if (pick.type) {
          const most = pick.kind === "cricca" ? 4 : ({ trumps: 18, moors: 6, aces: 6 }[pick.type] || 7);
          const sizes = Array.from({ length: most - 2 }, (_, i) => i + 3);
          box.append(chips("combo-count", sizes, t("hand.comboCount"), null,
            (count) => add({ kind: pick.kind, type: pick.type, count })));
        }
      } else if (pick.kind === "family") {
        box.append(chips("combo-suit", Cards.SUITS, t("hand.comboSuit"), null, (suit) => add({ kind: "family", suit }),
          (suit) => Cards.SYMBOL[suit]));
      } else if (pick.kind === "four_of_a_kind" || pick.kind === "three_of_a_kind") {
        box.append(chips("combo-rank", ["J", "C", "Q", "K"], t("hand.comboRank"), null, (rank) => add({ kind: pick.kind, rank }),
          (rank) => t(`rank.${rank}`)));
      }
      box.append(h("button", { type: "button", class: "button small", id: "combo-cancel",
        onclick: () => { this.comboPick = null; redraw(); } }, t("action.cancel")));
      return box;
    }

    lastTrickSection() {
      const s = this.s;
      return h("section", { class: "step", "data-field": "last_trick" },
        h("h2", {}, t("hand.lastTrick")),
        this.seatChips("last-trick", s.last_trick, (seat) => this.update((x) => { x.last_trick = seat; })));
    }

    bagattoSection() {
      const s = this.s;
      const b = s.bagatto;
      const box = h("section", { class: "step", "data-field": "bagatto" },
        h("h2", {}, t(`hand.bagatto.${this.family === "mitigatti" ? "mitigatti" : "gatti"}`)),
        switchButton("bagatto-on", t("hand.bagattoPlayed"), b.on, (on) => this.update((x) => { x.bagatto.on = on; })));
      if (b.on) {
        box.append(h("div", { class: "field", "data-field": "bagatto.seat" }, h("span", { class: "label" }, t("hand.bagattoWho")),
          this.seatChips("bagatto-seat", b.seat, (seat) => this.update((x) => { x.bagatto.seat = seat; }))));
        box.append(h("div", { class: "field", "data-field": "bagatto.won" },
          h("div", { class: "chips", role: "radiogroup", "aria-label": t("hand.bagattoOutcome") },
            chipRadio("bagatto-won", "won", t("hand.bagattoWon"), b.won, () => this.update((x) => { x.bagatto.won = true; })),
            chipRadio("bagatto-won", "lost", t("hand.bagattoLost"), !b.won, () => this.update((x) => { x.bagatto.won = false; })))));
        if (this.family === "mitigatti") {
          box.append(h("div", { class: "field", "data-field": "bagatto.valid" },
            switchButton("bagatto-valid", t("hand.bagattoValid"), b.valid, (on) => this.update((x) => { x.bagatto.valid = on; })),
            h("p", { class: "hint" }, t("hand.bagattoValidHint"))));
        }
      }
      return box;
    }

    checkSection() {
      const box = h("section", { class: "step checks", "aria-live": "polite" }, h("h2", {}, t("hand.checks")));
      box.append(h("ul", { class: "check-list" }, this.checks().map((c) => h("li", { class: c.ok ? "ok" : "bad" },
        h("span", { class: "check-icon", "aria-hidden": "true" }, c.ok ? "✓" : "!"),
        h("span", { class: "visually-hidden" }, c.ok ? t("check.ok") : t("check.todo")), c.text))));
      box.append(h("div", { class: "preview", id: "preview" }));
      return box;
    }

    // -- errors and saving --------------------------------------------------------------

    /** A field path of the record as the page's data-field keys name it. */
    fieldKey(path) {
      let p = (path || "").replace(/^hand\./, "");
      const m = /^piles\[(\d+)\](.*)$/.exec(p);
      if (m && this.pileIndex && this.pileIndex[Number(m[1])] !== undefined) {
        const side = this.pileIndex[Number(m[1])];
        let rest = m[2];
        const card = /^\.counting\[(\d+)\]/.exec(rest);
        if (card) {
          const pile = this.lastRecord && this.lastRecord.piles ? this.lastRecord.piles[Number(m[1])] : null;
          const code = pile ? pile.counting[Number(card[1])] : null;
          rest = code ? `.card:${code}` : ".counting";
        }
        p = `pile:${side}${rest}`;
      }
      return p;
    }

    showErrors() {
      const root = this.root;
      const box = root.querySelector("#form-errors");
      if (!box) return;
      box.replaceChildren();
      for (const error of this.errors) {
        const key = this.fieldKey(error.field);
        const side = /^pile:(\d+)/.exec(key);
        if (this.s.mode === "cards" && side && Number(side[1]) !== this.s.active && Number(side[1]) !== this.s.rest) {
          this.s.active = Number(side[1]);
          this.draw(false);
          return;
        }
        const target = findField(root, key);
        const message = h("p", { class: "field-error", "data-error-field": error.field || "" }, problemLine(error));
        if (target) {
          target.classList.add("invalid");
          target.setAttribute("aria-invalid", "true");
          if (target.tagName === "BUTTON") {
            const section = target.closest("[data-field='piles'], section") || target.parentElement;
            section.append(message);
          } else {
            target.append(message);
          }
        } else {
          box.append(message);
        }
      }
    }

    async save() {
      const button = this.root.querySelector("#save");
      if (this.isBlank()) {
        this.errors = [{ field: "piles", code: "nothing_entered", message: t("check.nothingEntered") }];
        this.draw(false);
        this.root.querySelector("[data-field='piles']")?.scrollIntoView({ block: "center" });
        return;
      }
      const record = this.record();
      this.lastRecord = record;
      button.disabled = true;
      if (!this.hand && !this.key) {
        this.key = randomKey();
        Drafts.keep(this);
      }
      // Hands already waiting go first: this one joins the queue behind them.
      if (Outbox.of(this.g.id).length) {
        this.queue(record);
        return;
      }
      try {
        if (this.hand) {
          await api("PUT", `/games/${this.g.id}/hands/${this.hand.number}`, {
            body: record, token: G.token, headers: { "If-Match": this.hand.etag },
          });
        } else {
          await api("POST", `/games/${this.g.id}/hands`, {
            body: record, token: G.token, headers: { "Idempotency-Key": this.key || (this.key = randomKey()) },
          });
        }
        Drafts.drop(this);
        G.etag = null;
        await refreshGame();
        banner(null);
        toast(this.hand ? t("hand.corrected", { n: this.number }) : t("hand.saved", { n: this.number }));
        G.expanded.clear();
        location.hash = `#/games/${this.g.id}`;
      } catch (error) {
        button.disabled = false;
        if (error.status === 0) {
          // No network: the hand is kept on the phone and sent when the network is back.
          this.queue(record);
          return;
        }
        const problems = problemErrors(error);
        const race = error.status === 409 || error.status === 412 || error.status === 403 ||
          problems.some((p) => p.code === "wrong_dealer");
        if (race) {
          await lostRace(error, {
            number: this.number,
            message: this.hand || error.status === 403 ? null : t("race.lost", { n: this.number }),
          });
          return;
        }
        this.errors = problems;
        this.key = null;
        this.draw(false);
        const first = this.root.querySelector(".field-error");
        if (first) {
          first.scrollIntoView({ block: "center" });
          first.setAttribute("tabindex", "-1");
          first.focus({ preventScroll: true });
        }
      }
    }
  }

  Object.assign(HandForm.prototype, {
    /** Keep the hand in the outbox (the network is away, or hands wait before it), with
     * what the phone can say of it: each column's points by the local count. */
    queue(record) {
      const preview = {};
      for (const column of this.g.columns) {
        const side = this.sides().find((x) => x.seats.includes(column.seats[0]));
        if (!side) continue;
        preview[column.key] = this.s.mode === "points" ? this.pointsOf(side.side) : this.pileOf(side.side).points;
      }
      Outbox.push(this.hand
        ? { game: this.g.id, kind: "put", number: this.number, record, ifMatch: this.hand.etag, preview }
        : { game: this.g.id, kind: "add", number: this.number, dealer: this.s.dealer, record, key: this.key, preview });
      Drafts.drop(this);
      G.expanded.clear();
      toast(t("outbox.kept", { n: this.number }));
      location.hash = `#/games/${this.g.id}`;
      flushOutbox(this.g.id);
    },
  });

  // -- start -----------------------------------------------------------------------------

  function setLanguage(lang) {
    I18n.setLang(lang);
    document.querySelectorAll("[data-lang]").forEach((b) => b.setAttribute("aria-pressed", b.dataset.lang === lang ? "true" : "false"));
    document.querySelector(".skip").textContent = t("action.skip");
  }

  document.querySelectorAll("[data-lang]").forEach((button) => button.addEventListener("click", () => {
    setLanguage(button.dataset.lang);
    G.id && G.game && location.hash === `#/games/${G.id}` ? drawSheet(false) : route();
  }));
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible" && G.id && G.timer) poll();
  });
  window.addEventListener("hashchange", () => { route(); });
  // The page and its files kept by a service worker, so that it opens with no network. Only
  // on a secure origin (https, or localhost): on plain http over a club's Wi-Fi the browser
  // offers none, and the page works as before, online.
  if ("serviceWorker" in navigator) {
    navigator.serviceWorker.register("/sw.js").catch(() => { /* not offered here */ });
  }
  setLanguage(I18n.lang);
  route();
})();
