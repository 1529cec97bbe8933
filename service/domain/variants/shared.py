"""Options every variant has, whatever the game: how players vouch for hands (issue 15)."""

from __future__ import annotations

from ..confirmations import MODES
from .base import OptionSpec

CONFIRMATION_OPTION = OptionSpec(
    "confirmation", "optional", MODES,
    "none: players do not confirm hands; optional: each player may confirm or dispute each "
    "hand from their own link; required: a hand is final only once every player has "
    "confirmed it",
)
