"""What the organizer-account, co-organizer, league-edit and join-request endpoints accept."""

from __future__ import annotations

from django.contrib.auth.validators import UnicodeUsernameValidator
from rest_framework import serializers

from apikit.inputs import StrictInput


class SignUpInput(StrictInput):
    username = serializers.CharField(
        max_length=150,
        validators=[UnicodeUsernameValidator()],
        help_text="Letters, digits and @ . + - _ (up to 150); unique whatever its case.",
    )
    about = serializers.CharField(
        max_length=1000, help_text="Who you are and which leagues you will run (for the admin)."
    )


class OrganizerInput(StrictInput):
    username = serializers.CharField(max_length=150, help_text="An approved organizer's username.")


class LeagueUpdateInput(StrictInput):
    """What an organizer may change in a league: the fields given, the others kept."""

    name = serializers.CharField(max_length=80, required=False)
    description = serializers.CharField(required=False, allow_blank=True)
    public = serializers.BooleanField(required=False, help_text="False: unlisted.")


class JoinRequestInput(StrictInput):
    handle = serializers.CharField(max_length=40, help_text="The member handle asked for.")
    message = serializers.CharField(
        max_length=500,
        required=False,
        default="",
        allow_blank=True,
        help_text="A word to the organizers.",
    )


class DeclineInput(StrictInput):
    reason = serializers.CharField(
        max_length=500,
        required=False,
        default="",
        allow_blank=True,
        help_text="Why: shown to the player.",
    )
