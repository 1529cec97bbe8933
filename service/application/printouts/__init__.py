"""The printouts (issue 26): what a game or an event looks like on paper and in a file.

- ``sheet``: a game's score sheet as data (``build_sheet``), which ``service.pdf`` lays out;
- ``standings``: an event's printable standings (``build_standings_sheet``);
- ``exports``: a game's JSON export and import, and its CSV;
- ``printer``: the PDF printing of sheets, kept per version and a few at a time
  (``SheetPrinter``).
"""

from .exports import (
    EXPORT_FORMAT,
    IMPORT_VERSIONS,
    MAX_HISTORY,
    export_csv,
    export_game,
    import_game,
)
from .printer import (
    PDF_CACHE_BYTES,
    PDF_RENDER_CONCURRENCY,
    PDF_RENDER_WAIT_S,
    PrinterBusy,
    SheetPrinter,
    as_of,
)
from .sheet import (
    Entry,
    HandBlock,
    Row,
    Sheet,
    SheetColumn,
    build_sheet,
    explanation_fallbacks,
    hand_numbers,
)
from .standings import Block, StandingsSheet, build_standings_sheet

__all__ = ["EXPORT_FORMAT", "IMPORT_VERSIONS", "MAX_HISTORY", "PDF_CACHE_BYTES",
           "PDF_RENDER_CONCURRENCY", "PDF_RENDER_WAIT_S", "Block", "Entry", "HandBlock",
           "PrinterBusy", "Row", "Sheet", "SheetColumn", "SheetPrinter", "StandingsSheet",
           "as_of", "build_sheet", "build_standings_sheet", "explanation_fallbacks",
           "export_csv", "export_game", "hand_numbers", "import_game"]
