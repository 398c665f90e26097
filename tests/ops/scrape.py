"""Reading ``/metrics`` in tests: one scrape as ``{(name, labels): value}``."""

from __future__ import annotations

from typing import Any

from django.test import Client
from prometheus_client.parser import text_string_to_metric_families

Samples = dict[tuple[str, frozenset[tuple[str, str]]], float]


def scrape(**headers: Any) -> tuple[Samples, set[str]]:
    """Every sample of a scrape from loopback, and the family names it declares."""
    response = Client().get("/metrics", **headers)
    assert response.status_code == 200, response.content
    text = response.content.decode()
    samples: Samples = {}
    families: set[str] = set()
    for family in text_string_to_metric_families(text):
        families.add(family.name)
        for sample in family.samples:
            samples[(sample.name, frozenset(sample.labels.items()))] = sample.value
    return samples, families


def value(samples: Samples, name: str, **labels: str) -> float:
    return samples.get((name, frozenset(labels.items())), 0.0)


def total(samples: Samples, name: str, **labels: str) -> float:
    """The sum of ``name`` over the series whose labels include ``labels``."""
    wanted = set(labels.items())
    return sum(v for (n, got), v in samples.items() if n == name and wanted <= got)
