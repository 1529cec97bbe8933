"""The page at the table, in Italian and in French, on a phone 360 px wide: every main screen
(home, the new-game form, a Gatti, an Ottocento and a Mitigatti sheet with their hands and
forms, the figure chips, the calls, a duplicate board's uncovered cards, an ended game and its
winner, an event's organiser view and its standings, a club with a forgotten member, a
member's page, a season, the door, an entrant's own page and the organiser's door) is no wider than the phone, and shows no English word of the page
and no code (an end's ``R10`` or ``boards``, a card's ``K♥`` or ``T5`` where the language
names the card otherwise, a forgotten member's "Player 2").

English words are found by the catalogues: a word the English page says (``page.po``,
``cards.po``) that the language's own catalogues never say is English on that screen."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from page_driver import Table, call, club_game, page_module, record

from service.domain import deal_board, find_variant
from service.locale import card_words, keyed_words, typeset

WIDTH = 360
FOUR = ["Anna", "Bruno", "Carla", "Dario"]
TWELVE = [*FOUR, "Elena", "Fabio", "Gino", "Ilaria", "Luca", "Marta", "Nino", "Olga"]
WORD = re.compile(r"[^\W\d_]+(?:'[^\W\d_]+)?")
#: Words the English page shares with a name, a game or the other languages' own table talk.
SHARED = {"segnapunti", "gatti", "mitigatti", "ottocento", "bagatto", "partida", "marca",
          "marche", "fuole", "papote", "bagatte", "pdf", "csv", "json", "ok", "qr",
          "elo", "wifi", "url"}


def _said(texts: Any) -> set[str]:
    out: set[str] = set()
    for text in texts:
        forms = text.values() if isinstance(text, dict) else [text]
        for form in forms:
            form = re.sub(r"\{[^}]*\}", " ", form)
            out.update(w.lower() for w in WORD.findall(form))
    return out


def english_words(lang: str) -> set[str]:
    """The words the English page says that ``lang``'s page, sheet and cards never say."""
    english = _said(keyed_words("page", "en").values()) | _said(card_words("en").values())
    own = (_said(keyed_words("page", lang).values()) | _said(keyed_words("sheet", lang).values())
           | _said(card_words(lang).values()))
    return {w for w in english - own - SHARED if len(w) >= 3}


#: Codes no reader of ``lang`` should meet: how a game ended, the English figures' letters,
#: a trump's code where the language does not write trumps with a T, "Player N", a seat
#: counted from 0.
CODES = {
    "it": re.compile(r"\((?:R\d+|boards|evening_over)\)|\bevening_over\b|"
                     r"(?<![\w])[JQK](?:[♥♦♣♠]|(?![\w]))|\bPlayer \d+|\b[Pp]ost[oi] 0\b"),
    "fr": re.compile(r"\((?:R\d+|boards|evening_over)\)|\bevening_over\b|"
                     r"(?<![\w])[JQKT](?:[♥♦♣♠]|(?![\w]))|\bT\d{1,2}\b|\bPlayer \d+|"
                     r"\b[Pp]laces? 0\b"),
}
#: French's ``: ; ! ?`` after a plain space, or after no space at all ("Pour régler:").
FRENCH_SIGN = re.compile(r"\w[ \u00a0][:;!?]|[^\s\u202f\u00a0:/][:;!?](?:\s|$)")
#: A sentence (not a card's face) with a trump's code in it: "Carte scoperte: … T5".
TRUMP_CODE = re.compile(r"\bT\d{1,2}\b")

#: The text a person reads on the screen: each visible text node, and whether it is a card's
#: face (a chip, a grid's card) or a sheet's mark (explained by its legend), where a card's
#: short label belongs.
VISIBLE = """() => {
  const out = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node.textContent.trim();
    const el = node.parentElement;
    if (!text || !el || el.closest(".visually-hidden, script, style, [hidden], svg")) continue;
    if (!el.checkVisibility({ visibilityProperty: true, opacityProperty: true })) continue;
    out.push([text, Boolean(el.closest(".gcard, .card-chip, .cardface, .pack-grid, .mark"))]);
  }
  return out;
}"""


