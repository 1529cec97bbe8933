"""Ottocento, the Tarocchino Bolognese (rulebook §4): the variant, its cricche and sequences, and
its scoring to 800."""
