"""A tournament's record, declared once (``apikit.shapes``).

It holds its log's events as a viewer reads them. It also holds a finished tournament's checks and
its replay document. The selectors and ``services.fairness`` return these. REST renders them
(``to_json``). The OpenAPI schema and GraphQL types are made from them. Field order is REST's key
order.

An event's envelope is the shape. Its ``payload`` is per kind, each declared once
(``tournaments.log_events``). Every schema types it from there (``TOURNAMENT_EVENTS``). The live
stream sends the same envelope as JSON text, with ``"type": "event"`` in front
(``selectors.events.event_text``). That text is built without a shape, as every socket gets it.
"""

from __future__ import annotations

from typing import Any

from apikit.events import EventKinds, declare_events
from apikit.shapes import BigInt, Shape, field, shape
from matches import shapes as _match_shapes  # noqa: F401  # declares the events ours hold
from matches.enums import HIDDEN
from tournaments.enums import TournamentEventKind
from tournaments.log_events import PAYLOADS


@shape("A tournament event as you may see it.")
class TournamentEventView(Shape):
    seq: int = field("1, 2, 3, … with no gap.")
    kind: str = field("The kind, or `hidden` for one you may not see.", enum=TournamentEventKind)
    payload: dict[str, Any] | None = field("Per kind (docs/protocol.md); null for a hidden one.")


TOURNAMENT_EVENTS = declare_events(
    EventKinds(
        name="TournamentEventView",
        shape=TournamentEventView,
        kinds={**PAYLOADS, HIDDEN: None},
        variant="LogEvent",
        payload="Payload",
        description="A tournament event as you may see it, by its kind (docs/protocol.md §13).",
    )
)
"""The log's events typed, each kind's payload declared in ``tournaments.log_events``."""


@shape("One match of a finished tournament, checked.")
class MatchCheck(Shape):
    match: int = field("The match's id.")
    seed: bool = field("Its seed is the one derived from the revealed seed.")
    events: bool = field("Replaying it gives exactly the stored events.")
    rules_version: int = field("The rules version it was played and is replayed by.")


@shape("What was checked of a finished tournament.")
class VerifyChecks(Shape):
    commitment: bool = field("SHA-256 of '<seed>:<nonce>' is the commitment.")
    trophies: bool = field("The trophy stacks were dealt from the seed.")
    matches: bool = field("Every match passed both of its checks.")


@shape("A finished tournament checked against its revealed seed.")
class Verification(Shape):
    ok: bool = field("Every check holds.")
    checks: VerifyChecks = field("Each check.")
    seed: BigInt = field("The revealed seed, a decimal string (63 bits).")
    nonce: str = field("The commitment's nonce.")
    commitment: str = field("SHA-256 (hex) of '<seed>:<nonce>', published at the start.")
    matches: list[MatchCheck] = field("Each match, in play order.")


@shape("The frozen card data a tournament was played with.")
class ReplayCards(Shape):
    entries: Any = field("Every card design of the frozen card data.")
    all_sets: list[str] = field("Every set of the frozen card data.")


@shape("One match of a finished tournament: what re-plays it.")
class ReplayMatch(Shape):
    id: int = field("The match's id.")
    round: int = field("Round 1-7, 8 = the Final.")
    park: str = field("The park.")
    status: str = field("Its stored status.")
    seats: dict[str, int] = field('The seat number of each side: {"A": n, "B": m}.')
    seed: str = field("The match's seed, a decimal string (63 bits).")
    setup: dict[str, Any] = field(
        "The engine's input: both decks in order and the match's share of each pile "
        "(`[uid, key]` pairs, top first), round, park, first side, trophies, fans, flags."
    )
    answers: Any = field("Every answer given to a card question, in order.")
    events: list[dict[str, Any]] = field("Every event the match recorded, shuffles included.")
    rules_version: int = field("The rules version it was played and is replayed by.")


@shape("One seat's Deck Phase of a finished tournament: every action it took.")
class ReplayDeckPhase(Shape):
    round: int = field("Round 1-7, 8 = the Final's (removal only).")
    seat: int = field("The seat's number.")
    moves: list[Any] = field(
        "Every action, in order, as `[name, arguments]` (`choose`, `draw`, `redraw`, `pick`, "
        "`resolve`, `remove`, `finish`; the arguments as the action's body took them). The "
        "log's `seat_progress` events say in which order the seats' actions came."
    )


@shape("Everything needed to re-play a finished tournament (the verifier, docs/protocol.md §15).")
class Replay(Shape):
    tournament: int = field("The tournament's id.")
    seed: str = field("The revealed seed, a decimal string (63 bits).")
    nonce: str = field("The commitment's nonce.")
    commitment: str = field("SHA-256 of '<seed>:<nonce>', shown from start.")
    cards: ReplayCards = field("The frozen card data.")
    matches: list[ReplayMatch] = field("Every match, in play order.")
    deck_phases: list[ReplayDeckPhase] = field(
        "Every seat's Deck Phase, by round then seat (empty for a tournament started before "
        "2026-12: its actions were not kept)."
    )
