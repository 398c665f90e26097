"""Every list is a Relay connection: walking it page by page with ``first``/``after`` (or back
with ``last``/``before``) meets every item once, in order; an event's cursor holds its seq; a
bad size or cursor is ``invalid``; pages inside pages are charged to the cost limit."""

from __future__ import annotations

import base64
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rest_framework.test import APIClient

from apikit.enums import member_name
from apikit.graphql_execution import COMPLETIONS
from apikit.graphql_pages import OFFSETS, SEQS, Page, page_of
from infra.errors import ApplicationError
from matches.models import Match
from matches.observer import SPECTATOR
from tests.graphql.client import GraphQL, nodes
from tests.tournaments.play import Player, play_to_the_end
from tournaments.models import Seat
from tournaments.selectors.events import events_after
from tournaments.selectors.viewers import viewer_in

INFO = "totalCount pageInfo { hasNextPage hasPreviousPage startCursor endCursor }"


def walk_forwards(items: list[int], size: int) -> list[int]:
    seen: list[int] = []
    after = None
    while True:
        page = page_of(items, Page(first=size, after=after))
        seen += [edge.node for edge in page.edges]
        assert page.total_count == len(items) and len(page.edges) <= size
        assert page.page_info.has_previous_page == (after is not None and bool(items))
        if not page.page_info.has_next_page:
            return seen
        after = page.page_info.end_cursor


def walk_backwards(items: list[int], size: int) -> list[int]:
    seen: list[int] = []
    before = None
    while True:
        page = page_of(items, Page(last=size, before=before))
        seen = [edge.node for edge in page.edges] + seen
        if not page.page_info.has_previous_page:
            return seen
        before = page.page_info.start_cursor


@given(st.integers(0, 40), st.integers(1, 12))
def test_walking_a_list_either_way_meets_every_item_once_in_order(length: int, size: int) -> None:
    items = list(range(100, 100 + length))
    assert walk_forwards(items, size) == items
    assert walk_backwards(items, size) == items


@given(st.integers(1, 40), st.integers(0, 39), st.integers(1, 12))
def test_a_cursor_names_its_item_whatever_the_page_size(length: int, at: int, size: int) -> None:
    items = list(range(length))
    at = min(at, length - 1)
    whole = page_of(items, Page(first=100))
    cursor = whole.edges[at].cursor
    after = page_of(items, Page(first=size, after=cursor))
    assert [e.node for e in after.edges] == items[at + 1 : at + 1 + size]
    before = page_of(items, Page(last=size, before=cursor))
    assert [e.node for e in before.edges] == items[max(at - size, 0) : at]


def test_an_events_cursor_holds_its_seq() -> None:
    assert base64.b64decode(SEQS.of(0)) == b"seq:1"
    assert SEQS.position(SEQS.of(41), "after") == 41
    assert base64.b64decode(OFFSETS.of(0)) == b"offset:0"


@pytest.mark.parametrize(
    "page",
    [
        Page(first=0),
        Page(first=101),
        Page(last=0),
        Page(first=1, last=1),
        Page(after="bm9wZQ=="),
        Page(before="%%%"),
        Page(after=SEQS.of(3)),  # another list's cursor
    ],
)
def test_a_bad_size_or_cursor_is_invalid(page: Page) -> None:
    with pytest.raises(ApplicationError) as refused:
        page_of([1, 2, 3], page)
    assert refused.value.code == "invalid"


@pytest.fixture
def finished(catalogue: Any, transactional_db: None) -> Player:
    return play_to_the_end(seats=4, seed=11)


def data(query: str, **variables: Any) -> dict[str, Any]:
    return GraphQL().data(query, **variables)


MATCHES = f"""query($t: Int!, $first: Int, $after: String) {{
  matches(tournamentId: $t, first: $first, after: $after) {{
    {INFO} edges {{ node {{ databaseId }} }} }}
}}"""
EVENTS = f"""query($m: Int!, $first: Int, $after: String, $last: Int, $before: String) {{
  match(id: $m) {{ events(first: $first, after: $after, last: $last, before: $before) {{
    {INFO} edges {{ cursor node {{ seq kind }} }} }} }}
}}"""


