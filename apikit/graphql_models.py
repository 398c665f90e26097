"""GraphQL types that mirror a model, made with strawberry-graphql-django from a shape.

A shape (``apikit.shapes``) stays the one declaration of a response. REST renders it; OpenAPI
describes it. Where the response is a model's row, ``model_type`` makes its GraphQL type. That is
a ``strawberry_django.type`` of the model, instead of ``graphql_type``. It has the same name,
fields, types and descriptions (the committed SDL shows any difference). It is resolved from the
row.

A field that is not a model field of the same name is given with its optimizer hints
(``strawberry_django.field(only=…, select_related=…)``). A list of shapes is given as a
resolver. The type also resolves from an instance of the shape. (That is an action's answer, or
a row nested in another shape.) Each field is then its attribute.

``optimized`` reads a connection's queryset through strawberry-django's optimizer. So a page of
rows costs the same statements whatever its length.
"""

from __future__ import annotations

import typing
from collections.abc import Callable
from typing import Any, TypeVar, cast

import strawberry_django
from django.db.models import Model, QuerySet
from graphql import GraphQLObjectType, GraphQLResolveInfo, get_named_type
from graphql.execution.collect_fields import FieldDetails, FragmentDetails, collect_subfields
from graphql.execution.values import VariableValues
from graphql.language import FieldNode
from strawberry import relay
from strawberry.extensions.field_extension import FieldExtension, SyncExtensionResolver
from strawberry.types import Info
from strawberry.types.nodes import get_variable_values
from strawberry_django.optimizer import optimize

from apikit.graphql import Connection
from apikit.graphql_pages import Page, sliced
from apikit.shapes import (
    Shape,
    fields_of,
    graphql_camel,
    graphql_of,
    is_list,
    is_shape,
    made_elsewhere,
)

M = TypeVar("M", bound=Model)


def model_type(cls: type[Shape], model: type[Model], given: dict[str, Any]) -> Any:
    """The GraphQL type of shape ``cls``, whose rows are ``model`` 's.

    Each field is the model's field of the same name. ``given`` may make it instead, as a
    ``strawberry_django.field``."""
    annotations: dict[str, Any] = {}
    namespace: dict[str, Any] = {"__annotations__": annotations, "__module__": cls.__module__}
    node = next((f for f in fields_of(cls) if f.meta.node_id), None)
    if unknown := given.keys() - {f.name for f in fields_of(cls)}:  # else dropped silently
        raise TypeError(f"{cls.__name__} has no field {sorted(unknown)}")
    for found in fields_of(cls):
        if not found.meta.graphql or found is node:
            continue
        made = given.get(found.name) or strawberry_django.field()
        made.description = found.meta.description
        if made.base_resolver is not None:
            made.extensions.append(FromShape(cls, found.name))
        if found.meta.graphql_name:
            made.graphql_name = graphql_camel(found.meta.graphql_name)
        namespace[found.name] = made
        if not _pages(found.type):  # a connection's type is its resolver's
            annotations[found.name] = graphql_of(found.type, found.meta)  # keeps their order
    if node is not None and node.type is int:  # last, as ``graphql_type`` places it
        namespace["database_id"] = strawberry_django.field(
            resolver=_pk,
            description=node.meta.description,
            only=(model._meta.pk.name,),
            extensions=[FromShape(cls, node.name)],
        )
        annotations["database_id"] = int
    if node is not None:
        namespace["resolve_id"] = classmethod(_id_of(cls, node.name))
    # The shape's own instances only: a shape extending it (``LeagueView`` of ``LeagueItem``) is
    # another type, told apart by ``node(id:)`` as ``graphql_type`` tells it.
    namespace["is_type_of"] = classmethod(
        lambda _cls, obj, _info: isinstance(obj, model) or type(obj) is cls
    )
    bases = (relay.Node,) if node is not None else ()
    made_type = type(cls.__name__, bases, namespace)
    made_type = strawberry_django.type(model, description=cls.__shape_description__)(made_type)
    made_elsewhere(cls, made_type)  # the shape's one GraphQL type (``graphql_type``)
    return made_type


def _pages(kind: object) -> bool:
    """A list of shapes: a connection, resolved by a given field."""
    return is_list(kind) and is_shape(typing.get_args(kind)[0])


def _pk(root: Model) -> int:
    return cast("int", root.pk)


def _id_of(cls: type[Shape], name: str) -> Callable[..., str]:
    """A ``Node`` 's ``resolve_id``: the row's primary key, or the shape's field ``name``."""

    def resolve_id(_type: type, root: Model | Shape, *, info: object = None) -> str:
        return str(root.pk if isinstance(root, Model) else getattr(root, name))

    return resolve_id


class FromShape(FieldExtension):
    """A field resolved from a row, answered from a shape instance by its attribute."""

    def __init__(self, shape: type[Shape], name: str) -> None:
        self.shape, self.name = shape, name

    def resolve(
        self, next_: SyncExtensionResolver, source: object, info: Info, **kwargs: object
    ) -> object:
        if isinstance(source, self.shape):
            return getattr(source, self.name)
        return next_(source, info, **kwargs)


def optimized(queryset: QuerySet[M], info: Info | GraphQLResolveInfo) -> QuerySet[M]:
    """``queryset`` optimised for the nodes the connection field of ``info`` selects.

    strawberry-django reads a connection of its own. Ours (``apikit.graphql.Connection``) is
    narrowed to its nodes first."""
    raw = info._raw_info if isinstance(info, Info) else info
    return optimize(queryset, node_info(raw))


def counted_page(queryset: QuerySet[M], page: Page) -> Connection[M]:
    """``page`` of ``queryset``: its rows, and its count.

    The count is not read when the rows tell it (a page that ends the list)."""

    def read(offset: int, limit: int) -> tuple[list[M], int]:
        rows = list(queryset[offset : offset + limit]) if limit else []
        if len(rows) < limit and (rows or offset == 0):
            return rows, offset + len(rows)
        return rows, queryset.count()

    return sliced(read, page)


def node_info(info: GraphQLResolveInfo) -> GraphQLResolveInfo:
    """``info`` of a connection field narrowed to its ``edges { node }`` selection."""
    for name in ("edges", "node"):
        parent = cast("GraphQLObjectType", get_named_type(info.return_type))
        nodes = _selected(info, parent, name)
        info = info._replace(
            field_name=name,
            field_nodes=nodes,
            return_type=parent.fields[name].type,
            parent_type=parent,
            path=info.path.add_key(name, parent.name),
        )
    return info


def _selected(info: GraphQLResolveInfo, parent: GraphQLObjectType, name: str) -> list[FieldNode]:
    """The field nodes of ``name`` under ``info`` 's selection, fragments included."""
    collected = collect_subfields(
        info.schema,
        {key: FragmentDetails(fragment) for key, fragment in info.fragments.items()},
        VariableValues(sources={}, coerced=get_variable_values(info)),
        info.operation,
        parent,
        [FieldDetails(node=node, defer_usage=None) for node in info.field_nodes],
    )
    return [
        details.node
        for key, group in collected.grouped_field_set.items()
        for details in group
        if details.node.name.value == name
    ]
