"""The tables: games, their current hands, the append-only log of every hand version, and the
stored first responses of requests made with an ``Idempotency-Key``.

A stored hand is its record (canonical notation) plus the rules version it was entered under;
results are never stored, they are derived (docs/architecture.md, principle 4).
"""

from __future__ import annotations

from datetime import date, datetime
from typing import Any

from sqlalchemy import (
    Boolean,
    CheckConstraint,
    Date,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    UniqueConstraint,
    false,
    true,
)
from sqlalchemy.orm import Mapped, mapped_column, relationship

from .base import Base, JSONType, NullableJSON


class GameRow(Base):
    __tablename__ = "games"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    variant: Mapped[str] = mapped_column(String(64))
    options: Mapped[dict[str, Any]] = mapped_column(JSONType)
    players: Mapped[list[str]] = mapped_column(JSONType)
    first_dealer: Mapped[int] = mapped_column(Integer)
    # Indexed: a token that opens no game at all is told apart from another game's (401/404).
    edit_token_hash: Mapped[str] = mapped_column(String(64), index=True)
    read_token_hash: Mapped[str] = mapped_column(String(64), index=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    # Bumped by every change to the game's hands: the optimistic-concurrency guard.
    version: Mapped[int] = mapped_column(Integer)
    # How many of those changes were players' verdicts: what an event's screens, to which a
    # verdict makes no difference, leave out of the state they compare.
    verdicts: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    # A table of an event: which event, round and table; set when the round
    # seats it. ``closed_at``: the organiser closed its round, and it takes no more changes.
    event_id: Mapped[str | None] = mapped_column(String(32), nullable=True, index=True)
    event_round: Mapped[int | None] = mapped_column(Integer, nullable=True)
    event_table: Mapped[int | None] = mapped_column(Integer, nullable=True)
    closed_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    # A game of a club: the club, and the member at each seat (null: none).
    club_id: Mapped[str | None] = mapped_column(String(32), nullable=True, index=True)
    seat_members: Mapped[list[str | None] | None] = mapped_column(NullableJSON, nullable=True)
    # "The evening is over": a game with no natural end, ended by its scorekeeper.
    ended_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    # A duplicate table's boards: ``{"numbers": [in the order it plays them],
    # "seed": the event's, which deals them}``; none: free deals.
    boards: Mapped[dict[str, Any] | None] = mapped_column(NullableJSON, nullable=True)

    hands: Mapped[list[HandRow]] = relationship(
        back_populates="game",
        order_by="HandRow.number",
        cascade="all, delete-orphan",
        passive_deletes=True,
    )


class PlayerTokenRow(Base):
    """A player's link to the game: the hash of the token that reads it as that seat.
    Games from before player links get theirs when the edit token first asks for them."""

    __tablename__ = "player_tokens"

    game_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    # Indexed: any request's token is looked for here too (401 against 404).
    token_hash: Mapped[str] = mapped_column(String(64), index=True)


class HandColumns:
    """What every row about one of a game's hands starts with: the order of insertion, the
    game (its rows go with it) and the hand's number; first in each table, as they were
    declared before they were shared."""

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True,
                                    sort_order=-1)
    game_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("games.id", ondelete="CASCADE"), sort_order=-1
    )
    number: Mapped[int] = mapped_column(Integer, sort_order=-1)


class HandRow(HandColumns, Base):
    __tablename__ = "hands"
    __table_args__ = (
        UniqueConstraint("game_id", "number"),
        CheckConstraint("number >= 1", name="number_positive"),
    )

    version: Mapped[int] = mapped_column(Integer)
    record: Mapped[dict[str, Any]] = mapped_column(JSONType)
    rules_version: Mapped[str] = mapped_column(String(32))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))

    game: Mapped[GameRow] = relationship(back_populates="hands")


