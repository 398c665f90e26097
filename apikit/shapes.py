"""One declaration per response shape, three renderings made from it.

A shape is a dataclass (``@shape``) whose fields carry their descriptions (``field``).
Selectors return shapes.

REST renders them with ``to_json``. The keys come in declaration order. A ``rest=False`` field
is left out, and an ``omit_none`` field when ``None``.

OpenAPI describes them through ``ShapeExtension``. drf-spectacular reads a shape class given to
``extend_schema(responses=...)`` as a component of the same name.

GraphQL's object type is made by ``graphql_type``, with the same name. In it:

- Every list of shapes is a Relay connection with ``first``/``after`` and ``last``/``before``,
  paged by ``apikit.graphql_pages``.
- A ``node_id`` field makes it a ``Node`` whose global ``id`` it holds. Its number is then
  ``databaseId``. A text ``node_id`` is the global id alone.
- ``node_of`` names the Node whose global id it shares: the same object in another shape.
- An ``enum`` field is that enum. A ``BigInt`` is a decimal string (REST's too).
- ``graphql_name`` renames a field. ``graphql=False`` leaves it to REST.
- ``page=False`` sends a short list whole, as part of one object's value.
- ``pages`` are a connection's sizes and cursors.
- A ``Pager`` field is a connection read only when selected, a page at a time.

No serializer or Strawberry type repeats a shape.

Why plain dataclasses rather than pydantic models? The three renderings are the small functions
below. And a selector's row costs a dataclass's construction, not a validation.
"""

from __future__ import annotations

import dataclasses
import datetime
import enum
import importlib
import operator
import types
import typing
from collections.abc import Callable, Mapping, Sequence
from functools import partial
from typing import TYPE_CHECKING, Any, Generic, TypeGuard, TypeVar, Union

import strawberry
from drf_spectacular.extensions import OpenApiSerializerExtension
from drf_spectacular.utils import Direction
from rest_framework import serializers
from strawberry import relay
from strawberry.scalars import JSON

from apikit.graphql import Connection
from apikit.graphql_pages import ITEMS, Page, Rules, page_of, paged

if TYPE_CHECKING:
    from drf_spectacular.openapi import AutoSchema

S = TypeVar("S", bound="Shape")
T = TypeVar("T")

BigInt = typing.NewType("BigInt", int)
"""A whole number that may pass 2^53 (a seed): a decimal string in every answer, REST's and
GraphQL's alike (a JavaScript number would round it; docs/contract.md)."""


class Shape:
    """Every response shape's base (``@shape`` makes the dataclass)."""

    __slots__ = ()
    __shape_description__: typing.ClassVar[str] = ""


@dataclasses.dataclass(frozen=True)
class Meta:
    """What a shape's field says beyond its type."""

    description: str
    rest: bool = True  # False: GraphQL only (a node's database id REST does not send)
    omit_none: bool = False  # REST leaves the key out when the value is None
    enum: type[enum.Enum] | None = None  # the GraphQL enum of a string field (OpenAPI: its values)
    node_id: bool = False  # the type is a Node and this is the number of its global id
    node_of: str | None = None  # the global id is that Node type's (one object, two shapes)
    graphql: bool = True  # False: REST only (GraphQL sends it otherwise, another field)
    graphql_name: str | None = None  # GraphQL's name of the field (REST's is the field's)
    page: bool = True  # False: a list of shapes GraphQL sends whole, not as a connection
    pages: Rules = ITEMS  # a connection's sizes and cursors


class Pager(Generic[T]):
    """A list GraphQL pages itself.

    A shape's field of this type is a connection. Its resolver asks the value for one page,
    only when selected. REST never sends it (``rest=False``)."""

    __slots__ = ()

    def page(self, page: Page) -> Connection[T]:
        """``page`` of the list (a ``Connection``), its arguments already checked."""
        raise NotImplementedError


SHAPES: dict[str, type[Shape]] = {}


