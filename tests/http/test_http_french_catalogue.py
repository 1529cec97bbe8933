"""French, complete: the French catalogue translates every sentence the code
says — problems, explanation lines, payments and the rulebook of every family — keeping each
placeholder of the English, with French plural forms (0 and 1 singular); Mitigatti speaks with
the words of Cason's 1930 article *Les Jeux de Cartes à Nice*."""

from __future__ import annotations

import re
from string import Formatter

import pytest
from babel.messages.catalog import Catalog, Message
from babel.messages.pofile import read_po

from service.application.language import Speaker
from service.domain.core.text import Text
from service.locale import translations
from service.locale.__main__ import catalogue_path, extracted, missing

#: English words of the rules core that a French sentence must not keep (API field names and
#: the games' own words such as « solo » or « sans prendre » are not among them).
ENGLISH = re.compile(r"\b(the|is|are|was|were|seat|seats|side|pile|piles|trick|must|give|"
                     r"holds?|declared|shown|dealer|discard|trumps?|King|Queen|Fool|with|"
                     r"and|of|to)\b")
#: What a sentence may say in English because the API reads it so: field names, values, codes.
API_WORDS = re.compile(r"\b(despite_disputes|first_dealer|declarations|piles|errors|cards|"
                       r"tricks|counting|Idempotency-Key|If-Match|ETag|Authorization|Bearer|"
                       r"true|false|null|none|confirm|dispute|match_points|difference|"
                       r"individual|pairs|free|danish|swiss|name|initials|active|players|"
                       r"pairing|rounds|seed|entrants|tables|verdict|reason|melds|valid|"
                       r"confirmation|GET|PUT|DELETE|[A-Z]+\d*|T\d+|api/v1/\S+)\b")


def _french() -> Catalog:
    with catalogue_path("fr").open("rb") as f:
        return read_po(f, locale="fr")


def _placeholders(text: str) -> set[str]:
    return {name for _, name, _, _ in Formatter().parse(text) if name}


def _forms(message: Message) -> tuple[tuple[str, ...], tuple[str, ...]]:
    ids = message.id if isinstance(message.id, tuple) else (message.id,)
    strings = message.string if isinstance(message.string, tuple) else (message.string,)
    return tuple(map(str, ids)), tuple(map(str, strings))


def test_the_french_catalogue_translates_every_sentence_the_code_says() -> None:
    assert missing("fr") == []
    catalog = _french()
    said = [m for m in extracted() if m.id]
    assert len(said) > 500
    for message in said:
        found = catalog.get(message.id)
        assert found is not None, message.id
        assert all(_forms(found)[1]), message.id


def test_every_french_sentence_keeps_the_placeholders_of_its_english() -> None:
    checked = 0
    for message in _french():
        if not message.id:
            continue
        ids, strings = _forms(message)
        for i, text in enumerate(strings):
            english = ids[min(i, len(ids) - 1)]
            assert _placeholders(text) == _placeholders(english), (ids, text)
            checked += 1
    assert checked > 500


def test_plural_forms_are_french_ones() -> None:
    catalog = _french()
    assert catalog.plural_forms == "nplurals=2; plural=(n > 1);"
    plurals = [m for m in catalog if m.id and isinstance(m.id, tuple)]
    assert len(plurals) >= 9
    for message in plurals:
        assert len(_forms(message)[1]) == 2, message.id


@pytest.mark.parametrize("n,form", [(0, "0 problème a été trouvé\u202f; il figure dans errors"),
                                    (1, "1 problème a été trouvé\u202f; il figure dans errors"),
                                    (2, "2 problèmes ont été trouvés\u202f; chacun figure dans errors")])
def test_a_count_takes_the_french_form_zero_and_one_singular(n: int, form: str) -> None:
    said = Speaker("fr", None, translations("fr"))(Text.counted(
        "{n} problem was found; it is listed in errors",
        "{n} problems were found; each is listed in errors", n))
    assert said == form


def test_no_french_sentence_keeps_the_english_of_the_rules_core() -> None:
    for message in _french():
        if not message.id:
            continue
        for text in _forms(message)[1]:
            bare = API_WORDS.sub("", re.sub(r"\{[^{}]*\}", "", text))
            assert not ENGLISH.search(bare), (message.id, text)


def test_mitigatti_speaks_with_the_words_of_cason_1930() -> None:
    catalog = _french()

    def fr(english: str) -> str:
        message = catalog.get(english)
        assert message is not None, english
        return str(message.string)

    assert "petar bagatte" in fr("{seat} lost the Bagatte in the last trick (petar bagatte): "
                                 "{each} marca to each other player{doubled}")
    assert fr("Bagatte ultimu") == "Bagatte ultimu"
    assert fr("Declarations") == "Les accusassions"
    assert fr("ten tarocchi") == "10 tarocche"
    assert fr("quatre rei (the four Kings)").startswith("quatre rei")
    payment = fr("Partida: {payer} took {points} points, 13 to 25: 1 marca to {to}")
    assert payment.startswith("Partida :") and "1 marca" in payment
    rulebook = fr("Trumps from the top: T20 (the Angel), T21, T19 down to T6, the Papote T5 to "
                  "T2 (equal: the last played of several wins), T1 (the Bagatte). Long suits "
                  "rank K Q C J 1 10 down to 2, round suits K Q C J 1 2 up to 10. Counting "
                  "cards: the Fuole, T1, T20 and each King 4, Queen 3, Cavalier 2, Jack 1, and "
                  "a point for each trick and for the discard: 72 a hand with four players, 78 "
                  "with three. The Fuole is never captured: it stays with its player's side.")
    for word in ("tarocche", "l'Ange", "Papote", "Bagatte", "Fuole", "spada", "baston", "cupa",
                 "denari"):
        assert word in rulebook, word
