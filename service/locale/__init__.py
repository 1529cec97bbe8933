"""The service's words in the languages it speaks besides English: one gettext catalogue a
language, ``<lang>/LC_MESSAGES/messages.po``, read with Babel and compiled in memory the first
time a process needs it. ``python -m service.locale`` gathers every sentence the code says
into the catalogues, keeping the translations they have."""

from __future__ import annotations

import functools
import gettext
from importlib.resources import files
from io import BytesIO


@functools.cache
def translations(lang: str) -> gettext.NullTranslations:
    """The language's catalogue; an empty one (English, the code's own) where there is none."""
    source = files(__name__).joinpath(lang, "LC_MESSAGES", "messages.po")
    if not source.is_file():
        return gettext.NullTranslations()
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    with source.open("rb") as f:
        catalog = read_po(f, locale=lang)
    compiled = BytesIO()
    write_mo(compiled, catalog)
    compiled.seek(0)
    return gettext.GNUTranslations(compiled)
