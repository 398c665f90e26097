"""The card API's answers, cached until the catalogue changes.

The catalogue changes only when an admin or the loader saves a card or a set. Each such save bumps a
version number in Django's cache. On the full stack that is Redis, so every server process sees it
at once. Answers are cached under that version and the query. Reading the card list is then one
cache lookup. Otherwise it is a query and 163 serialized rows.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from django.core.cache import cache
from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver
from django.utils.translation import get_language

from cards.models import Card, CardSet

T = TypeVar("T")

VERSION_KEY = "cards:version"
TIMEOUT = 24 * 3600


def catalogue_version() -> int:
    version = cache.get(VERSION_KEY)
    if version is None:
        cache.add(VERSION_KEY, 1, None)
        version = cache.get(VERSION_KEY, 1)
    return int(version)


@receiver([post_save, post_delete], sender=Card)
@receiver([post_save, post_delete], sender=CardSet)
def catalogue_changed(**kwargs: object) -> None:
    """Any saved or deleted card or set makes every cached answer stale."""
    try:
        cache.incr(VERSION_KEY)
    except ValueError:  # no version yet: nothing was cached under one
        cache.add(VERSION_KEY, 1, None)


def cached_answer(name: str, query: str, build: Callable[[], T]) -> T:
    """The answer of endpoint ``name`` for ``query``.

    It is built once per catalogue version and language: names and effects are translated."""
    return cached_named(name, query, build)[0]


def cached_named(name: str, query: str, build: Callable[[], T]) -> tuple[T, str]:
    """``cached_answer``'s answer, and its key.

    The key names its content: same key, same answer. GraphQL reuses a page it completed
    for the key (``apikit.graphql_execution``)."""
    key = f"cards:{catalogue_version()}:{get_language()}:{name}:{query}"
    answer = cache.get(key)
    if answer is None:
        answer = build()
        cache.set(key, answer, TIMEOUT)
    return answer, key
