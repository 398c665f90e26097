"""Completes the generated OpenAPI schema.

Each operation is completed by ``OperationSchema`` (the ``DEFAULT_SCHEMA_CLASS``). The
components are completed by hooks (``SPECTACULAR_SETTINGS["POSTPROCESSING_HOOKS"]``).
drf-spectacular documents each view's success. This module adds what a client needs besides:

- A ``summary`` and ``description`` for every operation. They come from the ``Operation`` its
  handler declares (``operation`` on a plain view, ``Action.operation``, ``Listed.operation``).
  An operation that declares none takes its view's docstring.
- Every error answer an operation can give, with an example. The shared ``Error`` schema
  (``{code, message, details}``) is narrowed to the codes possible there (``code`` as an enum).
  Those are the operation's own codes (its ``Operation``), and those every request can meet. (A
  bad token, a bad body, throttling, a missing object, an ``Idempotency-Key`` refusal.)
- The ``Idempotency-Key`` header on every ``POST`` (``infra.idempotency``).
- The seat token (Bearer) and the organizer token (``Token …``), as optional schemes. They are
  on the tournament and match operations. A spectator sends none. The public card catalogue and
  health have no lock.
- One operation-id style, drf-spectacular's ``{path}_{action}`` (``OperationSchema``).
- 32-bit bounds instead of int64 ones. (A number that may pass 2^53 is a decimal string,
  ``apikit.shapes.BigInt``.)
- ``int | string`` items for question options and answers.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TypeVar

from drf_spectacular.generators import SchemaGenerator
from drf_spectacular.openapi import AutoSchema
from drf_spectacular.plumbing import ComponentRegistry, ResolvedComponent

from apikit.events import LOGS, openapi_components, openapi_ref
from apikit.jsonvalues import as_dict, as_list, as_str, entries, section
from apikit.shapes import Shape, openapi_schema


@dataclass(frozen=True)
class Operation:
    """A REST operation as a client reads it.

    ``codes`` maps a status to error codes. They are the refusals it adds to those every request
    can meet."""

    summary: str
    description: str
    codes: Mapping[int, Sequence[str]] = field(default_factory=dict, hash=False)  # a dict


DECLARED = "operation"  # the attribute of a view's handler that holds its ``Operation``
Handler = TypeVar("Handler", bound=Callable[..., object])


def document(handler: Callable[..., object], declared: Operation | None) -> None:
    """``handler`` (a view's method) documents ``declared`` (``None``: its docstring)."""
    setattr(handler, DECLARED, declared)


def operation(
    summary: str,
    description: str,
    codes: Mapping[int, Sequence[str]] | None = None,
) -> Callable[[Handler], Handler]:
    """A plain view's handler declares its operation.

    An action's is ``Action.operation``; a list's, ``Listed.operation``."""
    declared = Operation(summary, description, codes or {})

    def declaring(handler: Handler) -> Handler:
        document(handler, declared)
        return handler

    return declaring


class OperationSchema(AutoSchema):
    """Every operation id in drf-spectacular's one style, ``{path}_{action}``.

    That is the path's words without its parameters, then ``list``, ``retrieve``, ``create``,
    ``partial_update``, ``update`` or ``destroy``. Examples: ``tournaments_list``,
    ``cards_retrieve``, ``tournaments_draft_pick_create``. The SDKs' methods are named after
    them. A ``GET`` answering a page of ``results`` is a ``list``. (That is a ``listing`` or the
    tournament list.) So is one answering a JSON list. No view names its own
    (``tests/api/test_operation_ids.py``)."""

    def declared(self) -> Operation | None:
        """The operation the described handler declares (``operation``), if any."""
        handler = getattr(self.view, getattr(self.view, "action", self.method.lower()), None)
        found: Operation | None = getattr(handler, DECLARED, None)
        return found

    def get_description(self) -> str:  # type: ignore[override]  # as drf-spectacular
        declared = self.declared()
        return declared.description if declared else str(super().get_description())

    def get_operation(
        self,
        path: str,
        path_regex: str,
        path_prefix: str,
        method: str,
        registry: ComponentRegistry,
    ) -> dict[str, object] | None:
        """drf-spectacular's operation, completed (``_complete``)."""
        made: dict[str, object] | None = super().get_operation(
            path, path_regex, path_prefix, method, registry
        )
        if made is not None:
            _complete(self.method, path, made, self.declared())
        return made

    def get_operation_id(self) -> str:
        made: str = super().get_operation_id()
        if self.method == "GET" and made.endswith("_retrieve") and _answers_a_page(self):
            return made.removesuffix("_retrieve") + "_list"
        return made


def _answers_a_page(schema: AutoSchema) -> bool:
    answer: object = schema.get_response_serializers()
    if not (isinstance(answer, type) and issubclass(answer, Shape)):
        return False
    return "results" in getattr(answer, "__dataclass_fields__", {})  # a shape is a dataclass


ERROR = "Error"
ERROR_SCHEMA: dict[str, object] = {
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
IDEMPOTENCY_HEADER: dict[str, object] = {
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
ORGANIZER_SCHEME: dict[str, object] = {
    "type": "apiKey",
    "in": "header",
    "name": "Authorization",
    "description": (
        "An organizer's API token (`manage.py create_organizer NAME`): enter "
        "`Token <organizer token>`."
    ),
}


COMPONENTS: list[type[Shape]] = []


def register_components(*shapes: type[Shape]) -> None:
    """Add shapes a client reads outside any operation, such as the stream's frames.

    Each becomes a component of the schema (``add_components``)."""
    COMPONENTS.extend(shape for shape in shapes if shape not in COMPONENTS)


def add_components(
    result: dict[str, object], generator: SchemaGenerator, request: object, public: bool
) -> dict[str, object]:
    """The registered shapes' components.

    This hook runs before drf-spectacular's enum hook. That hook names their enums as any
    other's."""
    for shape in COMPONENTS:
        made = openapi_schema(shape, _reference)
        component = ResolvedComponent(shape.__name__, ResolvedComponent.SCHEMA, made, shape)
        generator.registry.register_on_missing(component)  # the enum hook rebuilds from it
        section(section(result, "components"), "schemas")[shape.__name__] = made
    return result


def _reference(nested: type[Shape]) -> dict[str, object]:
    return {"$ref": f"#/components/schemas/{nested.__name__}"}


def add_event_unions(
    result: dict[str, object], generator: SchemaGenerator, request: object, public: bool
) -> dict[str, object]:
    """Each log's events typed (``apikit.events``).

    Its envelope's component becomes the union of its kinds, discriminated by ``kind``. This
    hook runs after the enum hook. So a kind's one value stays in its envelope. It gets no
    component of its own."""
    components = section(result, "components")
    schemas = section(components, "schemas")
    for log in LOGS:
        schemas.update(openapi_components(log, openapi_ref))
    components["schemas"] = dict(sorted(schemas.items()))
    return result


PUBLIC_PREFIXES = ("/api/v1/cards/", "/api/v1/card-sets/", "/api/v1/health/")


def generic_codes(method: str, path: str, operation: Mapping[str, object]) -> dict[int, list[str]]:
    """The refusals any request of this shape can meet."""
    codes: dict[int, list[str]] = {400: ["bad_request"], 401: ["bad_token"]}
    codes[400].append("unknown_parameter")
    codes[406] = ["not_acceptable"]
    codes[503] = ["database_unavailable"]  # any request while PostgreSQL is down
    if not path.startswith(PUBLIC_PREFIXES):
        codes[403] = ["not_organizer"]  # an organizer token whose user lost the permission
    if "{" in path:
        codes[404] = ["not_found"]
    parameters = as_list(operation.get("parameters", []), "parameters")
    if any(as_dict(p, "a parameter").get("in") == "query" for p in parameters):
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


def error_response(status: int, codes: list[str]) -> dict[str, object]:
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


def _complete(
    method: str, path: str, operation: dict[str, object], declared: Operation | None
) -> None:
    if declared is not None:
        operation["summary"] = declared.summary
    elif not operation.get("summary"):
        named = as_str(operation["operationId"], f"{method} {path}'s operationId")
        text = as_str(operation.get("description") or named.replace("_", " "), "a description")
        operation["summary"] = text.strip().splitlines()[0].rstrip(".")
    codes = generic_codes(method, path, operation)
    for status, own in (declared.codes if declared else {}).items():
        codes.setdefault(status, [])
        codes[status] += [code for code in own if code not in codes[status]]
    responses = section(operation, "responses")
    for status, listed in sorted(codes.items()):
        responses.setdefault(str(status), error_response(status, sorted(set(listed))))
    if method == "POST":
        parameters = entries(operation, "parameters")
        names = [as_dict(p, "a parameter").get("name") for p in parameters]
        if IDEMPOTENCY_HEADER["name"] not in names:
            parameters.append(IDEMPOTENCY_HEADER)
    if path.startswith(PUBLIC_PREFIXES):
        operation["security"] = [{}]
    else:
        security = [s for s in as_list(operation.get("security", []), "security") if s]
        for scheme in ("seatToken", "organizerToken"):
            if {scheme: []} not in security:
                security.append({scheme: []})
        operation["security"] = [*security, {}]  # {}: a spectator sends no token


def _narrow_integers(node: object) -> None:
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


def _precise_types(schemas: dict[str, object]) -> None:
    _narrow_integers(schemas)
    found = as_dict(schemas.get("Question", {}), "Question")
    question = as_dict(found.get("properties", {}), "Question's properties")
    for name in ("options", "default"):
        if name in question and (item := as_dict(question[name], name)).get("items") == {}:
            item["items"] = OPTION
    if "card" in question and "type" not in (card := as_dict(question["card"], "card")):
        card["type"] = "integer"


def complete_schema(
    result: dict[str, object], generator: SchemaGenerator, request: object, public: bool
) -> dict[str, object]:
    components = section(result, "components")
    schemas = section(components, "schemas")
    schemas[ERROR] = ERROR_SCHEMA
    schemes = section(components, "securitySchemes")
    schemes.setdefault(
        "seatToken", {"type": "http", "scheme": "bearer", "description": "A seat token."}
    )
    schemes.setdefault("organizerToken", ORGANIZER_SCHEME)
    _precise_types(schemas)
    return result
