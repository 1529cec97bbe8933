"""Every word in the table's language: problems and explanation lines in Italian
when the request asks for it (``Accept-Language``), cards by their names in the game's own
words, plurals by the language's rules; English as before otherwise; the catalogue holds a
translation of every sentence the code says, with the same placeholders."""

from __future__ import annotations

import io
import re
from string import Formatter
from typing import Any

import pytest
from babel.messages.pofile import read_po
from http_support import API, auth

from service.locale.__main__ import catalogue_path, extracted, missing

IT = {"Accept-Language": "it-IT,it;q=0.9,en;q=0.5"}
#: Words of the rules core's English that an Italian answer must not hold.
ENGLISH = re.compile(r"\b(the|is|are|was|seat|pile|trick|tricks|cards?|points|side|must|"
                     r"give|not|only|holds?|declared|shown)\b")


def score(client: Any, variant: str, hand: dict[str, Any], headers: dict[str, str] | None = None,
          options: dict[str, Any] | None = None) -> Any:
    return client.post(f"{API}/score", json={"variant": variant, "hand": hand,
                                             "options": options or {}}, headers=headers or {})


BROKEN = {"dealer": 0, "bagatto": {"seat": 1, "won": True},
          "declarations": [{"seat": 0, "kind": "family", "cards": ["KD", "QD", "CD", "JD"]},
                           {"seat": 1, "kind": "four_of_a_kind", "rank": "K"}],
          "piles": [{"side": 0, "points": 70}, {"side": 1, "points": 2}]}


def test_a_refusal_comes_in_italian_with_card_names_and_plurals(client: Any) -> None:
    english = score(client, "gatti-3", BROKEN)
    italian = score(client, "gatti-3", BROKEN, IT)
    assert english.status_code == italian.status_code == 422
    assert italian.headers["Content-Language"] == "it"
    assert "Accept-Language" in italian.headers["Vary"]
    # The same problems, field by field and code by code; only the words differ.
    assert [(e["field"], e["code"], e.get("rule")) for e in english.json["errors"]] == [
        (e["field"], e["code"], e.get("rule")) for e in italian.json["errors"]]
    messages = {e["code"]: e["message"] for e in italian.json["errors"]}
    assert messages["shown_by_two_players"] == (
        "posto 0 ha già mostrato re di quadri")
    assert "trionfo 1 (Bagatto)" in messages["points_below_cards"]
    assert "KD was already shown by seat 0" in english.json["errors"][0]["message"]
    for message in [*messages.values(), italian.json["detail"], italian.json["title"]]:
        assert not ENGLISH.search(message), message
    count = len(italian.json["errors"])
    assert italian.json["detail"] == f"Sono stati trovati {count} problemi; ognuno è elencato in errors"
    one = score(client, "gatti-3", {"dealer": 0, "piles": [{"side": 0, "points": 99}]}, IT)
    assert one.json["detail"] == "i punti: va da 0 a 78, non 99"


def test_an_unknown_language_is_answered_in_english(client: Any) -> None:
    answer = score(client, "gatti-3", BROKEN, {"Accept-Language": "de-DE"})
    assert answer.json["errors"][0]["message"].startswith("KD was already shown")
    assert answer.headers["Content-Language"] == "en"


def test_cards_are_named_in_the_games_own_words(client: Any) -> None:
    """Gatti's French suits; the round suits of Ottocento and Mitigatti."""
    ottocento = {"dealer": 0, "discard": ["KD", "6H"], "last_trick": 1,
                 "piles": [{"side": 0, "points": 50}]}
    answer = score(client, "ottocento", ottocento, IT)
    assert answer.status_code == 422
    assert "re di denari" in answer.json["errors"][0]["message"]
    gatti = score(client, "gatti-3", {"dealer": 0, "discard": ["KD", "2H", "3H"],
                                      "piles": [{"side": 0, "points": 50},
                                                {"side": 1, "points": 20}]}, IT)
    assert "re di quadri" in gatti.json["errors"][0]["message"]


