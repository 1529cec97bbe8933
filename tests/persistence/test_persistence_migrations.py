"""Migrations run up from an empty database and back down, on SQLite and PostgreSQL, and
the ORM models are exactly what the migrations build."""

from __future__ import annotations

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import inspect

from service.persistence import Base, downgrade, make_engine, upgrade
from service.persistence.migrate import alembic_config

TABLES = {"games", "hands", "hand_versions", "idempotency_keys", "player_tokens",
          "confirmations", "events", "event_rounds", "event_tables", "event_actions",
          "clubs", "club_members", "club_actions", "club_results", "club_seasons",
          "board_refusals", "club_rating_steps", "club_ratings", "purges"}


def _tables(url: str) -> set[str]:
    engine = make_engine(url)
    try:
        with engine.connect() as connection:
            return set(inspect(connection).get_table_names()) - {"alembic_version"}
    finally:
        engine.dispose()


def test_upgrade_from_empty_and_downgrade_to_base(db_url: str) -> None:
    assert _tables(db_url) == set()
    upgrade(db_url)
    assert _tables(db_url) == TABLES
    upgrade(db_url)  # idempotent
    downgrade(db_url, "base")
    assert _tables(db_url) == set()
    upgrade(db_url)
    assert _tables(db_url) == TABLES


def test_every_revision_goes_down_and_up_again(db_url: str) -> None:
    script = ScriptDirectory.from_config(alembic_config("sqlite://"))
    revisions = [r.revision for r in script.walk_revisions()]  # newest first
    upgrade(db_url)
    for revision in revisions[1:]:
        downgrade(db_url, revision)
    downgrade(db_url, "base")
    assert _tables(db_url) == set()
    for revision in reversed(revisions):
        upgrade(db_url, revision)
    assert _tables(db_url) == TABLES


def test_models_match_migrations(db_url: str) -> None:
    upgrade(db_url)
    engine = make_engine(db_url)
    try:
        with engine.connect() as connection:
            context = MigrationContext.configure(connection, opts={"compare_type": True})
            assert compare_metadata(context, Base.metadata) == []
    finally:
        engine.dispose()


def test_single_head() -> None:
    script = ScriptDirectory.from_config(alembic_config("sqlite://"))
    assert len(script.get_heads()) == 1


def test_0004_numbers_the_logged_changes_with_the_game_versions_they_made(db_url: str) -> None:
    """Entries logged before 0004 get the game version each made: a game starts at version
    1 and every change bumps it by one, so its n-th entry made version n + 1."""
    from sqlalchemy import text

    downgrade(db_url, "base")
    upgrade(db_url, "0003_idempotency_keys")
    engine = make_engine(db_url)
    try:
        with engine.begin() as connection:
            for game in ("a", "b"):
                connection.execute(text(
                    "INSERT INTO games (id, variant, options, players, first_dealer, "
                    "edit_token_hash, read_token_hash, created_at, version) VALUES (:g, "
                    "'gatti-3', '{}', '[]', 0, :e, :r, '2026-01-01 00:00:00', 1)"),
                    {"g": game, "e": game * 64, "r": game.upper() * 64})
            # Interleaved, as two tables playing at once log them.
            for game, number, version, action in [
                    ("a", 1, 1, "create"), ("b", 1, 1, "create"), ("a", 2, 1, "create"),
                    ("a", 2, 2, "correct"), ("b", 1, 2, "delete"), ("a", 2, 3, "delete")]:
                connection.execute(text(
                    "INSERT INTO hand_versions (game_id, number, version, action, record, "
                    "rules_version, token_kind, created_at) VALUES (:g, :n, :v, :a, NULL, "
                    "'x', 'edit', '2026-01-01 00:00:00')"),
                    {"g": game, "n": number, "v": version, "a": action})
        upgrade(db_url)
        with engine.connect() as connection:
            rows = connection.execute(text(
                "SELECT game_id, number, version, game_version FROM hand_versions ORDER BY id"
            )).all()
    finally:
        engine.dispose()
    assert [tuple(row) for row in rows] == [
        ("a", 1, 1, 2), ("b", 1, 1, 2), ("a", 2, 1, 3), ("a", 2, 2, 4), ("b", 1, 2, 3),
        ("a", 2, 3, 5)]


def test_0022_counts_each_games_verdicts_from_those_kept(db_url: str) -> None:
    """A game's ``verdicts`` starts as the number of its verdicts kept (a seat that changed
    its mind counts twice: each verdict moved the game's version once)."""
    from sqlalchemy import text

    downgrade(db_url, "base")
    upgrade(db_url, "0021_event_field")
    engine = make_engine(db_url)
    try:
        with engine.begin() as connection:
            for game, version in (("a", 5), ("b", 2)):
                connection.execute(text(
                    "INSERT INTO games (id, variant, options, players, first_dealer, "
                    "edit_token_hash, read_token_hash, created_at, version) VALUES (:g, "
                    "'gatti-3', '{}', '[]', 0, :e, :r, '2026-01-01 00:00:00', :v)"),
                    {"g": game, "e": game * 64, "r": game.upper() * 64, "v": version})
            for seat, verdict in ((0, "confirm"), (1, "dispute"), (1, "confirm")):
                connection.execute(text(
                    "INSERT INTO confirmations (game_id, number, hand_version, seat, verdict, "
                    "game_version, created_at) VALUES ('a', 1, 1, :s, :v, 3, "
                    "'2026-01-01 00:00:00')"), {"s": seat, "v": verdict})
        upgrade(db_url)
        with engine.connect() as connection:
            rows = connection.execute(text(
                "SELECT id, version, verdicts FROM games ORDER BY id")).all()
    finally:
        engine.dispose()
    assert [tuple(row) for row in rows] == [("a", 5, 3), ("b", 2, 0)]
