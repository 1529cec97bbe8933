"""Clubs (docs/clubs.md): a club's roster (``roster``), what a counted game gives each
member at it (``results``), its seasons, their standings and their leaders evening by
evening (``seasons``), and a member's statistics (``stats``)."""

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
from .stats import (
    FEW_GAMES,
    Folded,
    MemberRow,
    MemberStats,
    PlayedHand,
    counted_in,
    fold,
    folded_stats,
    game_facts,
    member_stats,
    refold,
)

__all__ = ["BEST_N_MAX", "CLUB_NAME_MAX", "COUNTINGS", "FEW_GAMES", "INITIALS_MAX", "LEADERS",
           "MEMBERS_MAX", "ClubResult", "Counting", "Evening", "Folded", "MemberChange", "MemberRow",
           "MemberStats", "PlayedHand", "RosterEntry", "RosterName", "RunningLine", "Season",
           "SeasonStandings", "SeatChoice", "SeatResult", "choose_members", "counted_in",
           "counted_rows", "fold", "folded_stats", "forgotten_label", "game_facts", "member_key", "member_stats",
           "merge_problems", "places", "refold", "season_standings", "seat_results",
           "validate_club_name", "validate_member", "validate_season"]