def test_explanation_lines_come_in_italian(client: Any) -> None:
    hand = {"dealer": 0, "piles": [{"side": 0, "points": 40}, {"side": 1, "points": 20}]}
    answer = score(client, "gatti-3", hand, IT)
    texts = [line["text"] for side in answer.json["sides"] for line in side["lines"]]
    assert texts == ["Posto 0: 40 punti di mazzo, come contati al tavolo",
                     "Posto 1: 20 punti di mazzo, come contati al tavolo",
                     "Posto 2: 18 punti di mazzo, il resto del totale della mano"]
    english = score(client, "gatti-3", hand)
    assert english.json["sides"][0]["lines"][0]["text"] == (
        "Seat 0: 40 deck points, as counted at the table")


def test_marca_payments_come_in_italian_with_plural_marca(client: Any) -> None:
    hand = {"dealer": 0, "piles": [{"side": 0, "points": 48}, {"side": 1, "points": 20}]}
    answer = score(client, "mitigatti-3", hand, IT)
    texts = [p["text"] for p in answer.json["payments"]]
    assert texts == ["Partida: posto 1 ha fatto 20 punti, da 13 a 25: 1 marca a posto 0",
                     "Partida: posto 2 ha fatto 10 punti, meno di 13: 2 marche a posto 0"]


def test_a_stored_game_reads_in_the_language_asked_with_its_own_etag(client: Any,
                                                                     table: Any) -> None:
    game = table()
    added = game.add({"dealer": 0, "piles": [{"side": 0, "points": 40},
                                             {"side": 1, "points": 20}]})
    assert added.status_code == 201
    english = client.get(game.url, headers=auth(game.read))
    italian = client.get(game.url, headers={**auth(game.read), **IT})
    line = italian.json["hands"][0]["result"]["sides"][0]["lines"][0]["text"]
    # A stored game's lines name its players, in every language.
    assert line == "Anna: 40 punti di mazzo, come contati al tavolo"
    assert english.json["hands"][0]["result"]["sides"][0]["lines"][0]["text"] == (
        "Anna: 40 deck points, as counted at the table")
    assert english.headers["ETag"] != italian.headers["ETag"]
    again = client.get(game.url, headers={**auth(game.read), **IT,
                                          "If-None-Match": italian.headers["ETag"]})
    assert again.status_code == 304
    other = client.get(game.url, headers={**auth(game.read),
                                          "If-None-Match": italian.headers["ETag"]})
    assert other.status_code == 200  # the English body is another representation
    refused = client.post(f"{game.url}/hands", headers={**auth(game.edit), **IT},
                          json={"dealer": 1, "piles": [{"side": 0, "points": 80}]})
    assert refused.status_code == 422
    assert refused.json["errors"][0]["message"].startswith("i punti: va da 0 a 78")


def _placeholders(text: str) -> set[str]:
    return {name for _, name, _, _ in Formatter().parse(text) if name}


def test_the_catalogue_translates_every_sentence_with_the_same_placeholders() -> None:
    assert missing("it") == []
    with catalogue_path("it").open("rb") as f:
        catalog = read_po(f, locale="it")
    checked = 0
    for message in catalog:
        if not message.id:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        for text in strings:
            assert _placeholders(text) == _placeholders(ids[0]), (ids, text)
            checked += 1
    assert checked > 250


def test_the_check_counts_a_fuzzy_translation_as_missing(tmp_path: Any, monkeypatch: Any) -> None:
    """A sentence that changed (given a plural, say) keeps its old translation marked fuzzy,
    which gettext does not use: the sentence would be said in English, so ``--check`` fails."""
    from service.locale import __main__ as tool

    source = catalogue_path("it").read_text("utf-8")
    sentence = "{seat} won the last trick with the Bagatte: {each} marca from each other player"
    marked = source.replace(f'#, python-brace-format\nmsgid "{sentence}',
                            f'#, fuzzy, python-brace-format\nmsgid "{sentence}', 1)
    assert marked != source
    (tmp_path / "it" / "LC_MESSAGES").mkdir(parents=True)
    (tmp_path / "it" / "LC_MESSAGES" / "messages.po").write_text(marked, "utf-8")
    monkeypatch.setattr(tool, "HERE", tmp_path)
    gaps = missing("it")
    assert len(gaps) == 1 and sentence in gaps[0]


