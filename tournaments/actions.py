"""Every tournament and match action, declared once (``apikit.actions``).

REST's views (``tournaments.api``) and GraphQL's mutations (``tournaments.graphql.mutations``) are
made from these declarations. So both validate the same input and call the same service. Both refuse
alike.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.utils.translation import gettext as _
from rest_framework import serializers, status

from apikit.actions import Action, Call, Ident, declare, result
from apikit.openapi import Operation
from infra.throttling import ActionThrottle, CreateThrottle, JoinThrottle
from matches.observer import SPECTATOR, Viewer
from matches.selectors import match_by_id, match_view
from matches.shapes import MatchView
from tournaments import inputs
from tournaments.callers import actor_of
from tournaments.enums import BotLevel
from tournaments.selectors.tournaments import tournament_view_of
from tournaments.selectors.viewers import Organizer, SeatRow, viewer_in
from tournaments.services import deck, lobby, start
from tournaments.services.matchplay import match_answer
from tournaments.shapes import Ticket, TournamentView

TOURNAMENT = Ident(
    "tournament_id", int, "The tournament's id.", nodes=("TournamentView", "TournamentListItem")
)
MATCH = Ident("match_id", int, "The match's id.", nodes=("MatchView",))

# Refusals several operations share (their ``Operation.codes``).
SEAT = ["seat_required", "wrong_tournament"]
HOST = [*SEAT, "host_only"]
DECK_CODES = [
    "stale",
    "wrong_phase",
    "not_drafting",
    "already_finished",
    "no_choice",
    "already_chosen",
    "already_drawn",
    "bad_option",
    "choose_first",
    "draw_first",
    "nothing_to_redraw",
    "redraw_used",
    "no_picks_left",
    "not_in_display",
    "obligation_pending",
    "picks_first",
    "picks_left",
    "no_cards",
    "duplicate_card",
    "not_in_deck",
    "nothing_pending",
    "required",
    "wrong_count",
    "not_eligible",
    "not_offered",
    "seat_dropped",
]
CREATE_400 = [
    "five_sets",
    "bad_seat_count",
    "bad_basic_set",
    "unknown_set",
    "set_incomplete",
    "bad_winter_mode",
    "bad_difficulty",
]
ANSWER_400 = ["bad_kind", "not_offered", "duplicate", "too_few", "too_many", "not_a_permutation"]


def actor(call: Call) -> SeatRow | Organizer | None:
    """The calling seat or organizer; ``None`` for a spectator.

    An unknown token is ``bad_token``. The actor is looked up once per call: the action and its
    view share it.
    """
    if "actor" not in call.memo:
        call.memo["actor"] = actor_of(call.authorization)
    return call.memo["actor"]


def seat(call: Call) -> SeatRow | None:
    """The calling seat (an organizer reads as a spectator)."""
    found = actor(call)
    return None if isinstance(found, Organizer) else found


def viewed(call: Call) -> TournamentView:
    """The tournament as the caller sees it after the action.

    The view reads the seat's new ``version`` itself. The viewer names the seat only.
    """
    tournament_id = call.data["tournament_id"]
    return tournament_view_of(
        tournament_id=tournament_id, viewer=viewer_in(seat(call), tournament_id)
    )


def ticket(made: lobby.SeatTicket) -> Ticket:
    return Ticket.of(made.tournament.pk, made.tournament.code, made.seat.number, made.token)


TOURNAMENT_ANSWER = result("tournament", TournamentView, "The tournament as you see it.")
TICKET_ANSWER = result("ticket", Ticket, "Your ticket (keep the token).")
# The options a kind of action shares, named once: an action on a tournament names it in its
# path and is throttled as an action; one that issues a seat or a token answers 201.
ON_TOURNAMENT: dict[str, Any] = {"path": (TOURNAMENT,), "throttle": ActionThrottle}
ISSUED: dict[str, Any] = {"status": status.HTTP_201_CREATED}


def acting(
    name: str,
    description: str,
    act: Callable[[Call], object],
    body: type[serializers.Serializer] | None = None,
    **options: object,
) -> Action:
    """A tournament action answering with the caller's view of it."""

    def run(call: Call) -> TournamentView:
        act(call)
        return viewed(call)

    return declare(name, description, run, TOURNAMENT_ANSWER, body=body, **ON_TOURNAMENT, **options)


def _create(call: Call) -> Ticket:
    data = call.data
    options = inputs.create_options(data)
    by = actor(call)
    if isinstance(by, Organizer):  # an organizer takes no seat: every seat is open
        opened = lobby.tournament_organize(organizer=by, **options)
        return Ticket.of(opened.pk, opened.code, None, None)
    if not data.get("name"):
        raise serializers.ValidationError({"name": [_("This field is required.")]})
    return ticket(lobby.tournament_create(host_name=data["name"], **options))


