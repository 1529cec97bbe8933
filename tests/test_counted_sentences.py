"""A sentence that counts takes the form its count asks for in each language: one point is
"1 punto" and "1 point", never "1 punti" (the Mitigatti partida of a player under 13 points,
who may well have taken one)."""

from __future__ import annotations

import pytest

from service.application.language import Speaker
from service.domain.core.text import Text
from service.locale import translations


@pytest.mark.parametrize("lang,one,many", [
    ("en", "took 1 point,", "took 5 points,"),
    ("it", "ha fatto 1 punto,", "ha fatto 5 punti,"),
    ("fr", "a fait 1 point,", "a fait 5 points,")])
def test_the_partida_under_13_counts_one_point_in_the_singular(lang: str, one: str,
                                                               many: str) -> None:
    speaker = Speaker(lang, "mitigatti", translations(lang))
    said = [speaker.localize(Text.counted(
        "Partida: {payer} took {n} point, under 13: 2 marca to {to}",
        "Partida: {payer} took {n} points, under 13: 2 marca to {to}",
        n, payer="Anna", to="Bruno")) for n in (1, 5)]
    assert one in said[0] and many in said[1]