class HandVersionRow(HandColumns, Base):
    """One entry of a hand's history. Rows are only ever inserted."""

    __tablename__ = "hand_versions"
    __table_args__ = (
        UniqueConstraint("game_id", "number", "version"),
        # The game's changes in order: what a worker holding version v has not seen is
        # every entry after v.
        Index("ix_hand_versions_game_id_game_version", "game_id", "game_version", unique=True),
        # new_tokens, revoke_tokens: the service's administrator issued the game new tokens,
        # or revoked some (hand 0, as end and reopen; token kind admin).
        CheckConstraint(
            "action IN ('create', 'correct', 'delete', 'end', 'reopen', 'new_tokens', "
            "'revoke_tokens')",
            name="action_known"),
        CheckConstraint("token_kind IN ('edit', 'read', 'admin')", name="token_kind_known"),
    )

    version: Mapped[int] = mapped_column(Integer)
    #: The game's version after this change (each change bumps it by one).
    game_version: Mapped[int] = mapped_column(Integer)
    action: Mapped[str] = mapped_column(String(16))
    record: Mapped[dict[str, Any] | None] = mapped_column(NullableJSON, nullable=True)
    rules_version: Mapped[str] = mapped_column(String(32))
    token_kind: Mapped[str] = mapped_column(String(8))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class ConfirmationRow(HandColumns, Base):
    """A player's verdict on one version of a hand. Rows are only ever inserted:
    a seat that changes its mind adds a row, a correction makes a new version that the old
    rows no longer speak for, and the history shows them all."""

    __tablename__ = "confirmations"
    __table_args__ = (
        # A hand's verdicts, read with the game's current hands.
        Index("ix_confirmations_game_id_number_hand_version", "game_id", "number",
              "hand_version"),
        CheckConstraint("verdict IN ('confirm', 'dispute')", name="verdict_known"),
    )

    hand_version: Mapped[int] = mapped_column(Integer)
    seat: Mapped[int] = mapped_column(Integer)
    verdict: Mapped[str] = mapped_column(String(16))
    reason: Mapped[str | None] = mapped_column(Text, nullable=True)
    #: The game's version after this verdict (each verdict bumps it: the game's ETag moves).
    game_version: Mapped[int] = mapped_column(Integer)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class EventRow(Base):
    """A club night or a tournament: its setup and roster, and the hashes of its
    organiser's and room's tokens."""

    __tablename__ = "events"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    name: Mapped[str] = mapped_column(String(200))
    variant: Mapped[str] = mapped_column(String(64))
    options: Mapped[dict[str, Any]] = mapped_column(JSONType)
    format: Mapped[str] = mapped_column(String(16))
    pairing: Mapped[str | None] = mapped_column(String(16), nullable=True)
    scoring: Mapped[str] = mapped_column(String(16))
    rounds: Mapped[int | None] = mapped_column(Integer, nullable=True)
    seed: Mapped[int] = mapped_column(Integer)
    entrants: Mapped[list[dict[str, Any]]] = mapped_column(JSONType)
    edit_token_hash: Mapped[str] = mapped_column(String(64), index=True)
    read_token_hash: Mapped[str] = mapped_column(String(64), index=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    # Free deals, or the same boards at every table, and a round's boards.
    deals: Mapped[str] = mapped_column(String(16), server_default="free")
    boards_per_round: Mapped[int | None] = mapped_column(Integer, nullable=True)
    # Bumped by every action of the organiser: the optimistic-concurrency guard.
    version: Mapped[int] = mapped_column(Integer)
    # An event of a club: its entrants carry their members' ids.
    club_id: Mapped[str | None] = mapped_column(String(32), nullable=True, index=True)
    # Published by the organiser: its results readable without a token.
    public: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    # The round clock and the prize list with its currency, one JSON object (NULL: none).
    settings: Mapped[dict[str, Any] | None] = mapped_column(NullableJSON, nullable=True)
    # The door: entrants check in as they arrive; what a late arrival's missed rounds are
    # worth; the hash of the door's token (NULL: no door).
    checkin: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    late_rounds: Mapped[str] = mapped_column(String(8), default="zero", server_default="zero")
    door_token_hash: Mapped[str | None] = mapped_column(String(64), nullable=True, index=True)
    # One field across many clubs: the field's host (its own id for the host, the host's for
    # a section; NULL: in no field) and, for the host, the hash of its join key.
    field_host: Mapped[str | None] = mapped_column(String(32), nullable=True, index=True)
    field_key_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)


class EventRoundRow(Base):
    __tablename__ = "event_rounds"
    __table_args__ = (CheckConstraint("state IN ('open', 'closed')", name="state_known"),)

    event_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("events.id", ondelete="CASCADE"), primary_key=True)
    number: Mapped[int] = mapped_column(Integer, primary_key=True)
    state: Mapped[str] = mapped_column(String(8))
    byes: Mapped[list[int]] = mapped_column(JSONType)
    started_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    closed_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class EventTableRow(Base):
    """One table of a round: its game, and the entrants it seats by place."""

    __tablename__ = "event_tables"

    event_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("events.id", ondelete="CASCADE"), primary_key=True)
    round: Mapped[int] = mapped_column(Integer, primary_key=True)
    number: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[str] = mapped_column(String(32), ForeignKey("games.id"), unique=True)
    entrants: Mapped[list[int]] = mapped_column(JSONType)
    # Each seated entrant's player links, sealed for the entrant's own link (NULL: none).
    sealed: Mapped[dict[str, Any] | None] = mapped_column(NullableJSON, nullable=True)


