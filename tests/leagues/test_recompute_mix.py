"""Recompute after any mix of corrections: disqualifications (from a tournament or from the
season), manual results and forfeits, in random orders (hypothesis) and interleaved with
tournaments recorded after them, in a league one of whose tournaments started with a no-show's
seat given to a bot (and a member who left it to a bot), and one whose member left and came back,
leave exactly the rows a recompute from scratch gives. A refused
correction changes nothing."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import transaction
from hypothesis import HealthCheck, given
from hypothesis import settings as examples
from hypothesis import strategies as st
from rest_framework.test import APIClient

from infra.errors import ApplicationError
from leagues.models import Correction, CorrectionKind, League, LeagueTournament
from leagues.services import corrections, recording
from matches.models import Match
from tests.leagues.helpers import (
    bot_tournament,
    create_organizer,
    league_with_season,
    ok,
    org,
    post,
)
from tests.leagues.test_no_shows import members_lobby
from tests.leagues.test_schedules import checkin, its_time_comes, schedule, soon
from tests.leagues.test_season import snapshot
from tournaments.models import Seat, Tournament
from tournaments.rules.bots import DEFAULT_LEVEL
from tournaments.selectors.viewers import organizer_of_token

pytestmark = pytest.mark.django_db(transaction=True)

EXAMPLES = 12  # each replays the league after every correction: a few seconds apiece
RECORD = ("record",)


def handle_of(seat: Seat) -> str:
    """The league member a seat plays as (its member, or the bot of its name and strength)."""
    link = getattr(seat, "member_link", None)
    if link is not None:
        return str(link.member.handle)
    return recording.bot_handle(seat.name, seat.bot_level or DEFAULT_LEVEL)


def scoring_seats(tid: int) -> list[Seat]:
    seats = Seat.objects.filter(tournament_id=tid).select_related("member_link__member")
    return [seat for seat in seats.order_by("number") if not seat.is_robot]


def no_show_tournament(client: APIClient, token: str, slug: str, season: int) -> int:
    """ann checks in, bob does not: a steady bot takes bob's seat; ann then leaves it to the
    takeover bot, so it plays itself to its end."""
    tid, seats = members_lobby(client, token, slug, season, ["ann", "bob"], seats=3)
    policy = {"no_show": "bot", "bot_level": "steady"}
    ok(schedule(client, token, slug, tid, starts_at=soon(), checkin_minutes=90, **policy))
    ok(checkin(client, tid, seats["ann"]), 200)
    its_time_comes(tid)
    headers = {"Authorization": f"Bearer {seats['ann']}"}
    ok(post(client, f"tournaments/{tid}/leave/", None, headers), 200)
    return tid


def reclaimed_tournament(client: APIClient, token: str, slug: str, season: int) -> int:
    """cat leaves in round 1 and takes the seat back in round 2; dan plays throughout: cat is
    credited with the seat (it played the last round)."""
    from tests.tournaments.play import Player

    tid, seats = members_lobby(client, token, slug, season, ["cat", "dan"], seats=2)
    ok(post(client, f"tournaments/{tid}/start/", None, org(token)), 200)
    cat, dan = (Player(APIClient(), tid, seats[handle]) for handle in ("cat", "dan"))
    for player in (cat, dan):
        player.answer_live(False)
    cat.post("leave")
    while Tournament.objects.get(pk=tid).round == 1:
        assert dan.act()
    cat.post("reclaim")
    while Tournament.objects.get(pk=tid).status != "finished":
        assert cat.act() or dan.act()
    return tid


def pool_of(tids: list[int], season: int) -> list[tuple[Any, ...]]:
    """Every correction the examples choose from (some are refused, as an organizer's may be)."""
    pool: list[tuple[Any, ...]] = []
    for tid in tids:
        seats = scoring_seats(tid)
        pool += [("disqualify", tid, handle_of(seat)) for seat in seats[:2]]
        pool.append(("manual_result", tid))
        matches = Match.objects.filter(tournament_id=tid).exclude(winner=None)
        for match in matches.order_by("-round", "park")[:2]:
            pool += [
                ("forfeit", tid, match.pk, handle_of(side))
                for side in (match.seat_a, match.seat_b)
                if not side.is_robot
            ]
    pool += [("season", season, handle) for handle in ("ann", "cat", "Bot Ada (rookie)")]
    return pool


def arguments(step: tuple[Any, ...], data: st.DataObject) -> dict[str, Any]:
    """``correction_create``'s arguments for a pool entry (a manual result's places drawn)."""
    kind, *rest = step
    if kind == "disqualify":
        return {"kind": kind, "tournament_id": rest[0], "member": rest[1]}
    if kind == "season":
        return {"kind": "disqualify", "season_id": rest[0], "member": rest[1]}
    if kind == "forfeit":
        return {"kind": kind, "tournament_id": rest[0], "match_id": rest[1], "member": rest[2]}
    link = LeagueTournament.objects.get(tournament_id=rest[0])
    handles = sorted(link.results.values_list("member__handle", flat=True))
    order = data.draw(st.permutations(handles))
    return {
        "kind": kind,
        "tournament_id": rest[0],
        "places": {h: order.index(h) + 1 for h in order},
    }


def test_any_mix_of_corrections_in_any_order_equals_a_recompute(
    catalogue: Any, settings: Any
) -> None:
    client = APIClient()
    token = create_organizer("org")
    slug, season = league_with_season(client, token)
    recorded = [bot_tournament(client, token, slug, season, seats=n) for n in (3, 4, 2)]
    recorded.append(no_show_tournament(client, token, slug, season))
    recorded.append(reclaimed_tournament(client, token, slug, season))
    settings.TOURNAMENT_HOOKS = {}  # the next two finish unrecorded: the examples record them
    pending = [bot_tournament(client, token, slug, season, seats=n) for n in (3, 2)]
    assert not LeagueTournament.objects.filter(tournament_id__in=pending, recorded_at__isnull=False)
    organizer = organizer_of_token(token)
    league = League.objects.get(slug=slug)
    pool = pool_of(recorded + pending, season)
    assert Correction.objects.filter(kind=CorrectionKind.NO_SHOW).count() == 1

    @examples(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
    @given(data=st.data())
    def mix(data: st.DataObject) -> None:
        chosen = data.draw(st.lists(st.sampled_from(pool), max_size=5))
        steps = data.draw(st.permutations([*chosen, RECORD, RECORD]))
        with transaction.atomic():
            waiting = list(pending)
            for step in steps:
                if step == RECORD:
                    assert recording.tournament_record(tournament_id=waiting.pop(0))
                    continue
                given_ = arguments(step, data)
                before = snapshot(), Correction.objects.count()
                try:
                    corrections.correction_create(
                        organizer=organizer, slug=slug, reason="mix", **given_
                    )
                except ApplicationError:
                    assert (snapshot(), Correction.objects.count()) == before
            incremental = snapshot()
            assert recording.league_recompute(league_id=league.pk) == len(recorded) + 2
            assert snapshot() == incremental
            assert Correction.objects.filter(kind=CorrectionKind.NO_SHOW).count() == 1
            transaction.set_rollback(True)  # the next example starts from the same league

    mix()
