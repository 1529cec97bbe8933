"""Club nights and tournaments (docs/events.md): an event's setup and tables, the seating of each
round by format, and the standings."""
