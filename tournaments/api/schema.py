"""The tournament and match operations' summaries and refusals, added to the schema by
``apikit.openapi`` (``TournamentsConfig.ready``)."""

from __future__ import annotations

from apikit.openapi import Operation

SEAT = ["seat_required", "wrong_tournament"]
HOST = [*SEAT, "host_only"]
DECK = [
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


def _deck(summary: str, description: str) -> Operation:
    return Operation(
        summary,
        description + " Answers the updated tournament view (docs/protocol.md §7).",
        {403: [*SEAT, "not_your_seat"], 409: DECK},
    )


T = "/api/v1/tournaments/{tournament_id}/"
OPERATIONS: dict[tuple[str, str], Operation] = {
    ("POST", "/api/v1/tournaments/"): Operation(
        "Create a tournament",
        "Creates a tournament in its lobby and seats the caller as its host (seat 0). The "
        "ticket holds the room code to share and the host's seat token, shown once.",
        {400: [*CREATE_400, "bad_title"], 409: ["no_room_code"]},
    ),
    ("GET", "/api/v1/tournaments/"): Operation(
        "List tournaments",
        "Tournaments, newest first, filtered by status; never a room code or a secret.",
    ),
    ("POST", "/api/v1/tournaments/join/"): Operation(
        "Join a tournament by its room code",
        "Takes the lowest free seat of the lobby with that room code (read case-insensitively). "
        "The ticket holds the new seat's token, shown once.",
        {404: ["unknown_code"], 409: ["not_in_lobby", "name_taken", "tournament_full"]},
    ),
    ("GET", T): Operation(
        "Read a tournament",
        "The tournament as the caller may see it: with a seat token, `you` holds the seat's "
        "deck, Deck Phase and `actions`; a spectator gets no room code and no `you`.",
    ),
    ("PATCH", T): Operation(
        "Name the tournament (host or organizer)",
        'Its `title` (at most 60 characters, whitespace collapsed; `""`: unnamed, shown as '
        '"Game #<id>"), at any time; a `tournament_renamed` event tells everyone.',
        {400: ["bad_title"], 403: HOST},
    ),
    ("POST", T + "bots/"): Operation(
        "Add bots (host, lobby)",
        "Fills `count` free seats with bots of `level` (`rookie`, `steady` or `champion`).",
        {
            400: ["bad_bot_level"],
            403: HOST,
            409: ["not_in_lobby", "bad_bot_count", "bots_not_allowed"],
        },
    ),
    ("POST", T + "start/"): Operation(
        "Start the tournament (host, lobby)",
        "Deals the cards, computes the plan and opens the first Deck Phase; every seat must be "
        "taken.",
        {403: HOST, 409: ["not_in_lobby", "seats_open"]},
    ),
    ("PATCH", T + "seat/"): Operation(
        "Change your seat's settings",
        "`answers_live`: whether the matches stop at your cards' questions until you answer.",
        {403: [*SEAT, "not_your_seat"], 409: ["wrong_phase"]},
    ),
    ("POST", T + "leave/"): Operation(
        "Leave the tournament",
        "In the lobby, frees the caller's seat; once it runs, a bot plays the seat until its "
        "owner reclaims it. The host cancels instead.",
        {
            403: [*SEAT, "not_your_seat"],
            409: ["not_in_lobby", "host_cannot_leave", "already_dropped"],
        },
    ),
    ("POST", T + "reclaim/"): Operation(
        "Reclaim your seat from its bot",
        "The owner of a seat left to a bot plays it again (the same token).",
        {403: SEAT, 409: ["wrong_phase", "not_dropped"]},
    ),
    ("GET", T + "advice/"): Operation(
        "Draft advice: each choice's estimated chance to win",
        "For your seat's current options or display, each choice's estimated probability of "
        "winning your next match (`sample_size` practice matches each).",
        {403: [*SEAT, "advice_not_allowed", "not_your_seat"]},
    ),
    ("POST", T + "kick/"): Operation(
        "Kick a seat (host, lobby)",
        "Frees another seat of the lobby.",
        {403: HOST, 404: ["no_such_seat"], 409: ["not_in_lobby", "cannot_kick_host"]},
    ),
    ("GET", T + "chat/"): Operation(
        "Read the table chat",
        "Every message of the tournament's chat, oldest first (public, like the stream's `chat` "
        "events). A message is plain text: never render it as HTML.",
    ),
    ("POST", T + "chat/"): Operation(
        "Say something at the table (a seat, or a spectator with its chat token)",
        "Posts `text` (whitespace collapsed, 1-280 characters) as a `chat` event of the stream; "
        "at most 5 messages per author every 10 seconds. A spectator posts with the chat token "
        "`POST …/chat/spectators/` gave it, while the host lets spectators chat.",
        {
            400: ["chat_empty", "chat_too_long"],
            403: ["wrong_tournament", "chat_closed", "chat_join_first", "chat_muted"],
            409: ["already_over"],
            429: ["chat_too_fast"],
        },
    ),
    ("PATCH", T + "chat/"): Operation(
        "Let spectators chat, or stop them (host)",
        "Sets `spectator_chat` until the tournament ends; a `chat_settings` event tells everyone.",
        {403: HOST, 409: ["already_over"]},
    ),
    ("POST", T + "chat/spectators/"): Operation(
        "Join the table chat as a spectator",
        "While the host lets spectators chat: a name (1-24 printable characters, no seat's or "
        "other spectator's) gets a chat token, shown once, that posts to `…/chat/` only.",
        {
            400: ["chat_bad_name"],
            403: ["chat_closed"],
            409: ["name_taken", "chat_full", "already_over"],
        },
    ),
    ("POST", T + "chat/mute/"): Operation(
        "Mute or unmute a seat or a spectator in the chat (host)",
        "A muted author's messages are refused `chat_muted` until the host unmutes it.",
        {403: HOST, 404: ["no_such_seat"]},
    ),
    ("POST", T + "cancel/"): Operation(
        "Cancel the tournament (host)",
        "Ends the tournament with no winner.",
        {403: HOST, 409: ["already_over"]},
    ),
    ("POST", T + "draft/choose/"): _deck("Choose a draft option", "Deck Phase action `choose`."),
    ("POST", T + "draft/draw/"): _deck("Draw your display", "Deck Phase action `draw`."),
    ("POST", T + "draft/redraw/"): _deck(
        "Redraw your display", "Deck Phase action `redraw` (once per Deck Phase)."
    ),
    ("POST", T + "draft/pick/"): _deck("Pick a display card", "Deck Phase action `pick`."),
    ("POST", T + "draft/resolve/"): _deck(
        "Answer a When picked effect", "Deck Phase action `resolve` (`you.turn.pending`)."
    ),
    ("POST", T + "deck/remove/"): _deck(
        "Remove cards from your deck", "Deck Phase action `remove`."
    ),
    ("POST", T + "deck/finish/"): _deck("Finish your Deck Phase", "Deck Phase action `finish`."),
    ("GET", T + "matches/"): Operation(
        "List a tournament's matches", "Every match of the tournament as the caller may see it."
    ),
    ("GET", T + "verify/"): Operation(
        "Verify the tournament's fairness",
        "Once finished: checks the commitment, the trophy deal and every match replay "
        "(docs/protocol.md §15).",
        {409: ["not_finished"]},
    ),
    ("GET", T + "replay/"): Operation(
        "Everything needed to re-play a finished tournament",
        "Once finished: the revealed seed and nonce, the frozen card data, and each match's "
        "seed, setup, answers and events (docs/protocol.md, Verifying a tournament; "
        "`examples/verify.py` checks it).",
        {409: ["not_finished"]},
    ),
    ("GET", "/api/v1/matches/{match_id}/"): Operation(
        "Read a match",
        "The match as the caller may see it; `question` is the caller's pending question.",
    ),
    ("POST", "/api/v1/matches/{match_id}/answer/"): Operation(
        "Answer your pending question",
        "A list of options from the question's `options` (docs/protocol.md §11); the match runs "
        "on at once and the updated match view is returned.",
        {
            400: ANSWER_400,
            403: ["not_your_question"],
            409: ["no_question", "stale_question"],
        },
    ),
    ("GET", "/api/v1/matches/{match_id}/events/"): Operation(
        "Read a match's released events",
        "Frames numbered 1, 2, 3, … with no gap after `after`; an event you may not see is "
        "`hidden`.",
    ),
}
