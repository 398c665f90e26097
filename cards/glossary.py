"""The game's terms in every language the server speaks (``cards/data/glossary.json``).

The card catalogue's translations follow it (tests/cards/test_glossary.py). The web client reads
it at ``/glossary.json``, so its words are the cards' words."""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import Any

from django.http import HttpRequest, JsonResponse
from django.views.decorators.http import require_safe

GLOSSARY_PATH = Path(__file__).resolve().parent / "data" / "glossary.json"


@lru_cache(maxsize=1)
def glossary_read() -> dict[str, object]:
    data: dict[str, Any] = json.loads(GLOSSARY_PATH.read_text(encoding="utf-8"))
    return data


@require_safe
def glossary_view(request: HttpRequest) -> JsonResponse:
    """Every term and set name in English, Chinese (Simplified) and Russian.

    It is one file, the same for every caller. A client picks its language's column."""
    response = JsonResponse(glossary_read(), json_dumps_params={"ensure_ascii": False})
    response["Cache-Control"] = "public, max-age=3600"
    return response
