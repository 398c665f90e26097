"""The public documents a verifier reads: the tournament's view, its replay and its log.

They come from a server, read as a spectator: ``GET /api/v1/tournaments/{id}/``, ``…/replay/`` and
GraphQL's ``tournamentLog``. Or they come from a folder they were saved to (``view.json``,
``replay.json``, ``log.json``).
"""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

NAMES = ("view", "replay", "log")
LOG_QUERY = """query Log($id: Int!, $after: String) {
  tournamentLog(tournamentId: $id, first: 500, after: $after) {
    edges { node { seq kind payload } }
    pageInfo { hasNextPage endCursor }
  }
}"""


def as_dict(value: object, what: str) -> dict[str, object]:
    """``value``, a JSON object; else an error naming ``what``."""
    if not isinstance(value, dict):
        raise ValueError(f"{what}: a JSON object expected, not {type(value).__name__}")
    return value


def as_list(value: object, what: str) -> list[object]:
    """``value``, a JSON array; else an error naming ``what``."""
    if not isinstance(value, list):
        raise ValueError(f"{what}: a JSON array expected, not {type(value).__name__}")
    return value


def as_dicts(value: object, what: str) -> list[dict[str, object]]:
    """``value``, a JSON array of objects."""
    return [as_dict(item, what) for item in as_list(value, what)]


def as_int(value: object, what: str) -> int:
    """``value``, a whole number or its decimal string.

    A seed is published as a string."""
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise ValueError(f"{what}: a number expected, not {type(value).__name__}")
    return int(value)


def as_str(value: object, what: str) -> str:
    """``value``, a JSON string; else an error naming ``what``."""
    if not isinstance(value, str):
        raise ValueError(f"{what}: a string expected, not {type(value).__name__}")
    return value


@dataclass(frozen=True, slots=True)
class Documents:
    view: dict[str, object]
    replay: dict[str, object] | None  # none for a cancelled tournament: it has no replay
    log: list[dict[str, object]]  # every event as a spectator sees it, in seq order

    def save(self, folder: Path) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        for name in NAMES:
            text = json.dumps(getattr(self, name), indent=1, sort_keys=True)
            (folder / f"{name}.json").write_text(text, encoding="utf-8")


def load(folder: Path) -> Documents:
    read = {n: json.loads((folder / f"{n}.json").read_text(encoding="utf-8")) for n in NAMES}
    replay = None if read["replay"] is None else as_dict(read["replay"], "replay.json")
    return Documents(as_dict(read["view"], "view.json"), replay, as_dicts(read["log"], "log.json"))


def _request(url: str, body: Mapping[str, object] | None = None) -> object:
    data = None if body is None else json.dumps(body).encode()
    headers = {"Accept": "application/json", "Content-Type": "application/json"}
    with urllib.request.urlopen(urllib.request.Request(url, data, headers), timeout=60) as answer:
        return json.load(answer)


def fetch(base: str, tournament: int) -> Documents:
    root = base.rstrip("/")
    view = as_dict(_request(f"{root}/api/v1/tournaments/{tournament}/"), "the view")
    replay = None
    if view["status"] != "cancelled":
        replay = as_dict(_request(f"{root}/api/v1/tournaments/{tournament}/replay/"), "the replay")
    log: list[dict[str, object]] = []
    after: object = None
    while True:
        variables = {"id": tournament, "after": after}
        body = {"query": LOG_QUERY, "variables": variables}
        answer = as_dict(_request(f"{root}/graphql/", body), "the log")
        if errors := answer.get("errors"):
            raise ValueError(f"the log: {as_dicts(errors, 'its errors')[0].get('message')}")
        page = as_dict(as_dict(answer["data"], "the log")["tournamentLog"], "the log")
        # GraphQL names a kind by its enum value (SEAT_PROGRESS); the stream and REST by the
        # kind itself (seat_progress), as docs/protocol.md §13 lists them.
        for edge in as_dicts(page["edges"], "the log's edges"):
            node = as_dict(edge["node"], "a log event")
            log.append({**node, "kind": as_str(node["kind"], "a log event's kind").lower()})
        info = as_dict(page["pageInfo"], "the log's pageInfo")
        if not info["hasNextPage"]:
            return Documents(view=view, replay=replay, log=log)
        after = info["endCursor"]
