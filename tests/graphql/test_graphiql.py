"""GraphiQL at ``/graphql/`` for browsers, from this server's own files only."""

from __future__ import annotations

import re

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db

HOST = "testserver"


def _page(client: Client) -> str:
    response = client.get("/graphql/", headers={"Accept": "text/html"})
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/html")
    return response.content.decode()


def _served(client: Client, source: str) -> bytes:
    response = client.get(source)
    assert response.status_code == 200, source
    return b"".join(response.streaming_content)  # type: ignore[attr-defined]


def test_a_browser_gets_graphiql_that_loads_nothing_from_elsewhere() -> None:
    client = Client()
    page = _page(client)
    start = _served(client, "/static/graphiql/start.js").decode()  # no inline script (CSP)
    assert "GraphiQL.createFetcher" in start and "root.dataset.socketPath" in start
    elsewhere = [
        url
        # a URL naming a host (the socket's "ws://" + location.host is this host's)
        for url in re.findall(r"(?:https?|wss?)://[^\s\"'<>]+", page + start)
        if not url.startswith(f"http://{HOST}/")
    ]
    assert elsewhere == []
    assert 'data-socket-path="/ws/graphql/"' in page  # subscriptions go to this host's socket


def test_every_file_the_page_references_is_served() -> None:
    client = Client()
    sources = re.findall(r'(?:src|href)="([^"]+)"', _page(client))
    # GraphiQL's stylesheet and the page's, React, ReactDOM, GraphiQL and the start script.
    assert len(sources) == 6
    for source in sources:
        assert source.startswith("/static/graphiql/")
        assert len(_served(client, source)) > 40, source


def test_a_program_still_gets_json() -> None:
    response = Client().post(
        "/graphql/", {"query": "{ __typename }"}, content_type="application/json"
    )
    assert response.json() == {"data": {"__typename": "Query"}}
