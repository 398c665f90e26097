"""The payload of each kind of the tournament's log, declared once (``apikit.events``).

``publish`` writes these. The services (``tournaments.services``) name a ``TypedDict`` per kind
where they build it. OpenAPI's and AsyncAPI's event unions are made from them. So are GraphQL's
event types (``tournaments.log_shapes.TOURNAMENT_EVENTS``).
``tests/tournaments/test_event_payloads.py`` checks played tournaments' payloads against them.
docs/protocol.md §13 says when each is sent and to whom.
"""

# No ``from __future__ import annotations``: ``TypedDict`` reads ``NotRequired`` from evaluated
# annotations only.
import typing
from typing import Annotated, Any, Literal, NotRequired, TypedDict

from apikit.enums import enum_of
from apikit.events import About
from apikit.shapes import BigInt
from matches.engine.events import Event, Side, Uid
from tournaments.shapes import Pairing, StandingView

SEAT = About("A seat number.")
MATCH = About("The match's id.")
PARK = About("The park.")
DEADLINE = About("An ISO 8601 date-time, or null for none.")


class SeatJoined(TypedDict):
    """A player joins, or the host adds a bot (the host's own seat is not announced)."""

    seat: Annotated[int, SEAT]
    name: str
    kind: Annotated[Literal["human", "bot"], About("A person or a bot.", "seat_kind")]
    bot_level: NotRequired[Annotated[str, About("A bot's level.")]]


class SeatLeft(TypedDict):
    """A seat left the lobby, was kicked, or (a league's start) went to a bot."""

    seat: Annotated[int, SEAT]
    reason: Literal["left", "kicked", "no_show"]


class SeatDropped(TypedDict):
    """A steady bot plays this person's seat from now on."""

    seat: Annotated[int, SEAT]
    reason: Literal["left", "missed_deadlines"]


class SeatReclaimed(TypedDict):
    """The owner of a dropped seat took it back."""

    seat: Annotated[int, SEAT]


class SeatSettings(TypedDict):
    """The seat changed its setting (to that seat only)."""

    seat: Annotated[int, SEAT]
    answers_live: bool


class TournamentStarted(TypedDict):
    """The host started."""

    parks: Annotated[list[str], About("The parks' names.")]
    plan: Annotated[list[list[Pairing]], About("Per round 1-7: who meets whom where.")]


class TournamentCancelled(TypedDict):
    """The host, or staff in the admin, cancelled the tournament."""

    round: Annotated[int, About("The round it was in; 0 in the lobby.")]
    reason: Annotated[str | None, About("Staff's words; null when the host cancelled.")]


class DeckPhaseOpened(TypedDict):
    """A Deck Phase opens."""

    round: Annotated[int, About("The round (8 before the Final).")]
    deadline: Annotated[str | None, DEADLINE]
    winter_index: Annotated[int, About("The normal Winter Park's position in `parks`.")]


class SeatProgress(TypedDict):
    """A seat (or a bot, or the deadline) took a Deck Phase action; what it saw is not told."""

    seat: Annotated[int, SEAT]
    did: Literal["chose", "drew", "redrew", "picked", "removed", "finished"]


class PhaseMatch(TypedDict):
    """A match of the Match Phase that opened."""

    id: Annotated[int, MATCH]
    park: Annotated[str, PARK]
    kind: Literal["normal", "winter"]
    seats: Annotated[list[int], About("Its two seats: the first plays side A.")]


class MatchPhaseOpened(TypedDict):
    """The last seat finished: one match per park is created."""

    round: int
    matches: list[PhaseMatch]


class AskedQuestion(TypedDict):
    """A match's question as §11 states it, without its deadline."""

    seq: Annotated[int, About("Send it back with your answer.")]
    side: Side
    kind: Annotated[str, About("The question's kind (docs/protocol.md §11).")]
    card: Uid
    card_key: str | None
    options: list[Any]
    min: int
    max: int
    prompt: str
    option_keys: list[str]
    default: list[Any]
    option_seats: list[int | None]


class MatchQuestion(TypedDict):
    """A match stops at a live seat's question (to that seat only)."""

    match: Annotated[int, MATCH]
    question: AskedQuestion


class MatchWaiting(TypedDict):
    """A match waits for a seat's answer until its deadline."""

    match: Annotated[int, MATCH]
    seat: Annotated[int, About("The seat being waited for.")]
    deadline: Annotated[str, About("When its suggested answer is taken (ISO 8601).")]


class MatchEventLogged(TypedDict):
    """A played match's event, at its release instant."""

    match: Annotated[int, MATCH]
    event: Annotated[Event, About("The match's event (docs/protocol.md §10).")]


