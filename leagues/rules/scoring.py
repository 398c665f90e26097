"""The pure rules of a league.

They cover the scoring table, placements, the tie-break vector and the season's options. No Django
here. Services give plain values and store what comes back.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from typing import TypedDict, TypeGuard


class ScoringTable(TypedDict):
    """A season's scoring table, as ``check_scoring`` keeps it."""

    champion: int
    finalist: int
    by_fans_rank: list[int]
    played: int


# Points for a placement: the champion, the other finalist, then the rest by their fans rank
# (``by_fans_rank[0]`` for the best of them), and ``played`` to everyone who finished.
DEFAULT_SCORING: ScoringTable = {
    "champion": 10,
    "finalist": 6,
    "by_fans_rank": [4, 3, 2, 1],
    "played": 1,
}

# The order that decides the standings; bigger is better except for ``played`` (fewer
# tournaments for the same totals ranks higher). Rows equal on all of it share a rank.
TIEBREAK: tuple[str, ...] = ("points", "wins", "finals", "fans", "played")
FEWER_IS_BETTER = frozenset({"played"})

# The options every tournament of a season must use (the tournament's own field names).
SEASON_OPTIONS = ("basic_set", "additional_sets", "beach_cup", "winter_mode", "robot_difficulty")


def gettext_noop(message: str) -> str:
    """Mark ``message`` for the gettext catalogues and return it unchanged.

    ``makemessages`` reads the name. The rules import nothing of Django. The services translate
    where they refuse.
    """
    return message


class LeagueRuleError(Exception):
    """A league rule refused.

    ``message`` is the English text, marked with ``gettext_noop``. The services translate it where
    the refusal becomes an ``ApplicationError``.
    """

    def __init__(
        self, code: str, message: str, details: Mapping[str, object] | None = None
    ) -> None:
        super().__init__(message)
        self.code, self.message, self.details = code, message, dict(details or {})


def check_scoring(table: Mapping[str, object] | None) -> ScoringTable:
    """The scoring table with the defaults filled in.

    ``bad_scoring`` if a key is unknown or a value is not an integer. ``by_fans_rank`` must be a
    list of integers.
    """
    merged: dict[str, object] = {**DEFAULT_SCORING, **(table or {})}
    unknown = sorted(set(merged) - set(DEFAULT_SCORING))
    ranks = merged["by_fans_rank"]
    champion, finalist, played = (merged[key] for key in ("champion", "finalist", "played"))
    if (
        unknown
        or not isinstance(ranks, list)
        or not all(_is_int(v) for v in ranks)
        or not (_is_int(champion) and _is_int(finalist) and _is_int(played))
    ):
        raise LeagueRuleError(
            "bad_scoring",
            gettext_noop(
                "A scoring table holds integers: champion, finalist, played and a by_fans_rank "
                "list."
            ),
            {"unknown": unknown},
        )
    return ScoringTable(champion=champion, finalist=finalist, by_fans_rank=ranks, played=played)


def _is_int(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool) and -1000 <= value <= 1000


@dataclass(frozen=True, slots=True)
class Finisher:
    """One scoring seat at a tournament's end. ``key`` names it: a member id."""

    key: int
    fans: int
    trophies: int = 0
    highest_round: int = 0
    champion: bool = False
    finalist: bool = False

    def order_key(self) -> tuple[int, ...]:
        """Bigger is better: champion, finalist, then the tournament's own fans ranking."""
        return (self.champion, self.finalist, self.fans, self.trophies, self.highest_round)


def has_final(seat_count: int) -> bool:
    """Whether a tournament of ``seat_count`` seats ends with a Final.

    Rules 2.5: 3-8 seats play one. A 1-2 seat game ends after round 7.
    """
    return seat_count >= 3


def played_it(*, dropped: bool, reclaimed_round: int | None, last_round: int) -> bool:
    """Whether a member played its seat to the end, making the seat's result the member's.

    Its bot did not hold the seat at the end. Its owner did not take it back during the last round.
    See docs/leagues.md, *Decision — a seat that changes hands*.
    """
    return not dropped and (reclaimed_round is None or reclaimed_round < last_round)


@dataclass(frozen=True, slots=True)
class Placed:
    key: int
    place: int
    points: int


def placements(finishers: Sequence[Finisher], table: ScoringTable) -> list[Placed]:
    """Each finisher's place and its points. Equal order keys share a place: 1, 2, 2, 4."""
    order = sorted(finishers, key=lambda f: tuple(-v for v in f.order_key()))
    rest = [f for f in order if not (f.champion or f.finalist)]
    placed = []
    for finisher in order:
        first = next(i for i, f in enumerate(order) if f.order_key() == finisher.order_key())
        placed.append(Placed(finisher.key, first + 1, _points(finisher, rest, table)))
    return placed


def _points(finisher: Finisher, rest: Sequence[Finisher], table: ScoringTable) -> int:
    played = table["played"]
    if finisher.champion:
        return played + table["champion"]
    if finisher.finalist:
        return played + table["finalist"]
    better = sum(1 for f in rest if f.order_key() > finisher.order_key())
    by_rank = table["by_fans_rank"]
    return played + (by_rank[better] if better < len(by_rank) else 0)