def field(
    description: str,
    *,
    default: object = dataclasses.MISSING,
    rest: bool = True,
    omit_none: bool = False,
    enum: type[enum.Enum] | None = None,
    node_id: bool = False,
    node_of: str | None = None,
    graphql: bool = True,
    graphql_name: str | None = None,
    page: bool = True,
    pages: Rules = ITEMS,
) -> Any:
    """A shape's field and its description.

    With a ``default``, it is optional in the constructor."""
    meta = Meta(
        description,
        rest=rest,
        omit_none=omit_none,
        enum=enum,
        node_id=node_id or node_of is not None,
        node_of=node_of,
        graphql=graphql,
        graphql_name=graphql_name,
        page=page,
        pages=pages,
    )
    return dataclasses.field(default=default, metadata={"shape": meta})


@typing.dataclass_transform(kw_only_default=True, field_specifiers=(field,))
def shape(description: str) -> Callable[[type[S]], type[S]]:
    """Declare ``cls`` a shape: a keyword-only dataclass with slots.

    It is registered by its name, which its OpenAPI component and GraphQL type take. It is not
    frozen. A frozen dataclass costs twice as much to build. A selector builds one per row."""

    def make(cls: type[S]) -> type[S]:
        made = dataclasses.dataclass(slots=True, kw_only=True)(cls)
        made.__shape_description__ = description
        if SHAPES.setdefault(made.__name__, made) is not made:
            raise ValueError(f"two shapes are named {made.__name__}")
        return made

    return make


# The fields of a shape ---------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Field:
    name: str
    type: object
    meta: Meta


_FIELDS: dict[type, tuple[Field, ...]] = {}


def fields_of(cls: type[Shape]) -> tuple[Field, ...]:
    """The shape's fields in declaration order, their annotations resolved."""
    found = _FIELDS.get(cls)
    if found is None:
        hints = typing.get_type_hints(cls)
        found = tuple(
            Field(f.name, hints[f.name], f.metadata["shape"])
            for f in dataclasses.fields(cls)  # type: ignore[arg-type]
        )
        _FIELDS[cls] = found
    return found


def _optional(kind: object) -> tuple[object, bool]:
    """``X | None`` as ``(X, True)``; anything else as ``(kind, False)``."""
    if typing.get_origin(kind) in (Union, types.UnionType):
        rest = [a for a in typing.get_args(kind) if a is not type(None)]
        if len(rest) == 1 and len(typing.get_args(kind)) == 2:
            return rest[0], True
    return kind, False


def _is_shape(kind: object) -> TypeGuard[type[Shape]]:
    return isinstance(kind, type) and issubclass(kind, Shape)


def _is_list(kind: object) -> bool:
    """``list[X]``, or ``Sequence[X]``.

    A ``Sequence`` is a list a selector may hand over unread. It has ``len`` and slices, and
    reads only the page GraphQL asks for."""
    return typing.get_origin(kind) in (list, Sequence)


# Building shapes ---------------------------------------------------------------------------


def row(kind: type[S], source: object, /, **given: object) -> S:
    """A ``kind`` built from ``source``.

    ``source`` is a model row, another shape, or a mapping (a ``.values()`` row, a stored
    payload). Each field ``given`` takes that value. Every other one takes ``source``'s
    attribute, or a mapping's key, of the same name. This is the one row builder. A selector
    names only what it works out or renames."""
    names = _NAMES.get(kind) or _names(kind)
    if not given.keys() <= names:  # a misspelt name would be dropped silently
        raise TypeError(f"{kind.__name__} has no field {sorted(given.keys() - names)}")
    read = source.__getitem__ if isinstance(source, Mapping) else partial(getattr, source)
    return kind(**{name: given[name] if name in given else read(name) for name in names})


_NAMES: dict[type, frozenset[str]] = {}


def _names(kind: type[Shape]) -> frozenset[str]:
    found = _NAMES[kind] = frozenset(f.name for f in dataclasses.fields(kind))  # type: ignore[arg-type]
    return found


