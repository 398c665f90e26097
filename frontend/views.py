"""The web client's page shell, served at every path the client reads.

The public league pages are the shell at shareable paths: the client reads the path and asks the
public league API. A path naming no league (or no season or member of it) answers the same shell
with 404, so a link checker, a crawler or a link preview learns it is not there; the client shows
the refusal in words as before.
"""

from __future__ import annotations

from django.http import HttpRequest
from django.template.response import TemplateResponse
from django.views.decorators.http import require_safe

from tournaments.leagues.models import League

TEMPLATE = "frontend/index.html"


@require_safe
def shell(request: HttpRequest) -> TemplateResponse:
    return TemplateResponse(request, TEMPLATE)


@require_safe
def league_page(
    request: HttpRequest, slug: str, season: int | None = None, handle: str | None = None
) -> TemplateResponse:
    """The shell, with 404 for a league, season or member handle the league does not have (an
    unlisted league is found by its slug, as its API reads it)."""
    status = 200 if _exists(slug, season, handle) else 404
    return TemplateResponse(request, TEMPLATE, status=status)


def _exists(slug: str, season: int | None, handle: str | None) -> bool:
    league = League.objects.filter(slug=slug).first()
    if league is None:
        return False
    if season is not None and not league.seasons.filter(pk=season).exists():
        return False
    return handle is None or league.members.filter(handle=handle).exists()