@dataclass(frozen=True, slots=True)
class Outcome:
    """A member's place in one tournament and what it won. Corrections change these."""

    key: int
    place: int
    points: int
    champion: bool = False
    finalist: bool = False


def corrected(
    outcomes: Sequence[Outcome],
    table: ScoringTable,
    *,
    places: Mapping[int, int] | None = None,
    struck: Collection[int] = (),
    final: bool = True,
) -> list[Outcome]:
    """A tournament's outcomes after its corrections.

    A manual result's ``places`` replace the tournament's own. Place 1 is the champion. Members it
    leaves out are dropped. When the game has a ``final``, places 1 and 2 played it, as in play.

    Then the ``struck`` (disqualified) go, and the places below them close up. Points are the
    scoring table's for the resulting order. A struck champion's title is gone, not handed on.
    """
    entries = list(outcomes)
    if places is not None:
        entries = [
            Outcome(e.key, places[e.key], 0, places[e.key] == 1, final and places[e.key] <= 2)
            for e in entries
            if e.key in places
        ]
    kept = [e for e in entries if e.key not in struck]
    rest = [e for e in kept if not (e.champion or e.finalist)]
    result = [
        Outcome(
            e.key,
            1 + sum(1 for other in kept if other.place < e.place),
            _corrected_points(e, rest, table),
            e.champion,
            e.finalist,
        )
        for e in kept
    ]
    return sorted(result, key=lambda e: (e.place, e.key))


def _corrected_points(entry: Outcome, rest: Sequence[Outcome], table: ScoringTable) -> int:
    played = table["played"]
    if entry.champion:
        return played + table["champion"]
    if entry.finalist:
        return played + table["finalist"]
    better = sum(1 for other in rest if other.place < entry.place)
    by_rank = table["by_fans_rank"]
    return played + (by_rank[better] if better < len(by_rank) else 0)


def check_places(places: Mapping[int, int], members: Collection[int]) -> None:
    """A manual result names every member of the tournament once; else ``bad_manual_result``.

    Places read as a ranking does: 1, 2, 2, 4. A tie shares a place and skips the next.
    """
    ranks = sorted(places.values())
    ranking = all(rank == 1 + ranks.index(rank) for rank in ranks)
    if set(places) != set(members) or not ranking:
        raise LeagueRuleError(
            "bad_manual_result",
            gettext_noop(
                "Give every member of the tournament once, with places 1, 2, … (a tie shares a "
                "place and skips the next)."
            ),
        )


def in_season(day: date, starts_on: date | None, ends_on: date | None) -> bool:
    """Whether ``day`` is one of a season's days.

    Both ends are included. An open end runs on.
    """
    return (starts_on is None or starts_on <= day) and (ends_on is None or day <= ends_on)


def check_season_options(
    required: Mapping[str, object], given: Mapping[str, object]
) -> dict[str, object]:
    """The tournament's options: the season's where none is given.

    ``season_options`` when a given one differs. An unset ``additional_sets`` in the season leaves
    the draw free.
    """
    chosen = dict(given)
    differing = {}
    for name in SEASON_OPTIONS:
        wanted, asked = required.get(name), given.get(name)
        if name == "additional_sets" and wanted is None:
            continue
        if asked is None:
            chosen[name] = wanted
        elif _normal(asked) != _normal(wanted):
            differing[name] = {"season": wanted, "given": asked}
    if differing:
        raise LeagueRuleError(
            "season_options",
            gettext_noop("This season's tournaments use other options."),
            differing,
        )
    return chosen


def _normal(value: object) -> object:
    return sorted(value) if isinstance(value, list | tuple) else value


@dataclass(frozen=True, slots=True)
class Totals:
    key: int
    points: int
    wins: int
    finals: int
    fans: int
    played: int

    def vector(self) -> dict[str, int]:
        return {name: getattr(self, name) for name in TIEBREAK}

    def sort_key(self) -> tuple[int, ...]:
        return tuple(
            getattr(self, name) if name in FEWER_IS_BETTER else -getattr(self, name)
            for name in TIEBREAK
        )


@dataclass(frozen=True, slots=True)
class Ranked:
    """A standings row: its rank, its vector, and the criterion below the row above.

    That criterion is ``None`` for the first row. It is ``"tied"`` when the row shares the rank
    above.
    """

    rank: int
    totals: Totals
    decided_by: str | None


def ranked(rows: Sequence[Totals]) -> list[Ranked]:
    """Rows best first by ``TIEBREAK``. Rows equal on every criterion share a rank, in key order."""
    order = sorted(rows, key=lambda t: (t.sort_key(), t.key))
    result: list[Ranked] = []
    for index, totals in enumerate(order):
        if index == 0:
            result.append(Ranked(1, totals, None))
            continue
        above = result[-1]
        decided = _deciding(above.totals, totals)
        rank = above.rank if decided == "tied" else index + 1
        result.append(Ranked(rank, totals, decided))
    return result


def _deciding(above: Totals, below: Totals) -> str:
    for name in TIEBREAK:
        if getattr(above, name) != getattr(below, name):
            return name
    return "tied"


def bot_handle(name: str, level: str) -> str:
    """A bot member's handle, e.g. ``Bot Cog (steady)``. There is one per name and strength."""
    return f"{name} ({level})"