def listing(item: type[Shape], name: str, description: str) -> type[Shape]:
    """The answer of a list endpoint, ``{"results": [item, ...]}``.

    It is declared once for every list. The shape is named ``name`` (its OpenAPI component).
    ``LISTINGS`` maps it to ``item``."""
    namespace: dict[str, Any] = {
        "__annotations__": {"results": list[item]},  # type: ignore[valid-type]
        "results": field("The items."),
        "__module__": item.__module__,
        "__qualname__": name,
    }
    made: type[Shape] = shape(description)(type(name, (Shape,), namespace))
    LISTINGS[made] = item
    return made


# Every listing shape and its item's shape.
LISTINGS: dict[type[Shape], type[Shape]] = {}


# REST --------------------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Plan:
    """How REST renders one shape.

    Its fields are read at once. Fields holding shapes are converted. ``omit_none`` ones are
    dropped when unset."""

    names: tuple[str, ...]
    read: Callable[[object], Sequence[object]]
    convert: tuple[tuple[str, Callable[[object], object]], ...]
    omit: tuple[str, ...]


_REST: dict[type, Plan] = {}


def to_json(value: object) -> Any:
    """A shape (or a list of them) as REST's body: plain dicts and lists.

    Keys are in declaration order. Dates and other values are left to the renderer."""
    if isinstance(value, Shape):
        plan = _REST.get(type(value)) or _plan(type(value))
        body = dict(zip(plan.names, plan.read(value), strict=True))
        for name, convert in plan.convert:
            if body[name] is not None:
                body[name] = convert(body[name])
        for name in plan.omit:
            if body[name] is None:
                del body[name]
        return body
    if isinstance(value, list | tuple):
        return [to_json(item) for item in value]
    return value


def _plan(cls: type[Shape]) -> Plan:
    """The REST fields of ``cls``.

    A value with no shape in its type is sent as it is."""
    sent = [f for f in fields_of(cls) if f.meta.rest]
    names = tuple(f.name for f in sent)
    getter = operator.attrgetter(*names)
    read = getter if len(names) > 1 else (lambda value: (getter(value),))
    convert = tuple((f.name, c) for f in sent if (c := _converter(f.type)) is not None)
    made = Plan(names, read, convert, tuple(f.name for f in sent if f.meta.omit_none))
    _REST[cls] = made
    return made


def _converter(kind: object) -> Callable[[object], object] | None:
    kind, _nullable = _optional(kind)
    if kind is BigInt:
        return str
    if _is_shape(kind):
        return to_json
    if _is_list(kind) and _converter(typing.get_args(kind)[0]) is not None:
        return to_json
    return None


# OpenAPI -----------------------------------------------------------------------------------

DECIMAL = "^[0-9]+$"  # a BigInt's text: the decimal digits of a whole number
BASIC: dict[object, dict[str, object]] = {
    int: {"type": "integer"},
    BigInt: {"type": "string", "pattern": DECIMAL},
    float: {"type": "number", "format": "double"},
    bool: {"type": "boolean"},
    str: {"type": "string"},
    datetime.date: {"type": "string", "format": "date"},
    datetime.datetime: {"type": "string", "format": "date-time"},
    Any: {},
}


def openapi_schema(
    cls: type[Shape], ref: Callable[[type[Shape]], dict[str, object]]
) -> dict[str, object]:
    """The OpenAPI object of a shape.

    ``ref(nested)`` is a nested shape's component reference."""
    properties: dict[str, object] = {}
    required: list[str] = []
    for found in fields_of(cls):
        if not found.meta.rest:
            continue
        schema = _openapi_type(found.type, found.meta, ref)
        properties[found.name] = {**schema, "description": found.meta.description}
        if not found.meta.omit_none:
            required.append(found.name)
    made: dict[str, object] = {"type": "object", "description": cls.__shape_description__}
    made["properties"] = properties
    return {**made, "required": required} if required else made


