"""One declaration per action, two transports made from it.

An ``Action`` names what a caller may do. It declares:

- the identifiers REST takes in its path (``Ident``);
- the body it validates, a DRF serializer (REST's request schema and GraphQL's input type);
- the service call (``run``);
- what it answers: REST's body, from which ``Result.of`` builds GraphQL's payload field;
- its throttle scope.

``rest_view`` makes one path's REST view from its actions. ``mutation`` makes the GraphQL mutation.
The identifiers and serializer make its one ``input`` argument. Its payload carries the result, or
the refusal as typed ``UserError`` s (``apikit.graphql``). Adding an action is one declaration.
"""

from __future__ import annotations

import enum
import math
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Annotated, Any, Optional

import strawberry
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import BaseThrottle
from rest_framework.views import APIView
from strawberry.scalars import JSON
from strawberry.types.field import StrawberryField

from apikit import shapes
from apikit.enums import enum_for, plain
from apikit.global_ids import described, number_of
from apikit.graphql import UserError, authorization, context_value, error_body_of, user_errors
from apikit.inputs import refuse_unknown
from apikit.jsonvalues import as_dict
from apikit.openapi import Operation, document
from apikit.shapes import Shape, to_json
from infra.errors import ApplicationError
from infra.throttling import ScopeThrottle

# Whole numbers a GraphQL ``Int`` (32 bits) cannot hold travel as decimal strings.
MAX_INT = 2**31 - 1


@dataclass(frozen=True)
class Ident:
    """An identifier REST reads from its path (``name``) and GraphQL from the input (``field``).

    ``field`` defaults to ``name``. GraphQL may show an object's number as a ``Node``'s global
    id. Then ``nodes`` names the types whose ``id`` it takes (``apikit.global_ids``)."""

    name: str
    type: type
    description: str
    field: str = ""
    nodes: tuple[str, ...] = ()

    @property
    def input_name(self) -> str:
        return self.field or self.name


@dataclass(frozen=True)
class Call:
    """One call of an action: the caller's ``Authorization`` value and the valid input.

    The input holds the body's fields and path's identifiers. ``memo`` keeps what was worked
    out from them."""

    authorization: str
    data: dict[str, Any]
    # What the call worked out once and reads again (the caller its token names).
    memo: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)


@dataclass(frozen=True)
class Result:
    """What GraphQL's payload carries: ``field`` of ``type``, made by ``of`` from REST's body."""

    field: str
    type: Any
    description: str
    of: Callable[[Any, Call], Any]


@dataclass(frozen=True)
class Action:
    name: str  # snake_case: the GraphQL mutation is its camelCase
    description: str
    run: Callable[[Call], Any]  # the service call; returns REST's body (``None``: no body)
    result: Result
    body: type[serializers.Serializer] | None = None
    path: tuple[Ident, ...] = ()
    throttle: type[ScopeThrottle] | None = None
    method: str = "post"
    status: int = 200
    response: Any = None  # REST's response schema (OpenAPI)
    enums: Mapping[str, Any] = field(default_factory=dict)  # GraphQL enums of free-text fields
    # Body fields that name an object GraphQL shows as a Node: its type names (``Ident.nodes``).
    nodes: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    # REST's summary, description and refusals (OpenAPI); ``description`` above is GraphQL's.
    operation: Operation | None = None

    def perform(self, authorization: str, body: object, path: Mapping[str, object]) -> object:
        """Validate ``body`` (REST's ``invalid``), then run the service with it and ``path``.

        ``path`` holds the identifiers by their input names."""
        data: dict[str, Any] = {}
        if self.body is None:
            refuse_unknown(body, allowed=[])  # a body to an action that takes none is a bug too
        else:
            serializer = self.body(data=body)
            serializer.is_valid(raise_exception=True)
            data = dict(serializer.validated_data)
        return self.run(Call(authorization, {**data, **path}))


@dataclass(frozen=True)
class Answer:
    """What an action answers: the shape its service returns.

    It is REST's body (OpenAPI: ``response``) and GraphQL's payload field (``result``)."""

    result: Result
    response: Any


def result(field: str, kind: type[Shape], description: str) -> Answer:
    """The payload field ``field``: the action's shape, as REST renders it."""
    return Answer(Result(field, shapes.graphql_type(kind), description, lambda body, _: body), kind)