def findings(page: Any, lang: str, english: set[str]) -> list[str]:
    """What is wrong with the screen as it stands: wider than the phone, no description in
    the page's language (what a search engine shows of it), English words, codes."""
    found = []
    width = page.evaluate("document.documentElement.scrollWidth")
    if width > WIDTH:
        wide = page.evaluate(f"""() => [...document.querySelectorAll("body *")]
            .filter((el) => el.getBoundingClientRect().right > {WIDTH} + 0.5)
            .slice(0, 3).map((el) => el.id || el.className || el.tagName)""")
        found.append(f"{width} px wide: {wide}")
    described = page.evaluate(
        "document.querySelector(\"meta[name='description']\")?.content ?? null")
    if described != typeset(lang, str(keyed_words("page", lang)["page.description"])):
        found.append(f"the page's description is not the {lang} one: {described!r}")
    for text, face in page.evaluate(VISIBLE):
        words = sorted({w for w in WORD.findall(text) if w.lower() in english})
        if words:
            found.append(f"English {words} in {text!r}")
        code = CODES[lang].search(text)
        if code:
            found.append(f"code {code.group()!r} in {text!r}")
        elif not face and lang == "it" and TRUMP_CODE.search(text):
            found.append(f"a trump's code in the sentence {text!r}")
        if lang == "fr" and FRENCH_SIGN.search(text):
            found.append(f"no narrow no-break space before a French sign in {text!r}")
    return found


