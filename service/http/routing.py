"""Bounded path parameters: an id the service drew (a game's, an event's, a club's, a
member's, a season's) is 1 to 32 characters of the alphabet ids are drawn from (lower-case
letters and digits without i, l, o, 0 and 1), a hand number 1 to ``MAX_HANDS``. Anything else
matches no route (404) and never reaches the database; the OpenAPI document states the same
bounds. Since that alphabet has no i or o, no word route beside the ids (``/games/import``)
can ever be read as an id.

A game's routes name their converter ``game_id``, the others ``id``: the same bounds, and a
game's route as the request log and the metrics have always named it."""

from __future__ import annotations

from typing import Any

from flask import Flask
from flask_smorest import Api
from werkzeug.routing import BaseConverter

from service.application.games import ID_ALPHABET, MAX_HANDS

ID_PATTERN = f"[{ID_ALPHABET}]{{1,32}}"

#: A hand number in a route: ``…/hands/<{HAND_NUMBER}:number>``.
HAND_NUMBER = f"int(min=1, max={MAX_HANDS})"


class IdConverter(BaseConverter):
    """``<id:…>``: an event's, a club's, a member's or a season's id."""

    regex = ID_PATTERN


class GameIdConverter(IdConverter):
    """``<game_id:…>``: a game's id."""


def _id_schema(_converter: Any) -> dict[str, Any]:
    return {"type": "string", "pattern": f"^{ID_PATTERN}$", "minLength": 1, "maxLength": 32}


def register_converters(app: Flask, api: Api) -> None:
    """Call before the blueprints are registered."""
    for name, converter in (("id", IdConverter), ("game_id", GameIdConverter)):
        app.url_map.converters[name] = converter
        api.register_converter(converter, _id_schema)
