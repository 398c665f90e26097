"""Completes the generated OpenAPI schema (``SPECTACULAR_SETTINGS["POSTPROCESSING_HOOKS"]``).

drf-spectacular documents each view's success; this hook adds what a client needs besides:

- a ``summary`` and ``description`` for every operation (from ``OPERATIONS``; an operation not
  listed there takes its view's docstring);
- every error answer an operation can give, with the shared ``Error`` schema
  (``{code, message, details}``) narrowed to the codes possible there (``code`` as an enum) and an
  example: the operation's own codes (``OPERATIONS``) and those every request can meet (a bad
  token, a bad body, throttling, a missing object, an ``Idempotency-Key`` refusal);
- the ``Idempotency-Key`` header on every ``POST`` (``config.idempotency``);
- the seat token (Bearer) and the organizer token (``Token …``) as optional schemes on the
  tournament and match operations (a spectator sends none), and no lock on the public card
  catalogue and health;
- one operation-id style, drf-spectacular's ``{path}_{action}`` (``OperationSchema``);
- 32-bit bounds instead of int64 ones (a number that may pass 2^53 is a decimal string,
  ``config.shapes.BigInt``), and
  ``int | string`` items for question options and answers.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from drf_spectacular.openapi import AutoSchema
from drf_spectacular.plumbing import ResolvedComponent

from config.events import LOGS, openapi_components, openapi_ref
from config.shapes import Shape, openapi_schema


class OperationSchema(AutoSchema):
    """Every operation id in drf-spectacular's one style, ``{path}_{action}``: the path's words
    without its parameters, then ``list``, ``retrieve``, ``create``, ``partial_update``,
    ``update`` or ``destroy`` (``tournaments_list``, ``cards_retrieve``,
    ``tournaments_draft_pick_create``). The SDKs' methods are named after them. A ``GET`` that
    answers a page of ``results`` (a ``listing`` or the tournament list) is a ``list``, as one
    answering a JSON list is. No view names its own (``tests/api/test_operation_ids.py``)."""

    def get_operation_id(self) -> str:
        made: str = super().get_operation_id()
        if self.method == "GET" and made.endswith("_retrieve") and _answers_a_page(self):
            return made.removesuffix("_retrieve") + "_list"
        return made


def _answers_a_page(schema: AutoSchema) -> bool:
    answer: Any = schema.get_response_serializers()
    if not (isinstance(answer, type) and issubclass(answer, Shape)):
        return False
    return "results" in getattr(answer, "__dataclass_fields__", {})  # a shape is a dataclass


ERROR = "Error"
ERROR_SCHEMA: dict[str, Any] = {
    "type": "object",
    "description": "Every refusal (docs/errors.md): `code` is stable, `message` for people.",
    "properties": {
        "code": {"type": "string", "description": "Stable: programs branch on it."},
        "message": {"type": "string", "description": "For people; may change."},
        "details": {
            "type": "object",
            "additionalProperties": True,
            "description": 'Facts that help (`{"version": 7}` for `stale`, …); `{}` otherwise.',
        },
    },
    "required": ["code", "message", "details"],
}
STATUS_TEXT = {
    400: "The request cannot be taken as sent.",
    401: "A bad credential.",
    403: "Not yours to do.",
    404: "Nothing there.",
    406: "The API answers in JSON only.",
    409: "Not possible in the present state (read the view again).",
    413: "The body is too large.",
    415: "Send `application/json`.",
    429: "Too many requests: wait `details.retry_after` seconds.",
    503: "The database is not answering: retry after `Retry-After` seconds.",
}
IDEMPOTENCY_HEADER: dict[str, Any] = {
    "name": "Idempotency-Key",
    "in": "header",
    "required": False,
    "schema": {"type": "string", "minLength": 1, "maxLength": 255, "pattern": "^[ -~]+$"},
    "description": (
        "Safe retries (docs/protocol.md §17): the same key with the same request returns the "
        "first answer and changes nothing twice; with another request it is 409 "
        "`idempotency_key_reused`. Keys are per caller and last a day."
    ),
}
INT32 = 2**31 - 1
ORGANIZER_SCHEME: dict[str, Any] = {
    "type": "apiKey",
    "in": "header",
    "name": "Authorization",
    "description": (
        "An organizer's API token (`manage.py create_organizer NAME`): enter "
        "`Token <organizer token>`."
    ),
}

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


@dataclass(frozen=True)
class Operation:
    summary: str
    description: str
    codes: dict[int, list[str]] = field(default_factory=dict)


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
    ("GET", "/api/v1/cards/"): Operation(
        "List the card catalogue",
        "Every card of the curated catalogue, filtered by the query.",
        {400: ["unknown_set"]},
    ),
    ("GET", "/api/v1/cards/{key}/"): Operation(
        "Read a card",
        'One card of the catalogue by its key "Set/Name" (its slash as is or as `%2F`). '
        "Deprecated: its number (`id`) is accepted until the next release.",
    ),
    ("GET", "/api/v1/card-sets/"): Operation("List the card sets", "Every set of both boxes."),
    ("GET", "/api/v1/card-sets/{name}/"): Operation(
        "Read a card set",
        "One set by its name. Deprecated: its number (`id`) is accepted until the next release.",
    ),
    ("GET", "/api/v1/health/"): Operation(
        "Server health", "Each backend's state: `200` when all work, `503` otherwise."
    ),
}


def register_operations(operations: dict[tuple[str, str], Operation]) -> None:
    """An app adds its operations' summaries and refusals (from its ``AppConfig.ready``)."""
    OPERATIONS.update(operations)


