"""A cache of a test's own, for counts that must not leak between tests."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from contextlib import contextmanager

from django.test import override_settings


@contextmanager
def own_cache() -> Iterator[None]:
    """A fresh in-memory default cache: throttling counts start at zero whatever ran before
    (a shared Redis keeps a minute's counts from earlier tests of the same address)."""
    location = f"own-cache-{uuid.uuid4()}"
    caches = {
        "default": {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "LOCATION": location,
        }
    }
    with override_settings(CACHES=caches):
        yield