def declare(
    name: str, description: str, run: Callable[[Call], object], answer: Answer, **options: object
) -> Action:
    """An action answering ``answer``.

    ``options``: ``Action``'s path, body, throttle, …, or a preset's."""
    return Action(name, description, run, answer.result, **{"response": answer.response, **options})


# REST ------------------------------------------------------------------------------------------


def rest_view(name: str, actions: tuple[Action, ...], base: type[APIView]) -> type[APIView]:
    """One path's view: a handler per action's method.

    Each handler is throttled by its action's scope. The base's own methods, such as a list's
    GET, keep the base's throttles."""
    namespace: dict[str, Any] = {"__module__": base.__module__}
    scopes = {action.method.upper(): action.throttle for action in actions}
    for action in actions:
        namespace[action.method] = _handler(action)

    def get_throttles(self: APIView) -> list[BaseThrottle]:
        method = self.request.method or ""
        if method not in scopes:
            return list(base.get_throttles(self))
        scope = scopes[method]
        return [] if scope is None else [scope()]

    namespace["get_throttles"] = get_throttles
    namespace["actions"] = actions  # the bridge test reads which declarations made the view
    return type(name, (base,), namespace)


def _handler(action: Action) -> Callable[..., Response]:
    def handle(self: APIView, request: Request, **path: object) -> Response:  # path: URL kwargs
        header = request.headers.get("Authorization", "")
        named = {ident.input_name: path[ident.name] for ident in action.path}
        body = action.perform(header, request.data, named)
        if body is None:
            return Response(status=action.status)
        return Response(to_json(body), status=action.status)

    handle.__doc__ = action.description  # REST's description when it declares no operation
    document(handle, action.operation)
    schema = extend_schema(request=action.body, responses={action.status: action.response})
    return schema(handle)


# GraphQL ---------------------------------------------------------------------------------------


def camel(name: str) -> str:
    return "".join(part[:1].upper() + part[1:] for part in name.split("_"))


# Every action a mutation was made of, by name: two declarations of one name fail at import.
MUTATIONS: dict[str, Action] = {}


def mutation(action: Action) -> StrawberryField:
    """The mutation of ``action``: ``name(input: NameInput!): NamePayload!``."""
    if MUTATIONS.setdefault(action.name, action) is not action:
        raise ValueError(f"two actions are named {action.name}")
    input_class = input_type(f"{camel(action.name)}Input", action)
    payload = payload_type(action)
    idents = {ident.input_name for ident in action.path}
    nodes = {**action.nodes, **{i.input_name: i.nodes for i in action.path if i.nodes}}

    def resolve(info: strawberry.Info, input: object) -> object:
        values = as_dict(plain_input(input), f"{action.name}'s input")
        header = authorization(info)
        try:
            throttle(info, action.throttle)
            for name in nodes.keys() & values.keys():  # a global id, or its number (deprecated)
                if isinstance(given := values[name], str | int):  # null stays null
                    values[name] = number_of(given, name, nodes[name])
            path = {k: v for k, v in values.items() if k in idents}
            body = {k: v for k, v in values.items() if k not in idents}
            answer = action.perform(header, body, path)
            made = action.result.of(answer, Call(header, values))
            return payload(**{action.result.field: made, "errors": []})
        except (ApplicationError, serializers.ValidationError) as error:
            refused = user_errors(error_body_of(error))
            return payload(**{action.result.field: None, "errors": refused})

    described = strawberry.argument(description=f"What `{action.name}` needs.")
    resolve.action = action  # type: ignore[attr-defined]  # read by the bridge test
    resolve.__annotations__ = {
        "info": strawberry.Info,
        "input": Annotated[input_class, described],
        "return": payload,
    }
    return strawberry.mutation(
        resolve, name=_lower_camel(action.name), description=action.description
    )


def _lower_camel(name: str) -> str:
    upper = camel(name)
    return upper[:1].lower() + upper[1:]


def payload_type(action: Action) -> type:
    """``NamePayload``: the result (null when refused) and the errors."""
    result = action.result
    namespace = {
        "__annotations__": {result.field: Optional[result.type], "errors": list[UserError]},  # noqa: UP045
        result.field: strawberry.field(description=f"{result.description} Null when refused."),
        "errors": strawberry.field(description="Why it was refused; empty when done."),
    }
    made = type(f"{camel(action.name)}Payload", (), namespace)
    return strawberry.type(made, description=f"What `{action.name}` answers.")


