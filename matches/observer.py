"""The one observer: who is looking, and what of a match's events or a tournament's log they see.

The rule is declared once, in the engine: ``matches.engine.events.SHOWN_TO`` says who may see
each kind of match event (everyone, its side's owner, nobody) and ``UNSEEN_FIELDS`` which
fields of a public kind nobody sees. ``observe`` (the engine's, re-exported here) applies it to
one event; everything else is derived from it or from the same declaration:

- ``Viewer`` is the one type a viewer travels as (REST, GraphQL, the stream, the selectors): a
  seat of the tournament (its id and number) or a spectator. ``side_in`` is the side it plays
  in a match; ``reaches`` says whether a row of the tournament's log (its ``audience``: a seat
  number, ``None`` for everyone) is its to see, ``sees_fans`` whether a trophy's fans are (the
  tournament view and standings ask it); a match event is logged for the audience
  ``observe`` gives it when the match is recorded (``tournaments.services.matchplay``).
- ``visible_filter`` is ``observe``'s yes/no as a SQL condition, generated from ``SHOWN_TO``
  (counting released events per viewer without reading them); a test holds the two equal.
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
    """Who is looking at a tournament: one of its seats (its id and number), or a spectator
    (both ``None``). Resolved once per request (``tournaments.selectors.viewers.viewer_in``)."""

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
        """Whether a row of the tournament's log with ``audience`` (a seat number; ``None``:
        everyone) is this viewer's to see."""
        return audience is None or audience == self.number

    def sees_fans(self, *, owner_seat_id: int | None, secret: bool) -> bool:
        """Whether the fans on a trophy won by the seat ``owner_seat_id`` are this viewer's to
        see: everyone's once they are no longer ``secret`` (``rules.standings.fans_secret``),
        until then only the owner's."""
        return not secret or (self.seat_id is not None and owner_seat_id == self.seat_id)

    @property
    def key(self) -> str:
        """A cache key part naming the viewer."""
        return "spectator" if self.seat_id is None else f"seat{self.seat_id}"


SPECTATOR = Viewer()


def seen(match: Match, payload: dict[str, object], viewer: Viewer) -> dict[str, object] | None:
    """One of ``match``'s events as ``viewer`` sees it (``observe`` for its side), or ``None``."""
    return observe(payload, viewer.side_in(match))


def visible_filter(side: Side | None, prefix: str = "") -> Q:
    """``observe(event, side) is not None`` as a condition on ``MatchEvent`` rows (``prefix``:
    the path to them, e.g. ``"events__"``), generated from ``SHOWN_TO``."""
    public = sorted(kind for kind, who in SHOWN_TO.items() if who == EVERYONE)
    owned = sorted(kind for kind, who in SHOWN_TO.items() if who == OWNER)
    condition = Q(**{f"{prefix}kind__in": public})
    if side is not None:
        condition |= Q(**{f"{prefix}kind__in": owned, f"{prefix}payload__side": side})
    return condition
