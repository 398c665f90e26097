"""Query parameters an endpoint does not read are refused, never silently ignored.

Else a typo (``?stauts=lobby``) would answer the unfiltered list as if it were filtered. Each API
view names the parameters it reads. Anything else is ``400 unknown_parameter``.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.utils.translation import gettext as _
from rest_framework.request import Request

from infra.errors import ApplicationError
from infra.i18n import QUERY_PARAMETER


def refuse_unknown(request: Request, allowed: Iterable[str]) -> None:
    known = {*allowed, QUERY_PARAMETER}  # ?lang= is read by every URL (infra.i18n)
    unknown = sorted(name for name in request.query_params if name not in known)
    if unknown:
        names = ", ".join(unknown)
        raise ApplicationError(
            "unknown_parameter",
            _("This endpoint reads no query parameter named %(names)s.") % {"names": names},
            {"unknown": unknown, "allowed": sorted(known)},
        )


class KnownQueryParameters:
    """A DRF view mixin: ``query_parameters`` (plus a filterset's filters) are all it reads."""

    query_parameters: frozenset[str] = frozenset()

    def allowed_query_parameters(self) -> set[str]:
        allowed = set(self.query_parameters)
        filterset = getattr(self, "filterset_class", None)
        if filterset is not None:
            allowed |= set(filterset.base_filters)
        return allowed

    def initial(self, request: Request, *args: object, **kwargs: object) -> None:
        super().initial(request, *args, **kwargs)  # type: ignore[misc]
        refuse_unknown(request, self.allowed_query_parameters())
