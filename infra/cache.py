"""Django's cache on Redis that fails open: a Redis outage is a cache miss, never a 500.

The cache holds only what can be rebuilt. One part is a tournament's per-version projections. On a
miss the selectors read the database. The other part is the throttles' request counts. With nothing
counted, a request is let through. So while Redis is down, throttling pauses instead of refusing
everyone. While Redis is silent, every read answers its default. Every write is dropped. Each
call logs one warning.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable
from typing import Concatenate, ParamSpec, TypeVar

import redis.exceptions
from django.core.cache.backends.redis import RedisCache

from infra import observe

log = logging.getLogger(__name__)
P = ParamSpec("P")
R = TypeVar("R")

UNREACHABLE = (redis.exceptions.RedisError, OSError)


def _fail_open(
    method: Callable[Concatenate[RedisCache, P], R], missing: Callable[..., R]
) -> Callable[Concatenate[RedisCache, P], R]:
    @functools.wraps(method)
    def wrapper(self: RedisCache, *args: P.args, **kwargs: P.kwargs) -> R:
        try:
            answer = method(self, *args, **kwargs)
        except UNREACHABLE as error:
            observe.dependency_seen(observe.REDIS, False)
            log.warning("Cache %s failed (Redis does not answer): %s", method.__name__, error)
            return missing(*args, **kwargs)
        observe.dependency_seen(observe.REDIS, True)
        return answer

    return wrapper


def _default(key: object, default: object = None, *_: object, **__: object) -> object:
    return default


def _nothing(*_: object, **__: object) -> None:
    return None


def _false(*_: object, **__: object) -> bool:
    return False


def _empty(*_: object, **__: object) -> dict[str, object]:
    return {}


def _unset_keys(data: dict[str, object], *_: object, **__: object) -> list[str]:
    return list(data)


class FailOpenRedisCache(RedisCache):
    """``RedisCache``, acting empty while Redis is down."""

    get = _fail_open(RedisCache.get, _default)
    get_many = _fail_open(RedisCache.get_many, _empty)
    has_key = _fail_open(RedisCache.has_key, _false)
    add = _fail_open(RedisCache.add, _false)
    set = _fail_open(RedisCache.set, _nothing)
    set_many = _fail_open(RedisCache.set_many, _unset_keys)
    touch = _fail_open(RedisCache.touch, _false)
    delete = _fail_open(RedisCache.delete, _false)
    delete_many = _fail_open(RedisCache.delete_many, _nothing)
    clear = _fail_open(RedisCache.clear, _nothing)
