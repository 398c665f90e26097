"""Provably fair tournaments: anyone can check a finished tournament against its revealed seed.

The commitment is public from the moment the lobby opens. It is the SHA-256 of ``"<seed>:<nonce>"``.
The seed and nonce are revealed when the tournament ends. From them a client checks four things:

- the seed is the one committed to;
- every match was played with the seed derived from it;
- replaying each match from its setup, seed and answers gives exactly the stored events;
- the trophy stacks were dealt from it.
"""

from __future__ import annotations

from django.utils.translation import gettext as _

from apikit.shapes import BigInt
from infra.errors import ConflictError, NotFoundError
from matches.models import Match
from tournaments.log_shapes import MatchCheck, Verification, VerifyChecks
from tournaments.models import Status, Tournament
from tournaments.rules.seeds import commitment, derive_seed, stream
from tournaments.rules.trophies import deal_trophies
from tournaments.services.matchruns import match_verify


def tournament_verify(*, tournament_id: int) -> Verification:
    """The checks of a finished tournament. ``ok`` when every one holds."""
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    if tournament is None:
        raise NotFoundError("not_found", _("No such tournament."))
    if tournament.status != Status.FINISHED:
        raise ConflictError("not_finished", _("The seed is revealed, and checked, at the end."))
    matches = [_match_check(tournament, match) for match in tournament.matches.order_by("pk")]
    checks = VerifyChecks(
        commitment=commitment(tournament.seed, tournament.seed_nonce) == tournament.commitment,
        trophies=_trophies_check(tournament),
        matches=all(m.seed and m.events for m in matches),
    )
    return Verification(
        ok=checks.commitment and checks.trophies and checks.matches,
        checks=checks,
        seed=BigInt(tournament.seed),
        nonce=tournament.seed_nonce,
        commitment=tournament.commitment,
        matches=matches,
    )


def _match_check(tournament: Tournament, match: Match) -> MatchCheck:
    expected = derive_seed(tournament.seed, "match", match.round, match.park)
    return MatchCheck(
        match=match.pk,
        seed=match.seed == expected,
        events=match_verify(match_id=match.pk),
        rules_version=match.rules_version,
    )


def _trophies_check(tournament: Tournament) -> bool:
    stacks = deal_trophies(stream(tournament.seed, "trophies"), tournament.parks)
    dealt = {(t.park, t.round): t.fans for t in tournament.trophies.all()}
    expected = {
        (park, index + 1): fans for park, row in stacks.items() for index, fans in enumerate(row)
    }
    return dealt == expected
