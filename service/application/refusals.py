"""A duplicate table's refused records, counted board by board: a board keeps its secret
until every table due to play it has played it.

A refusal names the board, the seat and the card it disagrees with, never who holds the card;
still, each refusal says that some seat was not dealt some card, so a table that posts records
of a board it has not played yet (a shuffled pack as its tricks, again and again) could learn
the deal from the answers. Honest tables make a few mistakes a board; probing takes many.
So every refused record of a board is counted for its table, in the database (it survives
restarts and is shared by every process), in a transaction of its own since the refused
request's rolls back; past ``REFUSALS_PER_BOARD`` the table records that board no more
(``BoardRefused``, 429) until the organiser releases it, and the organiser sees the counts.

A table records only the board it is due to play next (hand *n* of its game is its *n*-th
board); reaching a later board by recording the earlier ones and deleting them back is
counted the same way, since the counts are kept apart from the hands: deleting a hand, or
correcting one, takes nothing off them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import datetime

from service.domain import Board, RecordInvalid, Text

from .errors import BoardRefused
from .unit_of_work import UnitOfWork

#: Refused records of one board a table may make before it must ask the organiser: an honest
#: table that types a trick record wrong needs one or two tries, a few at worst; ten is well
#: beyond that, and far fewer than probing a deal card by card takes.
REFUSALS_PER_BOARD = 10


@contextmanager
def counting_refusals(unit: UnitOfWork, game_id: str, board: Board | None,
                      clock: Callable[[], datetime]) -> Iterator[None]:
    """Around the scoring of a record of ``board`` at the table of ``game_id`` (nothing at a
    table of free deals): refused at once (``BoardRefused``) when the table's refusals of
    the board reached the limit; a ``RecordInvalid`` raised inside is counted, despite the
    rollback of the request it refuses."""
    if board is None:
        yield
        return
    number = board.number
    refused = unit.refusals.counted_refusals(game_id, number)
    if refused >= REFUSALS_PER_BOARD:
        raise BoardRefused(Text(
            "this table's records of board {board} were refused {n} times: it records the "
            "board again once the organiser releases it on the event's screen",
            board=number, n=refused))
    try:
        yield
    except RecordInvalid:
        now = clock()
        unit.despite_rollback(lambda: unit.refusals.add_refusal(game_id, number, now))
        raise
