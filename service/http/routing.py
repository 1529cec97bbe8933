"""Bounded path parameters: a game id is 1 to 32 characters of the alphabet ids are drawn from
(lower-case letters and digits without i, l, o, 0 and 1), a hand number 1 to ``MAX_HANDS``.
Anything else matches no route (404) and never reaches the database; the OpenAPI document
states the same bounds. Since that alphabet has no i or o, no word route beside the games
(``/games/import``) can ever be read as a game id."""

from __future__ import annotations

from typing import Any

from flask import Flask
from flask_smorest import Api
from werkzeug.routing import BaseConverter

from service.application.games import ID_ALPHABET, MAX_HANDS

GAME_ID_PATTERN = f"[{ID_ALPHABET}]{{1,32}}"

#: The route of one hand: ``…/hands/<hand_number:number>``.
HAND_NUMBER = f"int(min=1, max={MAX_HANDS})"


class GameIdConverter(BaseConverter):
    regex = GAME_ID_PATTERN


def _game_id_schema(_converter: Any) -> dict[str, Any]:
    return {"type": "string", "pattern": f"^{GAME_ID_PATTERN}$", "minLength": 1,
            "maxLength": 32}


def register_converters(app: Flask, api: Api) -> None:
    """Call before the blueprints are registered."""
    app.url_map.converters["game_id"] = GameIdConverter
    api.register_converter(GameIdConverter, _game_id_schema)
