"""The bodies the service sends are what marshmallow's own dump makes of them.

Response schemas (``PassThroughSchema``) send the body the core and the views built without
dumping it field by field again (``service/http/schemas/common.py``). That is right only
while the field-by-field dump would give the very same body: these tests run it
(``field_dump``) over real responses of every kind and compare.
"""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from http_support import API, auth

from service.http.schemas import (
    CreatedGameSchema,
    GameSchema,
    HandResultSchema,
    HandSchema,
    HistorySchema,
    MeldSuggestionSchema,
    RulingSchema,
    VariantDetailSchema,
    VariantSummarySchema,
)
from service.http.schemas.common import PassThroughSchema
from service.http.schemas.exports import GameExportSchema
from service.http.schemas.games import ColumnSchema

SCENARIOS = Path(__file__).parents[1] / "scenarios"
TIMES = {"created_at", "updated_at"}


def _revive(value: Any) -> Any:
    """The body as the views held it before writing: times as ``datetime`` again."""
    if isinstance(value, dict):
        return {k: (datetime.fromisoformat(v) if k in TIMES and isinstance(v, str)
                    else _revive(v)) for k, v in value.items()}
    if isinstance(value, list):
        return [_revive(v) for v in value]
    return value


def assert_dumped_as_sent(schema: PassThroughSchema, body: Any, *, times: bool = True) -> None:
    """``times``: the views held the body's ``created_at`` / ``updated_at`` as ``datetime``
    (the export document writes its own strings)."""
    assert body, "an empty body proves nothing"
    dumped = schema.field_dump(_revive(body) if times else body)
    assert json.dumps(dumped) == json.dumps(body)  # the same values, keys in the same order


def _corpus_records() -> list[tuple[str, dict[str, Any]]]:
    records = []
    for path in [SCENARIOS / "corpus" / "gatti-3.json", SCENARIOS / "ottocento" / "corpus.json",
                 SCENARIOS / "tricks" / "corpus" / "gatti-4-call.json"]:
        data = json.loads(path.read_text())
        ok = [c for c in data["cases"] if "problems" not in c["expect"]]
        records += [(data["variant"], c["hand"]) for c in ok[:4]]
    mitigatti = json.loads((SCENARIOS / "mitigatti" / "corpus.json").read_text())
    ok = [c for c in mitigatti["cases"] if "problems" not in c["expect"]]
    records += [(c["variant"], c["record"]) for c in ok[:4]]
    return records


@pytest.mark.parametrize(("variant", "record"), _corpus_records())
def test_score_results_are_what_the_schema_dumps(client: Any, variant: str,
                                                 record: dict[str, Any]) -> None:
    response = client.post(f"{API}/score", json={"variant": variant, "hand": record})
    assert response.status_code == 200, response.json
    assert_dumped_as_sent(HandResultSchema(), response.json)


def test_game_hand_history_and_export_bodies_are_what_the_schemas_dump(table: Any,
                                                                        client: Any) -> None:
    game = table()
    assert_dumped_as_sent(CreatedGameSchema(), game.created.json)
    game.play()
    game.play(counting_to=1)
    assert_dumped_as_sent(GameSchema(), game.state())
    assert_dumped_as_sent(HandSchema(), game.hand(2).json)
    assert_dumped_as_sent(HistorySchema(), {"game_id": game.id, "versions": game.history()})
    export = client.get(f"{game.url}.json", headers=auth(game.read))
    assert export.status_code == 200, export.json
    assert_dumped_as_sent(GameExportSchema(), export.json, times=False)


def test_a_ledger_and_a_rubber_are_what_the_schema_dumps(table: Any) -> None:
    evening = table(variant="mitigatti-3", options={"marca_value": "0.50"})
    hand = {"dealer": 0, "piles": [
        {"side": 0, "tricks": 12, "counting": ["T1", "T20", "FOOL", "KH", "KD", "KC", "KS"]},
        {"side": 1, "tricks": 8, "counting": ["QH", "QD", "QC", "QS"]}]}
    assert evening.add(hand).status_code == 201
    body = evening.state()
    assert body["transfers"] and body["money"]
    assert_dumped_as_sent(GameSchema(), body)


def test_catalogue_melds_and_rulings_are_what_the_schemas_dump(client: Any) -> None:
    assert_dumped_as_sent(VariantSummarySchema(many=True), client.get(f"{API}/variants").json)
    assert_dumped_as_sent(VariantDetailSchema(), client.get(f"{API}/variants/ottocento").json)
    melds = client.post(f"{API}/melds/suggest", json={
        "variant": "gatti-3", "cards": ["FOOL", "T1", "T21", "KH", "QH", "CH", "JH"]})
    assert_dumped_as_sent(MeldSuggestionSchema(many=True), melds.json)
    ruling = client.post(f"{API}/adjudicate/trick", json={
        "variant": "gatti-3", "leader": 0, "cards": ["KH", "2H", "T5"],
        "hands": {"1": ["2H", "3H"]}})
    assert_dumped_as_sent(RulingSchema(), ruling.json)


def test_a_dict_is_sent_as_built_and_anything_else_dumped_field_by_field() -> None:
    body = {"key": "0", "label": "Anna", "seats": [0], "extra": "kept"}
    assert ColumnSchema().dump(body) is body
    assert ColumnSchema(many=True).dump([body]) == [body]
    assert ColumnSchema().dump(SimpleNamespace(key="0", label="Anna", seats=[0])) == {
        "key": "0", "label": "Anna", "seats": [0]}
