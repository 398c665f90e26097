"""schemathesis against ``/graphql/``, as REST's run (tests/api/test_openapi.py): every query
and mutation it generates, bounded in time, answers JSON with no server error and every error
coded."""

from __future__ import annotations

import time
from typing import Any, cast

import pytest
import schemathesis
from graphql import NameNode, ObjectFieldNode
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from schemathesis.graphql import nodes

from server.wsgi import application
from tests.api.test_openapi import kept_connection
from tests.tournaments.play import open_game


def field_nodes(values: dict[str, int]) -> list[ObjectFieldNode]:
    return [ObjectFieldNode(name=NameNode(value=k), value=nodes.Int(v)) for k, v in values.items()]


# The schema's JSON scalar (REST's free-form objects: scoring, details) as small values.
schemathesis.graphql.scalar(
    "JSON",
    st.one_of(
        st.text(max_size=8).map(nodes.String),
        st.integers(-5, 5).map(nodes.Int),
        st.just(nodes.Null),
        st.dictionaries(st.sampled_from("abc"), st.integers(0, 3))
        .map(field_nodes)
        .map(nodes.Object),
    ),
)

EXAMPLES = 4
BUDGET_SECONDS = 60


@pytest.mark.django_db
def test_schemathesis_finds_no_server_error_and_only_coded_errors(catalogue: Any) -> None:
    host = open_game(seats=2)[0]
    with kept_connection():
        api = schemathesis.graphql.from_wsgi("/graphql/", application)
        found, statuses, tried = run(api, host.headers)
    assert found == []
    assert tried >= 20
    assert 200 in statuses


def run(api: Any, headers: dict[str, str]) -> tuple[list[str], list[int], int]:
    found: list[str] = []
    statuses: list[int] = []
    began = time.monotonic()
    tried = 0
    for result in api.get_all_operations():
        operation = cast(Any, result).ok()

        @given(case=operation.as_strategy())
        @settings(
            max_examples=EXAMPLES,
            deadline=None,
            phases=[Phase.explicit, Phase.generate],
            suppress_health_check=list(HealthCheck),
            derandomize=True,
            database=None,
        )
        def check(case: Any) -> None:
            for extra in ({}, headers):
                case.headers = {**(case.headers or {}), **extra}
                response = case.call()
                statuses.append(response.status_code)
                problem = problem_of(response)
                if problem:
                    found.append(f"{case.operation.label}: {problem}")

        check()
        tried += 1
        if time.monotonic() - began > BUDGET_SECONDS:
            break
    return found, statuses, tried


def problem_of(response: Any) -> str | None:
    """What is wrong with an answer: a server error, not JSON, an error without a code."""
    text = response.text[:300]
    if response.status_code >= 500:
        return f"{response.status_code} {text}"
    try:
        body = response.json()
    except ValueError:
        return f"not JSON: {text}"
    for error in body.get("errors") or []:
        code = (error.get("extensions") or {}).get("code")
        if not code or code == "server_error":
            return f"{code}: {text}"
    return None
