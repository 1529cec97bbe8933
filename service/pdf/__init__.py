"""The printable score sheet as PDF: the only package that imports reportlab
(ARCHITECTURE §7)."""

from .render import render_sheet

__all__ = ["render_sheet"]