class BoardRefusalRow(Base):
    """A duplicate table's refused records of one board: every refusal counted, and how many
    of them the organiser has released. ``refused - released`` is what the limit counts; the
    two only grow, so their sum across an event moves with every change (the organiser's
    screen polls by it). Written in a transaction of its own after the refused request's
    rolled back: the record changes nothing, its refusal is still counted."""

    __tablename__ = "board_refusals"
    __table_args__ = (CheckConstraint("released <= refused", name="released_counted"),)

    game_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    board: Mapped[int] = mapped_column(Integer, primary_key=True)
    refused: Mapped[int] = mapped_column(Integer)
    released: Mapped[int] = mapped_column(Integer)
    last_refused_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class ActionColumns:
    """What every history of actions holds besides whose it is and at which of its versions:
    the order of insertion, the action, what it did, and when."""

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    action: Mapped[str] = mapped_column(String(16))
    data: Mapped[dict[str, Any]] = mapped_column(JSONType)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class EventActionRow(ActionColumns, Base):
    """One action of the organiser, in order: the event's history. Rows are only inserted."""

    __tablename__ = "event_actions"
    __table_args__ = (UniqueConstraint("event_id", "event_version"),)

    event_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("events.id", ondelete="CASCADE"))
    event_version: Mapped[int] = mapped_column(Integer)


class IdempotencyKeyRow(Base):
    """The first response to a request with an ``Idempotency-Key``, inserted in the
    transaction of its effect. The primary key is what makes two requests with one key
    produce one effect."""

    __tablename__ = "idempotency_keys"

    # The game's id, or "" for a request outside any game (POST /games).
    scope: Mapped[str] = mapped_column(String(32), primary_key=True)
    key_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    fingerprint: Mapped[str] = mapped_column(String(64))
    status: Mapped[int] = mapped_column(Integer)
    headers: Mapped[dict[str, str]] = mapped_column(JSONType)
    # Sealed with the key (service.application.idempotency): base64 text.
    body: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)
    # What the first response is about (the game, event or member its request made or
    # changed), so the answers naming a member can be withdrawn when they are forgotten.
    subject: Mapped[str | None] = mapped_column(String(32), index=True)


class ClubRow(Base):
    """A club: its name and the hashes of its secretary's and members' tokens."""

    __tablename__ = "clubs"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    name: Mapped[str] = mapped_column(String(200))
    edit_token_hash: Mapped[str] = mapped_column(String(64), index=True)
    read_token_hash: Mapped[str] = mapped_column(String(64), index=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    # Bumped by every change to the club or its roster: the optimistic-concurrency guard.
    version: Mapped[int] = mapped_column(Integer)
    # Bumped whenever the results its games and events count change: with
    # ``version``, the entity tag of a season's standings.
    results_version: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    # Published by the secretary: its events and seasons (and, if said, ratings) public.
    public: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    public_ratings: Mapped[bool] = mapped_column(Boolean, default=False,
                                                 server_default=false())


class ClubMemberRow(Base):
    """A member of a club. ``name_key`` (accent- and case-insensitive) is unique in the club,
    for every member, merged and forgotten ones too."""

    __tablename__ = "club_members"
    __table_args__ = (UniqueConstraint("club_id", "name_key"),
                      UniqueConstraint("club_id", "number"))

    club_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("clubs.id", ondelete="CASCADE"), primary_key=True)
    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    number: Mapped[int] = mapped_column(Integer)
    name: Mapped[str] = mapped_column(String(200))
    name_key: Mapped[str] = mapped_column(String(400))
    initials: Mapped[str | None] = mapped_column(String(16), nullable=True)
    active: Mapped[bool] = mapped_column(Boolean)
    joined_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    merged_into: Mapped[str | None] = mapped_column(String(32), nullable=True)
    forgotten: Mapped[bool] = mapped_column(Boolean)
    changed_version: Mapped[int] = mapped_column(Integer)
    # False: the public pages give their initials, not their name.
    public: Mapped[bool] = mapped_column(Boolean, default=True, server_default=true())


class ClubActionRow(ActionColumns, Base):
    """One change to a club, in order: its history. Rows are only inserted, except that
    forgetting a member takes their name out of the earlier ones."""

    __tablename__ = "club_actions"
    __table_args__ = (UniqueConstraint("club_id", "club_version"),)

    club_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("clubs.id", ondelete="CASCADE"))
    club_version: Mapped[int] = mapped_column(Integer)


