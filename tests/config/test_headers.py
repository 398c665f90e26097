"""The headers a security review expects (docs/security.md, "Headers"): a strict
Content-Security-Policy on every page with no inline script in our templates, per-viewer answers
private to their caller, an explicit CORS policy (no origin by default, never credentials), and
coded JSON for every refusal of the API, GraphQL and /metrics."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from django.test import Client
from rest_framework.test import APIClient

ROOT = Path(__file__).resolve().parents[2]
TEMPLATES = [
    *ROOT.glob("frontend/templates/**/*.html"),
    *ROOT.glob("server/templates/**/*.html"),
    *ROOT.glob("infra/templates/**/*.html"),
]
GAME = "https://game.example"


def policy(response: Any) -> dict[str, list[str]]:
    """The Content-Security-Policy header as directive → sources."""
    parts = [part.split() for part in response["Content-Security-Policy"].split(";")]
    return {words[0]: words[1:] for words in parts if words}


def new_tournament() -> tuple[int, str]:
    body = {"name": "Ann", "seats": 2}
    created = APIClient().post("/api/v1/tournaments/", body, format="json").json()
    return created["id"], created["seat"]["token"]


# --------------------------------------------------------------------------- the policy


@pytest.mark.parametrize("template", TEMPLATES, ids=lambda path: path.name)
def test_our_templates_carry_no_inline_script_or_style(template: Path) -> None:
    text = template.read_text("utf-8")
    assert re.findall(r"<script(?![^>]*\bsrc=)[^>]*>", text) == []
    # A <style> under the answer's nonce (a drawn season page inlines the stylesheet) is allowed.
    assert re.findall(r"<style\b(?![^>]*\bnonce=)|\sstyle=|\son[a-z]+=", text) == []


@pytest.mark.django_db
@pytest.mark.parametrize("path", ["/", "/leagues/", "/admin/login/"])
def test_pages_allow_scripts_and_styles_from_this_server_only(path: str) -> None:
    found = policy(Client().get(path))
    assert found["script-src"] == ["'self'"] and found["style-src"] == ["'self'"]
    assert found["default-src"] == ["'self'"] and found["connect-src"] == ["'self'"]
    assert found["object-src"] == ["'none'"] and found["frame-ancestors"] == ["'none'"]
    assert found["base-uri"] == ["'none'"] and found["form-action"] == ["'self'"]


@pytest.mark.django_db
def test_graphiql_adds_data_fonts_and_nothing_else() -> None:
    found = policy(Client().get("/graphql/", HTTP_ACCEPT="text/html"))
    assert found["font-src"] == ["'self'", "data:"]
    assert found["script-src"] == ["'self'"] and found["style-src"] == ["'self'"]


@pytest.mark.django_db
def test_the_api_docs_add_inline_styles_and_nothing_else() -> None:
    page = Client().get("/api/v1/docs/")
    found = policy(page)
    assert found["style-src"] == ["'self'", "'unsafe-inline'"]
    assert found["script-src"] == ["'self'"]
    assert re.findall(r"<script(?![^>]*\bsrc=)[^>]*>", page.content.decode()) == []


# --------------------------------------------------------------------------- caching


@pytest.mark.django_db
def test_an_answer_to_a_token_is_private_and_varies_on_it() -> None:
    tournament, token = new_tournament()
    seen = Client().get(f"/api/v1/tournaments/{tournament}/", HTTP_AUTHORIZATION=f"Bearer {token}")
    assert seen.status_code == 200
    assert "private" in seen["Cache-Control"]
    assert {"Authorization", "Accept-Language"} <= set(re.split(r",\s*", seen["Vary"]))


@pytest.mark.django_db
def test_a_spectators_answer_varies_on_the_token_but_may_be_shared() -> None:
    tournament, _ = new_tournament()
    seen = Client().get(f"/api/v1/tournaments/{tournament}/")
    assert "Authorization" in seen["Vary"]
    assert "private" not in seen.get("Cache-Control", "")


@pytest.mark.django_db
def test_a_graphql_answer_to_a_token_is_private_and_varies_on_it() -> None:
    tournament, token = new_tournament()
    query = {"query": f'{{ tournament(id: "{tournament}") {{ status }} }}'}
    seen = Client().post(
        "/graphql/", query, content_type="application/json", HTTP_AUTHORIZATION=f"Bearer {token}"
    )
    assert seen.status_code == 200
    assert "private" in seen["Cache-Control"]
    assert {"Authorization", "Accept-Language"} <= set(re.split(r",\s*", seen["Vary"]))


# --------------------------------------------------------------------------- CORS


@pytest.mark.django_db
def test_no_other_origin_is_allowed_by_default() -> None:
    read = Client().get("/api/v1/cards/", HTTP_ORIGIN=GAME)
    assert "Access-Control-Allow-Origin" not in read
    asked = Client().options(
        "/api/v1/tournaments/",
        HTTP_ORIGIN=GAME,
        HTTP_ACCESS_CONTROL_REQUEST_METHOD="POST",
        HTTP_ACCESS_CONTROL_REQUEST_HEADERS="authorization, content-type",
    )
    assert "Access-Control-Allow-Origin" not in asked


@pytest.mark.django_db
def test_a_listed_origin_may_call_the_api_and_graphql_without_credentials(settings: Any) -> None:
    settings.CORS_ALLOWED_ORIGINS = [GAME]
    for path in ("/api/v1/tournaments/", "/graphql/"):
        asked = Client().options(
            path,
            HTTP_ORIGIN=GAME,
            HTTP_ACCESS_CONTROL_REQUEST_METHOD="POST",
            HTTP_ACCESS_CONTROL_REQUEST_HEADERS="authorization, content-type, idempotency-key",
        )
        assert asked.status_code == 200 and asked["Access-Control-Allow-Origin"] == GAME
        allowed = asked["Access-Control-Allow-Headers"]
        assert {"authorization", "content-type", "idempotency-key"} <= set(allowed.split(", "))
        assert "Access-Control-Allow-Credentials" not in asked
    read = Client().get("/api/v1/cards/", HTTP_ORIGIN=GAME)
    assert read["Access-Control-Allow-Origin"] == GAME
    assert "Retry-After" in read["Access-Control-Expose-Headers"]
    other = Client().get("/api/v1/cards/", HTTP_ORIGIN="https://evil.example")
    assert "Access-Control-Allow-Origin" not in other
    admin = Client().get("/admin/login/", HTTP_ORIGIN=GAME)
    assert "Access-Control-Allow-Origin" not in admin


# --------------------------------------------------------------------------- error bodies


@pytest.mark.django_db
def test_an_unknown_graphql_path_is_a_coded_graphql_404() -> None:
    missing = Client().get("/graphql/nothing/here")
    assert missing.status_code == 404 and missing["Content-Type"] == "application/json"
    (error,) = missing.json()["errors"]
    assert error["extensions"]["code"] == "not_found"


@pytest.mark.django_db
def test_a_post_to_graphql_without_its_slash_is_a_coded_404_naming_the_url() -> None:
    query = {"query": "{ __typename }"}
    missing = Client().post("/graphql", query, content_type="application/json")
    assert missing.status_code == 404 and missing["Content-Type"] == "application/json"
    (error,) = missing.json()["errors"]
    assert error["extensions"]["code"] == "not_found"
    assert error["extensions"]["details"] == {"path": "/graphql/"}


@pytest.mark.django_db
def test_graphql_refuses_other_methods_in_json() -> None:
    refused = Client().put("/graphql/")
    assert refused.status_code == 405 and refused["Content-Type"] == "application/json"
    assert refused.json()["errors"][0]["extensions"]["code"] == "method_not_allowed"


@pytest.mark.django_db
def test_metrics_refuse_another_host_in_json_and_serve_any_loopback_address() -> None:
    refused = Client().get("/metrics", REMOTE_ADDR="192.0.2.7")
    assert refused.status_code == 404 and refused["Content-Type"] == "application/json"
    assert refused.json()["code"] == "not_found"
    for address in ("127.0.0.1", "127.0.0.2", "::1", "::ffff:127.0.0.1"):
        assert Client().get("/metrics", REMOTE_ADDR=address).status_code == 200, address
