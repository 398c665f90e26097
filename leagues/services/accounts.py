"""Organizer accounts a person asks for through the API (docs/leagues.md, *Organizer accounts*).

A sign-up makes the user, with no password: the API knows only tokens. It makes its organizer token,
shown once, and a pending ``OrganizerRequest``.

The token acts as an organizer's once an admin approves the request. Approval grants
``tournaments.organize``. Until then every organizer write answers ``403 not_organizer``. The token
reads where its request stands (``organizer_account``).
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractUser, Permission
from django.db import IntegrityError, connection, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from apikit.shapes import row
from infra.errors import ConflictError
from leagues.models import OrganizerRequest, RequestStatus
from leagues.organizing_shapes import OrganizerAccount, OrganizerSignUp
from tournaments.models import OrganizerToken
from tournaments.selectors.viewers import ORGANIZE, BadToken, hash_token
from tournaments.services.common import new_token

REVOKED = "revoked"  # an account whose permission was taken away (or never given by a request)


def organizer_sign_up(*, username: str, about: str) -> OrganizerSignUp:
    """A pending organizer account and its token, returned this once."""
    users = get_user_model()
    field = users.USERNAME_FIELD
    token, digest = new_token()
    try:
        with transaction.atomic():
            # Ann and ann would be one person to the leagues that list their organizers: two
            # sign-ups of one name (whatever its case) at once take this lock in turn.
            lock_name(username)
            if users.objects.filter(**{f"{field}__iexact": username}).exists():
                raise IntegrityError
            user = users(**{field: username})
            user.set_unusable_password()
            user.save()
            OrganizerToken.objects.create(user=user, token_hash=digest)
            made = OrganizerRequest.objects.create(user=user, about=about)
    except IntegrityError as taken:
        raise ConflictError("username_taken", _("Another account has that username.")) from taken
    return row(OrganizerSignUp, _account(user, made), token=token)


def lock_name(username: str) -> None:
    """Hold PostgreSQL's advisory lock of ``username``, in lower case, until the transaction ends.

    SQLite writes one at a time already.
    """
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(hashtext(lower(%s)))", [username])


def organizer_account(*, token: str) -> OrganizerAccount:
    """Where an organizer token's account stands: pending, approved, declined, revoked."""
    row = OrganizerToken.objects.select_related("user").filter(token_hash=hash_token(token)).first()
    if row is None:
        raise BadToken("bad_token", _("That organizer token is not known."))
    found = OrganizerRequest.objects.filter(user_id=row.user_id).first()
    return _account(row.user, found)


def _account(user: AbstractUser, request: OrganizerRequest | None) -> OrganizerAccount:
    approved = user.is_active and user.has_perm(ORGANIZE)
    undecided = request is not None and request.status != RequestStatus.APPROVED
    status = request.status if request is not None and undecided else None
    return OrganizerAccount(
        username=user.get_username(),
        status=status or (RequestStatus.APPROVED.value if approved else REVOKED),
        about=request.about if request is not None else "",
        requested_at=request.created_at if request is not None else None,
        decided_at=request.decided_at if request is not None else None,
        reason=request.reason if request is not None else "",
    )


def organizer_request_decide(
    *, request_id: int, by_user_id: int, approve: bool, reason: str = ""
) -> bool:
    """An admin approves or declines a pending request.

    Approving grants ``tournaments.organize``. Declining deactivates its user, so the token stops.
    ``False`` if it was decided already.
    """
    with transaction.atomic():
        # Locked: two admins deciding at once decide once.
        found = OrganizerRequest.objects.select_for_update().filter(pk=request_id).first()
        if found is None or found.status != RequestStatus.PENDING:
            return False
        user = found.user
        if approve:
            user.user_permissions.add(
                Permission.objects.get(content_type__app_label="tournaments", codename="organize")
            )
        else:
            user.is_active = False
            user.save(update_fields=["is_active"])
        found.status = RequestStatus.APPROVED if approve else RequestStatus.DECLINED
        found.reason, found.decided_by_id = reason, by_user_id
        found.decided_at = timezone.now()
        found.save(update_fields=["status", "reason", "decided_by", "decided_at"])
    return True
