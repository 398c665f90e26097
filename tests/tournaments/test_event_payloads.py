"""Every event a played tournament sends validates against the committed contract.

The stream's frames (``event_texts_after``, as each viewer gets them) against AsyncAPI's
``streamEvent`` and OpenAPI's ``TournamentEventView``; a match's events (REST, as each viewer
gets them) against OpenAPI's ``MatchEventView``. Validation is strict: an object may hold no
key its schema does not declare, so a payload that gains a field fails here until its
declaration (``tournaments.log_events``, ``matches.engine.events``) says so and ``schema/`` is
exported again. Every kind is declared once, and every kind played is declared.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import yaml
from django.conf import settings
from rest_framework.test import APIClient

from apikit.asyncapi import json_schema
from matches.engine.events import KINDS as MATCH_KINDS
from matches.enums import HIDDEN
from matches.models import Match
from matches.observer import Viewer
from matches.shapes import MATCH_EVENTS
from tests.graphql.client import GraphQL, nodes
from tests.tournaments.play import Player, open_game, play_to_the_end
from tests.tournaments.test_live_questions import juggler_game
from tournaments.log_events import PAYLOADS
from tournaments.log_shapes import TOURNAMENT_EVENTS
from tournaments.models import LOG_KINDS, Seat, TournamentEvent
from tournaments.selectors.events import event_texts_after
from tournaments.services import chat, lobby, matchplay

SCHEMA = Path(settings.BASE_DIR) / "schema"
# Kinds no tournament played here sends (an operator's or a leaving person's); their
# payloads are checked by the same schemas in the tests of their services.
NOT_PLAYED = {"seat_dropped", "seat_reclaimed"}


@cache
def _document(name: str) -> dict[str, Any]:
    return dict(yaml.safe_load((SCHEMA / name).read_text(encoding="utf-8")))


def _strict(node: Any) -> Any:
    """``node`` with every object closed: no key its ``properties`` leave out."""
    if isinstance(node, list):
        return [_strict(item) for item in node]
    if not isinstance(node, dict):
        return node
    made = {key: _strict(value) for key, value in node.items()}
    if "properties" in made and "additionalProperties" not in made:
        made["additionalProperties"] = False
    return made


def _discriminated(node: Any, schemas: dict[str, Any]) -> Any:
    """``node`` with each union discriminated by a property checked as the discriminator says:
    the value against the one member its property names (an unknown name is refused).
    jsonschema knows no ``discriminator`` and tried every member of a 50-kind ``oneOf``: ~90 %
    of this file's time. Each member's own schema fixes the property (``enum: [its kind]``)."""
    if isinstance(node, list):
        return [_discriminated(item, schemas) for item in node]
    if not isinstance(node, dict):
        return node
    made = {key: _discriminated(value, schemas) for key, value in node.items()}
    if "oneOf" not in made or "discriminator" not in made:
        return made
    spec = made.pop("discriminator")
    prop = spec if isinstance(spec, str) else spec["propertyName"]
    branches = [
        (value, member)
        for member in made.pop("oneOf")
        for value in schemas[member["$ref"].rsplit("/", 1)[1]]["properties"][prop]["enum"]
    ]
    pick = [{"if": {"properties": {prop: {"const": v}}}, "then": m} for v, m in branches]
    known = {"properties": {prop: {"enum": [value for value, _ in branches]}}, "required": [prop]}
    return {**made, "allOf": [*made.get("allOf", []), known, *pick]}


def _made(document: dict[str, Any], schemas: dict[str, Any], strict: bool) -> dict[str, Any]:
    made = {**document, "components": {"schemas": schemas}}
    return dict(_discriminated(_strict(made) if strict else made, schemas))


@cache
def validator(name: str, root: str, *, strict: bool = True) -> jsonschema.Validator:
    """A validator of the component ``root`` of the committed ``name`` (OpenAPI's dialect
    made JSON Schema: ``nullable`` a ``null`` type)."""
    schemas = _document(name)["components"]["schemas"]
    schemas = json_schema(schemas) if name == "openapi.yaml" else schemas
    made = _made({"$ref": f"#/components/schemas/{root}"}, schemas, strict)
    return jsonschema.Draft202012Validator(made)


@cache
def frame_validator() -> jsonschema.Validator:
    message = _document("asyncapi.yaml")["components"]["messages"]["streamEvent"]["payload"]
    schemas = _document("asyncapi.yaml")["components"]["schemas"]
    return jsonschema.Draft202012Validator(_made(message, schemas, strict=False))


def check_frame(text: str) -> dict[str, Any]:
    """One stream frame: valid as AsyncAPI says, and its envelope strictly valid in both."""
    frame = json.loads(text)
    frame_validator().validate(frame)
    envelope = {key: value for key, value in frame.items() if key != "type"}
    validator("openapi.yaml", "TournamentEventView").validate(envelope)
    validator("asyncapi.yaml", "TournamentEventView").validate(envelope)
    return dict(envelope)


def stream_kinds(tournament_id: int, players: list[Player]) -> set[str]:
    """Every frame of the log as a spectator and as each seat reads it, and every match's
    events over REST as a spectator and as each player, checked; their kinds (a match's as
    ``match:<kind>``)."""
    numbers = Seat.objects.filter(tournament_id=tournament_id).values_list("number", flat=True)
    kinds: set[str] = set()
    for number in [None, *numbers]:
        after, viewer = 0, Viewer(number=number)
        while True:
            part = event_texts_after(tournament_id=tournament_id, after=after, viewer=viewer)
            kinds |= {check_frame(text)["kind"] for text in part.events}
            if not part.more:
                break
            after = part.last_seq
    client = APIClient()
    for headers in [{}, *(player.headers for player in players)]:
        for match in Match.objects.filter(tournament_id=tournament_id):
            response = client.get(f"/api/v1/matches/{match.pk}/events/", headers=headers)
            assert response.status_code == 200
            for event in response.json():
                validator("openapi.yaml", "MatchEventView").validate(event)
                kinds.add(f"match:{event['kind']}")
    return kinds


def test_every_kind_is_declared_once_and_no_other() -> None:
    assert list(PAYLOADS) == list(LOG_KINDS)
    assert set(TOURNAMENT_EVENTS.kinds) == {*LOG_KINDS, HIDDEN}
    schemas = _document("openapi.yaml")["components"]["schemas"]
    union = schemas["TournamentEventView"]["discriminator"]["mapping"]
    assert set(union) == {*LOG_KINDS, HIDDEN}
    assert set(schemas["MatchEventView"]["discriminator"]["mapping"]) == {*MATCH_KINDS, HIDDEN}
    assert set(schemas["MatchEvent"]["discriminator"]["mapping"]) == set(MATCH_KINDS)


def test_a_payload_with_a_field_or_a_kind_not_declared_is_refused() -> None:
    payload = {"seat": 1, "did": "picked"}
    good = {"seq": 3, "kind": "seat_progress", "payload": payload}
    check = validator("openapi.yaml", "TournamentEventView")
    check.validate(good)
    extra = {**good, "payload": {**payload, "card": 7}}  # a hint nobody declared
    for bad in (
        extra,
        {**good, "kind": "seat_waved"},
        {**good, "payload": {"seat": 1}},
        {"seq": 4, "kind": "hidden", "payload": {"seat": 1}},
    ):
        with pytest.raises(jsonschema.ValidationError):
            check.validate(bad)
    event = {"seq": 1, "kind": "reveal", "side": "A", "card": 4, "key": "City/Bard", "deck": 9}
    match_check = validator("openapi.yaml", "MatchEventView")
    match_check.validate({"seq": 2, "kind": "reveal", "payload": event})
    with pytest.raises(jsonschema.ValidationError):
        match_check.validate({"seq": 2, "kind": "reveal", "payload": {**event, "power": 2}})


@pytest.mark.django_db(transaction=True)
def test_every_event_of_played_tournaments_is_typed_as_declared(catalogue: Any) -> None:
    host = play_to_the_end(seats=3, seed=21)
    kinds = stream_kinds(host.id, [host])
    check_graphql_log(host)
    live_host, guest, match = juggler_game()  # a live question: match_question, match_waiting
    matchplay.match_failed(match_id=match.pk, error="test")  # an operator's view of a failure
    matchplay.match_retry(match_id=match.pk)
    kinds |= stream_kinds(live_host.id, [live_host, guest])
    kinds |= stream_kinds(_lobby_talk(), [])
    emitted = {kind for kind in kinds if not kind.startswith("match:")}
    assert emitted <= {*LOG_KINDS, HIDDEN}
    assert emitted == {*LOG_KINDS, HIDDEN} - NOT_PLAYED, sorted({*LOG_KINDS} - emitted)
    played = {kind[6:] for kind in kinds if kind.startswith("match:")}
    assert played <= {*MATCH_KINDS, HIDDEN} and "hidden" in played
    assert TournamentEvent.objects.filter(kind="match_question").exists()


TYPED_LOG = """query($t: Int!, $after: String) {
  tournamentLog(tournamentId: $t, first: 100, after: $after) {
    pageInfo { hasNextPage endCursor }
    edges { node { __typename seq kind payload
      ... on SeatJoinedLogEvent { seat name seatKind botLevel }
      ... on TournamentStartedLogEvent { parks plan { park a b } }
      ... on RoundFinishedLogEvent { round standings { seat fans fansComplete } }
      ... on SeedRevealedLogEvent { seed nonce commitment }
      ... on ChatLogEvent { chatSeat: seat name text line }
      ... on MatchEventLogEvent { match event { __typename seq kind
        ... on RevealMatchEvent { side card key defence attackTotal deck }
        ... on StartMatchEvent { round final matchKind first decks } } } } } } }"""


def check_graphql_log(player: Player) -> None:
    """GraphQL's typed fields hold the payload's values, camelCase, in a type per kind (the
    deprecated ``payload`` still the stored JSON); a match's event numbered as its own list."""
    gql = GraphQL(f"Bearer {player.token}")
    after, typed = None, 0
    while True:
        page = gql.data(TYPED_LOG, t=player.id, after=after)["tournamentLog"]
        for event in nodes(page):
            typed += _same_fields(event)
        if not page["pageInfo"]["hasNextPage"]:
            break
        after = page["pageInfo"]["endCursor"]
    assert typed > 100


