"""One hand as the table recorded it (rulebook §0, §6): the record, the trick engine and the replay
of a trick record, capture piles by cards or by points, the discard and shown cards, the
front of scoring, a disputed trick, and the players' verdicts on a hand."""
