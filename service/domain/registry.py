"""The registry of every variant the service knows (docs/architecture.md, principle 2)."""

from __future__ import annotations

from .core.errors import UnknownVariant
from .gatti.classic import CLASSIC_GATTI
from .gatti.current import CURRENT_GATTI
from .mitigatti.variant import MITIGATTI_3, MITIGATTI_4
from .ottocento.variant import OTTOCENTO
from .variant import BagattoRule, MeldRule, OptionSpec, Variant

VARIANTS: dict[str, Variant] = {
    v.id: v for v in (*CURRENT_GATTI, *CLASSIC_GATTI, OTTOCENTO, MITIGATTI_4, MITIGATTI_3)
}

_ALIASES: dict[str, str] = {
    alias: v.id for v in VARIANTS.values() for alias in v.aliases
}


def find_variant(variant_id: str) -> Variant:
    """The variant with this id or alias (case-insensitive); raises ``UnknownVariant``."""
    key = variant_id.strip().lower() if isinstance(variant_id, str) else ""
    found = VARIANTS.get(key) or VARIANTS.get(_ALIASES.get(key, ""))
    if found is None:
        raise UnknownVariant(str(variant_id))
    return found


def family_suit_style(family: str | None) -> str:
    """How a family's packs name their suits (``Variant.suit_style``); ``french`` for none."""
    return next((v.suit_style for v in VARIANTS.values() if v.family == family), "french")


__all__ = ["VARIANTS", "BagattoRule", "MeldRule", "OptionSpec", "Variant", "family_suit_style", "find_variant"]