def _same_fields(event: dict[str, Any]) -> int:
    kind, payload = event["kind"].lower(), event["payload"]
    assert event["__typename"] == TOURNAMENT_EVENTS.variant_name(kind)
    if kind == "match_event":
        inner = event["event"]
        assert inner["seq"] == payload["event"]["seq"] + 1
        assert inner["__typename"] == MATCH_EVENTS.variant_name(payload["event"]["kind"])
        payload, event = payload["event"], inner
    shown = {k: v for k, v in event.items() if k not in ("__typename", "seq", "kind", "payload")}
    renamed = {"seatKind": "kind", "chatSeat": "seat", "event": None, "plan": None}
    renamed["standings"] = None  # shapes, checked by the REST and GraphQL shape tests
    for name, value in shown.items():
        key = renamed.get(name, name) or ""
        snake = "".join(f"_{c.lower()}" if c.isupper() else c for c in key)
        if key:
            expected = payload.get(snake)
            if isinstance(value, str) and isinstance(expected, str) and value.isupper():
                expected = expected.upper()  # a closed word set is an enum: its name, in GraphQL
            assert value == expected, (name, event, payload)
    return 1 if shown else 0


def _lobby_talk() -> int:
    """A lobby that is renamed, chats, mutes, lets spectators in, loses a seat and is
    cancelled."""
    host, _guest = open_game(seats=3, humans=2, start=False)
    seats = {s.number: s for s in Seat.objects.filter(tournament_id=host.id)}
    guest_seat = seats[1]
    lobby.tournament_rename(tournament_id=host.id, seat=seats[0], title="Chat night")
    chat.chat_post(tournament_id=host.id, author=seats[0], text="hello")
    chat.chat_settings(tournament_id=host.id, seat=seats[0], spectator_chat=True)
    ticket = chat.chat_guest_join(tournament_id=host.id, name="Watcher")
    chat.chat_post(tournament_id=host.id, author=ticket.guest, text="hi")
    chat.chat_mute(tournament_id=host.id, seat=seats[0], number=1, muted=True)
    number = ticket.guest.number
    chat.chat_mute(tournament_id=host.id, seat=seats[0], number=number, muted=True, spectator=True)
    lobby.seat_settings(tournament_id=host.id, seat=guest_seat, answers_live=True)
    lobby.seat_leave(tournament_id=host.id, seat=guest_seat)
    lobby.tournament_cancel(tournament_id=host.id, seat=seats[0], reason="testing")
    return host.id
