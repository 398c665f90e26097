"""The one observer: who is looking, and what of a match's events or a tournament's log they see.

The rule is declared once, in the engine. ``matches.engine.events.SHOWN_TO`` says who may see each
kind of match event: everyone, its side's owner, or nobody. ``UNSEEN_FIELDS`` lists the fields of a
public kind nobody sees. ``observe`` (the engine's, re-exported here) applies it to one event.
Everything else is derived from it or from the same declaration:

- ``Viewer`` is the one type a viewer travels as (REST, GraphQL, the stream, the selectors). It is a
  seat of the tournament (its id and number) or a spectator. ``side_in`` is the side it plays in a
  match. ``reaches`` says whether a row of the tournament's log is its to see. A row's ``audience``
  is a seat number, or ``None`` for everyone. ``sees_fans`` says whether a trophy's fans are; the
  tournament view and standings ask it. A match event is logged for the audience ``observe`` gives
  it when the match is recorded (``tournaments.services.matchplay``).
- ``visible_filter`` is ``observe``'s yes/no as a SQL condition, generated from ``SHOWN_TO``. It
  counts released events per viewer without reading them. A test holds the two equal.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.db.models import Q

from matches.engine.events import EVERYONE, OWNER, SHOWN_TO, Side, observe

if TYPE_CHECKING:
    from matches.models import Match

__all__ = ["SPECTATOR", "VIEWS", "Viewer", "observe", "seen", "visible_filter"]

VIEWS: tuple[tuple[str, Side | None], ...] = (("public", None), ("A", "A"), ("B", "B"))
"""The viewer classes of a match and the side each sees as: spectators, then each side."""


@dataclass(frozen=True, slots=True)
class Viewer:
    """Who is looking at a tournament: one of its seats, or a spectator.

    A seat has its id and number; a spectator has both ``None``. Resolved once per request
    (``tournaments.selectors.viewers.viewer_in``)."""

    seat_id: int | None = None
    number: int | None = None

    def side_in(self, match: Match) -> Side | None:
        """The side this viewer plays in ``match``, if any."""
        if self.seat_id is None:
            return None
        if self.seat_id == match.seat_a_id:
            return "A"
        if self.seat_id == match.seat_b_id:
            return "B"
        return None

    def reaches(self, audience: int | None) -> bool:
        """Whether a row of the tournament's log is this viewer's to see.

        ``audience`` is the row's seat number; ``None`` is everyone."""
        return audience is None or audience == self.number

    def sees_fans(self, *, owner_seat_id: int | None, secret: bool) -> bool:
        """Whether the fans on a trophy of seat ``owner_seat_id`` are this viewer's to see.

        Everyone sees them once they are no longer ``secret`` (``rules.standings.fans_secret``).
        Until then only the owner does."""
        return not secret or (self.seat_id is not None and owner_seat_id == self.seat_id)

    @property
    def key(self) -> str:
        """A cache key part naming the viewer."""
        return "spectator" if self.seat_id is None else f"seat{self.seat_id}"


SPECTATOR = Viewer()


def seen(match: Match, payload: dict[str, object], viewer: Viewer) -> dict[str, object] | None:
    """One of ``match``'s events as ``viewer`` sees it, or ``None``.

    ``observe`` shows it for the viewer's side."""
    return observe(payload, viewer.side_in(match))


def visible_filter(side: Side | None, prefix: str = "") -> Q:
    """``observe(event, side) is not None`` as a condition on ``MatchEvent`` rows.

    Generated from ``SHOWN_TO``. ``prefix`` is the path to the rows, e.g. ``"events__"``."""
    public = sorted(kind for kind, who in SHOWN_TO.items() if who == EVERYONE)
    owned = sorted(kind for kind, who in SHOWN_TO.items() if who == OWNER)
    condition = Q(**{f"{prefix}kind__in": public})
    if side is not None:
        condition |= Q(**{f"{prefix}kind__in": owned, f"{prefix}payload__side": side})
    return condition
