"""The catalogue's operations' summaries, added to the schema by ``apikit.openapi``
(``CardsConfig.ready``)."""

from __future__ import annotations

from apikit.openapi import Operation

OPERATIONS: dict[tuple[str, str], Operation] = {
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
}
