"""League pages worth sharing: link previews in the HTML the server sends (per page, escaped,
translated), the round-by-round page's address, and the standings widget that only the sites
a league's organizers allow may frame (REST and GraphQL manage them alike)."""

from __future__ import annotations

import html
import re
from typing import Any

import pytest
from rest_framework.test import APIClient

from leagues.models import EmbedSite, League
from leagues.web.embeds import origin_parse
from tests.admin.forms import form_data
from tests.graphql.client import GraphQL, nodes, payload
from tests.leagues.helpers import (
    bot_tournament,
    create_organizer,
    league_with_season,
    ok,
    org,
    post,
    refused,
)

pytestmark = pytest.mark.django_db(transaction=True)

META = re.compile(r'<meta (?:property|name)="([^"]+)" content="([^"]*)">')


def head(client: APIClient, path: str, **headers: str) -> dict[str, str]:
    """The page's title and meta tags, unescaped, after checking it answered 200."""
    answer = client.get(path, headers=headers)
    assert answer.status_code == 200, path
    text = answer.content.decode()
    found = {name: html.unescape(value) for name, value in META.findall(text)}
    title = re.search(r"<title>([^<]*)</title>", text)
    assert title is not None
    return {"title": html.unescape(title.group(1)), **found}


@pytest.fixture
def played(catalogue: Any) -> dict[str, Any]:
    client = APIClient()
    token = create_organizer("org")
    body = {"name": 'Club <"Ñ">', "slug": "club", "description": "Tuesday <b>nights</b>"}
    ok(post(client, "leagues/", body, org(token)))
    season = ok(post(client, "leagues/club/seasons/", {"name": "Spring"}, org(token)))["id"]
    tid = bot_tournament(client, token, "club", season, seats=2)
    standings = client.get("/api/v1/leagues/club/standings/").json()
    return {"client": client, "token": token, "season": season, "tid": tid, "rows": standings}


def test_each_league_page_has_its_own_escaped_preview(played: dict[str, Any]) -> None:
    client, season, tid = played["client"], played["season"], played["tid"]
    leader = played["rows"]["rows"][0]
    league = head(client, "/leagues/club/")
    assert league["title"] == 'Club <"Ñ"> — Challengers! league'
    assert league["og:title"] == league["title"] == league["twitter:title"]
    assert league["og:description"].startswith("Tuesday <b>nights</b> Club <")
    assert league["twitter:card"] == "summary_large_image"
    assert league["og:image"] == "http://testserver/static/frontend/preview-card.png"
    assert league["og:url"] == "http://testserver/leagues/club/"
    raw = client.get("/leagues/club/").content.decode()
    assert "<b>nights" not in raw and "&lt;b&gt;nights" in raw  # escaped, never markup

    season_page = head(client, f"/leagues/club/seasons/{season}/")
    assert season_page["og:title"] == 'Club <"Ñ">, Spring — Challengers!'
    assert season_page["og:description"] == (
        f"{leader['member']} leads with {leader['points']} points after 1 tournament."
    )
    member = head(client, f"/leagues/club/members/{leader['member']}/")
    assert member["og:title"].startswith(f"{leader['member']} in Club")
    assert member["og:description"].startswith("Rating ")
    rounds = head(client, f"/leagues/club/tournaments/{tid}/")
    assert rounds["og:title"] == f'Game #{tid} round by round — Club <"Ñ">'
    champion = next(r["member"] for r in played["rows"]["rows"] if r["wins"])
    assert rounds["og:description"].startswith(f"Champion: {champion}.")
    assert client.get("/leagues/").content.count(b"og:title") == 0  # not a league's page


def test_a_preview_speaks_the_readers_language(played: dict[str, Any]) -> None:
    russian = head(played["client"], f"/leagues/club/seasons/{played['season']}/?lang=ru")
    assert "лидирует" in russian["og:description"]
    chinese = head(played["client"], "/leagues/club/", **{"Accept-Language": "zh-hans"})
    assert "Challengers!" in chinese["og:title"] and "联赛" in chinese["og:title"]


def test_a_round_by_round_page_of_another_tournament_answers_404(played: dict[str, Any]) -> None:
    client, tid = played["client"], played["tid"]
    assert client.get(f"/leagues/club/tournaments/{tid}/").status_code == 200
    assert client.get(f"/leagues/club/tournaments/{tid + 100}/").status_code == 404
    other = ok(post(client, "tournaments/", {"name": "Host", "seats": 2}))["id"]
    assert client.get(f"/leagues/club/tournaments/{other}/").status_code == 404
    assert client.get(f"/leagues/nope/tournaments/{tid}/").status_code == 404


@pytest.mark.parametrize(
    ("given", "canonical"),
    [
        ("https://club.example", "https://club.example"),
        ("https://Club.Example/", "https://club.example"),
        ("https://club.example:443", "https://club.example"),
        ("http://127.0.0.1:8140", "http://127.0.0.1:8140"),
        ("http://[::1]:8000", "http://[::1]:8000"),
        ("http://localhost:80", "http://localhost"),
    ],
)
def test_an_origin_is_read_into_one_canonical_form(given: str, canonical: str) -> None:
    assert origin_parse(given) == canonical


