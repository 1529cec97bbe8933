"""Stored games: who may do what (``access``), what the use cases return and the views this
process keeps (``views``), and the use cases (``use_cases``). The names other modules import
from ``service.application.games`` are re-exported here."""

from .access import (
    ID_ALPHABET,
    TOKEN_BYTES,
    Access,
    Created,
    TokenWords,
    authorize,
    derived_token,
    hash_token,
    new_game_id,
    own_token_access,
    player_tokens,
)
from .use_cases import (
    MAX_HANDS,
    GameService,
    parse_and_score,
    table_of,
    utc_now,
    variant_of,
)
from .views import (
    ANY_VERSION,
    CACHE_HANDS,
    CreatedGame,
    GameView,
    HandView,
    hand_view,
)

__all__ = [
    "ANY_VERSION",
    "CACHE_HANDS",
    "ID_ALPHABET",
    "MAX_HANDS",
    "TOKEN_BYTES",
    "Access",
    "Created",
    "CreatedGame",
    "GameService",
    "GameView",
    "HandView",
    "TokenWords",
    "authorize",
    "derived_token",
    "hand_view",
    "hash_token",
    "new_game_id",
    "own_token_access",
    "parse_and_score",
    "player_tokens",
    "table_of",
    "utc_now",
    "variant_of",
]
