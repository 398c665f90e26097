"""The embeddable standings widget: ``/leagues/<slug>/embed/``.

It is a minimal page of the league's default standings. The sites its organizers allow may frame it.

Every other page is sent with ``X-Frame-Options: DENY`` and ``frame-ancestors 'none'``. This one
names the league's allowed origins in ``Content-Security-Policy: frame-ancestors``. It drops
``X-Frame-Options``, which cannot name more than one site. A league that allows none keeps both
refusals. An origin is read strictly (``origin_parse``). So only a scheme, a host and a port ever
reach the header.
"""

from __future__ import annotations

import ipaddress
import re
from urllib.parse import urlsplit

from csp.constants import NONE
from django.db import IntegrityError, transaction
from django.http import Http404, HttpRequest
from django.template.response import TemplateResponse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from infra.errors import ApplicationError, ConflictError, NotFoundError
from leagues.models import EmbedSite, League
from leagues.selectors.leagues import season_pick, standings_of
from leagues.services.leagues import league_of, require_organizer
from tournaments.selectors.viewers import Organizer

DEFAULT_PORTS = {"http": 80, "https": 443}
MOST_SITES = 20  # per league: a header line stays short
# A DNS name by its IDNA form: dotted labels of letters, digits and "-", at most 253.
HOST_NAME = re.compile(
    r"(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*"
)
TEMPLATE = "leagues/embed.html"


def origin_parse(text: str) -> str:
    """``text`` as a canonical origin, or ``bad_origin``.

    Examples: ``https://club.example``, ``http://[::1]:8000``. An origin is http or https, a host
    name or an IP address, and an optional port. Nothing else is allowed. There is no path but "/",
    and no query, fragment, user, wildcard, space or quote.
    """
    if not text.isascii() or any(char.isspace() or not char.isprintable() for char in text):
        raise _bad(_("An origin has no space, control or non-ASCII character."))
    try:
        parts = urlsplit(text)
        host, port = parts.hostname, parts.port
    except ValueError as error:
        raise _bad(_("The origin is malformed.")) from error
    if parts.scheme not in DEFAULT_PORTS or not host:
        raise _bad(_("An origin is http:// or https:// and a host."))
    if "@" in parts.netloc or parts.path not in ("", "/") or parts.query or parts.fragment:
        raise _bad(_("An origin is a scheme, a host and a port only: no user, path or query."))
    if text.endswith("#") or text.endswith("?") or port == 0:
        raise _bad(_("The origin is malformed."))
    shown = _host(host, bracketed=parts.netloc.startswith("["))
    default = port is None or port == DEFAULT_PORTS[parts.scheme]
    return f"{parts.scheme}://{shown}" + ("" if default else f":{port}")


def _host(host: str, *, bracketed: bool) -> str:
    """The host as an origin writes it, or ``bad_origin``. An IPv6 address goes in brackets."""
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        address = None
    if isinstance(address, ipaddress.IPv6Address) and bracketed:
        return f"[{address.compressed}]"
    if isinstance(address, ipaddress.IPv4Address) and not bracketed:
        return str(address)
    if bracketed or not HOST_NAME.fullmatch(host):
        raise _bad(_("The origin's host is neither a host name nor an IP address."))
    return host


def _bad(message: str) -> ApplicationError:
    return ApplicationError("bad_origin", message, {"field": "origin"})


def embed_site_add(*, organizer: Organizer | None, slug: str, origin: str) -> EmbedSite:
    """Allow ``origin`` to frame the league's widget. Adding it twice is ``409
    embed_site_exists``."""
    league = league_of(slug)
    require_organizer(organizer, league)
    canonical = origin_parse(origin)
    with transaction.atomic():
        League.objects.select_for_update().get(pk=league.pk)  # two adds count one at a time
        if league.embed_sites.count() >= MOST_SITES:
            raise ConflictError(
                "too_many_embed_sites",
                _("A league allows at most %(count)s sites.") % {"count": MOST_SITES},
                {"limit": MOST_SITES},
            )
        try:
            with transaction.atomic():
                return EmbedSite.objects.create(league=league, origin=canonical)
        except IntegrityError as error:
            raise ConflictError(
                "embed_site_exists",
                _("The league allows that site already."),
                {"origin": canonical},
            ) from error


def embed_site_remove(*, organizer: Organizer | None, slug: str, site_id: int) -> None:
    league = league_of(slug)
    require_organizer(organizer, league)
    deleted, _kinds = EmbedSite.objects.filter(league=league, pk=site_id).delete()
    if not deleted:
        raise NotFoundError("unknown_embed_site", _("The league allows no site with that id."))


def embed_origins(league: League) -> list[str]:
    return list(league.embed_sites.values_list("origin", flat=True))


@require_safe
def embed_page(request: HttpRequest, slug: str) -> TemplateResponse:
    """The league's default standings as a small page its allowed sites may frame."""
    league = League.objects.filter(slug=slug).first()
    if league is None:
        raise Http404(_("No league has that slug."))
    season = league.seasons.exists() and season_pick(league, None)
    standings = standings_of(season) if season else None
    context = {"league": league, "season": season or None, "standings": standings}
    response = TemplateResponse(request, TEMPLATE, context)
    origins = embed_origins(league)
    if origins:  # framed by these sites alone; the other pages stay DENY
        response.xframe_options_exempt = True
    response._csp_replace = {"frame-ancestors": origins or [NONE]}  # type: ignore[attr-defined]
    return response
