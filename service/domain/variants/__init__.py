"""The registry of every variant the service knows (ARCHITECTURE §2)."""

from __future__ import annotations

from ..errors import UnknownVariant
from .base import BagattoRule, MeldRule, OptionSpec, Variant
from .gatti import CURRENT_GATTI
from .gatti_classic import CLASSIC_GATTI
from .mitigatti import MITIGATTI_3, MITIGATTI_4
from .ottocento import OTTOCENTO

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


__all__ = ["VARIANTS", "BagattoRule", "MeldRule", "OptionSpec", "Variant", "find_variant"]
