"""The printouts: what a game or an event looks like on paper and in a file.

- ``model``: the sheets as data, which ``service.pdf`` lays out and the HTTP layer reads;
- ``sheet``: a game's score sheet (``build_sheet``): what every sheet has, and a part per
  family of games (``points``, ``gatti``, ``ottocento``, ``mitigatti``, on ``family``), read
  through one ``context`` (whose ``say`` gives the hands' explanations as the service says
  them), ``numbers`` what each column got from each hand (the CSV's numbers too);
- ``chart``: the chart of a game's running totals on its sheet (``Chart``);
- ``standings``: an event's printable standings (``build_standings_sheet``), and a club's
  season's (``build_season_sheet``);
- ``slips``: a duplicate event's deal slips (``build_slips``);
- ``keycard``: a club's or an event's key card, its edit link to keep (``build_keycard``);
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
from .keycard import KeyCard, KeyCardKind, build_keycard
from .model import (
    Block,
    Chart,
    ChartLine,
    Entry,
    HandBlock,
    Printout,
    Row,
    Sheet,
    SheetColumn,
    Slip,
    SlipsSheet,
    StandingsSheet,
)
from .numbers import hand_numbers
from .printer import (
    PDF_CACHE_BYTES,
    PDF_RENDER_CONCURRENCY,
    PDF_RENDER_WAIT_S,
    PrinterBusy,
    SheetPrinter,
    as_of,
)
from .sheet import build_sheet
from .slips import build_slips
from .standings import build_season_sheet, build_standings_sheet

__all__ = ["EXPORT_FORMAT", "IMPORT_VERSIONS", "MAX_HISTORY", "PDF_CACHE_BYTES",
           "PDF_RENDER_CONCURRENCY", "PDF_RENDER_WAIT_S", "Block", "Chart", "ChartLine",
           "Entry", "HandBlock", "KeyCard", "KeyCardKind", "PrinterBusy", "Printout", "Row", "Sheet",
           "SheetColumn", "SheetPrinter", "Slip", "SlipsSheet", "StandingsSheet",
           "as_of", "build_keycard", "build_season_sheet", "build_sheet", "build_slips",
           "build_standings_sheet", "export_csv", "export_game", "hand_numbers",
           "import_game"]