def test_every_sentence_is_gathered_whatever_is_written_beside_it() -> None:
    """The catalogues' sync gathers a sentence though a variable shares the plural's name
    (``counted``) or an f-string sits beside it in the call; a sentence it missed would be
    dropped from every catalogue and said in English."""
    from service.locale import __main__ as tool

    source = (b'counted = {}\n'
              b'counted["a"] = max(counted["a"], 1)\n'
              b'problems.add(f"x[{i}]", "y", Text("a sentence after {n}", n=f"U+{i:04X}"))\n'
              b'Text.counted("one hand", "{n} hands", 2)\n'
              b'Text(f"not a sentence {i}")\n')
    assert list(tool.code_sentences(io.BytesIO(source), None, [], {})) == [
        (3, "Text", "a sentence after {n}", []),
        (4, "counted", ("one hand", "{n} hands"), [])]
    said = {m.id for m in extracted() if m.id}
    assert {"the game would end before hand {n}",
            ("{side} (the dealer's side) has no points, but the discard always counts for it, "
             "one trick at least"),
            "a name is printable text: it holds the control character {code}"} <= said


@pytest.mark.parametrize("n,form", [(1, "È stato trovato 1 problema"),
                                    (2, "Sono stati trovati 2 problemi")])
def test_plural_forms_follow_the_language(n: int, form: str) -> None:
    from service.application.language import Speaker
    from service.domain.core.text import Text
    from service.locale import translations

    said = Speaker("it", None, translations("it"))(Text.counted("{n} problem was found; it is listed in errors",
                                      "{n} problems were found; each is listed in errors", n))
    assert said.startswith(form)


def test_the_use_cases_refusals_come_in_italian_too(client: Any, table: Any) -> None:
    game = table()
    read_only = client.post(f"{game.url}/hands", headers={**auth(game.read), **IT},
                            json={"dealer": 0, "piles": [{"side": 0, "points": 40},
                                                         {"side": 1, "points": 20}]})
    assert read_only.status_code == 403
    assert read_only.json["detail"] == (
        "il token di sola lettura non può cambiare la partita: usa quello per segnare")
    missing_hand = client.get(f"{game.url}/hands/4", headers={**auth(game.read), **IT})
    assert missing_hand.status_code == 404
    assert missing_hand.json["detail"] == f"la partita {game.id} non ha la mano 4"
    english = client.get(f"{game.url}/hands/4", headers=auth(game.read))
    assert english.json["detail"] == f"game {game.id} has no hand 4"


def test_the_rulebook_reads_in_both_languages(client: Any) -> None:
    english = client.get(f"{API}/variants/ottocento/rules")
    italian = client.get(f"{API}/variants/tarocchino/rules", headers=IT)
    assert english.status_code == italian.status_code == 200
    assert [s["ref"] for s in english.json["sections"]] == [
        s["ref"] for s in italian.json["sections"]]
    titles = {s["ref"]: s["title"] for s in italian.json["sections"]}
    assert titles["§4.3"] == "Cricche e sequenze" and titles["R18"] == (
        "La lunghezza di una sequenza")
    assert {s["ref"]: s["title"] for s in english.json["sections"]}["§4.3"] == (
        "Cricche and sequences")
    assert italian.headers["Content-Language"] == "it"
    missing = client.get(f"{API}/variants/briscola/rules", headers=IT)
    assert missing.status_code == 404
    assert missing.json["detail"] == "non esiste la variante 'briscola'"


def test_a_body_that_does_not_fit_its_schema_is_refused_in_italian(client: Any) -> None:
    answer = client.post(f"{API}/score", headers=IT,
                         json={"variant": "gatti-3", "hand": {"dealer": "zero"}, "extra": 1})
    assert answer.status_code == 422
    assert answer.json["title"] == "Il corpo della richiesta non rispetta il suo schema"
    assert answer.json["detail"] == "2 campi non sono validi; ognuno è elencato in errors"
    assert {e["message"] for e in answer.json["errors"]} == {
        "Campo sconosciuto.", "Non è un numero intero."}


def test_the_http_refusals_say_their_status_in_italian(client: Any) -> None:
    nowhere = client.get(f"{API}/nowhere", headers=IT)
    assert nowhere.status_code == 404
    assert (nowhere.json["title"], nowhere.json["detail"]) == (
        "Non trovato", "a questo indirizzo non c'è niente")
    wrong = client.delete(f"{API}/score", headers=IT)
    assert wrong.status_code == 405
    assert wrong.json["detail"] == "questo indirizzo non accetta DELETE"
    assert client.get(f"{API}/nowhere").json["title"] == "Not Found"


# -- French for Nice ----------------------------------------------------------------