@pytest.mark.parametrize(
    "given",
    [
        "club.example",
        "ftp://club.example",
        "https://club.example/page",
        "https://club.example?x=1",
        "https://club.example#top",
        "https://user@club.example",
        "https://*.club.example",
        "https://club.example 'unsafe-inline'",
        "https://club.example;script-src *",
        "https://club.exämple",
        "https://club.example:0",
        "https://club.example:99999",
        "https://[127.0.0.1]",
        "https://-bad.example",
        "'self'",
        "*",
    ],
)
def test_anything_but_an_origin_is_refused(given: str) -> None:
    client = APIClient()
    token = create_organizer("org")
    league_with_season(client, token)
    answer = post(client, "leagues/club/embed-sites/", {"origin": given}, org(token))
    refused(answer, 400, "bad_origin")
    assert answer.json()["details"] == {"field": "origin"}
    assert client.get("/api/v1/leagues/club/embed-sites/", headers=org(token)).json() == {
        "results": []
    }


def test_the_widget_is_framed_only_by_the_sites_its_organizers_allow(
    played: dict[str, Any],
) -> None:
    client, token = played["client"], played["token"]
    closed = client.get("/leagues/club/embed/")
    assert closed.status_code == 200 and closed["X-Frame-Options"] == "DENY"
    assert "frame-ancestors 'none'" in closed["Content-Security-Policy"]
    assert played["rows"]["rows"][0]["member"].encode() in closed.content

    site = ok(
        post(client, "leagues/club/embed-sites/", {"origin": "https://A.example/"}, org(token))
    )
    assert site["origin"] == "https://a.example"
    again = post(client, "leagues/club/embed-sites/", {"origin": "https://a.example"}, org(token))
    refused(again, 409, "embed_site_exists")
    ok(post(client, "leagues/club/embed-sites/", {"origin": "http://127.0.0.1:8140"}, org(token)))
    opened = client.get("/leagues/club/embed/")
    assert "X-Frame-Options" not in opened
    policy = opened["Content-Security-Policy"]
    assert "frame-ancestors https://a.example http://127.0.0.1:8140" in policy
    assert "script-src 'self'" in policy  # the rest of the policy is the site's own
    for other in ("/leagues/club/", "/leagues/", "/api/v1/leagues/club/"):
        assert client.get(other)["X-Frame-Options"] == "DENY"

    listed = client.get("/api/v1/leagues/club/embed-sites/", headers=org(token)).json()
    assert [s["origin"] for s in listed["results"]] == [
        "https://a.example",
        "http://127.0.0.1:8140",
    ]
    gone = client.delete(f"/api/v1/leagues/club/embed-sites/{site['id']}/", headers=org(token))
    assert gone.status_code == 204
    policy = client.get("/leagues/club/embed/")["Content-Security-Policy"]
    assert "frame-ancestors http://127.0.0.1:8140" in policy
    again = client.delete(f"/api/v1/leagues/club/embed-sites/{site['id']}/", headers=org(token))
    refused(again, 404, "unknown_embed_site")
    assert client.get("/leagues/nope/embed/").status_code == 404


def test_only_the_leagues_organizers_manage_its_sites(played: dict[str, Any]) -> None:
    client = played["client"]
    stranger = create_organizer("stranger")
    body = {"origin": "https://a.example"}
    refused(post(client, "leagues/club/embed-sites/", body), 403, "organizer_required")
    refused(
        post(client, "leagues/club/embed-sites/", body, org(stranger)), 403, "not_league_organizer"
    )
    listed = client.get("/api/v1/leagues/club/embed-sites/", headers=org(stranger))
    refused(listed, 403, "not_league_organizer")


def test_graphql_manages_the_sites_as_rest_does(played: dict[str, Any]) -> None:
    gql = GraphQL(f"Token {played['token']}")
    site = "embedSite { id origin } errors { code }"
    made = payload(gql, "addEmbedSite", site, slug="club", origin="https://B.example")
    assert made["errors"] == [] and made["embedSite"]["origin"] == "https://b.example"
    bad = payload(gql, "addEmbedSite", site, slug="club", origin="https://b.example/x")
    assert bad == {"embedSite": None, "errors": [{"code": "bad_origin"}]}
    listed = gql.data('{ embedSites(slug: "club") { edges { node { origin } } } }')
    assert nodes(listed["embedSites"]) == [{"origin": "https://b.example"}]
    gone = payload(
        gql,
        "removeEmbedSite",
        "done { ok } errors { code }",
        slug="club",
        id=made["embedSite"]["id"],
    )
    assert gone == {"done": {"ok": True}, "errors": []}
    policy = played["client"].get("/leagues/club/embed/")["Content-Security-Policy"]
    assert "frame-ancestors 'none'" in policy


def test_the_admin_reads_an_allowed_site_as_the_api_does(
    played: dict[str, Any], admin_client: Any
) -> None:
    url = f"/admin/leagues/league/{League.objects.get(slug='club').pk}/change/"
    data = form_data(admin_client.get(url).content.decode())
    data |= {"embed_sites-TOTAL_FORMS": "1", "embed_sites-0-origin": "https://x.example/page"}
    shown = admin_client.post(url, data)
    assert shown.status_code == 200 and "no user, path or query" in shown.content.decode()
    assert not EmbedSite.objects.exists()
    data["embed_sites-0-origin"] = "HTTPS://Club.Example:443/"
    assert admin_client.post(url, data).status_code == 302
    assert list(EmbedSite.objects.values_list("origin", flat=True)) == ["https://club.example"]