CREATE = declare(
    "create_tournament",
    "Open a tournament: you take seat 0 as its host (an organizer takes none).",
    _create,
    TICKET_ANSWER,
    body=inputs.CreateInput,
    throttle=CreateThrottle,
    **ISSUED,
    operation=Operation(
        "Create a tournament",
        "Creates a tournament in its lobby and seats the caller as its host (seat 0). The "
        "ticket holds the room code to share and the host's seat token, shown once.",
        {400: [*CREATE_400, "bad_title"], 409: ["no_room_code"]},
    ),
)
JOIN = declare(
    "join_tournament",
    "Take the lowest open seat of a lobby by its room code.",
    lambda call: ticket(lobby.seat_join(code=call.data["code"], name=call.data["name"])),
    TICKET_ANSWER,
    body=inputs.JoinInput,
    throttle=JoinThrottle,
    **ISSUED,
    operation=Operation(
        "Join a tournament by its room code",
        "Takes the lowest free seat of the lobby with that room code (read case-insensitively). "
        "The ticket holds the new seat's token, shown once.",
        {404: ["unknown_code"], 409: ["not_in_lobby", "name_taken", "tournament_full"]},
    ),
)
ADD_BOTS = acting(
    "add_bots",
    "The host (or organizer) fills free seats with bots.",
    lambda call: lobby.seat_add_bots(
        tournament_id=call.data["tournament_id"],
        seat=actor(call),
        count=call.data["count"],
        level=call.data["level"],
    ),
    inputs.BotsInput,
    enums={"level": BotLevel},
    operation=Operation(
        "Add bots (host, lobby)",
        "Fills `count` free seats with bots of `level` (`rookie`, `steady` or `champion`).",
        {
            400: ["bad_bot_level"],
            403: HOST,
            409: ["not_in_lobby", "bad_bot_count", "bots_not_allowed"],
        },
    ),
)
START = acting(
    "start_tournament",
    "The host (or organizer) starts a full lobby.",
    lambda call: start.tournament_start(tournament_id=call.data["tournament_id"], seat=actor(call)),
    operation=Operation(
        "Start the tournament (host, lobby)",
        "Deals the cards, computes the plan and opens the first Deck Phase; every seat must be "
        "taken.",
        {403: HOST, 409: ["not_in_lobby", "seats_open"]},
    ),
)
RECLAIM = acting(
    "reclaim_seat",
    "Take back your dropped seat (played by a bot since you left or missed two deadlines in a "
    "row).",
    lambda call: lobby.seat_reclaim(tournament_id=call.data["tournament_id"], seat=seat(call)),
    operation=Operation(
        "Reclaim your seat from its bot",
        "The owner of a seat left to a bot plays it again (the same token).",
        {403: SEAT, 409: ["wrong_phase", "not_dropped"]},
    ),
)


def _leave(call: Call) -> TournamentView:
    lobby.seat_leave(tournament_id=call.data["tournament_id"], seat=seat(call))
    return tournament_view_of(tournament_id=call.data["tournament_id"], viewer=SPECTATOR)


LEAVE = declare(
    "leave_tournament",
    "Leave a lobby (not the host): your token stops working. In a running "
    "tournament your seat is dropped to a bot until you reclaim it.",
    _leave,
    TOURNAMENT_ANSWER,
    **ON_TOURNAMENT,
    operation=Operation(
        "Leave the tournament",
        "In the lobby, frees the caller's seat; once it runs, a bot plays the seat until its "
        "owner reclaims it. The host cancels instead.",
        {
            403: [*SEAT, "not_your_seat"],
            409: ["not_in_lobby", "host_cannot_leave", "already_dropped"],
        },
    ),
)
KICK = acting(
    "kick_seat",
    "The host removes a seat (a player or a bot) from a lobby.",
    lambda call: lobby.seat_kick(
        tournament_id=call.data["tournament_id"], seat=actor(call), number=call.data["seat"]
    ),
    inputs.KickInput,
    operation=Operation(
        "Kick a seat (host, lobby)",
        "Frees another seat of the lobby.",
        {403: HOST, 404: ["no_such_seat"], 409: ["not_in_lobby", "cannot_kick_host"]},
    ),
)
CANCEL = acting(
    "cancel_tournament",
    "The host (or organizer) cancels the tournament, in the lobby or while it runs.",
    lambda call: lobby.tournament_cancel(
        tournament_id=call.data["tournament_id"], seat=actor(call)
    ),
    operation=Operation(
        "Cancel the tournament (host)",
        "Ends the tournament with no winner.",
        {403: HOST, 409: ["already_over"]},
    ),
)
RENAME = acting(
    "rename_tournament",
    'The host (or organizer) names the tournament anew, at any time ("": unnamed).',
    lambda call: lobby.tournament_rename(
        tournament_id=call.data["tournament_id"], seat=actor(call), title=call.data["title"]
    ),
    inputs.RenameInput,
    method="patch",
    operation=Operation(
        "Name the tournament (host or organizer)",
        'Its `title` (at most 60 characters, whitespace collapsed; `""`: unnamed, shown as '
        '"Game #<id>"), at any time; a `tournament_renamed` event tells everyone.',
        {400: ["bad_title"], 403: HOST},
    ),
)
SETTINGS = acting(
    "seat_settings",
    "Your seat's settings: answer your cards' questions live.",
    lambda call: lobby.seat_settings(
        tournament_id=call.data["tournament_id"],
        seat=seat(call),
        answers_live=call.data["answers_live"],
    ),
    inputs.SeatSettingsInput,
    method="patch",
    operation=Operation(
        "Change your seat's settings",
        "`answers_live`: whether the matches stop at your cards' questions until you answer.",
        {403: [*SEAT, "not_your_seat"], 409: ["wrong_phase"]},
    ),
)


