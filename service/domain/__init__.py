"""The rules core: cards, notation, variants, validation and scoring (RULES.md, EVENTS.md).

Imports only the standard library (ARCHITECTURE §1); a test keeps it that way.

This module is the front door: the application and the edges import what they use from here,
never from the wings behind it. The house, from the ground up:

- ``core/``: cards and packs, notation, the words the core says (``Text``), typed errors,
  results as explained lines;
- ``variant.py``: what a variant is (a frozen table of rules plus named hooks);
- ``hand/``: one hand as the table recorded it: the record, tricks and their replay, piles by
  cards or by points, the shown and discarded cards, scoring's front, a disputed trick, the
  players' verdicts;
- ``gatti/``, ``ottocento/``, ``mitigatti/``: a folder per family of games, each with its
  variants, its scorer and its combinations (Mitigatti's settlement in marca too);
- ``options.py``, ``registry.py``, ``games.py``, ``rulebook.py``: a game's options, every
  variant by id, a game of many hands, the rules as the page shows them;
- ``events/``: an event's setup, its standings, and the seating of a round by format;
- ``duplicate/``: a duplicate event's boards dealt from its seed, its movement, the referee
  that checks a record against its board, and the boards' scores;
- ``clubs/``: a club's roster (members' names compared as a person would, merges, the
  forgotten), the results a counted game gives its members, and seasons' standings.
"""

from __future__ import annotations

from .clubs import (
    CLUB_NAME_MAX,
    COUNTINGS,
    FEW_GAMES,
    MEMBERS_MAX,
    ClubResult,
    Evening,
    Folded,
    MemberChange,
    MemberRow,
    MemberStats,
    PlayedHand,
    RosterEntry,
    RosterName,
    RunningLine,
    Season,
    SeasonStandings,
    SeatChoice,
    SeatResult,
    choose_members,
    counted_in,
    fold,
    folded_stats,
    forgotten_label,
    game_facts,
    member_key,
    member_stats,
    merge_problems,
    refold,
    season_standings,
    seat_results,
    validate_club_name,
    validate_member,
    validate_season,
)
from .core.cards import SUITS, Card, Suit
from .core.errors import Problem, RecordInvalid, UnknownVariant
from .core.results import HandResult
from .core.text import (
    Cards,
    Money,
    Seats,
    Text,
    english_value,
    name_key,
    visible,
    written_sections,
)
from .duplicate import (
    Board,
    BoardPlay,
    BoardScoring,
    BoardStandings,
    BoardTop,
    RoundPlan,
    TablePlan,
    Traveller,
    board_checks,
    board_columns,
    board_standings,
    board_tops,
    deal_board,
    deal_boards,
    disagreements,
    percent,
    plan_movement,
    plan_round,
    seated_round,
    table_play,
    traveller,
    travellers,
)
from .events.seating import (
    Seating,
    TableShape,
    byes_of,
    repeats,
    seat_individual,
    seat_pairs,
)
from .events.setup import (
    ENTRANTS_MAX,
    EventSetup,
    boards_per_round_max,
    default_boards_per_round,
    read_seating,
    seating_json,
    validate_event_setup,
)
from .events.standings import (
    Row,
    Standings,
    TableResult,
    decimal_json,
    round_entries,
    standings,
)
from .games import (
    EVENING_OVER,
    GameSetup,
    GameSummary,
    check_next_hand,
    ends_by_evening,
    game_summary,
    later_hands_problems,
    validate_game_setup,
)
from .hand.adjudication import adjudicate_trick
from .hand.confirmations import (
    Confirmation,
    HandStanding,
    current_verdicts,
    hand_standing,
    is_final,
    reason_of,
    verdict_problems,
)
from .hand.records import HandRecord, parse_hand_record, read_hand_record
from .hand.scoring import score_hand, score_record, suggest_melds
from .hand.sides import seat_name
from .mitigatti.settlement import STARTING_MARCA, parse_money, pot_collected_text
from .options import LANGUAGES, resolve_options
from .registry import VARIANTS, family_suit_style, find_variant
from .rulebook import rulebook
from .rulings import RULES_VERSION, waived_rulings
from .variant import Variant

__all__ = [
    "CLUB_NAME_MAX",
    "COUNTINGS",
    "ENTRANTS_MAX",
    "EVENING_OVER",
    "FEW_GAMES",
    "LANGUAGES",
    "MEMBERS_MAX",
    "RULES_VERSION",
    "STARTING_MARCA",
    "SUITS",
    "VARIANTS",
    "Board",
    "BoardPlay",
    "BoardScoring",
    "BoardStandings",
    "BoardTop",
    "Card",
    "Cards",
    "ClubResult",
    "Confirmation",
    "Evening",
    "EventSetup",
    "Folded",
    "GameSetup",
    "GameSummary",
    "HandRecord",
    "HandResult",
    "HandStanding",
    "MemberChange",
    "MemberRow",
    "MemberStats",
    "Money",
    "PlayedHand",
    "Problem",
    "RecordInvalid",
    "RosterEntry",
    "RosterName",
    "RoundPlan",
    "Row",
    "RunningLine",
    "Season",
    "SeasonStandings",
    "SeatChoice",
    "SeatResult",
    "Seating",
    "Seats",
    "Standings",
    "Suit",
    "TablePlan",
    "TableResult",
    "TableShape",
    "Text",
    "Traveller",
    "UnknownVariant",
    "Variant",
    "adjudicate_trick",
    "board_checks",
    "board_columns",
    "board_standings",
    "board_tops",
    "boards_per_round_max",
    "byes_of",
    "check_next_hand",
    "choose_members",
    "counted_in",
    "current_verdicts",
    "deal_board",
    "deal_boards",
    "decimal_json",
    "default_boards_per_round",
    "disagreements",
    "ends_by_evening",
    "english_value",
    "family_suit_style",
    "find_variant",
    "fold",
    "folded_stats",
    "forgotten_label",
    "game_facts",
    "game_summary",
    "hand_standing",
    "is_final",
    "later_hands_problems",
    "member_key",
    "member_stats",
    "merge_problems",
    "name_key",
    "parse_hand_record",
    "parse_money",
    "percent",
    "plan_movement",
    "plan_round",
    "pot_collected_text",
    "read_hand_record",
    "read_seating",
    "reason_of",
    "refold",
    "repeats",
    "resolve_options",
    "round_entries",
    "rulebook",
    "score_hand",
    "score_record",
    "season_standings",
    "seat_individual",
    "seat_name",
    "seat_pairs",
    "seat_results",
    "seated_round",
    "seating_json",
    "standings",
    "suggest_melds",
    "table_play",
    "traveller",
    "travellers",
    "validate_club_name",
    "validate_event_setup",
    "validate_game_setup",
    "validate_member",
    "validate_season",
    "verdict_problems",
    "visible",
    "waived_rulings",
    "written_sections",
]