def _openapi_type(
    kind: object, meta: Meta, ref: Callable[[type[Shape]], dict[str, object]]
) -> dict[str, object]:
    kind, nullable = _optional(kind)
    schema = _openapi_plain(kind, meta, ref)
    if not nullable:
        return schema
    if "$ref" in schema:
        return {"allOf": [schema], "nullable": True}
    return {**schema, "nullable": True}


def _openapi_plain(
    kind: object, meta: Meta, ref: Callable[[type[Shape]], dict[str, object]]
) -> dict[str, object]:
    if meta.enum is not None and not typing.get_origin(kind):
        return {"type": "string", "enum": [member.value for member in meta.enum]}
    if _is_shape(kind):
        return dict(ref(kind))
    origin, args = typing.get_origin(kind), typing.get_args(kind)
    if _is_list(kind):
        return {"type": "array", "items": _openapi_type(args[0], meta, ref)}
    if origin is dict:
        return {"type": "object", "additionalProperties": _openapi_type(args[1], meta, ref)}
    if kind in BASIC:
        return dict(BASIC[kind])
    raise TypeError(f"no OpenAPI type for {kind!r}")


class Many(serializers.ListSerializer):
    """A REST answer that is a JSON list of a shape.

    Use it as ``extend_schema(responses=Many(Shape))``. OpenAPI shows an array of the shape's
    component. It never renders: the view sends ``to_json(list)``."""

    def __init__(self, item: type[Shape]) -> None:
        serializers.BaseSerializer.__init__(self)
        self.child = item  # type: ignore[assignment]  # drf-spectacular reads the shape here


class ShapeExtension(OpenApiSerializerExtension):
    """drf-spectacular reads a shape class as a component named after it."""

    target_class = Shape
    match_subclasses = True

    def get_name(self, auto_schema: AutoSchema, direction: Direction) -> str:
        return str(self.target.__name__)

    def map_serializer(self, auto_schema: Any, direction: Direction) -> dict[str, object]:
        def ref(nested: type[Shape]) -> dict[str, object]:
            return dict(auto_schema.resolve_serializer(nested, direction).ref)

        return openapi_schema(self.target, ref)


# GraphQL -----------------------------------------------------------------------------------

_TYPES: dict[type, type] = {}
ELSEWHERE: dict[type, Callable[[], type]] = {}
"""Shapes whose GraphQL type is made elsewhere: a log's envelope is an interface
(``apikit.events``)."""


def graphql_type(cls: type[Shape]) -> Any:
    """The Strawberry type of a shape, made once.

    It resolves its fields from the shape's instance itself. So a resolver returns the selector's
    value unchanged. It returns ``Any`` because resolvers are annotated with it."""
    made = _TYPES.get(cls)
    if made is not None:
        return made
    if cls in ELSEWHERE:
        made = _TYPES[cls] = ELSEWHERE[cls]()
        return made
    annotations: dict[str, object] = {}
    namespace: dict[str, object] = {"__annotations__": annotations, "__module__": cls.__module__}
    node = next((f for f in fields_of(cls) if f.meta.node_id), None)
    for found in fields_of(cls):
        if not found.meta.graphql or (found is node and found.type is not int):
            continue  # REST's alone, or a text node id: the global id only
        name = "database_id" if found is node else found.name
        renamed = found.meta.graphql_name
        if found is node:
            namespace[name] = strawberry.field(
                description=found.meta.description, resolver=_getter(found.name, int)
            )
        elif _paged(found):
            namespace[name] = _page_field(found)
        else:
            annotations[name] = _graphql_of(found.type, found.meta)
            namespace[name] = strawberry.field(
                description=found.meta.description, name=renamed and graphql_camel(renamed)
            )
    bases: tuple[type, ...] = ()
    if node is not None:
        # A Node is told apart by its shape's class (``node(id:)`` answers the shape itself).
        namespace["is_type_of"] = classmethod(lambda _cls, obj, _info: type(obj) is cls)
        namespace["resolve_id"] = classmethod(_id_of(node.name))
        if node.meta.node_of is not None:
            typename = node.meta.node_of
            namespace["resolve_typename"] = classmethod(lambda _cls, _root, _info: typename)
        bases = (relay.Node,)
    made = strawberry.type(
        type(cls.__name__, bases, namespace), description=cls.__shape_description__
    )
    _TYPES[cls] = made
    return made


