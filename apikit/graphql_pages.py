"""Relay connections for every list: ``first``/``after`` forwards, ``last``/``before`` backwards.

A list is a sequence of positions 0, 1, 2, … A cursor names one position. It never moves with
the page size. A list whose order is fixed (newest first, by seat, by rank) uses an offset
(``offset:N``). Events use the log's own number (``seq:N``). So a client resumes a match's
events from the last cursor it read, as it would from the last ``seq``.

A page is the ``first`` items after ``after`` (or the start). Or it is the ``last`` items before
``before`` (or the end). Without either size it is ``DEFAULT_PAGE`` items forwards
(``EVENTS_DEFAULT`` for events).

These are ``invalid``, and nothing is read:

- a size over the field's maximum (``MAX_PAGE``, ``EVENTS_MAX`` for events);
- ``first`` with ``last``;
- a cursor the server did not make.

The cost limit (``apikit.graphql_cost``) charges a paged field its ``first`` or ``last``. Else
it charges its default.
"""

from __future__ import annotations

import base64
import functools
import inspect
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Annotated, Any, TypeVar

import strawberry
from django.utils.translation import gettext as _

from apikit.graphql import DEFAULT_PAGE, MAX_PAGE, Connection, Edge, PageInfo
from infra.errors import ApplicationError

T = TypeVar("T")
R = TypeVar("R", bound=Callable[..., Any])

UNBOUNDED = 10**12  # a list's length while it is not yet counted

EVENTS_DEFAULT = 100
EVENTS_MAX = 500

First = Annotated[
    int | None,
    strawberry.argument(description="The page's first N items (default 20, at most 100)."),
]
After = Annotated[
    str | None, strawberry.argument(description="A cursor: the items after it (`endCursor`).")
]
Last = Annotated[
    int | None, strawberry.argument(description="The page's last N items (at most 100).")
]
Before = Annotated[
    str | None,
    strawberry.argument(description="A cursor: the items before it (`startCursor`)."),
]
EventsFirst = Annotated[
    int | None,
    strawberry.argument(
        description=f"The first N events (default {EVENTS_DEFAULT}, at most {EVENTS_MAX})."
    ),
]
EventsLast = Annotated[
    int | None, strawberry.argument(description=f"The last N events (at most {EVENTS_MAX}).")
]


@dataclass(frozen=True, slots=True)
class Cursors:
    """How a list's cursors name its positions: ``kind:N``, N being ``position + base``."""

    kind: str
    base: int

    def of(self, position: int) -> str:
        return base64.b64encode(f"{self.kind}:{position + self.base}".encode()).decode()

    def position(self, cursor: str, argument: str) -> int:
        """The position ``cursor`` names.

        A cursor this list did not make is ``invalid``."""
        try:
            kind, _colon, number = base64.b64decode(cursor, validate=True).decode().partition(":")
            if kind == self.kind and number.isascii() and number.isdigit() and len(number) < 12:
                return int(number) - self.base
        except ValueError:
            pass
        raise ApplicationError("invalid", _("Not a cursor of this list."), {argument: cursor[:32]})


OFFSETS = Cursors("offset", 0)  # the cursors of apikit.graphql.cursor_of
SEQS = Cursors("seq", 1)  # an event's cursor holds its seq; position n holds seq n + 1


@dataclass(frozen=True, slots=True)
class Page:
    """A connection's arguments, and its field's page size rules."""

    first: int | None = None
    after: str | None = None
    last: int | None = None
    before: str | None = None
    default: int = DEFAULT_PAGE
    most: int = MAX_PAGE
    cursors: Cursors = OFFSETS

    def start(self) -> int:
        """The page's first possible position (after ``after``), unchecked."""
        return 0 if self.after is None else self.cursors.position(self.after, "after") + 1

    def bounds(self, total: int) -> tuple[int, int]:
        """The positions ``[start, stop)`` of the page in a list of ``total`` items."""
        if self.first is not None and self.last is not None:
            message = _("Give `first` or `last`, not both.")
            raise ApplicationError("invalid", message, {"last": [message]})
        start = min(self.start(), total)
        stop = total if self.before is None else self.cursors.position(self.before, "before")
        stop = max(min(stop, total), start)
        if self.last is not None:
            return max(start, stop - self._size(self.last, "last")), stop
        size = self._size(self.default if self.first is None else self.first, "first")
        return start, min(stop, start + size)

    def _size(self, size: int, argument: str) -> int:
        if not 1 <= size <= self.most:
            message = _("`%(name)s` is from 1 to %(max)s.") % {"name": argument, "max": self.most}
            raise ApplicationError("invalid", message, {argument: [message]})
        return size

    def check(self) -> None:
        """Refuse bad arguments before anything is read.

        Computing the ``bounds`` of an empty list checks them."""
        self.bounds(0)


