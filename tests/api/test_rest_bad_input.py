"""Every bad REST input gets a coded 4xx in JSON, with DEBUG on or off, and changes nothing."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from django.test import Client, override_settings
from rest_framework.test import APIClient

from tests.api.snapshot import everything
from tests.tournaments.play import Player, create, open_game

pytestmark = pytest.mark.django_db

HUGE = "1" + "0" * 40  # 10^40


@pytest.fixture(params=[False, True], ids=["debug-off", "debug-on"])
def debug(request: pytest.FixtureRequest) -> Iterator[bool]:
    """Run the test with DEBUG off (production) and on (Django's HTML debug pages)."""
    with override_settings(DEBUG=request.param):
        yield request.param


@pytest.fixture
def lobby(catalogue: Any) -> Player:
    client = APIClient()
    ticket = create(client, seats=3, seed=3)
    return Player(client, ticket["id"], ticket["seat"]["token"])


@pytest.fixture
def drafting(catalogue: Any) -> Player:
    """A started game in round 1's Deck Phase; the host may draw."""
    (host,) = open_game(seats=2, seed=42)
    return host


def coded(response: Any, status: int, code: str) -> dict[str, Any]:
    """The response is JSON ``{"code", "message", "details"}`` with this status and code."""
    assert response.status_code == status, response.content[:300]
    assert response["Content-Type"].startswith("application/json"), response["Content-Type"]
    body = json.loads(response.content)
    assert (body["code"], set(body)) == (code, {"code", "message", "details"}), body
    assert body["message"]
    return dict(body)


def post_raw(client: Client, path: str, body: str | bytes, **extra: Any) -> Any:
    content_type = extra.pop("content_type", "application/json")
    return client.post(path, body, content_type=content_type, **extra)


def nested(depth: int) -> str:
    return "[" * depth + "]" * depth


@pytest.mark.parametrize("depth", [1000, 5000, 33])
def test_deeply_nested_json_is_refused_as_too_deep(lobby: Player, debug: bool, depth: int) -> None:
    before = everything()
    client = Client()
    response = post_raw(client, "/api/v1/tournaments/", nested(depth))
    coded(response, 400, "too_deep")
    body = '{"name": "H", "seats": 2, "additional_sets": ' + nested(depth) + "}"
    coded(post_raw(client, "/api/v1/tournaments/", body), 400, "too_deep")
    answer = '{"question": 1, "answer": ' + nested(depth) + "}"
    coded(post_raw(client, "/api/v1/matches/1/answer/", answer), 400, "too_deep")
    assert everything() == before


def test_json_nested_within_the_limit_reaches_validation(lobby: Player) -> None:
    response = post_raw(Client(), "/api/v1/tournaments/", nested(32))
    coded(response, 400, "invalid")


@pytest.mark.parametrize(
    "body", ['{"name": "H", "seats": ', "{'name': 'H'}", '{"seats": NaN}', b"\xff\xfe\x00"]
)
def test_malformed_json_is_a_parse_error(lobby: Player, debug: bool, body: str | bytes) -> None:
    before = everything()
    coded(post_raw(Client(), "/api/v1/tournaments/", body), 400, "parse_error")
    assert everything() == before


@pytest.mark.parametrize("method", ["post", "put", "patch", "get", "delete"])
def test_a_url_without_its_trailing_slash_is_a_coded_404_naming_the_right_one(
    lobby: Player, debug: bool, method: str
) -> None:
    before = everything()
    client = Client()
    body = json.dumps({"name": "H", "seats": 2})
    response = client.generic(method.upper(), "/api/v1/tournaments", body, "application/json")
    assert coded(response, 404, "not_found")["details"] == {"path": "/api/v1/tournaments/"}
    response = client.patch(
        f"/api/v1/tournaments/{lobby.id}/seat", '{"answers_live": false}', "application/json"
    )
    assert coded(response, 404, "not_found")["details"]["path"].endswith("/seat/")
    assert everything() == before


@pytest.mark.parametrize(
    "path",
    [
        "/api/v1/no-such-thing/",
        "/api/v1/tournaments/abc/",
        "/api/v1/tournaments/1/no-such-action/",
        "/api/v2/tournaments/",
        "/api/",
        "/api/v1/no-such-thing",
    ],
)
def test_an_unknown_api_url_is_a_coded_404_without_the_url_patterns(debug: bool, path: str) -> None:
    for response in (Client().get(path), Client().post(path, {})):
        body = coded(response, 404, "not_found")
        assert "tournaments/<int" not in json.dumps(body) and "urlpatterns" not in json.dumps(body)


@pytest.mark.parametrize(
    "path", ["tournaments/{huge}/", "matches/{huge}/", "matches/{huge}/events/"]
)
def test_an_id_too_large_for_the_database_is_not_found(debug: bool, db: None, path: str) -> None:
    for huge in (HUGE, str(2**63)):
        coded(Client().get(f"/api/v1/{path.format(huge=huge)}"), 404, "not_found")
    before = everything()
    response = post_raw(Client(), f"/api/v1/tournaments/{HUGE}/start/", "{}")
    coded(response, 404, "not_found")
    assert everything() == before


def test_a_body_over_the_upload_limit_is_413_too_large(lobby: Player, debug: bool) -> None:
    before = everything()
    big = json.dumps({"name": "x" * 3_000_000, "seats": 2})
    body = coded(post_raw(Client(), "/api/v1/tournaments/", big), 413, "too_large")
    assert body["details"] == {"max_bytes": 2_621_440}
    form = Client().post("/api/v1/tournaments/join/", {"code": "A", "name": "x" * 3_000_000})
    coded(form, 413, "too_large")
    assert everything() == before


def test_a_form_with_too_many_fields_is_refused_unread(lobby: Player, debug: bool) -> None:
    before = everything()
    fields = "&".join(f"f{n}=1" for n in range(1500))
    response = post_raw(
        Client(), "/api/v1/tournaments/", fields, content_type="application/x-www-form-urlencoded"
    )
    coded(response, 415, "unsupported_media_type")
    assert everything() == before


def test_a_cross_site_form_post_creates_no_tournament(catalogue: Any, debug: bool) -> None:
    """What an HTML form on another site can send (urlencoded, multipart) is refused: the API
    reads JSON only, which a cross-site form cannot send."""
    before = everything()
    form = Client().post(
        "/api/v1/tournaments/",
        "seats=2&name=Victim",
        content_type="application/x-www-form-urlencoded",
        HTTP_ORIGIN="https://evil.example",
    )
    coded(form, 415, "unsupported_media_type")
    multipart = Client().post("/api/v1/tournaments/", {"seats": "2", "name": "Victim"})
    coded(multipart, 415, "unsupported_media_type")
    assert everything() == before


def test_a_multipart_join_is_415_with_a_body(lobby: Player, debug: bool) -> None:
    before = everything()
    response = Client().post("/api/v1/tournaments/join/", {"code": "ABCD", "name": "Eve"})
    coded(response, 415, "unsupported_media_type")
    assert everything() == before


def test_the_admin_still_takes_its_forms(db: None) -> None:
    """The admin is Django's, not the API's: its login form is read (and refused as a bad
    login, not as a media type)."""
    response = Client().post("/admin/login/", {"username": "nobody", "password": "x"})
    assert response.status_code == 200
    assert b"Please enter the correct" in response.content


def test_a_content_type_the_api_does_not_read_is_415(lobby: Player, debug: bool) -> None:
    before = everything()
    response = post_raw(Client(), "/api/v1/tournaments/", "name=H", content_type="text/plain")
    coded(response, 415, "unsupported_media_type")
    assert everything() == before


def test_a_host_not_allowed_is_a_coded_400(lobby: Player, debug: bool) -> None:
    with override_settings(ALLOWED_HOSTS=["game.example"]):
        response = Client().get(f"/api/v1/tournaments/{lobby.id}/", HTTP_HOST="evil.example")
    coded(response, 400, "bad_host")


def test_a_server_error_is_coded_json_and_shows_no_exception_text(
    lobby: Player, debug: bool, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    def broken(**kwargs: Any) -> None:
        raise RuntimeError("secret detail of the failure")

    monkeypatch.setattr("tournaments.services.lobby.seat_join", broken)
    response = post_raw(Client(), "/api/v1/tournaments/join/", '{"code": "A", "name": "B"}')
    body = coded(response, 500, "server_error")
    assert "secret detail" not in json.dumps(body) and "Traceback" not in json.dumps(body)
    # Logged with its traceback (as text: infra.logfilters.RedactTokens masks tokens in it).
    logged = [record.exc_text or repr(record.exc_info) for record in caplog.records]
    assert any("secret detail" in text and "Traceback" in text for text in logged)


@pytest.mark.parametrize(
    ("path", "body"),
    [
        ("draft/pick", {"card": int(HUGE)}),
        ("draft/pick", {"card": -1}),
        ("draft/pick", {"card": True}),
        ("draft/pick", {"card": "²"}),
        ("deck/remove", {"cards": [int(HUGE)]}),
        ("deck/remove", {"cards": list(range(65))}),
        ("deck/remove", {"cards": [True]}),
        ("draft/choose", {"option": int(HUGE)}),
        ("draft/choose", {"option": 1.5}),
    ],
)
def test_numbers_out_of_range_or_of_the_wrong_kind_are_invalid(
    drafting: Player, path: str, body: dict[str, Any]
) -> None:
    drafting.post("draft/draw")
    before = everything()
    response = drafting.client.post(
        f"/api/v1/tournaments/{drafting.id}/{path}/", body, format="json", headers=drafting.headers
    )
    coded(response, 400, "invalid")
    assert everything() == before


@pytest.mark.parametrize(
    ("path", "typo", "good"),
    [
        ("/api/v1/tournaments/", "stauts", {"status": "lobby"}),
        ("/api/v1/cards/", "sett", {"set": "Castle"}),
        ("/api/v1/card-sets/", "boxx", {"box": "base"}),
        ("/api/v1/health/", "verbose", {}),
    ],
)
def test_a_query_parameter_the_endpoint_does_not_read_is_refused(
    lobby: Player, debug: bool, path: str, typo: str, good: dict[str, str]
) -> None:
    """A typo must not answer the unfiltered list as if it were the filtered one."""
    body = coded(Client().get(path, {typo: "x", **good}), 400, "unknown_parameter")
    assert body["details"]["unknown"] == [typo]
    assert set(good) <= set(body["details"]["allowed"])
    assert Client().get(path, good).status_code == 200


def test_an_action_with_an_unknown_query_parameter_changes_nothing(lobby: Player) -> None:
    before = everything()
    response = lobby.client.post(
        f"/api/v1/tournaments/{lobby.id}/bots/?cuont=2",
        {"count": 2},
        format="json",
        headers=lobby.headers,
    )
    coded(response, 400, "unknown_parameter")
    assert everything() == before
