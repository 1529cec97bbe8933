"""Ottocento, the Tarocchino Bolognese (RULES §4): the variant, its cricche and sequences, and
its scoring to 800."""