def page_of(
    items: Sequence[T], page: Page, *, offset: int = 0, content: str | None = None
) -> Connection[T]:
    """``page`` of a list whose positions ``offset`` onwards are ``items``.

    ``items`` are all of the rest. ``content`` names a list that never changes. Its page's
    answer is then reused."""
    start, stop = page.bounds(offset + len(items))
    chosen = items[max(start - offset, 0) : stop - offset]
    found = window(chosen, page, start=start, total=offset + len(items))
    if content is not None:
        found.completion_key = f"{content}:{start}:{stop}:{offset + len(items)}".encode()
    return found


def window(items: Sequence[T], page: Page, *, start: int, total: int) -> Connection[T]:
    """The connection of ``items``, the positions from ``start`` of a list of ``total``."""
    edges = [Edge(cursor=page.cursors.of(start + i), node=item) for i, item in enumerate(items)]
    info = PageInfo(
        has_next_page=start + len(items) < total,
        has_previous_page=start > 0,
        start_cursor=edges[0].cursor if edges else None,
        end_cursor=edges[-1].cursor if edges else None,
    )
    return Connection(edges=edges, page_info=info, total_count=total)


def sliced(read: Callable[[int, int], tuple[Sequence[T], int]], page: Page) -> Connection[T]:
    """``page`` of a list read in slices.

    ``read(offset, limit)`` answers that slice and the list's length. Only ``last`` without
    ``before`` needs the length first (one more count)."""
    page.check()
    if page.last is not None and page.before is None:
        start, stop = page.bounds(read(0, 0)[1])
    else:
        start, stop = page.bounds(UNBOUNDED)
    items, total = read(start, stop - start)
    return window(items, page, start=min(start, total), total=total)


@dataclass(frozen=True, slots=True)
class Rules:
    """A paged field's rules: sizes, cursors, size arguments' descriptions."""

    default: int
    most: int
    cursors: Cursors
    first: Any
    last: Any

    def page(
        self, first: int | None, after: str | None, last: int | None, before: str | None
    ) -> Page:
        return Page(first, after, last, before, self.default, self.most, self.cursors)


ITEMS = Rules(DEFAULT_PAGE, MAX_PAGE, OFFSETS, First, Last)
EVENTS = Rules(EVENTS_DEFAULT, EVENTS_MAX, SEQS, EventsFirst, EventsLast)


def paged(rules: Rules = ITEMS) -> Callable[[R], R]:
    """A connection resolver's page arguments, declared once.

    The decorated resolver takes ``page: Page``, already checked. A bad size or cursor is
    ``invalid`` before anything is read. GraphQL sees ``first``/``after``/``last``/``before`` in
    its place."""

    def wrap(resolver: R) -> R:
        signature = inspect.signature(resolver)
        kept = [p for p in signature.parameters.values() if p.name != "page"]
        given = (("first", rules.first), ("after", After), ("last", rules.last), ("before", Before))
        added = [
            inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=None, annotation=kind)
            for name, kind in given
        ]

        @functools.wraps(resolver)
        def resolve(
            *args: object,
            first: int | None = None,
            after: str | None = None,
            last: int | None = None,
            before: str | None = None,
            **kwargs: object,
        ) -> object:
            page = rules.page(first, after, last, before)
            page.check()
            return resolver(*args, page=page, **kwargs)

        # Strawberry reads the arguments from the signature (the resolver's own module resolves
        # their annotations: ``functools.wraps`` keeps it).
        resolve.__signature__ = signature.replace(parameters=kept + added)  # type: ignore[attr-defined]
        annotations = {k: v for k, v in resolver.__annotations__.items() if k != "page"}
        resolve.__annotations__ = {**annotations, **dict(given)}
        return resolve  # type: ignore[return-value]

    return wrap
