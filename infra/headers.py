"""The caching headers of the API's and GraphQL's answers (docs/security.md, "Headers").

Answers under ``/api/`` and ``/graphql/`` may depend on who asks. A seat's token shows its own hand.
An organizer's token shows its own leagues. So every such answer varies on ``Authorization``,
besides ``Accept-Language`` (added by ``infra.i18n``). A request carrying one gets ``Cache-Control:
private``. So a shared cache (a CDN, a corporate proxy) never stores it. It never hands one viewer's
answer to another.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponseBase
from django.utils.cache import patch_cache_control, patch_vary_headers
from django.utils.deprecation import MiddlewareMixin

PER_VIEWER = ("/api/", "/graphql/")


def is_per_viewer(request: HttpRequest) -> bool:
    """Whether the answer may depend on the ``Authorization`` header."""
    return request.path_info.startswith(PER_VIEWER)


class ViewerCacheMiddleware(MiddlewareMixin):
    def process_response(
        self, request: HttpRequest, response: HttpResponseBase
    ) -> HttpResponseBase:
        if is_per_viewer(request):
            patch_vary_headers(response, ("Authorization",))
            if "HTTP_AUTHORIZATION" in request.META:
                patch_cache_control(response, private=True)
        return response
