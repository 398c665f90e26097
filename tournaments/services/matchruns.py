"""A match's engine run: its stored setup played with the tournament's frozen cards.

The matches app stores a match's rows. It knows nothing of the catalogue. The card snapshot
(``cards.snapshots``) is joined to a match here, on the tournament side that owns both. So the cards
app may import the engine without the two importing each other (``tests/test_layers.py``).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping

from django.utils.translation import gettext as _

from cards.snapshots import snapshot_specs
from infra.errors import ConflictError, NotFoundError
from matches.archive import archived_payloads
from matches.engine import DefaultPolicy, play_match, verify
from matches.engine.model import MatchSetup, Policy
from matches.engine.stored import setup_from_data
from matches.models import Match, MatchStatus
from matches.services import SIDES, Outcome


def match_setup(match: Match) -> MatchSetup:
    """The engine's setup of ``match``: its stored setup, card snapshot and rules version."""
    specs = snapshot_specs(match.snapshot_id)
    return setup_from_data(match.setup, specs, rules_version=match.rules_version)


def run_engine(
    match: Match,
    answers: list[object],
    *,
    live: Collection[str] = (),
    policies: Mapping[str, Policy] | None = None,
) -> Outcome:
    """Run the match from the start with ``answers``. A ``live`` side's questions stop it.

    Any other side answers by its entry in ``policies``, by default ``DefaultPolicy``. A policy must
    answer each question the same way every time. The match is re-run from the start.
    """
    setup = match_setup(match)
    chosen = policies or {}
    sides: dict[str, Policy | None] = {
        side: None if side in live else chosen.get(side, DefaultPolicy()) for side in SIDES
    }
    return play_match(setup, match.seed, sides, record=True, answers=answers)


def match_verify(*, match_id: int) -> bool:
    """Re-run a finished match from its setup, seed and answers. Store whether it matches."""
    match = Match.objects.filter(pk=match_id).first()
    if match is None:
        raise NotFoundError("not_found", _("No such match."))
    if match.status not in (MatchStatus.RECORDED, MatchStatus.FINISHED):
        raise ConflictError("not_finished", _("Only a finished match can be verified."))
    stored = [event.payload for event in match.events.order_by("seq")]
    if not stored:  # the tournament's logs were archived (manage.py archive_events)
        stored = archived_payloads(match_id) or []
    setup = match_setup(match)
    outcome = verify(setup, match.seed, list(match.answers), stored)
    Match.objects.filter(pk=match_id).update(verified=outcome)
    return outcome