class MatchFinished(TypedDict):
    """The match is released: its result applies."""

    match: Annotated[int, MATCH]
    park: Annotated[str, PARK]
    winner: Annotated[int, About("The winner's seat.")]
    reason: Annotated[str, About("Why the match ended (a match `end`'s reason).")]


class MatchFailed(TypedDict):
    """The match could not be played; the tournament waits for an operator."""

    match: Annotated[int, MATCH]
    park: Annotated[str, PARK]
    code: Literal["match_failed"]
    message: str


class MatchRetried(TypedDict):
    """An operator queued a failed match again."""

    match: Annotated[int, MATCH]
    park: Annotated[str, PARK]


class RoundFinished(TypedDict):
    """The round's last match is released (after the Final too, with round 8)."""

    round: int
    standings: Annotated[list[StandingView], About("As a spectator sees them.")]


class SeedRevealed(TypedDict):
    """The end: the seed and nonce that open the commitment (docs/protocol.md §15)."""

    seed: Annotated[BigInt, About("The seed, a decimal string (63 bits).")]
    nonce: str
    commitment: str


class KeptTrophy(TypedDict):
    """A trophy kept at the end."""

    park: Annotated[str, PARK]
    round: int
    fans: int
    seat: Annotated[int, About("Its winner's seat.")]


class TournamentFinished(TypedDict):
    """The tournament ends."""

    winners: Annotated[list[int], About("Their seats.")]
    reason: Literal["final", "lead", "most_fans"]
    trophies: list[KeptTrophy]


class Chat(TypedDict):
    """A seat (or an admitted spectator) said something at the table."""

    seat: Annotated[int | None, About("The seat; null for a spectator.")]
    spectator: NotRequired[Annotated[int, About("A spectator's chat number.")]]
    name: str
    text: Annotated[str, About("Plain text: never rendered as HTML.")]
    line: NotRequired[
        Annotated[Literal["greeting", "farewell"], About("A bot's line, for your own words.")]
    ]


class ChatMute(TypedDict):
    """The host muted or unmuted a seat, or a spectator, in the chat."""

    seat: NotRequired[Annotated[int, SEAT]]
    spectator: NotRequired[Annotated[int, About("A spectator's chat number.")]]
    muted: bool


class ChatSettings(TypedDict):
    """The host let spectators chat, or stopped them."""

    spectator_chat: bool


class TournamentRenamed(TypedDict):
    """The host or organizer named the tournament anew."""

    title: Annotated[str, About('Its title; empty: unnamed ("Game #<id>").')]


PAYLOADS: dict[str, type] = {
    "seat_joined": SeatJoined,
    "seat_left": SeatLeft,
    "seat_dropped": SeatDropped,
    "seat_reclaimed": SeatReclaimed,
    "seat_settings": SeatSettings,
    "tournament_started": TournamentStarted,
    "tournament_cancelled": TournamentCancelled,
    "deck_phase_opened": DeckPhaseOpened,
    "seat_progress": SeatProgress,
    "match_phase_opened": MatchPhaseOpened,
    "match_question": MatchQuestion,
    "match_waiting": MatchWaiting,
    "match_event": MatchEventLogged,
    "match_finished": MatchFinished,
    "match_failed": MatchFailed,
    "match_retried": MatchRetried,
    "round_finished": RoundFinished,
    "seed_revealed": SeedRevealed,
    "tournament_finished": TournamentFinished,
    "chat": Chat,
    "chat_mute": ChatMute,
    "chat_settings": ChatSettings,
    "tournament_renamed": TournamentRenamed,
}
"""Every kind of the log (``tournaments.models.LOG_KINDS``, in its order) and its payload."""


def _said(payload: type, key: str) -> list[str]:
    """The values a payload's ``Literal`` ``key`` takes, as the payload declares them."""
    return list(typing.get_args(typing.get_type_hints(payload)[key]))


# The log's closed sets of words, as enums (``apikit.events`` types a ``Literal`` by the enum of
# its values; the stream's frames keep the words).
SeatLeftReason = enum_of(
    "SeatLeftReason", _said(SeatLeft, "reason"), "It left, was kicked, or went to a bot (no-show)."
)
SeatDroppedReason = enum_of(
    "SeatDroppedReason", _said(SeatDropped, "reason"), "It left, or missed two deadlines."
)
DeckStep = enum_of("DeckStep", _said(SeatProgress, "did"), "A Deck Phase action taken.")
FinishReason = enum_of(
    "FinishReason", _said(TournamentFinished, "reason"), "The Final, an unbeatable lead, or fans."
)
# The leagues' ``LeagueMemberKind`` holds the same words and, declared later, types it when the
# leagues are installed (one enum per set of words).
JoinedKind = enum_of("JoinedKind", _said(SeatJoined, "kind"), "A person or a bot.")
BotLine = enum_of("BotLine", _said(Chat, "line"), "A bot's chat line.")
