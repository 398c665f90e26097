"""Players ask to join a league (docs/leagues.md, *Join requests*).

Anyone sends a handle and gets a request token. The league's organizers accept or decline. Accepting
makes a member. The token reads the request. Once it is accepted, the token also reads the member's
claim code.

The claim code is derived from the request token, as an HMAC. The member is made with its hash. So
the server never keeps the code in clear, and only the token's holder can read it.
"""

from __future__ import annotations

import base64
import hashlib
import hmac

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from apikit.shapes import row
from infra.errors import ConflictError, NotFoundError
from leagues.models import JoinRequest, JoinStatus, League, Member
from leagues.organizing_shapes import (
    JoinRequestStanding,
    JoinRequestTicket,
    JoinRequestView,
)
from leagues.services.leagues import league_of, member_add, require_organizer
from tournaments.selectors.viewers import BadToken, Organizer, hash_token
from tournaments.services.common import new_token


def claim_code_of(token: str) -> str:
    """The claim code of an accepted request, worked out from its token."""
    digest = hmac.new(token.encode(), b"league member claim code", hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest[:18]).decode()


def join_request_send(*, slug: str, handle: str, message: str) -> JoinRequestTicket:
    """A pending request for ``handle`` and its token, returned this once."""
    league = league_of(slug)
    if handle.lower().startswith("bot "):
        raise ConflictError("handle_taken", _("Handles starting with 'Bot ' are the bots'."))
    if Member.objects.filter(league=league, handle__iexact=handle).exists():
        raise ConflictError("handle_taken", _("Another member has that handle."))
    token, digest = new_token()
    claim = hash_token(claim_code_of(token))
    try:
        with transaction.atomic():
            made = JoinRequest.objects.create(
                league=league, handle=handle, message=message, token_hash=digest, claim_hash=claim
            )
    except IntegrityError as waiting:  # the pending request of that handle (its constraint)
        raise ConflictError(
            "join_requested", _("A request for that handle is waiting already.")
        ) from waiting
    return row(JoinRequestTicket, made, league=slug, token=token)


def join_request_standing(*, slug: str, token: str) -> JoinRequestStanding:
    """The request its token names, with the member's claim code while unclaimed."""
    found = (
        JoinRequest.objects.select_related("member")
        .filter(league__slug=slug, token_hash=hash_token(token))
        .first()
    )
    if found is None:
        raise BadToken("bad_request_token", _("That join request token is not known."))
    member = found.member
    # The code shows while the member made from this request is unclaimed and its claim code
    # is still this request's (an organizer's reissue gives the organizer another).
    unclaimed = (
        member is not None and not member.claimed_at and member.claim_hash == found.claim_hash
    )
    claim = claim_code_of(token) if unclaimed else None
    return row(
        JoinRequestStanding,
        found,
        league=slug,
        member=member.handle if member else None,
        claim_code=claim,
    )


def join_request_list(*, organizer: Organizer | None, slug: str) -> list[JoinRequestView]:
    """Every request to join the league, oldest first, for its organizers."""
    league = league_of(slug)
    require_organizer(organizer, league)
    found = league.join_requests.select_related("member", "decided_by")
    return [join_request_view(request) for request in found]


def join_request_view(request: JoinRequest) -> JoinRequestView:
    by = request.decided_by
    return row(
        JoinRequestView,
        request,
        member=request.member.handle if request.member else None,
        decided_by=by.get_username() if by else None,
    )


def join_request_accept(
    *, organizer: Organizer | None, slug: str, request_id: int
) -> JoinRequestView:
    """Accept a pending request: a human member with the handle asked for.

    ``handle_taken`` if a member took it meanwhile. The request then stays pending.
    """
    league = league_of(slug)
    by = require_organizer(organizer, league)
    with transaction.atomic():
        found = _pending(league, request_id)
        member = member_add(league=league, handle=found.handle, claim_hash=found.claim_hash)
        _decide(found, JoinStatus.ACCEPTED, by, member=member)
    return join_request_view(found)


def join_request_decline(
    *, organizer: Organizer | None, slug: str, request_id: int, reason: str
) -> JoinRequestView:
    """Decline a pending request. The player is shown ``reason``."""
    league = league_of(slug)
    by = require_organizer(organizer, league)
    with transaction.atomic():
        found = _pending(league, request_id)
        _decide(found, JoinStatus.DECLINED, by, reason=reason)
    return join_request_view(found)


def _pending(league: League, request_id: int) -> JoinRequest:
    # Locked: two organizers deciding one request at once decide it once (one member made).
    found = JoinRequest.objects.select_for_update().filter(league=league, pk=request_id).first()
    if found is None:
        raise NotFoundError("unknown_join_request", _("This league has no such join request."))
    if found.status != JoinStatus.PENDING:
        raise ConflictError(
            "join_request_decided",
            _("That join request is decided already."),
            {"status": found.status},
        )
    return found


def _decide(
    found: JoinRequest,
    status: str,
    by: Organizer,
    *,
    member: Member | None = None,
    reason: str = "",
) -> None:
    found.status, found.member, found.reason = status, member, reason
    found.decided_by_id, found.decided_at = by.user_id, timezone.now()
    found.save(update_fields=["status", "member", "reason", "decided_by", "decided_at"])
