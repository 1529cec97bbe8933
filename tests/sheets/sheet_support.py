"""Helpers of the score-sheet tests: the text and fonts of a PDF as pypdf reads them, and a
game played over HTTP. Imported as ``sheet_support``."""

from __future__ import annotations

import io
import re
from typing import Any

from pypdf import PdfReader
from sheet_samples import Sample

API = "/api/v1"
PROBLEM = "application/problem+json"


def pdf_pages(data: bytes) -> list[str]:
    """Each page's text, its runs of white space made single spaces (pypdf puts a cell's
    points and its mark on lines of their own)."""
    reader = PdfReader(io.BytesIO(data))
    return [re.sub(r"\s+", " ", page.extract_text() or "") for page in reader.pages]


def pdf_text(data: bytes) -> str:
    return " ".join(pdf_pages(data))


def pdf_reader(data: bytes) -> Any:
    return PdfReader(io.BytesIO(data))


def pdf_fonts(data: bytes) -> dict[str, Any]:
    """Every font the pages use, by base font name, with its font descriptor."""
    fonts: dict[str, Any] = {}
    for page in pdf_reader(data).pages:
        for font in page["/Resources"]["/Font"].values():
            font = font.get_object()
            descriptor = font.get("/FontDescriptor")
            if descriptor is None and "/DescendantFonts" in font:
                descriptor = font["/DescendantFonts"][0].get_object().get("/FontDescriptor")
            fonts[str(font["/BaseFont"])] = descriptor.get_object() if descriptor else None
    return fonts


def problem(response: Any, status: int) -> dict[str, Any]:
    """The problem+json body of a response of ``status``."""
    assert response.status_code == status, (response.status_code, response.data[:300])
    assert response.mimetype == PROBLEM
    return response.json  # type: ignore[no-any-return]


def fields(body: dict[str, Any]) -> dict[str, str]:
    """A problem's errors as field → code."""
    return {e["field"]: e["code"] for e in body["errors"]}


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


class HttpGame:
    """A sample game created and played over HTTP."""

    def __init__(self, client: Any, sample: Sample) -> None:
        self.client = client
        response = client.post(f"{API}/games", json={
            "variant": sample.variant, "players": list(sample.players),
            "options": sample.options, "first_dealer": sample.first_dealer})
        assert response.status_code == 201, response.json
        self.id: str = response.json["id"]
        self.edit: str = response.json["tokens"]["edit"]
        self.read: str = response.json["tokens"]["read"]
        self.url = f"{API}/games/{self.id}"
        for record in sample.hands:
            added = client.post(f"{self.url}/hands", json=record, headers=auth(self.edit))
            assert added.status_code == 201, added.json

    def get(self, suffix: str = "", token: str | None = None, **kwargs: Any) -> Any:
        headers = {**auth(token or self.read), **kwargs.pop("headers", {})}
        return self.client.get(f"{self.url}{suffix}", headers=headers, **kwargs)

    def state(self) -> dict[str, Any]:
        response = self.get()
        assert response.status_code == 200, response.json
        return response.json
