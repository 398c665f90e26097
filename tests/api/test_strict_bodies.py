"""Strict bodies on every action (issue 43): a field an action's body does not declare is refused
with 400 ``unknown_field`` naming it, before anything is looked up or changed; an action that
takes no body refuses any field. The actions are read from the URL routes, so a new one is
covered by this test without a line here."""

from __future__ import annotations

import re

import pytest
from rest_framework.test import APIClient

from tests.graphql.test_bridge import rest_actions
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db

EXTRA = "zz_not_declared"


def filled(route: str) -> str:
    """``route`` with a value for each of its parameters (a number, else a word)."""
    return "/" + re.sub(r"<(\w+):\w+>", lambda m: "1" if m[1] == "int" else "x", route)


def test_every_action_refuses_a_field_it_does_not_declare() -> None:
    client = APIClient()
    checked = []
    for name, (route, action) in sorted(rest_actions().items()):
        call = getattr(client, action.method)
        answer = call(filled(route), {EXTRA: 1}, format="json")
        assert answer.status_code == 400, (name, answer.status_code, answer.content)
        body = answer.json()
        assert body["code"] == "unknown_field", (name, body)
        assert (body["details"]["field"], body["details"]["unknown"]) == (EXTRA, [EXTRA]), name
        checked.append(name)
    assert {"create_tournament", "join_tournament", "post_chat", "answer"} <= set(checked), checked


def test_a_valid_body_with_one_more_field_changes_nothing() -> None:
    client = APIClient()
    body = {"name": "Ann", "seats": 3, "colour": "red"}
    answer = client.post("/api/v1/tournaments/", body, format="json")
    assert (answer.status_code, answer.json()["details"]["field"]) == (400, "colour")
    assert answer.json()["details"]["allowed"][:3] == [
        "additional_sets",
        "answer_deadline_seconds",
        "basic_set",
    ]
    assert not Tournament.objects.exists()
    del body["colour"]
    assert client.post("/api/v1/tournaments/", body, format="json").status_code == 201
