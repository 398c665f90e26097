"""A league driven through the REST API alone, as an organizer would."""

from __future__ import annotations

from io import StringIO
from typing import Any

from django.core.management import call_command
from rest_framework.test import APIClient

from leagues.models import Result, Season
from matches.models import Match


def create_organizer(name: str) -> str:
    out = StringIO()
    call_command("create_organizer", name, stdout=out)
    return out.getvalue().strip()


def org(token: str) -> dict[str, str]:
    return {"Authorization": f"Token {token}"}


def post(client: APIClient, path: str, body: Any = None, headers: Any = None) -> Any:
    return client.post(f"/api/v1/{path}", body or {}, format="json", headers=headers or {})


def ok(response: Any, status: int = 201) -> Any:
    assert response.status_code == status, response.content
    return response.json()


def refused(response: Any, status: int, code: str) -> None:
    assert (response.status_code, response.json()["code"]) == (status, code), response.content


def league_with_season(
    client: APIClient, token: str, slug: str = "club", public: bool = True, **season: Any
) -> tuple[str, int]:
    league = {"name": slug.title(), "slug": slug, "public": public}
    ok(post(client, "leagues/", league, org(token)))
    created = ok(post(client, f"leagues/{slug}/seasons/", {"name": "Spring", **season}, org(token)))
    return slug, created["id"]


def bot_tournament(
    client: APIClient, token: str, slug: str, season: int, seats: int, level: str = ""
) -> int:
    """An organizer's season tournament of bots only (of ``level``, default the rookie), played
    to its end (tasks run in process)."""
    path = f"leagues/{slug}/seasons/{season}/tournaments/"
    tid: int = ok(post(client, path, {"seats": seats}, org(token)))["id"]
    bots = {"count": seats, **({"level": level} if level else {})}
    ok(post(client, f"tournaments/{tid}/bots/", bots, org(token)), 200)
    ok(post(client, f"tournaments/{tid}/start/", None, org(token)), 200)
    return tid


def member_token(client: APIClient, token: str, slug: str, handle: str) -> str:
    """A new human member's token (created by the organizer, claimed by its person)."""
    made = ok(post(client, f"leagues/{slug}/members/", {"handle": handle}, org(token)))
    claimed = ok(post(client, f"leagues/{slug}/members/claim/", {"claim_code": made["claim_code"]}))
    found: str = claimed["token"]
    return found


def members_tournament(
    client: APIClient, token: str, slug: str, tokens: list[str], bots: int = 1, level: str = ""
) -> int:
    """A season tournament (by the season's join code) where each member token takes a seat,
    then ``bots`` bots (of ``level``); its humans play it to its end over REST."""
    from tests.tournaments.play import ROUND_GUARD, Player

    league = client.get(f"/api/v1/leagues/{slug}/", headers=org(token)).json()
    join_code = league["seasons"][0]["join_code"]
    seats = len(tokens) + bots
    body = {"join_code": join_code, "name": "Host", "seats": seats, "member_token": tokens[0]}
    ticket = ok(post(client, "leagues/tournaments/", body))
    tid, players = ticket["id"], [Player(client, ticket["id"], ticket["seat"]["token"])]
    for other in tokens[1:]:
        joined = ok(
            post(
                client, "leagues/tournaments/join/", {"code": ticket["code"], "member_token": other}
            )
        )
        players.append(Player(APIClient(), tid, joined["seat"]["token"]))
    for player in players:
        player.answer_live(False)
    players[0].post("bots", {"count": bots, **({"level": level} if level else {})})
    players[0].post("start")
    for _ in range(ROUND_GUARD):
        if players[0].get()["status"] == "finished":
            break
        assert any(player.act() for player in players)
    return tid


def correct(client: APIClient, token: str, slug: str, **body: Any) -> Any:
    """An organizer's correction of the league's record (``kind``, ``reason``, …)."""
    return post(client, f"leagues/{slug}/corrections/", body, org(token))


def places_of(tid: int) -> dict[str, tuple[int, int]]:
    """Each member's (place, points) in a recorded tournament."""
    rows = Result.objects.filter(link__tournament_id=tid)
    return {r.member.handle: (r.place, r.points) for r in rows.select_related("member")}


def result_of(tid: int, handle: str) -> Result:
    return Result.objects.get(link__tournament_id=tid, member__handle=handle)


def handle_at(tid: int, seat_id: int) -> str:
    """The handle of the member that played seat ``seat_id`` of a recorded tournament."""
    number = Match.objects.filter(seat_a_id=seat_id).values_list("seat_a__number", flat=True)
    found = number.first()
    if found is None:
        found = Match.objects.filter(seat_b_id=seat_id).values_list("seat_b__number", flat=True)[0]
    result = Result.objects.select_related("member").get(link__tournament_id=tid, seat=found)
    return result.member.handle


def standings_from_results(season: Season) -> list[tuple[str, int, int, int, int, int]]:
    """The totals summed from the season's results alone (a check on the incremental rows)."""
    sums: dict[str, list[int]] = {}
    for result in Result.objects.filter(link__season=season).select_related("member"):
        row = sums.setdefault(result.member.handle, [0, 0, 0, 0, 0])
        row[0] += result.points
        row[1] += int(result.champion)
        row[2] += int(result.finalist)
        row[3] += result.fans
        row[4] += 1
    return sorted((handle, *values) for handle, values in sums.items())  # type: ignore[misc]