class ClubResultRow(Base):
    """One member's result in one counted game of a club: the projection that
    seasons, statistics and ratings read. Rewritten, in the transaction of the write, by
    every change that moves it; only finished games and closed rounds have rows."""

    __tablename__ = "club_results"
    __table_args__ = (Index("ix_club_results_club_id_finished_at", "club_id", "finished_at"),
                      # A member's rows, and which were written since a results version.
                      Index("ix_club_results_club_id_counted_for_written_version", "club_id",
                            "counted_for", "written_version"),
                      Index("ix_club_results_event_id_finished_at", "event_id", "finished_at"))

    game_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    club_id: Mapped[str] = mapped_column(String(32), ForeignKey("clubs.id", ondelete="CASCADE"))
    #: The member at the seat, and the member the result counts for (another after a merge).
    member_id: Mapped[str] = mapped_column(String(32))
    counted_for: Mapped[str] = mapped_column(String(32))
    event_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    event_round: Mapped[int | None] = mapped_column(Integer, nullable=True)
    event_table: Mapped[int | None] = mapped_column(Integer, nullable=True)
    family: Mapped[str] = mapped_column(String(32))
    variant: Mapped[str] = mapped_column(String(64))
    finished_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    column: Mapped[str] = mapped_column(String(16))
    place: Mapped[int] = mapped_column(Integer)
    shared: Mapped[int] = mapped_column(Integer)
    partners: Mapped[list[str]] = mapped_column(JSONType)
    opponents: Mapped[list[str]] = mapped_column(JSONType)
    totals: Mapped[list[int]] = mapped_column(JSONType)
    points: Mapped[int] = mapped_column(Integer)
    hands: Mapped[int] = mapped_column(Integer)
    marca: Mapped[str | None] = mapped_column(String(32), nullable=True)
    state: Mapped[str] = mapped_column(String(8))
    #: What a member's statistics count of the game's hands: NULL for a row
    #: written before they were kept, filled when the member's statistics are first read.
    facts: Mapped[dict[str, Any] | None] = mapped_column(NullableJSON, nullable=True)
    #: The club's results version that wrote the row (0: before it was kept): with how many
    #: rows count for a member, what tells their statistics apart from one write to another.
    written_version: Mapped[int] = mapped_column(Integer, server_default="0")


class ClubSeasonRow(Base):
    """A season of a club: a span of dates, its families and how it counts."""

    __tablename__ = "club_seasons"

    club_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("clubs.id", ondelete="CASCADE"), primary_key=True)
    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    name: Mapped[str] = mapped_column(String(200))
    date_from: Mapped[date] = mapped_column(Date)
    date_to: Mapped[date] = mapped_column(Date)
    families: Mapped[list[str]] = mapped_column(JSONType)
    counting: Mapped[str] = mapped_column(String(16))
    best_n: Mapped[int | None] = mapped_column(Integer, nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class ClubRatingStep(Base):
    """A member's rating in a family just after one of their rated games: the ratings kept
    as games finish, replayed from a game on when an older result moves. ``number`` is the
    game's place among the family's rated games (its last is how many the table rates);
    ``games`` how many the member had then."""

    __tablename__ = "club_rating_steps"
    __table_args__ = (Index("ix_club_rating_steps_club_id_family_finished_at_game_id",
                            "club_id", "family", "finished_at", "game_id"),
                      Index("ix_club_rating_steps_club_id_family_member_id_number",
                            "club_id", "family", "member_id", "number"),
                      Index("ix_club_rating_steps_club_id_family_number",
                            "club_id", "family", "number"))

    game_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    member_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    club_id: Mapped[str] = mapped_column(String(32), ForeignKey("clubs.id", ondelete="CASCADE"))
    family: Mapped[str] = mapped_column(String(32))
    finished_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    number: Mapped[int] = mapped_column(Integer)
    games: Mapped[int] = mapped_column(Integer)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    change: Mapped[float] = mapped_column(Float)


class ClubRating(Base):
    """A member's rating in a family as it stands: their last step, kept so that the
    ratings' table is one read of one row per member."""

    __tablename__ = "club_ratings"

    club_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("clubs.id", ondelete="CASCADE"), primary_key=True)
    family: Mapped[str] = mapped_column(String(32), primary_key=True)
    member_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    games: Mapped[int] = mapped_column(Integer)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    change: Mapped[float] = mapped_column(Float)
    last_game: Mapped[str] = mapped_column(String(32))
    last_played: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class PurgeRow(Base):
    """One purge of anonymous games left untouched (``RETENTION_DAYS``): when, by what, how
    many games it removed and the latest activity among them. ``day`` is set by the purge a
    serving worker runs once a day, unique: of the processes that try the same day, the one
    whose row went in runs it. ``GET /metrics`` sums ``games``."""

    __tablename__ = "purges"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    day: Mapped[date | None] = mapped_column(Date, nullable=True, unique=True)
    by: Mapped[str] = mapped_column(String(16))
    started_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    games: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    oldest_activity: Mapped[datetime | None] = mapped_column(DateTime(timezone=True),
                                                             nullable=True)
