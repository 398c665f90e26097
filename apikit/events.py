"""Event kinds typed from one declaration each: a ``TypedDict`` per kind's payload.

A log of events declares its kinds once (``EventKinds``). Its envelope's ``Shape`` is
``{"seq", "kind", "payload"}``. ``EventKinds`` maps each kind to the payload's ``TypedDict``,
written where the payload is built. Every rendering is made from that:

- OpenAPI (``openapi_components``). Each kind's payload is a component (``<Kind><payload>``).
  Each kind's envelope is a component (``<Kind><variant>``): ``seq``, ``kind`` of that one
  value, its payload. The envelope's component is a ``oneOf`` of them, discriminated by ``kind``
  (a mapping). Payloads that carry their own ``kind`` (a match's events) are a union too
  (``payload_union``).
- AsyncAPI (``json_components``): the same components in JSON Schema. ``nullable`` becomes a
  ``null`` type, and nested shapes are inlined. AsyncAPI's ``discriminator`` is the property's
  name.
- GraphQL (``graphql_types``). The envelope is an interface: ``seq``, ``kind`` and the old JSON
  ``payload``, deprecated. Each kind is an object type implementing it. Its fields are the
  payload's, camelCase. A ``skip`` field, the envelope's own, is left out.

A payload's field may be ``Annotated`` with an ``About``: its description and GraphQL's name. Or
it may be annotated with the type the schemas state for an ``Any``. (A card's uid is an ``int``
on this server.) A nested ``TypedDict`` is a component (an object type) of its own name. A
nested ``Shape`` is the shape's. The union of another log's payloads (``Event``) is that log's
``payload_union``.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Callable, Mapping
from typing import Any, Literal, NotRequired, Required, TypeGuard, Union

import strawberry
from strawberry.scalars import JSON

from apikit.enums import enum_for
from apikit.jsonvalues import as_dict, as_list
from apikit.shapes import (
    BASIC,
    ELSEWHERE,
    BigInt,
    Shape,
    fields_of,
    graphql_of,
    graphql_type,
    is_shape,
    row,
)

Ref = Callable[["EventKinds | type"], dict[str, object]]
DEPRECATED_PAYLOAD = "Read the typed fields of the event's type (`... on <Kind>…`)."


@dataclasses.dataclass(frozen=True)
class About:
    """What a payload's field says beyond its type."""

    description: str
    graphql_name: str | None = None


@dataclasses.dataclass(frozen=True)
class EventKinds:
    """A log's kinds.

    ``kinds`` maps each to its payload's ``TypedDict``. ``None`` is the hidden placeholder's
    ``null``. ``shape`` is the envelope; ``name``, its union's name."""

    name: str
    shape: type[Shape]
    kinds: Mapping[str, type | None]
    variant: str  # a kind's envelope: camel(kind) + variant
    payload: str  # a kind's payload: camel(kind) + payload
    description: str
    payload_union: str | None = None  # the payloads' own union (they carry ``kind``)
    skip: frozenset[str] = frozenset()  # payload fields GraphQL's types leave out
    seq_offset: int = 0  # an envelope's seq from its payload's (``payload_union``'s events)

    def variant_name(self, kind: str) -> str:
        return _pascal(kind) + self.variant

    def payload_name(self, kind: str) -> str:
        return _pascal(kind) + self.payload


LOGS: list[EventKinds] = []


def declare_events(kinds: EventKinds) -> EventKinds:
    """Register a log's kinds in ``LOGS``.

    The OpenAPI hook, the AsyncAPI document and the GraphQL schema read them there."""
    if all(known.name != kinds.name for known in LOGS):
        LOGS.append(kinds)
        ELSEWHERE[kinds.shape] = lambda: graphql_types(kinds)[0]
    return kinds


def _pascal(kind: str) -> str:
    return "".join(part[:1].upper() + part[1:] for part in kind.split("_"))


# A payload's fields ------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Key:
    name: str
    type: object  # ``Required`` and ``NotRequired`` unwrapped
    required: bool
    about: About | None


_KEYS: dict[type, tuple[Key, ...]] = {}


def keys_of(payload: type) -> tuple[Key, ...]:
    """A ``TypedDict``'s keys in declaration order, its bases' last.

    That is the events' key order. ``Stated``'s board values come after the event's own."""
    found = _KEYS.get(payload)
    if found is None:
        hints = typing.get_type_hints(payload, include_extras=True)
        required = payload.__required_keys__  # type: ignore[attr-defined]
        inherited = {k for base in _bases(payload) for k in base.__annotations__}
        names = [*(k for k in hints if k not in inherited), *(k for k in hints if k in inherited)]
        found = tuple(_key(name, hints[name], name in required) for name in names)
        _KEYS[payload] = found
    return found