def test_a_finished_tournaments_lists_page_as_rest_lists_them(finished: Player) -> None:
    rest = APIClient().get(f"/api/v1/tournaments/{finished.id}/matches/").json()
    match = Match.objects.filter(tournament_id=finished.id).order_by("pk").last()
    assert match is not None
    seqs = [frame["seq"] for frame in APIClient().get(f"/api/v1/matches/{match.pk}/events/").json()]

    @settings(max_examples=8, deadline=None, suppress_health_check=list(HealthCheck))
    @given(st.integers(1, 7), st.integers(1, 60))
    def walks(size: int, events: int) -> None:
        seen: list[int] = []
        after = None
        while True:
            page = data(MATCHES, t=finished.id, first=size, after=after)["matches"]
            seen += [node["databaseId"] for node in nodes(page)]
            assert page["totalCount"] == len(rest)
            if not page["pageInfo"]["hasNextPage"]:
                break
            after = page["pageInfo"]["endCursor"]
        assert seen == [m["id"] for m in rest]
        forwards = data(EVENTS, m=match.pk, first=events)["match"]["events"]
        assert [e["node"]["seq"] for e in forwards["edges"]] == seqs[:events]
        for edge in forwards["edges"]:  # a cursor is its event's seq
            assert base64.b64decode(edge["cursor"]) == f"seq:{edge['node']['seq']}".encode()
        end = forwards["pageInfo"]["endCursor"]
        rest_after = data(EVENTS, m=match.pk, first=500, after=end)["match"]["events"]
        assert [e["node"]["seq"] for e in rest_after["edges"]] == seqs[events:]
        back = data(EVENTS, m=match.pk, last=events)["match"]["events"]
        assert [e["node"]["seq"] for e in back["edges"]] == seqs[-events:]
        assert back["totalCount"] == forwards["totalCount"] == len(seqs)

    walks()
    # A finished match's page is fixed content: its completed answer was kept (and the walks'
    # repeated pages, compared with REST above, were answered from it).
    kept = [key[1] for key in COMPLETIONS.kept if key[0] == "MatchEventViewConnection"]
    assert kept and all(key.startswith(f"events:{match.pk}:".encode()) for key in kept)
    for token in (None, finished.token):
        same_log(finished.id, token)
    for bad in ("first: 0", "first: 501", "last: 501", "first: 2, last: 2", 'after: "eA=="'):
        body = GraphQL().post(f"{{ match(id: {match.pk}) {{ events({bad}) {{ totalCount }} }} }}")
        assert codes(body) == ["invalid"], (bad, body)


def codes(body: dict[str, Any]) -> list[str]:
    return [error["extensions"]["code"] for error in body.get("errors", [])]


@pytest.mark.django_db
def test_pages_inside_pages_are_charged_first_times_first() -> None:
    within = "{ cardSets(first: 10) { edges { node { cards(first: 90) { totalCount } } } } }"
    assert "errors" not in GraphQL().post(within)  # 10 + 10 x 90
    over = "{ cardSets(first: 10) { edges { node { cards(first: 100) { totalCount } } } } }"
    assert codes(GraphQL().post(over)) == ["query_too_costly"]  # 10 + 10 x 100
    backwards = "{ cardSets(last: 10) { edges { node { cards(last: 100) { totalCount } } } } }"
    assert codes(GraphQL().post(backwards)) == ["query_too_costly"]


LOG = """query($t: Int!, $first: Int, $after: String, $last: Int) {
  tournamentLog(tournamentId: $t, first: $first, after: $after, last: $last) {
    totalCount pageInfo { hasNextPage endCursor } edges { node { seq kind payload } } } }"""


def same_log(tournament_id: int, token: str | None) -> None:
    """The log paged through ``tournamentLog`` is the log the stream's selector gives the same
    viewer (``hidden`` frames included), forwards by 97 and its last 30."""
    seat = Seat.objects.filter(tournament_id=tournament_id, number=0).get() if token else None
    viewer = viewer_in(seat, tournament_id) if seat else SPECTATOR
    expected: list[dict[str, Any]] = []
    while True:  # the selector reads 500 at a time
        after_seq = expected[-1]["seq"] if expected else 0
        frames = events_after(tournament_id=tournament_id, after=after_seq, viewer=viewer).events
        if not frames:
            break
        expected += [
            {"seq": f.seq, "kind": member_name(f.kind), "payload": f.payload} for f in frames
        ]
    gql = GraphQL(f"Bearer {token}" if token else None)
    seen: list[dict[str, Any]] = []
    after = None
    while True:
        page = gql.data(LOG, t=tournament_id, first=97, after=after)["tournamentLog"]
        seen += nodes(page)
        assert page["totalCount"] == len(expected)
        if not page["pageInfo"]["hasNextPage"]:
            break
        after = page["pageInfo"]["endCursor"]
    assert seen == expected and len(expected) > 97
    tail = gql.data(LOG, t=tournament_id, last=30)["tournamentLog"]
    assert nodes(tail) == expected[-30:]