def made_elsewhere(cls: type[Shape], made: type) -> None:
    """``made`` is the GraphQL type of ``cls``: a model's type (``apikit.graphql_models``).

    ``graphql_type`` answers it. A type made from the shape before it fails here."""
    if _TYPES.setdefault(cls, made) is not made:
        raise ValueError(f"{cls.__name__}'s GraphQL type was made before its model's")


def made_in(module: str, *shapes: type[Shape]) -> None:
    """The GraphQL types of ``shapes`` are ``module`` 's models' types.

    The module is imported when first asked for. A type made from the shape before them would
    fail there."""
    for cls in shapes:
        ELSEWHERE[cls] = partial(_made_in, module, cls.__name__)


def _made_in(module: str, name: str) -> type:
    made = getattr(importlib.import_module(module), name)
    if not isinstance(made, type):
        raise TypeError(f"{module}.{name} is not a GraphQL type")
    return made


def graphql_camel(name: str) -> str:
    """GraphQL's name of a snake_case name (``room_code``: ``roomCode``)."""
    head, *rest = name.split("_")
    return head + "".join(part[:1].upper() + part[1:] for part in rest)


def _getter(name: str, kind: type) -> Callable[[object], object]:
    def resolve(root: object) -> object:
        return getattr(root, name)

    resolve.__annotations__ = {"root": Any, "return": kind}
    return resolve


def _id_of(name: str) -> Callable[..., str]:
    def resolve_id(_cls: type, root: object, *, info: strawberry.Info) -> str:
        return str(getattr(root, name))

    return resolve_id


def _paged(found: Field) -> bool:
    """A connection: a ``Pager``, or a list of shapes unless ``page=False``."""
    origin, args = typing.get_origin(found.type), typing.get_args(found.type)
    if origin is not None and isinstance(origin, type) and issubclass(origin, Pager):
        return True
    return found.meta.page and _is_list(found.type) and _is_shape(args[0])


def _page_field(found: Field) -> object:
    item = typing.get_args(found.type)[0]

    def resolve(root: object, page: Page) -> object:
        value = getattr(root, found.name)
        return value.page(page) if isinstance(value, Pager) else page_of(value, page)

    resolve.__annotations__ = {"root": Any, "page": Page, "return": connection_type(item)}
    resolver = paged(found.meta.pages)(resolve)
    return strawberry.field(resolver=resolver, description=found.meta.description)


def connection_type(item: type[Shape]) -> Any:
    """The GraphQL connection of a shape's list: ``<Item>Connection``.

    It returns ``Any`` because resolvers are annotated with it."""
    return Connection[graphql_type(item)]  # type: ignore[misc]


def _graphql_of(kind: object, meta: Meta) -> object:
    kind, nullable = _optional(kind)
    made = _graphql_plain(kind, meta)
    return typing.Optional[made] if nullable else made  # noqa: UP045


def _graphql_plain(kind: object, meta: Meta) -> object:
    if meta.enum is not None and not typing.get_origin(kind):
        return meta.enum
    if _is_shape(kind):
        return graphql_type(kind)
    origin, args = typing.get_origin(kind), typing.get_args(kind)
    if _is_list(kind):
        return list[_graphql_of(args[0], meta)]  # type: ignore[misc]
    if origin is dict or kind is Any:
        return JSON
    if kind is BigInt:
        return str  # graphql-core writes the int as its decimal string
    if kind in BASIC:
        return kind
    raise TypeError(f"no GraphQL type for {kind!r}")


# What ``apikit.events`` (the logs' typed events) reads of a shape's renderings.
is_shape = _is_shape
is_list = _is_list
graphql_of = _graphql_of
