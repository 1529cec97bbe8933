"""Clubs (issue 29, CLUBS.md): a club's roster (``roster``), what a counted game gives each
member at it (``results``), and its seasons, their standings and their leaders evening by
evening (``seasons``)."""

from __future__ import annotations

from .links import RosterEntry, SeatChoice, choose_members
from .results import ClubResult, SeatResult, places, seat_results
from .roster import (
    CLUB_NAME_MAX,
    INITIALS_MAX,
    MEMBERS_MAX,
    MemberChange,
    RosterName,
    forgotten_label,
    member_key,
    merge_problems,
    validate_club_name,
    validate_member,
)
from .seasons import (
    BEST_N_MAX,
    COUNTINGS,
    LEADERS,
    Counting,
    Evening,
    RunningLine,
    Season,
    SeasonStandings,
    counted_rows,
    season_standings,
    validate_season,
)

__all__ = ["BEST_N_MAX", "CLUB_NAME_MAX", "COUNTINGS", "INITIALS_MAX", "LEADERS", "MEMBERS_MAX",
           "ClubResult", "Counting", "Evening", "MemberChange", "RosterEntry", "RosterName",
           "RunningLine", "Season",
           "SeasonStandings", "SeatChoice", "SeatResult", "choose_members", "counted_rows", "forgotten_label",
           "member_key", "merge_problems", "places", "season_standings", "seat_results",
           "validate_club_name", "validate_member", "validate_season"]