def _bases(payload: type) -> list[type]:
    return [b for b in getattr(payload, "__orig_bases__", ()) if typing.is_typeddict(b)]


def _key(name: str, hint: object, required: bool) -> Key:
    if typing.get_origin(hint) in (Required, NotRequired):
        hint = typing.get_args(hint)[0]
    about = None
    if typing.get_origin(hint) is typing.Annotated:
        about = next((x for x in typing.get_args(hint)[1:] if isinstance(x, About)), None)
    return Key(name, hint, required, about)


def _stated(kind: object) -> object:
    """The type the schemas state.

    An ``Annotated`` type may state one among its extras: a type or a ``Literal``. Else it is
    the type itself."""
    while typing.get_origin(kind) is typing.Annotated:
        stated, *metadata = typing.get_args(kind)
        extras = [x for x in metadata if isinstance(x, type) or typing.get_origin(x)]
        kind = extras[0] if extras else stated
    return kind


def is_payload(kind: object) -> TypeGuard[type]:
    """A ``TypedDict`` (a nested object of a payload, or a payload)."""
    return isinstance(kind, type) and typing.is_typeddict(kind)


def _optional(kind: object) -> tuple[object, bool]:
    kind = _stated(kind)
    if typing.get_origin(kind) in (Union, types.UnionType):
        args = typing.get_args(kind)
        rest = [a for a in args if a is not type(None)]
        if len(rest) == 1 and len(args) == 2:
            return _stated(rest[0]), True
    return kind, False


def _union_of(kind: object) -> EventKinds | None:
    """The log whose payloads are ``kind``, a union of ``TypedDict``s."""
    if typing.get_origin(kind) not in (Union, types.UnionType):
        return None
    members = set(typing.get_args(kind))
    for log in LOGS:
        if log.payload_union and members == {p for p in log.kinds.values() if p is not None}:
            return log
    return None


def _description(payload: type) -> str:
    return " ".join((payload.__doc__ or "").split()).replace("``", "`")


# OpenAPI -----------------------------------------------------------------------------------


def openapi_components(log: EventKinds, ref: Ref) -> dict[str, dict[str, object]]:
    """Every component of ``log``.

    That is its union, each kind's envelope and payload, the payloads' union, and every nested
    object. ``ref(x)`` is the reference of a component or shape."""
    made: dict[str, dict[str, object]] = {}
    variants: dict[str, str] = {}
    envelope = {f.name: f.meta.description for f in fields_of(log.shape)}
    for kind, payload in log.kinds.items():
        name = log.variant_name(kind)
        variants[kind] = name
        body = _null_payload() if payload is None else _named(log.payload_name(kind))
        made[name] = {
            "type": "object",
            "description": f"`{kind}`: {_description(payload) if payload else 'hidden.'}",
            "properties": {
                "seq": {"type": "integer", "description": envelope["seq"]},
                "kind": {"type": "string", "enum": [kind], "description": envelope["kind"]},
                "payload": {**body, "description": envelope["payload"]}
                if payload is None
                else {"allOf": [body], "description": envelope["payload"]},
            },
            "required": ["seq", "kind", "payload"],
        }
        if payload is not None:
            _object_components(payload, ref, made, log.payload_name(kind))
    made[log.name] = _one_of(log.description, variants)
    if log.payload_union:
        shown = {k: log.payload_name(k) for k, p in log.kinds.items() if p is not None}
        made[log.payload_union] = _one_of(f"{log.description} (its payload)", shown)
    return made


def _one_of(description: str, names: dict[str, str]) -> dict[str, object]:
    refs = {kind: _named(name)["$ref"] for kind, name in names.items()}
    return {
        "description": description,
        "oneOf": [{"$ref": target} for target in refs.values()],
        "discriminator": {"propertyName": "kind", "mapping": refs},
    }


def _null_payload() -> dict[str, object]:
    return {"type": "object", "nullable": True, "enum": [None]}


def _object_components(
    payload: type, ref: Ref, made: dict[str, dict[str, object]], name: str | None = None
) -> None:
    """``payload``'s component and its nested objects'.

    It is named ``name``, else after its class."""
    name = name or payload.__name__
    if name in made:
        return
    properties: dict[str, object] = {}
    for key in keys_of(payload):
        schema = _openapi_type(key.type, ref)
        if key.about is not None:
            schema = {**schema, "description": key.about.description}
        properties[key.name] = schema
        for nested in _nested(key.type):
            _object_components(nested, ref, made)
    required = [key.name for key in keys_of(payload) if key.required]
    made[name] = {"type": "object", "description": _description(payload)}
    made[name]["properties"] = properties
    if required:
        made[name]["required"] = required