FR = {"Accept-Language": "fr-FR,fr;q=0.9,en;q=0.5"}
#: Words of the rules core's English that a French answer must not hold.
ENGLISH_IN_FRENCH = re.compile(r"\b(the|is|are|was|seat|seats|trick|tricks|cards?|side|"
                               r"must|give|not|only|holds?|declared|shown|deck|counting)\b")
GATTI_COUNTED = {"dealer": 0,
                 "declarations": [{"seat": 1, "kind": "family",
                                   "cards": ["KH", "QH", "CH", "JH"]}],
                 "piles": [{"side": 0, "tricks": 10, "counting": ["T1", "KD"]},
                           {"side": 1, "tricks": 5, "counting": ["KC"]}]}


def test_a_refusal_names_cards_in_french_by_the_games_own_suits(client: Any) -> None:
    """``Accept-Language: fr``: the answer says it is French, and names Gatti's cards by the
    French suits, Ottocento's by the round ones (coupes, deniers, bâtons, épées)."""
    ottocento = score(client, "ottocento", {"dealer": 0, "discard": ["KD", "6H"],
                                            "last_trick": 1,
                                            "piles": [{"side": 0, "points": 50}]}, FR)
    assert ottocento.status_code == 422
    assert ottocento.headers["Content-Language"] == "fr"
    assert "Accept-Language" in ottocento.headers["Vary"]
    assert ottocento.json["errors"][0]["message"].startswith("roi de deniers")
    gatti = score(client, "gatti-3", {"dealer": 0, "discard": ["KD", "2H", "3H"],
                                      "piles": [{"side": 0, "points": 50},
                                                {"side": 1, "points": 20}]}, FR)
    assert "roi de carreau" in gatti.json["errors"][0]["message"]


def test_an_explanation_line_names_its_cards_in_french(client: Any) -> None:
    answer = score(client, "gatti-3", GATTI_COUNTED, FR)
    assert answer.status_code == 200
    lines = [line["text"] for side in answer.json["sides"] for line in side["lines"]]
    assert lines[0].endswith("(atout 1 (Bagatto) et roi de carreau)")
    assert "atout 21 (le Monde)" in lines[-1] and lines[-1].count("l'Excuse") == 1


def test_mitigattis_cards_are_named_as_the_seed_writes_them() -> None:
    """Cason's Niçois for Mitigatti's honours (the Fuole, the Bagatte, l'Ange, the Papote);
    the round suits in French, the "of" elided before a vowel."""
    from service.application.language import card_name
    from service.domain.core.cards import BOLOGNESE_62, TAROT_78

    def fr(code: str, family: str) -> str:
        pack = BOLOGNESE_62 if family == "ottocento" else TAROT_78
        return card_name(pack.card(code), "fr", family)

    assert [fr(c, "mitigatti") for c in ("FOOL", "T1", "T20", "T3", "T21", "1S", "KH")] == [
        "Fuole", "atout 1 (Bagatte)", "atout 20 (l'Ange)", "atout 3 (Papote)",
        "atout 21 (le Monde)", "as d'épées", "roi de coupes"]
    assert [fr(c, "gatti") for c in ("FOOL", "T1", "T20", "KD", "QS")] == [
        "l'Excuse", "atout 1 (Bagatto)", "atout 20 (le Jugement)", "roi de carreau",
        "dame de pique"]
    assert [fr(c, "ottocento") for c in ("MATTO", "ANGEL", "MORO2", "JC")] == [
        "l'Excuse", "l'Ange", "Maure 2", "valet de bâtons"]


def test_mitigattis_honours_keep_their_own_names_in_italian() -> None:
    """The service's Italian says Mitigatti's T1 and T20 by the game's own names, not the
    tarot's (Bagatto, Giudizio), and names the Papote, as the page does: both say what its
    table says, from the one catalogue of cards."""
    from service.application.language import card_name
    from service.domain.core.cards import TAROT_78

    assert [card_name(TAROT_78.card(c), "it", "mitigatti")
            for c in ("T1", "T2", "T5", "T6", "T20", "T21", "FOOL", "1S", "KD")] == [
        "trionfo 1 (Bagatte)", "trionfo 2 (Papote)", "trionfo 5 (Papote)", "trionfo 6",
        "trionfo 20 (Angelo)", "trionfo 21 (Mondo)", "Fuole (Matto)", "asso di spade",
        "re di denari"]
    assert [card_name(TAROT_78.card(c), "it", "gatti") for c in ("T1", "T20", "FOOL")] == [
        "trionfo 1 (Bagatto)", "trionfo 20 (Giudizio)", "Matto"]


