"""What every app's GraphQL shares: the coded ``Error`` member of mutation payloads, pages
(Relay-style connections with offset cursors and a size cap), and the caller's identity.

A refused mutation returns ``Error`` (the same ``code``, ``message`` and ``details`` as REST's
body); a refused query field is a GraphQL error whose ``extensions`` carry the same ``code`` and
``details`` (``config.schema`` adds them).
"""

from __future__ import annotations

import base64
from collections.abc import Sequence
from typing import Any, Generic, TypeVar

import strawberry
from rest_framework import exceptions
from strawberry.scalars import JSON

from config.errors import ApplicationError, error_body

T = TypeVar("T")

MAX_PAGE = 100
DEFAULT_PAGE = 20
# A request body's (or socket message's) ceiling: the longest query the token limit lets through
# (2,000 tokens) with its variables is a few kilobytes; more is refused unread (``too_large``).
MAX_BODY_BYTES = 64 * 1024


@strawberry.type(description="A refused action: the code, message and details REST answers.")
class Error:
    code: str = strawberry.field(description="Stable code programs branch on (docs/errors.md).")
    message: str = strawberry.field(description="For people; may change.")
    details: JSON = strawberry.field(description="Facts that help (`{}` when none).")

    @classmethod
    def of(cls, error: Exception) -> Error:
        body = error_body_of(error)
        return cls(code=body["code"], message=body["message"], details=body["details"])


def error_body_of(error: Exception) -> dict[str, Any]:
    """The REST body of an ``ApplicationError`` or a DRF validation error; anything else is
    re-raised (a bug is not a refusal)."""
    if isinstance(error, ApplicationError):
        return error.as_dict()
    if isinstance(error, exceptions.ValidationError):
        return error_body(code="invalid", message="Invalid input.", details=_plain(error.detail))
    raise error


def _plain(detail: Any) -> Any:
    """DRF's ``ErrorDetail`` strings (and their containers) as plain JSON values."""
    if isinstance(detail, dict):
        return {str(key): _plain(value) for key, value in detail.items()}
    if isinstance(detail, list):
        return [_plain(value) for value in detail]
    return str(detail)


@strawberry.type(description="Where a page sits in its list.")
class PageInfo:
    has_next_page: bool = strawberry.field(description="More items follow this page.")
    has_previous_page: bool = strawberry.field(description="Items come before this page.")
    start_cursor: str | None = strawberry.field(description="The first item's cursor.")
    end_cursor: str | None = strawberry.field(description="The last item's cursor: pass as after.")


@strawberry.type(description="One item of a page and its cursor.")
class Edge(Generic[T]):
    cursor: str = strawberry.field(description="Pass it as `after` to read what follows.")
    node: T = strawberry.field(description="The item.")


@strawberry.type(description="A page of a list (Relay connection).")
class Connection(Generic[T]):
    edges: list[Edge[T]] = strawberry.field(description="The page's items with their cursors.")
    page_info: PageInfo = strawberry.field(description="Where the page sits.")
    total_count: int = strawberry.field(description="Items in the whole list.")


def cursor_of(offset: int) -> str:
    return base64.b64encode(f"offset:{offset}".encode()).decode()


def offset_of(cursor: str | None) -> int:
    """The offset after ``cursor`` (0 without one); a cursor we did not make is ``invalid``."""
    if cursor is None:
        return 0
    try:
        kind, _, number = base64.b64decode(cursor, validate=True).decode().partition(":")
        if kind == "offset" and number.isascii() and number.isdigit() and len(number) < 12:
            return int(number) + 1
    except ValueError:
        pass
    raise ApplicationError("invalid", "Not a cursor of this list.", {"after": cursor[:32]})


def page_size(first: int) -> int:
    """``first`` within 1-``MAX_PAGE``, else ``invalid`` (as REST's ``limit``)."""
    if not 1 <= first <= MAX_PAGE:
        message = f"`first` is from 1 to {MAX_PAGE}."
        raise ApplicationError("invalid", message, {"first": [message]})
    return first


def connection(items: Sequence[T], *, offset: int, total: int) -> Connection[T]:
    """A page of ``items`` that starts at ``offset`` of a list of ``total``."""
    edges = [Edge(cursor=cursor_of(offset + i), node=item) for i, item in enumerate(items)]
    info = PageInfo(
        has_next_page=offset + len(items) < total,
        has_previous_page=offset > 0,
        start_cursor=edges[0].cursor if edges else None,
        end_cursor=edges[-1].cursor if edges else None,
    )
    return Connection(edges=edges, page_info=info, total_count=total)


def authorization(info: strawberry.Info) -> str:
    """The caller's ``Authorization`` value: the HTTP header, or on the socket the
    ``connection_init`` payload's ``Authorization``."""
    context = info.context
    params = context_value(context, "connection_params")
    if isinstance(params, dict):
        value = params.get("Authorization", params.get("authorization", ""))
        return value if isinstance(value, str) else ""
    request = context_value(context, "request")
    headers = getattr(request, "headers", None) or {}
    return str(headers.get("Authorization", "") or "")


def require_known_caller(info: strawberry.Info) -> None:
    """Refuse an unknown ``Authorization`` token (``bad_token``) as every REST endpoint does.

    The check comes with the request's context (``config.graphql_views`` puts the tournaments'
    token reader there as ``check_caller``): an app with no token of its own (the cards) refuses
    a bad one without importing the app that knows them."""
    check = context_value(info.context, "check_caller")
    if check is not None:
        check(authorization(info))


def context_value(context: Any, name: str) -> Any:
    """``name`` of a request's context: an object over HTTP, a dict on the socket."""
    if isinstance(context, dict):
        return context.get(name)
    return getattr(context, name, None)