class World:
    """The data the walk shows, made through the API once a language."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.club = call(base, "POST", "/clubs", body={"name": "Circolo"})
        edit = self.club["tokens"]["edit"]
        cid = self.club["id"]
        members = {}
        for name in ("Anna", "Bruno", "Carla", "Nicolò"):
            members[name] = call(base, "POST", f"/clubs/{cid}/members", edit,
                                 {"name": name})["id"]
        self.season = call(base, "POST", f"/clubs/{cid}/seasons", edit, {
            "name": "Autunno", "from": "2026-01-01", "to": "2099-12-31"})["id"]
        self.ended = club_game(base, cid, edit)
        game = call(base, "POST", "/games", headers={"Club-Authorization": f"Bearer {edit}"},
                    body={"variant": "gatti-3", "players": ["Anna", "Bruno", "Nicolò"],
                          "club": cid})
        token = game["tokens"]["edit"]
        call(base, "POST", f"/games/{game['id']}/hands", token, {
            "dealer": 0, "piles": [{"side": 0, "points": 40}, {"side": 1, "points": 20}]})
        call(base, "POST", f"/clubs/{cid}/members/{members['Nicolò']}/forget", edit, {})
        self.forgotten_game = game
        self.anna = members["Anna"]
        self.door: dict[str, Any] = {}


def _walk(table: Table, world: World) -> list[tuple[str, Callable[[], None]]]:
    page, base = table.page, table.base
    club = world.club
    cid = club["id"]

    def sheet_with_hand(variant: str, names: list[str], hand: dict[str, Any]) -> None:
        game = call(base, "POST", "/games", body={"variant": variant, "players": names})
        call(base, "POST", f"/games/{game['id']}/hands", game["tokens"]["edit"], hand)
        page.goto(f"{base}/#/games/{game['id']}?token={game['tokens']['edit']}")
        page.wait_for_selector("table.sheet")
        page.click("tr.hand[data-hand='1'] .hand-button")

    def gatti_sheet() -> None:
        sheet_with_hand("gatti-3", FOUR[:3], {
            "dealer": 0, "bagatto": {"seat": 1, "won": True},
            "declarations": [{"seat": 0, "kind": "family", "suit": "D"}],
            "piles": [{"side": 0, "points": 40}, {"side": 1, "points": 20}]})

    def figure_chips() -> None:
        table.new_hand()
        page.click("#decl-add")
        table.seat_chip("decl-seat", 1)
        table.choose("#decl-mode-kind")
        table.choose("#decl-kind-four_of_a_kind")
        page.wait_for_selector("#decl-rank-K")

    def gatti_by_cards() -> None:
        page.click("#decl-cancel") if page.locator("#decl-cancel").count() else None
        table.pile(0, 10, ["T1", "T21", "FOOL", "KH"])

    def called() -> None:
        table.open_game("gatti-4-call", FOUR)
        table.new_hand()
        page.wait_for_selector("#call-card-KH")

    def ottocento() -> None:
        sheet_with_hand("ottocento", FOUR, {
            "dealer": 0, "discard": ["6S", "7S"], "last_trick": 1,
            "declarations": [{"seat": 1, "kind": "sequence", "cards": ["KH", "QH", "MATTO"]}],
            "piles": [{"side": 0, "tricks": 8, "counting": [
                "ANGEL", "WORLD", "SUN", "T16", "KS", "QS", "CS", "KD", "KC", "1S", "1C",
                "1H"]}]})

    def mitigatti() -> None:
        sheet_with_hand("mitigatti-4", FOUR, {
            "dealer": 0, "contract": {"type": "call", "declarer": 0, "called_card": "KH",
                                      "partner": 2},
            "declarations": [{"seat": 1, "kind": "mitigatti"}],
            "piles": [{"side": 0, "points": 23}], "bagatto": {"seat": 1, "won": True}})

    def mitigatti_form() -> None:
        table.new_hand()

    def ended() -> None:
        game = world.ended
        page.goto(f"{base}/#/games/{game['id']}?token={game['tokens']['edit']}")
        page.wait_for_selector(".winner")

    def event() -> dict[str, Any]:
        created = call(base, "POST", "/events", body={
            "name": "Giovedì", "variant": "gatti-4", "format": "individual",
            "entrants": [{"name": n} for n in TWELVE]})
        started = call(base, "POST", f"/events/{created['id']}/rounds",
                       created["tokens"]["edit"], {})
        record(base, started["tables"][0], 40)
        return created

    def organiser() -> None:
        created = event()
        page.goto(f"{base}/#/events/{created['id']}?token={created['tokens']['edit']}")
        page.wait_for_selector("#event-status")
        page.goto(created["links"]["read"])
        page.wait_for_selector("#board-table tr.standing")

    def duplicate() -> None:
        gatti3 = find_variant("gatti-3")
        created = call(base, "POST", "/events", body={
            "name": "Duplicato", "variant": "gatti-3", "format": "individual",
            "deals": "duplicate", "seed": 77, "entrants": [{"name": n} for n in TWELVE[:6]]})
        started = call(base, "POST", f"/events/{created['id']}/rounds",
                       created["tokens"]["edit"], {})
        for played in started["tables"]:
            for board_number in played["boards"][:1]:
                board = deal_board(gatti3, 77, board_number)
                held = [*board.hands[board.dealer], *board.extra]
                discard = [c.code for c in held if c.is_plain and c.rank not in "KQCJ"][:3]
                call(base, "POST", f"/games/{played['game']}/hands",
                     played["tokens"]["edit"], {
                         "dealer": board.dealer, "discard": discard,
                         "piles": [{"side": s, "points": p} for s, p in
                                   enumerate((40, 20, 18))]})
        world.duplicate = (created, started)
        first = started["tables"][0]
        page.goto(f"{base}/#/games/{first['game']}?token={first['tokens']['edit']}")
        page.click("#new-hand")
        page.wait_for_selector("#board-exposed")

    def duplicate_board() -> None:
        created, _ = world.duplicate
        page.goto(f"{base}/#/events/{created['id']}?token={created['tokens']['edit']}")
        page.wait_for_selector("#event-status")

    def club_page() -> None:
        page.goto(f"{base}/#/clubs/{cid}?token={club['tokens']['edit']}")
        page.wait_for_selector("#roster .member")
        page.locator(f"label:has(#season-{world.season})").click()
        page.wait_for_selector("#season-standings")
        page.wait_for_selector("#season-chart")

    def forgotten_game() -> None:
        game = world.forgotten_game
        page.goto(f"{base}/#/games/{game['id']}?token={game['tokens']['edit']}")
        page.wait_for_selector("table.sheet")

    def member() -> None:
        page.goto(f"{base}/#/clubs/{cid}/members/{world.anna}")
        page.wait_for_selector("#member-rating polyline")

    def door() -> None:
        created = call(base, "POST", "/events", headers={
            "Club-Authorization": f"Bearer {club['tokens']['edit']}"}, body={
            "name": "Giovedì", "variant": "gatti-4", "format": "individual", "club": cid,
            "checkin": True, "entrants": [], "round_minutes": 30})
        world.door = created
        page.goto(created["links"]["door"])
        page.wait_for_selector("#door-list")
        page.click(f"#member-{world.anna}")
        page.wait_for_selector("#door-yes")

    def entrant() -> None:
        created = world.door
        page.click("#door-yes")
        page.wait_for_selector("#welcome")
        for arrival in ({"name": "Bruno"}, {"name": "Carla"}, {"name": "Dario"}):
            call(base, "POST", f"/events/{created['id']}/checkins", created["tokens"]["door"],
                 arrival)
        call(base, "POST", f"/events/{created['id']}/rounds", created["tokens"]["edit"], {})
        page.wait_for_selector(".open-game")
        page.click("#entrant-withdraw-ask")

    def door_organiser() -> None:
        created = world.door
        page.goto(f"{base}/#/events/{created['id']}?token={created['tokens']['edit']}")
        page.wait_for_selector("#door-card")
        page.click("#roster summary")
        page.click("#entrant-button-0")
        page.click("#entrant-link-0")
        page.wait_for_selector(".entrant-link svg")

    return [
        ("home", lambda: (page.goto(base + "/"), page.wait_for_selector("#new-game"))),
        ("new game", lambda: (page.click("#new-game"), page.wait_for_selector("#start"))),
        ("a Gatti sheet, its hand explained", gatti_sheet),
        ("Gatti's figure chips", figure_chips),
        ("a Gatti pile card by card", gatti_by_cards),
        ("a called card's chips", called),
        ("an Ottocento sheet, its hand explained", ottocento),
        ("a Mitigatti sheet, its hand explained", mitigatti),
        ("a Mitigatti hand's form", mitigatti_form),
        ("an ended game and its winner", ended),
        ("an event's organiser view and its standings", organiser),
        ("a duplicate board's uncovered cards", duplicate),
        ("a duplicate evening's organiser view", duplicate_board),
        ("a club with a forgotten member and its season", club_page),
        ("a game of a forgotten member", forgotten_game),
        ("a member's page", member),
        ("the door, a member's name tapped", door),
        ("an entrant's own page in a round", entrant),
        ("the organiser's door and an entrant's link", door_organiser),
    ]


@pytest.mark.parametrize("locale", ["it-IT", "fr-FR"])
def test_every_screen_fits_the_phone_in_the_pages_own_words(phones: Any, locale: str) -> None:
    lang = locale[:2]
    phone = phones(locale)
    table = Table(phone.page, phone.base)
    english = english_words(lang)
    world = World(phone.base)
    found = {}
    for name, reach in _walk(table, world):
        reach()
        found[name] = findings(phone.page, lang, english)
    wrong = {name: f for name, f in found.items() if f}
    assert wrong == {}, "\n".join(f"{name}: {f}" for name, f in wrong.items())


def test_a_count_of_one_on_the_phone_takes_the_singular(phones: Any) -> None:
    """"1 punti" is no Italian: the points to go, a pile's cards that count, by the
    language's plural forms (French's one is 0 and 1), a number written for reading too."""
    phone = phones("it-IT")
    page = phone.page
    page.goto(phone.base + "/")
    page.locator("#new-game").wait_for()
    said = {}
    for lang in ("it", "fr"):
        said[lang] = page_module(page, "i18n.js", """async ({ I18n, t }, lang) => {
            await I18n.setLang(lang);
            return [t("sheet.toGo", { name: "Anna", n: 1 }),
                    t("sheet.toGo", { name: "Anna", n: "1.000", count: 1000 }),
                    t("check.crowded", { side: "Anna", n: 1, cards: 2 })];
        }""", lang)
    assert said == {
        "it": ["Anna: manca 1 punto", "Anna: mancano 1.000 punti",
               "Anna: 1 carta che conta, ma il mazzetto ne tiene 2."],
        "fr": ["Anna\u202f: encore 1 point", "Anna\u202f: encore 1.000 points",
               "Anna\u202f: 1 carte qui compte, mais le tas en contient 2."]}
