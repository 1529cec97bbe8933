"""One catalogue names the cards: ``cards.po`` holds a card's words in every
language; the service's lines (``card_name``, the ``Speaker``) and the phone page's
(``Cards.name`` in cards.js, from its words file) build the same name from them, for every card
of every variant's pack, in every language the page speaks."""

from __future__ import annotations

import re
from typing import Any

from page_driver import call, page_module

from service.application.language import card_name
from service.domain import find_variant
from service.locale import __main__ as tool
from service.locale import card_languages, card_words, keyed_words, page_languages


def test_every_card_is_named_alike_by_the_service_and_the_page(browser: Any,
                                                               server: str) -> None:
    details = [call(server, "GET", f"/variants/{summary['id']}")
               for summary in call(server, "GET", "/variants")]
    assert {detail["family"] for detail in details} >= {"gatti", "gatti-classic", "ottocento",
                                                         "mitigatti"}
    assert set(card_languages()) == set(page_languages()) == {"en", "it", "fr"}
    page = browser.new_page()
    try:
        page.goto(server + "/")
        page.locator("#new-game").wait_for()
        for lang in page_languages():
            page_module(page, "i18n.js", "({ I18n }, lang) => I18n.setLang(lang)", lang)
            said = page_module(page, "cards.js", """({ Cards }, details) => details.map(
                (detail) => detail.pack.cards.map((code) => Cards.name(code, detail)))""",
                               details)
            for detail, page_names in zip(details, said, strict=True):
                variant = find_variant(detail["id"])
                assert detail["family"] == variant.family
                service_names = [card_name(variant.pack.card(code), lang, variant.family)
                                 for code in detail["pack"]["cards"]]
                assert page_names == service_names, (lang, detail["id"])
                assert len(set(service_names)) == len(variant.pack), (lang, detail["id"])
    finally:
        page.close()


def test_the_page_is_sent_the_cards_words_and_keeps_none_of_its_own() -> None:
    """The page's words file carries the cards' catalogue as it is, and ``page.po`` holds no
    card word beside it (a second source)."""
    from service.locale import page_words

    for lang in page_languages():
        cards = card_words(lang)
        assert {"rank.K", "suit.french.D", "suit.round.S", "card.plainVowel",
                "card.papote"} <= cards.keys()
        assert {key: page_words(lang)[key] for key in cards} == cards
        own = keyed_words("page", lang)
        assert not own.keys() & cards.keys(), lang
        assert not [key for key in own if re.match(r"(rank|suit|card)\.", key)], lang


def test_the_locale_check_finds_a_missing_card_word(tmp_path: Any, monkeypatch: Any) -> None:
    source = tool.keyed_path("cards", "fr").read_text("utf-8")
    cut = source.replace('msgstr "épées"', 'msgstr ""')
    assert cut != source
    for lang in ("en", "fr"):
        (tmp_path / lang / "LC_MESSAGES").mkdir(parents=True)
    (tmp_path / "fr" / "LC_MESSAGES" / "cards.po").write_text(cut, "utf-8")
    (tmp_path / "en" / "LC_MESSAGES" / "cards.po").write_text(
        tool.keyed_path("cards", "en").read_text("utf-8"), "utf-8")
    monkeypatch.setattr(tool, "HERE", tmp_path)
    assert tool.keyed_missing("cards", "fr") == ["suit.round.S"]
    assert tool.keyed_missing("cards", "en") == []