def _nested(kind: object) -> list[type]:
    """The ``TypedDict``s a type holds.

    Another log's payloads are left out: they are that log's own."""
    kind = _stated(kind)
    if is_payload(kind):
        return [kind]
    if _union_of(kind) is not None:
        return []
    return [n for arg in typing.get_args(kind) for n in _nested(arg)]


def _openapi_type(kind: object, ref: Ref) -> dict[str, object]:
    kind, nullable = _optional(kind)
    schema = _openapi_plain(kind, ref)
    if not nullable:
        return schema
    if "$ref" in schema:
        return {"allOf": [schema], "nullable": True}
    values = schema.get("enum")
    if isinstance(values, list):  # OpenAPI 3.0: a nullable enum lists null among its values
        return {**schema, "enum": [*values, None], "nullable": True}
    return {**schema, "nullable": True}


def _openapi_plain(kind: object, ref: Ref) -> dict[str, object]:
    log = _union_of(kind)
    if log is not None:
        return ref(log)
    if is_payload(kind) or is_shape(kind):
        return ref(kind)
    origin, args = typing.get_origin(kind), typing.get_args(kind)
    if origin is Literal:
        return {"type": "string", "enum": list(args)}
    if origin is list:
        return {"type": "array", "items": _openapi_type(args[0], ref)}
    if origin is dict:
        return {"type": "object", "additionalProperties": _openapi_type(args[1], ref)}
    if kind in BASIC:
        return dict(BASIC[kind])
    raise TypeError(f"no OpenAPI type for {kind!r}")


def _named(name: str) -> dict[str, object]:
    return {"$ref": f"#/components/schemas/{name}"}


def component_name(target: EventKinds | type) -> str:
    """The component's name of a log (its payloads' union), a ``TypedDict`` or a shape."""
    if isinstance(target, EventKinds):
        return str(target.payload_union)
    return str(target.__name__)


def openapi_ref(target: EventKinds | type) -> dict[str, object]:
    return _named(component_name(target))


# AsyncAPI ----------------------------------------------------------------------------------


def json_components(root: str) -> dict[str, object]:
    """The components ``root`` (a log's union) needs, as AsyncAPI's JSON Schema.

    Nested shapes are inlined, the others put under ``#/components/schemas``. The discriminator
    is AsyncAPI's: the property's name."""
    from apikit.asyncapi import json_schema, shape_payload

    def ref(target: EventKinds | type) -> dict[str, object]:
        return shape_payload(target) if is_shape(target) else openapi_ref(target)

    every: dict[str, dict[str, object]] = {}
    for log in LOGS:
        every.update(openapi_components(log, ref))
    made: dict[str, object] = {}
    for name in sorted(_reachable(every, root)):
        schema = made[name] = json_schema(every[name])
        if "discriminator" in schema:
            schema["discriminator"] = "kind"
    return made


def _reachable(components: Mapping[str, object], root: str) -> set[str]:
    seen, todo = set(), [root]
    while todo:
        name = todo.pop()
        if name not in seen:
            seen.add(name)
            todo += _refs(components[name])
    return seen


def _refs(node: object) -> list[str]:
    if isinstance(node, list):
        return [name for item in node for name in _refs(item)]
    if not isinstance(node, dict):
        return []
    own = [node["$ref"].rsplit("/", 1)[1]] if isinstance(node.get("$ref"), str) else []
    return own + [name for key, value in node.items() if key != "mapping" for name in _refs(value)]


# GraphQL -----------------------------------------------------------------------------------

_OBJECTS: dict[type, type] = {}
_INTERFACES: dict[str, tuple[type, list[type]]] = {}


def graphql_types(log: EventKinds) -> tuple[type, list[type]]:
    """The interface of ``log``'s envelope, and an object type per kind.

    They are made once."""
    made = _INTERFACES.get(log.name)
    if made is None:
        interface = _interface(log)
        made = _INTERFACES[log.name] = (interface, [_variant(log, k, interface) for k in log.kinds])
    return made


def every_graphql_type() -> list[type]:
    """Every kind's object type of every log.

    The schema lists them, since no field returns one."""
    return [variant for log in LOGS for variant in graphql_types(log)[1]]


def _interface(log: EventKinds) -> type:
    annotations: dict[str, object] = {}
    namespace: dict[str, object] = {"__annotations__": annotations, "__module__": __name__}
    for found in fields_of(log.shape):
        annotations[found.name] = graphql_of(found.type, found.meta)
        deprecated = DEPRECATED_PAYLOAD if found.name == "payload" else None
        namespace[found.name] = strawberry.field(
            description=found.meta.description, deprecation_reason=deprecated
        )
    names = {kind: log.variant_name(kind) for kind in log.kinds}
    namespace["resolve_type"] = staticmethod(lambda obj, *_: names[obj.kind])
    made = type(log.name, (), namespace)
    return strawberry.interface(made, description=log.description)


