"""What every app's GraphQL shares.

It holds the typed ``UserError`` s of mutation payloads, and the caller's identity. It also holds
pages: Relay-style connections with offset cursors and a size cap.

A refused mutation answers its payload with ``errors`` (``user_errors``). They carry REST's
``code`` and ``message``, the details typed. A refused query field is a GraphQL error. Its
``extensions`` carry the same ``code`` and ``details`` (``server.schema`` adds them).
"""

from __future__ import annotations

import base64
import json
from collections.abc import Iterator, Sequence
from typing import Generic, TypeVar

import strawberry
from django.utils.translation import gettext as _
from graphql import FieldNode, FragmentSpreadNode, InlineFragmentNode
from rest_framework import exceptions

from infra.errors import ApplicationError, error_body

T = TypeVar("T")

MAX_PAGE = 100
DEFAULT_PAGE = 20
# A request body's (or socket message's) ceiling: the longest query the token limit lets through
# (2,000 tokens) with its variables is a few kilobytes; more is refused unread (``too_large``).
MAX_BODY_BYTES = 64 * 1024


@strawberry.type(description="One fact about a refusal: a name and its value as text.")
class ErrorDetail:
    name: str = strawberry.field(description="What the fact is about (`retry_after`, `seat`…).")
    value: str | None = strawberry.field(description="Its value as text (null: a list).")
    values: list[str] | None = strawberry.field(description="Its values, when a list.")


@strawberry.type(
    description="Why an action was refused: REST's code and message; for `invalid` one error "
    "per bad input field (its path in `field`), for other codes the facts of REST's details."
)
class UserError:
    code: str = strawberry.field(description="Stable code programs branch on (docs/errors.md).")
    message: str = strawberry.field(description="For people; may change.")
    field: list[str] | None = strawberry.field(
        description="The input field at fault (its path, camelCase); null: the whole input."
    )
    details: list[ErrorDetail] = strawberry.field(description="Facts that help (may be empty).")


def user_errors(body: dict[str, object]) -> list[UserError]:
    """REST's error body as typed errors.

    ``invalid`` with field messages becomes one error per message, at its field's path. Any
    other body becomes one error whose details are listed facts."""
    code, message, details = str(body["code"]), str(body["message"]), body["details"]
    if code == "invalid" and isinstance(details, dict) and _all_messages(details):
        found = list(_field_errors(details, []))
        if found:
            return [UserError(code=code, message=m, field=f, details=[]) for f, m in found]
    return [UserError(code=code, message=message, field=None, details=_facts(details))]


def _all_messages(details: dict[str, object]) -> bool:
    return all(isinstance(v, list | dict) for v in details.values())


def _field_errors(detail: object, path: list[str]) -> Iterator[tuple[list[str] | None, str]]:
    if isinstance(detail, dict):
        for key, value in detail.items():
            yield from _field_errors(value, [*path, _camel(str(key))])
    elif isinstance(detail, list) and all(isinstance(item, str) for item in detail):
        for message in detail:
            yield (path if path and path != ["nonFieldErrors"] else None), message
    elif isinstance(detail, list):
        for index, item in enumerate(detail):
            yield from _field_errors(item, [*path, str(index)])
    else:
        yield (path or None), str(detail)


def _camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(part[:1].upper() + part[1:] for part in rest)


def _facts(details: object) -> list[ErrorDetail]:
    if not isinstance(details, dict):
        return [ErrorDetail(name="details", value=json.dumps(details), values=None)]
    return [_fact(str(name), value) for name, value in details.items()]


def _fact(name: str, value: object) -> ErrorDetail:
    if isinstance(value, list) and all(not isinstance(v, list | dict) for v in value):
        return ErrorDetail(name=name, value=None, values=[_text(v) or "" for v in value])
    return ErrorDetail(name=name, value=_text(value), values=None)


def _text(value: object) -> str | None:
    if value is None:
        return None
    if isinstance(value, str):
        return value
    return json.dumps(value)


def error_body_of(error: Exception) -> dict[str, object]:
    """REST's body for an ``ApplicationError`` or DRF validation error.

    Anything else is re-raised: bugs are not refusals."""
    if isinstance(error, ApplicationError):
        return error.as_dict()
    if isinstance(error, exceptions.ValidationError):
        return error_body(code="invalid", message="Invalid input.", details=_plain(error.detail))
    raise error


def _plain(detail: object) -> object:
    """DRF's ``ErrorDetail`` strings and their containers, as plain JSON."""
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
    # A page of fixed content names it: its completed answer is reused (apikit.graphql_execution).
    completion_key: strawberry.Private[bytes | None] = None


def cursor_of(offset: int) -> str:
    return base64.b64encode(f"offset:{offset}".encode()).decode()


def offset_of(cursor: str | None) -> int:
    """The offset after ``cursor`` (0 without one).

    A cursor we did not make is ``invalid``."""
    if cursor is None:
        return 0
    try:
        kind, _colon, number = base64.b64decode(cursor, validate=True).decode().partition(":")
        if kind == "offset" and number.isascii() and number.isdigit() and len(number) < 12:
            return int(number) + 1
    except ValueError:
        pass
    raise ApplicationError("invalid", _("Not a cursor of this list."), {"after": cursor[:32]})


def page_size(first: int) -> int:
    """``first`` within 1-``MAX_PAGE``, else ``invalid`` (as REST's ``limit``)."""
    if not 1 <= first <= MAX_PAGE:
        message = _("`first` is from 1 to %(max)s.") % {"max": MAX_PAGE}
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
    """The caller's ``Authorization`` value.

    Over HTTP, that is the header. On the socket, it is the ``connection_init`` payload's."""
    context = info.context
    params = context_value(context, "connection_params")
    if isinstance(params, dict):
        value = params.get("Authorization", params.get("authorization", ""))
        return value if isinstance(value, str) else ""
    request = context_value(context, "request")
    headers = getattr(request, "headers", None) or {}
    return str(headers.get("Authorization", "") or "")


def require_known_caller(info: strawberry.Info) -> None:
    """Refuse an unknown ``Authorization`` token (``bad_token``), as REST does.

    The check comes with the request's context, as ``check_caller``. (``server.graphql_views``
    puts the tournaments' token reader there.) So an app with no token of its own, the cards,
    refuses a bad one. It need not import the tokens' app."""
    check = context_value(info.context, "check_caller")
    if callable(check):
        check(authorization(info))


def context_value(context: object, name: str) -> object:
    """``name`` of a request's context: an object over HTTP, a dict on the socket."""
    if isinstance(context, dict):
        return context.get(name)
    return getattr(context, name, None)


def selects(info: strawberry.Info, name: str) -> bool:
    """Whether the field being resolved selects a field ``name`` anywhere below it.

    Fragments are searched too. A resolver leaves out a costly field's work when nothing asks
    for it."""
    raw = info._raw_info
    pending = [node.selection_set for node in raw.field_nodes]
    seen: set[str] = set()
    while pending:
        selection_set = pending.pop()
        for selection in selection_set.selections if selection_set else ():
            if isinstance(selection, FragmentSpreadNode):
                if selection.name.value not in seen:
                    seen.add(selection.name.value)
                    fragment = raw.fragments.get(selection.name.value)
                    pending.append(fragment.selection_set if fragment else None)
                continue
            if isinstance(selection, FieldNode) and selection.name.value == name:
                return True
            if isinstance(selection, FieldNode | InlineFragmentNode):
                pending.append(selection.selection_set)
    return False
