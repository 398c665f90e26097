"""The web client's page shell, served at every path the client reads (the league pages' own
404s are the leagues': ``leagues.web.pages``)."""

from __future__ import annotations

from django.http import HttpRequest
from django.template.response import TemplateResponse
from django.views.decorators.http import require_safe

TEMPLATE = "frontend/index.html"


@require_safe
def shell(request: HttpRequest) -> TemplateResponse:
    return TemplateResponse(request, TEMPLATE)