def deck_action(
    action: str, description: str, body: type[serializers.Serializer], summary: str, rest: str
) -> Action:
    """A Deck Phase action.

    Its body's fields (but ``version``) are the service's arguments. ``summary`` and ``rest``
    (REST's description) document its operation.
    """

    def act(call: Call) -> None:
        data = dict(call.data)
        tournament_id, version = data.pop("tournament_id"), data.pop("version", None)
        deck.seat_act(
            tournament_id=tournament_id,
            seat=seat(call),
            action=action,
            expected_version=version,
            **data,
        )

    documented = Operation(
        summary,
        rest + " Answers the updated tournament view (docs/protocol.md §7).",
        {403: [*SEAT, "not_your_seat"], 409: DECK_CODES},
    )
    return acting(action, description, act, body, operation=documented)


# Each Deck Phase action and its REST route under the tournament.
DECK = {
    "draft/choose": deck_action(
        "choose",
        "Deck Phase: choose the round's draft option (its index).",
        inputs.ChooseInput,
        "Choose a draft option",
        "Deck Phase action `choose`.",
    ),
    "draft/draw": deck_action(
        "draw",
        "Deck Phase: draw your display.",
        inputs.VersionedInput,
        "Draw your display",
        "Deck Phase action `draw`.",
    ),
    "draft/redraw": deck_action(
        "redraw",
        "Deck Phase: redraw your display (once per Deck Phase).",
        inputs.VersionedInput,
        "Redraw your display",
        "Deck Phase action `redraw` (once per Deck Phase).",
    ),
    "draft/pick": deck_action(
        "pick",
        "Deck Phase: pick a card of your display (its uid).",
        inputs.PickInput,
        "Pick a display card",
        "Deck Phase action `pick`.",
    ),
    "draft/resolve": deck_action(
        "resolve",
        "Deck Phase: resolve the picked card's pending effect.",
        inputs.CardsInput,
        "Answer a When picked effect",
        "Deck Phase action `resolve` (`you.turn.pending`).",
    ),
    "deck/remove": deck_action(
        "remove",
        "Deck Phase: remove cards from your deck.",
        inputs.CardsInput,
        "Remove cards from your deck",
        "Deck Phase action `remove`.",
    ),
    "deck/finish": deck_action(
        "finish",
        "Deck Phase: finish your Deck Phase.",
        inputs.VersionedInput,
        "Finish your Deck Phase",
        "Deck Phase action `finish`.",
    ),
}


def _answer(call: Call) -> MatchView:
    data = call.data
    match_answer(
        match_id=data["match_id"],
        seat=seat(call),
        question=data["question"],
        answer=data["answer"],
    )
    match = match_by_id(data["match_id"])
    return match_view(match, _viewer(call, match.tournament_id))


def _viewer(call: Call, tournament_id: int) -> Viewer:
    """The caller viewing ``tournament_id``; seated elsewhere, a spectator."""
    return viewer_in(seat(call), tournament_id)


ANSWER = declare(
    "answer",
    "Answer your match's pending question.",
    _answer,
    result("match", MatchView, "The match as you see it."),
    body=inputs.AnswerInput,
    path=(MATCH,),
    throttle=ActionThrottle,
    operation=Operation(
        "Answer your pending question",
        "A list of options from the question's `options` (docs/protocol.md §11); the match runs "
        "on at once and the updated match view is returned.",
        {
            400: ANSWER_400,
            403: ["not_your_question"],
            409: ["no_question", "stale_question"],
        },
    ),
)

ACTIONS = (
    CREATE,
    JOIN,
    ADD_BOTS,
    START,
    RECLAIM,
    LEAVE,
    KICK,
    CANCEL,
    RENAME,
    SETTINGS,
    *DECK.values(),
    ANSWER,
)
