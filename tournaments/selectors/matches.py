"""A tournament's match list as one viewer may see it, cached per tournament version.

Every change a match list can show appends to the tournament's log, and so moves its version. A
match is scheduled, asking, recorded, released, failed or retried. There is one exception: the
clock releases the events of a match being paced out. So a list holding such a match
(``playing``) is never cached. Any other list is, per version and viewer.
"""

from __future__ import annotations

from django.core.cache import cache
from django.utils.translation import gettext as _

from infra.errors import NotFoundError
from matches.observer import Viewer
from matches.selectors import match_list
from matches.shapes import MatchView
from tournaments.models import Tournament
from tournaments.selectors.tournaments import VIEW_TIMEOUT, birth_key


def match_list_of(*, tournament_id: int, viewer: Viewer) -> list[MatchView]:
    """The matches of ``tournament_id`` as ``viewer`` may see them.

    ``not_found`` for no such tournament.
    """
    return match_list_named(tournament_id=tournament_id, viewer=viewer)[0]


def match_list_named(*, tournament_id: int, viewer: Viewer) -> tuple[list[MatchView], str | None]:
    """``match_list_of``'s list, and the key that names its content when it is cached.

    It is cached when no match is ``playing``. The same key names the same list. So GraphQL reuses
    its completed page (``apikit.graphql_execution``) as REST reuses the list.
    """
    stamp = (
        Tournament.objects.filter(pk=tournament_id)
        .values_list("code", "created_at", "version")
        .first()
    )
    if stamp is None:
        raise NotFoundError("not_found", _("No such tournament."))
    code, created_at, version = stamp
    key = f"mviews:{birth_key(tournament_id, code, created_at)}:{version}:{viewer.key}"
    listed: list[MatchView] | None = cache.get(key)
    if listed is not None:
        return listed, key
    listed = match_list(tournament_id=tournament_id, viewer=viewer)
    if any(match.status == "playing" for match in listed):
        return listed, None
    cache.set(key, listed, VIEW_TIMEOUT)
    return listed, key
