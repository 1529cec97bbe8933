"""Club nights and tournaments (EVENTS.md): an event's setup and tables, the seating of each
round by format, and the standings."""