COMPONENTS: list[type[Shape]] = []


def register_components(*shapes: type[Shape]) -> None:
    """An app adds shapes no operation answers but a client reads elsewhere (the stream's
    frames): each is a component of the schema (``add_components``)."""
    COMPONENTS.extend(shape for shape in shapes if shape not in COMPONENTS)


def add_components(
    result: dict[str, Any], generator: Any, request: Any, public: bool
) -> dict[str, Any]:
    """The registered shapes' components (a hook run before drf-spectacular's enum hook, which
    names their enums as any other's)."""
    for shape in COMPONENTS:
        made = openapi_schema(shape, _reference)
        component = ResolvedComponent(shape.__name__, ResolvedComponent.SCHEMA, made, shape)
        generator.registry.register_on_missing(component)  # the enum hook rebuilds from it
        result.setdefault("components", {}).setdefault("schemas", {})[shape.__name__] = made
    return result


def _reference(nested: type[Shape]) -> dict[str, Any]:
    return {"$ref": f"#/components/schemas/{nested.__name__}"}


def add_event_unions(
    result: dict[str, Any], generator: Any, request: Any, public: bool
) -> dict[str, Any]:
    """Each log's events typed (``config.events``): its envelope's component becomes the union
    of its kinds, discriminated by ``kind``. Run after the enum hook: a kind's one value stays
    in its envelope, not a component of its own."""
    schemas = result.setdefault("components", {}).setdefault("schemas", {})
    for log in LOGS:
        schemas.update(openapi_components(log, openapi_ref))
    result["components"]["schemas"] = dict(sorted(schemas.items()))
    return result


PUBLIC_PREFIXES = ("/api/v1/cards/", "/api/v1/card-sets/", "/api/v1/health/")


def generic_codes(method: str, path: str, operation: dict[str, Any]) -> dict[int, list[str]]:
    """The refusals any request of this shape can meet, whatever the operation."""
    codes: dict[int, list[str]] = {400: ["bad_request"], 401: ["bad_token"]}
    codes[400].append("unknown_parameter")
    codes[406] = ["not_acceptable"]
    codes[503] = ["database_unavailable"]  # any request while PostgreSQL is down
    if not path.startswith(PUBLIC_PREFIXES):
        codes[403] = ["not_organizer"]  # an organizer token whose user lost the permission
    if "{" in path:
        codes[404] = ["not_found"]
    if any(p.get("in") == "query" for p in operation.get("parameters", [])):
        codes[400].append("invalid")
    if method in ("POST", "PATCH", "PUT"):
        codes[400] += ["invalid", "parse_error", "too_deep"]
        codes[413] = ["too_large"]
        codes[415] = ["unsupported_media_type"]
        codes[429] = ["throttled"]
    if method == "POST":
        codes[400].append("bad_idempotency_key")
        codes[409] = ["idempotency_key_reused", "idempotency_key_in_use"]
    return codes


