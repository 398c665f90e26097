"""``/api/v1/schema/`` and ``/api/v1/docs/`` (Swagger UI), fast.

The OpenAPI document is made once per process, language and form (``server.contract``). It is
the same text ``schema/openapi.yaml`` commits. It is compressed once, and sent with a strong
``ETag``. A client that sends it back in ``If-None-Match`` gets ``304 Not Modified`` and no body.
The docs page reads the JSON form. Browsers parse JSON several times faster than YAML.
"""

from __future__ import annotations

import gzip
import hashlib
import re
from dataclasses import dataclass
from functools import cache

from django.http import HttpResponse, HttpResponseBase, HttpResponseNotModified
from django.utils import translation
from django.utils.cache import patch_vary_headers
from django.utils.http import parse_etags
from drf_spectacular.utils import extend_schema
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView
from rest_framework.request import Request

from server.contract import openapi_text

GZIP = re.compile(r"\bgzip\b")


@dataclass(frozen=True)
class Served:
    body: bytes
    compressed: bytes
    etag: str


@cache
def served(language: str, form: str) -> Served:
    """The document in ``language`` and ``form`` (``yaml``/``json``), made and packed once."""
    body = openapi_text(language, form)
    digest = hashlib.sha256(body).hexdigest()[:32]
    return Served(body, gzip.compress(body, compresslevel=9, mtime=0), f'"{digest}"')


class SchemaView(SpectacularAPIView):
    """drf-spectacular's view, serving the document made once.

    It keeps the view's content negotiation: ``?format=json`` or ``Accept``."""

    @extend_schema(exclude=True)  # as drf-spectacular's (SERVE_INCLUDE_SCHEMA is off)
    def get(self, request: Request, *args: object, **kwargs: object) -> HttpResponseBase:
        renderer, media_type = self.perform_content_negotiation(request, force=True)
        form = "json" if renderer.format == "json" else "yaml"
        found = served(translation.get_language() or "en", form)
        if found.etag in parse_etags(request.headers.get("If-None-Match", "")):
            answer: HttpResponseBase = HttpResponseNotModified()
        else:
            answer = self._answer(request, found, f"{media_type}; charset=utf-8")
            name = self._get_filename(request, None)
            answer["Content-Disposition"] = f'inline; filename="{name}"'
        answer["ETag"] = found.etag
        answer["Cache-Control"] = "no-cache"  # revalidate: a deploy may change it
        patch_vary_headers(answer, ("Accept", "Accept-Encoding", "Accept-Language"))
        return answer

    @staticmethod
    def _answer(request: Request, found: Served, content_type: str) -> HttpResponse:
        if GZIP.search(request.headers.get("Accept-Encoding", "")):
            answer = HttpResponse(found.compressed, content_type=content_type)
            answer["Content-Encoding"] = "gzip"
            return answer
        return HttpResponse(found.body, content_type=content_type)


schema_view = SchemaView.as_view()
# Swagger UI with its start script as a file of its own (the split view: no inline script),
# reading the schema's JSON form.
docs_view = SpectacularSwaggerSplitView.as_view(url="/api/v1/schema/?format=json")