def _variant(log: EventKinds, kind: str, interface: type) -> type:
    annotations: dict[str, object] = {}
    namespace: dict[str, object] = {"__annotations__": annotations, "__module__": __name__}
    payload = log.kinds[kind]
    for key in keys_of(payload) if payload is not None else ():
        if key.name not in log.skip:
            namespace[_python_name(key)] = _payload_field(key, log.shape, kind)
    description = f"`{kind}`: {_description(payload) if payload else 'hidden from you.'}"
    namespace["is_type_of"] = classmethod(lambda _cls, obj, _info: obj.kind == kind)
    made = type(log.variant_name(kind), (interface,), namespace)
    return strawberry.type(made, description=description)


def _python_name(key: Key) -> str:
    return key.about.graphql_name if key.about and key.about.graphql_name else key.name


def _payload_field(key: Key, shape: type[Shape] | None, kind: str) -> object:
    """A field read from the envelope's payload (``shape``) or a nested object's dict."""
    convert = _converter(key.type)
    name = key.name

    def resolve(root: Any) -> Any:
        value = (root.payload if shape is not None else root).get(name)
        return value if value is None or convert is None else convert(value)

    typed = _graphql_of(key.type)
    returned = typed if key.required else typing.Optional[typed]  # noqa: UP045
    resolve.__annotations__ = {"root": Any, "return": returned}
    told = f"`{name}` of `{kind}` (docs/protocol.md §10, §13)."
    description = key.about.description if key.about else told
    return strawberry.field(resolver=resolve, description=description)


def _graphql_of(kind: object) -> object:
    kind, nullable = _optional(kind)
    made = _graphql_plain(kind)
    return typing.Optional[made] if nullable else made  # noqa: UP045


def _graphql_plain(kind: object) -> object:
    log = _union_of(kind)
    if log is not None:
        return graphql_types(log)[0]
    if is_shape(kind):
        return graphql_type(kind)
    if is_payload(kind):
        return _object(kind)
    origin, args = typing.get_origin(kind), typing.get_args(kind)
    if origin is Literal:
        return _enum_or_text(args)
    if origin is list:
        return list[_graphql_of(args[0])]  # type: ignore[misc]
    if origin is dict or kind is Any:
        return JSON
    if kind is BigInt:
        return str  # already its decimal string in the payload
    if kind in BASIC:
        return kind
    raise TypeError(f"no GraphQL type for {kind!r}")


def _enum_or_text(values: tuple[object, ...]) -> type:
    """The GraphQL type of a ``Literal`` of a few words.

    That is the enum declared for exactly them (``apikit.enums``), such as ``MatchSide``. A
    single word, a kind's own, is a ``String``. A new set of words with no enum declared raises
    ``LookupError``. Declare one with ``enum_of``."""
    return str if len(values) < 2 else enum_for(values)


def _object(payload: type) -> type:
    """The object type of a nested ``TypedDict`` (read from its dict)."""
    made = _OBJECTS.get(payload)
    if made is None:
        namespace = {
            _python_name(key): _payload_field(key, None, payload.__name__)
            for key in keys_of(payload)
        }
        namespace["__module__"] = __name__
        made = strawberry.type(
            type(payload.__name__, (), namespace), description=_description(payload)
        )
        _OBJECTS[payload] = made
    return made


def _converter(kind: object) -> Callable[[object], object] | None:
    """How a stored value becomes what its GraphQL type resolves.

    A shape's dict becomes the shape. A payload of another log becomes its envelope. Its
    ``seq`` is shifted by that log's ``seq_offset``."""
    kind, _nullable = _optional(kind)
    log = _union_of(kind)
    if log is not None:
        shape, offset = log.shape, log.seq_offset

        def envelope(value: object) -> object:
            payload = as_dict(value, "a stored payload")
            seq = payload["seq"]
            if not isinstance(seq, int):
                raise TypeError(f"a payload of {shape.__name__}: seq {seq!r} is not a number")
            return row(shape, {**payload, "seq": seq + offset}, payload=payload)

        return envelope
    if is_shape(kind):
        return lambda value: row(kind, value)
    if typing.get_origin(kind) is list:
        inner = _converter(typing.get_args(kind)[0])
        if inner is None:
            return None
        return lambda value: [inner(item) for item in as_list(value, "a stored list")]
    return None
