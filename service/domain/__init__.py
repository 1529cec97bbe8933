"""The rules core: cards, notation, variants, validation and scoring (RULES.md).

Imports only the standard library (ARCHITECTURE §1); a test keeps it that way.
"""

#: Stored with every hand version: results are derived from the record by these rules.
RULES_VERSION = "2026.11.1"