def error_response(status: int, codes: list[str]) -> dict[str, Any]:
    listed = ", ".join(f"`{code}`" for code in codes)
    return {
        "description": f"{STATUS_TEXT.get(status, 'Refused.')} Codes: {listed}.",
        "content": {
            "application/json": {
                "schema": {
                    "allOf": [{"$ref": f"#/components/schemas/{ERROR}"}],
                    "properties": {"code": {"type": "string", "enum": codes}},
                },
                "example": {"code": codes[0], "message": "…", "details": {}},
            }
        },
    }


def _complete(method: str, path: str, operation: dict[str, Any]) -> None:
    known = OPERATIONS.get((method, path))
    if known is not None:
        operation["summary"] = known.summary
        operation["description"] = known.description
    elif not operation.get("summary"):
        text = operation.get("description") or operation["operationId"].replace("_", " ")
        operation["summary"] = text.strip().splitlines()[0].rstrip(".")
    codes = generic_codes(method, path, operation)
    for status, own in (known.codes if known else {}).items():
        codes.setdefault(status, [])
        codes[status] += [code for code in own if code not in codes[status]]
    responses = operation.setdefault("responses", {})
    for status, listed in sorted(codes.items()):
        responses.setdefault(str(status), error_response(status, sorted(set(listed))))
    if method == "POST":
        parameters = operation.setdefault("parameters", [])
        if not any(p.get("name") == IDEMPOTENCY_HEADER["name"] for p in parameters):
            parameters.append(IDEMPOTENCY_HEADER)
    if path.startswith(PUBLIC_PREFIXES):
        operation["security"] = [{}]
    else:
        security = [s for s in operation.get("security", []) if s]
        for scheme in ("seatToken", "organizerToken"):
            if {scheme: []} not in security:
                security.append({scheme: []})
        operation["security"] = [*security, {}]  # {}: a spectator sends no token


def _narrow_integers(node: Any) -> None:
    """int64 bounds → 32-bit ones, everywhere in the components."""
    if isinstance(node, dict):
        if node.get("type") == "integer" and node.get("format") == "int64":
            node["format"] = "int32"
            node["maximum"] = min(node.get("maximum", INT32), INT32)
            node["minimum"] = max(node.get("minimum", -INT32 - 1), -INT32 - 1)
        for value in node.values():
            _narrow_integers(value)
    elif isinstance(node, list):
        for value in node:
            _narrow_integers(value)


OPTION = {"oneOf": [{"type": "integer", "minimum": 0}, {"type": "string"}]}


def _precise_types(schemas: dict[str, Any]) -> None:
    _narrow_integers(schemas)
    question = schemas.get("Question", {}).get("properties", {})
    for name in ("options", "default"):
        if name in question and question[name].get("items") == {}:
            question[name]["items"] = OPTION
    if "card" in question and "type" not in question["card"]:
        question["card"]["type"] = "integer"


def complete_schema(
    result: dict[str, Any], generator: Any, request: Any, public: bool
) -> dict[str, Any]:
    components = result.setdefault("components", {})
    schemas = components.setdefault("schemas", {})
    schemas[ERROR] = ERROR_SCHEMA
    schemes = components.setdefault("securitySchemes", {})
    schemes.setdefault(
        "seatToken", {"type": "http", "scheme": "bearer", "description": "A seat token."}
    )
    schemes.setdefault("organizerToken", ORGANIZER_SCHEME)
    for path, item in result.get("paths", {}).items():
        for method, operation in item.items():
            if isinstance(operation, dict) and "responses" in operation:
                _complete(method.upper(), path, operation)
    _precise_types(schemas)
    return result