def test_a_refusal_and_an_explanation_line_come_in_french(client: Any) -> None:
    """Every word French, not only the cards: the French catalogue
    (service/locale/fr/LC_MESSAGES/messages.po) with the cards' French
    names."""
    refused = score(client, "gatti-3", BROKEN, FR)
    assert refused.status_code == 422
    messages = [e["message"] for e in refused.json["errors"]]
    assert any("roi de carreau" in m for m in messages)
    lines = [line["text"] for side in score(client, "gatti-3", GATTI_COUNTED, FR).json["sides"]
             for line in side["lines"]]
    for text in [*messages, refused.json["detail"], refused.json["title"], *lines]:
        assert not ENGLISH_IN_FRENCH.search(text), text


FR = {"Accept-Language": "fr-FR,fr;q=0.9"}


def test_a_stored_games_lines_and_payments_name_its_players(client: Any, table: Any) -> None:
    """The service says each line and payment with the table's names (the page shows
    them as they come): a pair by its two names joined as the language joins them, a seat by
    its player's, in English as in Italian and French; a score with no table keeps its seats."""
    game = table(variant="mitigatti-4", players=("Anna", "Bruno", "Carla", "Dario"))
    hand = {"dealer": 0, "contract": {"type": "call", "declarer": 0, "called_card": "KH",
                                      "partner": 2},
            "declarations": [{"seat": 1, "kind": "mitigatti"}],
            "piles": [{"side": 0, "points": 23}], "bagatto": {"seat": 1, "won": True}}
    assert game.add(hand).status_code == 201
    said = {}
    for lang, headers in (("en", {}), ("it", IT), ("fr", FR)):
        result = client.get(game.url, headers={**auth(game.read), **headers}).json[
            "hands"][0]["result"]
        said[lang] = ([line["text"] for side in result["sides"] for line in side["lines"]],
                      [p["text"] for p in result["payments"]])
    assert said["en"][0][0] == "Anna and Carla: 23 deck points, as counted at the table"
    assert said["it"][0][0] == "Anna e Carla: 23 punti di mazzo, come contati al tavolo"
    assert said["fr"][0][0].startswith("Anna et Carla")
    payments = said["en"][1]
    assert "Partida: the declarer's side (Anna and Carla) took 23 of 72 points" in payments[0]
    assert "Bruno declared mitigatti (the three honours): 1 marca from each other player" in (
        payments)
    assert any(p.startswith("Bruno won the last trick with the Bagatte") for p in payments)
    assert any(p.startswith("Bruno ha vinto l'ultima presa col Bagatte") for p in said["it"][1])
    for texts in (*said["en"], *said["it"], *said["fr"]):
        assert not any(re.search(r"\b([Ss]eats?|[Pp]ost[oi]|[Pp]laces?) \d", t) for t in texts)
    stateless = score(client, "mitigatti-4", hand)
    assert stateless.json["payments"][0]["text"].startswith(
        "Partida: the declarer's side (seats 0 and 2)")


def test_an_unknown_variant_is_refused_in_the_language_asked(client: Any) -> None:
    """A game, a score and an import that name no variant: the same refusal, in Italian and
    French as in English, at the field that names it."""
    said = {}
    for lang, headers in (("en", {}), ("it", IT), ("fr", FR)):
        game = client.post("/api/v1/games", headers=headers,
                           json={"variant": "tarocco-x", "players": ["A", "B", "C"]})
        scored = client.post("/api/v1/score", headers=headers,
                             json={"variant": "tarocco-x", "hand": {"dealer": 0}})
        assert game.status_code == scored.status_code == 422
        errors = [*game.json["errors"], *scored.json["errors"]]
        assert {(e["field"], e["code"]) for e in errors} == {("variant", "unknown_variant")}
        assert len({e["message"] for e in errors}) == 1
        said[lang] = errors[0]["message"]
    assert said == {"en": "there is no variant 'tarocco-x'",
                    "it": "non esiste la variante 'tarocco-x'",
                    "fr": said["fr"]}
    assert said["fr"] != said["en"] and "'tarocco-x'" in said["fr"]
