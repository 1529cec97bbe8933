"""The endpoints that store nothing: variants, /score, /melds/suggest."""

from __future__ import annotations

import json
from typing import Any

from http_support import API, assert_problem, error_fields, gatti3_hand


def test_variants_lists_every_variant_with_its_options(stateless_client: Any) -> None:
    response = stateless_client.get(f"{API}/variants")
    assert response.status_code == 200
    assert response.mimetype == "application/json"
    variants = {v["id"]: v for v in response.json}
    assert "gatti-3" in variants
    for variant in variants.values():
        assert {"id", "name", "players", "sides", "options"} <= set(variant)


def test_variant_detail_and_unknown_variant(stateless_client: Any) -> None:
    response = stateless_client.get(f"{API}/variants/gatti-3")
    assert response.status_code == 200
    assert response.json["id"] == "gatti-3"
    assert_problem(stateless_client.get(f"{API}/variants/no-such-game"), 404, code="not_found")


def test_score_returns_the_hand_result(stateless_client: Any) -> None:
    response = stateless_client.post(f"{API}/score",
                                     json={"variant": "gatti-3", "hand": gatti3_hand(0)})
    assert response.status_code == 200, response.json
    result = response.json
    assert {"sides", "columns", "violations", "events"} <= set(result)
    assert sum(result["columns"].values()) >= 78  # deck points, plus any melds


def test_score_errors_are_placed_under_hand(stateless_client: Any) -> None:
    hand = gatti3_hand(0)
    hand["discard"] = ["2H", "XX", "4S"]
    response = stateless_client.post(f"{API}/score", json={"variant": "gatti-3", "hand": hand})
    body = assert_problem(response, 422, code="record_invalid")
    assert "hand.discard[1]" in error_fields(body)


def test_score_reports_option_and_record_problems_together(stateless_client: Any) -> None:
    hand = gatti3_hand(0)
    hand["discard"] = ["2H", "XX", "4S"]
    response = stateless_client.post(
        f"{API}/score",
        json={"variant": "gatti-3", "options": {"no_such_option": True}, "hand": hand},
    )
    fields = error_fields(assert_problem(response, 422))
    assert "options.no_such_option" in fields
    assert "hand.discard[1]" in fields


def test_score_unknown_variant_is_a_422_on_variant(stateless_client: Any) -> None:
    response = stateless_client.post(f"{API}/score",
                                     json={"variant": "briscola", "hand": gatti3_hand(0)})
    assert error_fields(assert_problem(response, 422)) == {"variant": "unknown_variant"}


def test_schema_errors_have_dotted_and_indexed_paths(stateless_client: Any) -> None:
    hand = gatti3_hand(0, extra_field=1)
    hand["declarations"] = [{"seat": 1, "kind": "family", "cards": ["JD", 7]}, {"kind": "gatti"}]
    response = stateless_client.post(f"{API}/score", json={"variant": "gatti-3", "hand": hand})
    fields = error_fields(assert_problem(response, 422, code="invalid_request"))
    assert fields == {
        "hand.extra_field": "unknown_field",
        "hand.declarations[0].cards[1]": "invalid_field",
        "hand.declarations[1].seat": "missing_field",
    }


def test_melds_suggest(stateless_client: Any) -> None:
    response = stateless_client.post(
        f"{API}/melds/suggest",
        json={"variant": "gatti-3", "cards": ["JD", "CD", "QD", "KD", "KH", "KS", "2C"]},
    )
    assert response.status_code == 200, response.json
    kinds = {meld["kind"] for meld in response.json}
    assert "family" in kinds
    assert all(isinstance(meld["points"], int) for meld in response.json)


def test_melds_suggest_names_a_bad_card(stateless_client: Any) -> None:
    response = stateless_client.post(f"{API}/melds/suggest",
                                     json={"variant": "gatti-3", "cards": ["JD", "ZZ"]})
    assert "cards[1]" in error_fields(assert_problem(response, 422))


# -- answers remembered by body (service/http/memo.py) ---------------------------------------


def _counting_scorer(monkeypatch: Any) -> list[int]:
    from service.application import stateless

    calls: list[int] = []
    real = stateless.score

    def score(*args: Any) -> Any:
        calls.append(1)
        return real(*args)

    monkeypatch.setattr(stateless, "score", score)
    return calls


def test_score_of_a_body_sent_again_is_the_same_answer_without_scoring(
        monkeypatch: Any) -> None:
    from service.http.app import create_app

    client = create_app({"DATABASE_URL": "sqlite://", "TESTING": True,
                         "RATE_LIMIT_PER_MINUTE": 0}).test_client()
    calls = _counting_scorer(monkeypatch)
    body = json.dumps({"variant": "gatti-3", "hand": gatti3_hand(0)})
    first = client.post(f"{API}/score", data=body, content_type="application/json")
    again = client.post(f"{API}/score", data=body, content_type="application/json")
    assert first.status_code == again.status_code == 200
    assert again.get_data() == first.get_data()
    assert again.mimetype == "application/json"
    assert again.headers["X-Content-Type-Options"] == "nosniff"  # the middleware still runs
    assert len(calls) == 1
    # Other bytes (here one space more) are another body: scored, to the same result.
    spaced = client.post(f"{API}/score", data=body + " ", content_type="application/json")
    assert spaced.json == first.json and len(calls) == 2


def test_score_problems_are_never_remembered(monkeypatch: Any) -> None:
    from service.http.app import create_app

    client = create_app({"DATABASE_URL": "sqlite://", "TESTING": True,
                         "RATE_LIMIT_PER_MINUTE": 0}).test_client()
    calls = _counting_scorer(monkeypatch)
    hand = gatti3_hand(0)
    hand["discard"] = ["KH", "3H", "4S"]
    for _ in range(2):
        response = client.post(f"{API}/score", json={"variant": "gatti-3", "hand": hand})
        assert_problem(response, 422, code="record_invalid")
    assert len(calls) == 2


def test_answers_are_kept_within_a_byte_budget_the_least_recent_going_first() -> None:
    from service.application.caches import LruCache
    from service.http.memo import body_key

    memo: LruCache[bytes, bytes] = LruCache(30, weight=len, max_weight=20)
    memo.put(b"a", b"x" * 10)
    memo.put(b"b", b"y" * 10)
    assert memo.get(b"a") == b"x" * 10  # now the most recent
    memo.put(b"c", b"z" * 15)  # 35 bytes: "b", the least recently used, goes
    assert memo.get(b"b") is None and memo.get(b"a") and memo.get(b"c")
    assert memo.total == 25 and len(memo) == 2
    memo.put(b"d", b"w" * 21)  # larger than one answer may be: not kept
    assert memo.get(b"d") is None and memo.total == 25
    memo.put(b"a", b"x")  # replaced: its old weight goes
    assert memo.total == 16
    assert body_key(b"{}") == body_key(b"{}") != body_key(b"{ }")
