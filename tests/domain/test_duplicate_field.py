"""One field across many clubs (docs/events.md#one-field-across-many-clubs): what a section
still owes the field, and the field's standings, every section's results on a board scored
together, each row naming its section."""

from __future__ import annotations

from fractions import Fraction

from service.domain.duplicate import (
    BoardPlay,
    Section,
    TableProgress,
    field_standings,
    rounds_to_come,
    section_owes,
)


def _play(board: int, game: str, columns: tuple[int, int, int]) -> BoardPlay:
    """A board at a table of three players on their own (entrants 0, 1, 2 of its section)."""
    return BoardPlay(board, 1, 1, game, board, ("A", "B", "C"), ((0,), (1,), (2,)), columns)


def test_a_section_that_has_not_started_owes_nothing_of_its_rounds_to_come() -> None:
    assert rounds_to_come(2, 0, 3) == ()
    assert rounds_to_come(None, 1, 3) == ()
    assert rounds_to_come(2, 1, 3) == (4, 5, 6)
    assert rounds_to_come(2, 2, 3) == ()


def test_a_section_owes_what_its_tables_still_play_and_its_rounds_to_come() -> None:
    playing = TableProgress((2, 3, 1), 1, True)
    closed = TableProgress((1, 2, 3), 1, False)
    assert section_owes([playing, closed], (4, 5)) == frozenset({3, 1, 4, 5})
    assert section_owes([closed]) == frozenset()


def test_the_field_standings_score_every_section_s_results_together() -> None:
    home = Section("home", ("Anna", "Bruno", "Carla"), frozenset({0, 1, 2}),
                   (_play(1, "g1", (40, 20, 18)),))
    away = Section("away", ("Dora", "Ezio", "Fede"), frozenset({0, 1, 2}),
                   (_play(1, "g2", (20, 40, 18)),))
    found, rows = field_standings([home, away])
    by_name = {row.name: row for row in found.rows}
    # Column 0: Anna's 40 beats Dora's 20; column 1 the other way; column 2 a tie.
    assert by_name["Anna"].percentage == Fraction(100)
    assert by_name["Dora"].percentage == Fraction(0)
    assert by_name["Ezio"].percentage == Fraction(100)
    assert by_name["Carla"].percentage == by_name["Fede"].percentage == Fraction(50)
    whose = {row.name: (r.section, r.entrant) for row, r in zip(found.rows, rows, strict=True)}
    assert whose["Dora"] == ("away", 0) and whose["Carla"] == ("home", 2)


def test_an_entrant_removed_from_a_section_is_not_a_row() -> None:
    home = Section("home", ("Anna", "Bruno", "Carla", "Zeno"), frozenset({0, 1, 2}),
                   (_play(1, "g1", (40, 20, 18)),))
    found, rows = field_standings([home])
    assert [r.name for r in found.rows if r.name == "Zeno"] == []
    assert len(rows) == 3


def test_the_field_standings_unexplained_rank_alike_and_say_nothing() -> None:
    """A wall's standings (``explained=False``): the same places, figures and boards, each
    row without its sentences."""
    home = Section("home", ("Anna", "Bruno", "Carla"), frozenset({0, 1, 2}),
                   (_play(1, "g1", (40, 20, 18)), _play(2, "g1", (30, 30, 12))))
    away = Section("away", ("Dora", "Ezio", "Fede"), frozenset({0, 1, 2}),
                   (_play(1, "g2", (20, 40, 18)), _play(2, "g2", (36, 24, 12))))
    explained, rows = field_standings([home, away])
    brief, brief_rows = field_standings([home, away], explained=False)
    assert brief_rows == rows
    assert [(r.place, r.name, r.percentage, r.match_points, r.points, r.results)
            for r in brief.rows] == [
        (r.place, r.name, r.percentage, r.match_points, r.points, r.results)
        for r in explained.rows]
    assert all(r.explanation for r in explained.rows)
    assert all(r.explanation == () for r in brief.rows)
