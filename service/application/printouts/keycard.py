"""A club's or an event's key card: what the secretary or the organiser prints when the club
or the event is made, and keeps in a drawer. Its edit link as a QR code and as text, whose it
is and what it opens, how it is used on a new phone, and that it must be kept safe; every word
in the reader's language. The link is the one the page opens (``…/#/clubs/{id}?token=…``):
scanned or typed on a phone that never saw the club, it brings the club back with its rights."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Literal

from ..i18n import Translator
from .model import Printout

KeyCardKind = Literal["club", "event"]


@dataclass(frozen=True, slots=True)
class KeyCard(Printout):
    """One card, one page: the name it opens, whose link it is, the link, and what to know."""

    name: str
    role: str
    link: str
    opens: str
    use: str
    safe: str
    lost: str


def build_keycard(kind: KeyCardKind, resource_id: str, name: str, link: str, lang: str,
                  printed_at: datetime) -> KeyCard:
    """The key card of the club or event ``resource_id`` called ``name``, whose edit link is
    ``link``, printed at ``printed_at``, in ``lang``."""
    t = Translator(lang)
    return KeyCard(
        lang=lang, title=t("keycard.title"), footer=t("keycard.footer", date=t.date(printed_at)),
        page_label="", filename=f"segnapunti-keycard-{resource_id}.pdf",
        name=name, role=t(f"keycard.{kind}.role"), link=link,
        opens=t(f"keycard.{kind}.opens", name=name), use=t("keycard.use"),
        safe=t("keycard.safe", name=name), lost=t("keycard.lost"))
