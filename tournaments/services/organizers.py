"""Organizer accounts: Django users holding ``tournaments.organize``, with a hashed API token."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.db import transaction

from tournaments.models import OrganizerToken
from tournaments.services.common import new_token


def organizer_create(*, username: str) -> str:
    """Make ``username`` an organizer and give it a new API token.

    A new user is created without a password. The token is returned this once. Only its hash is
    kept. An older token stops working.
    """
    user_model = get_user_model()
    with transaction.atomic():
        user = user_model.objects.filter(**{user_model.USERNAME_FIELD: username}).first()
        if user is None:
            user = user_model(**{user_model.USERNAME_FIELD: username})
            user.set_unusable_password()
            user.save()
        permission = Permission.objects.get(
            content_type__app_label="tournaments", codename="organize"
        )
        user.user_permissions.add(permission)
        token, digest = new_token()
        OrganizerToken.objects.update_or_create(user=user, defaults={"token_hash": digest})
    return token