def throttle(info: strawberry.Info, scope: type[ScopeThrottle] | None) -> None:
    """REST's ``throttled`` past the scope's rate (``details.retry_after``: seconds).

    REST and GraphQL share one budget per client address."""
    request = context_value(info.context, "request")  # on the socket: its consumer
    if scope is None or request is None:
        return
    limiter = scope()
    if limiter.allow_request(request, None):  # type: ignore[arg-type]
        return
    wait = limiter.wait()
    seconds = math.ceil(wait) if wait is not None else None
    message = _("Too many requests: try again later.")
    raise ApplicationError("throttled", message, {"retry_after": seconds})


# Input types from serializers ------------------------------------------------------------------

_INPUTS: dict[str, type] = {}
# A GraphQL input's field: its name, its type (a class or a generic alias), description, required.
InputField = tuple[str, object, str, bool]


def input_type(name: str, action: Action) -> type:
    """``action``'s GraphQL input: path identifiers, then body fields."""
    fields: list[InputField] = [
        (ident.input_name, ident.type, ident.description, True)
        if not ident.nodes
        else (ident.input_name, strawberry.ID, described(ident.description, ident.nodes), True)
        for ident in action.path
    ]
    if action.body is not None:
        fields += body_fields(action.body(), action.enums, action.nodes)
    return _input(name, fields, f"What `{action.name}` needs.")


def body_fields(
    serializer: serializers.Serializer,
    enums: Mapping[str, type],
    nodes: Mapping[str, tuple[str, ...]] | None = None,
) -> list[InputField]:
    found: list[InputField] = []
    for name, declared in serializer.fields.items():
        text = describe(name, declared)
        kind: object
        if nodes and name in nodes:
            kind, text = strawberry.ID, described(text, nodes[name])
        else:
            kind = enums.get(name) or graphql_type(declared)
        found.append((name, kind, text, bool(declared.required)))
    return found


def _input(name: str, fields: list[InputField], description: str) -> type:
    if name in _INPUTS:
        return _INPUTS[name]
    annotations: dict[str, object] = {}
    namespace: dict[str, object] = {"__annotations__": annotations}
    for field_name, kind, text, required in sorted(fields, key=lambda f: not f[3]):
        annotations[field_name] = kind if required else Optional[kind]  # noqa: UP045
        namespace[field_name] = (
            strawberry.field(description=text)
            if required
            else strawberry.field(description=text, default=None)
        )
    made = strawberry.input(type(name, (), namespace), description=description)
    _INPUTS[name] = made
    return made


def graphql_type(declared: serializers.Field) -> object:
    """The GraphQL type of a serializer field (an enum for a ``ChoiceField``)."""
    if isinstance(declared, serializers.ListField):
        return list[graphql_type(declared.child)]  # type: ignore[misc]
    if isinstance(declared, serializers.Serializer):
        own = type(declared)
        return _input(own.__name__, body_fields(declared, {}), own.__doc__ or own.__name__)
    if isinstance(declared, serializers.ChoiceField):
        return enum_for(declared.choices)
    if isinstance(declared, serializers.BooleanField):
        return bool
    if isinstance(declared, serializers.IntegerField):
        top = declared.max_value
        return str if top is not None and top > MAX_INT else int
    if isinstance(declared, serializers.CharField | serializers.DateField):
        return str
    if isinstance(declared, serializers.DateTimeField):
        return str
    return JSON


def describe(name: str, declared: serializers.Field) -> str:
    """The field's ``help_text``, else its name and bounds."""
    if declared.help_text:
        return re.sub(r"\s+", " ", str(declared.help_text))
    text = name.replace("_", " ").capitalize()
    low = getattr(declared, "min_value", None)
    high = getattr(declared, "max_value", None)
    if low is not None and high is not None:
        text += f", {low}-{high}"
    if isinstance(declared, serializers.DateField):
        text += ", YYYY-MM-DD"
    if isinstance(declared, serializers.DateTimeField):
        text += ", ISO 8601"
    return text + "."


def plain_input(value: object) -> object:
    """An input object as REST's JSON body would be.

    Enums become their values. A field left out (or null) is absent, as REST reads a field not
    sent."""
    if isinstance(value, list):
        return [plain_input(item) for item in value]
    if isinstance(value, enum.Enum):
        return plain(value)
    if hasattr(value, "__strawberry_definition__"):
        names = [f.python_name for f in value.__strawberry_definition__.fields]
        given = {name: getattr(value, name) for name in names}
        return {name: plain_input(v) for name, v in given.items() if v is not None}
    return value
