"""The public documents a verifier reads: the tournament's view, its replay and its log.

From a server (``GET /api/v1/tournaments/{id}/``, ``…/replay/`` and GraphQL's
``tournamentLog``, read as a spectator) or from a folder they were saved to (``view.json``,
``replay.json``, ``log.json``).
"""

from __future__ import annotations

import json
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import Any

NAMES = ("view", "replay", "log")
LOG_QUERY = """query Log($id: Int!, $after: String) {
  tournamentLog(tournamentId: $id, first: 500, after: $after) {
    edges { node { seq kind payload } }
    pageInfo { hasNextPage endCursor }
  }
}"""


@dataclass(frozen=True, slots=True)
class Documents:
    view: dict[str, Any]
    replay: dict[str, Any] | None  # none for a cancelled tournament: it has no replay
    log: list[dict[str, Any]]  # every event as a spectator sees it, in seq order

    def save(self, folder: Path) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        for name in NAMES:
            text = json.dumps(getattr(self, name), indent=1, sort_keys=True)
            (folder / f"{name}.json").write_text(text, encoding="utf-8")


def load(folder: Path) -> Documents:
    read = {n: json.loads((folder / f"{n}.json").read_text(encoding="utf-8")) for n in NAMES}
    return Documents(**read)


def _request(url: str, body: dict[str, object] | None = None) -> Any:
    data = None if body is None else json.dumps(body).encode()
    headers = {"Accept": "application/json", "Content-Type": "application/json"}
    with urllib.request.urlopen(urllib.request.Request(url, data, headers), timeout=60) as answer:
        return json.load(answer)


def fetch(base: str, tournament: int) -> Documents:
    root = base.rstrip("/")
    view = _request(f"{root}/api/v1/tournaments/{tournament}/")
    replay = None
    if view["status"] != "cancelled":
        replay = _request(f"{root}/api/v1/tournaments/{tournament}/replay/")
    log: list[dict[str, Any]] = []
    after = None
    while True:
        variables = {"id": tournament, "after": after}
        answer = _request(f"{root}/graphql/", {"query": LOG_QUERY, "variables": variables})
        if answer.get("errors"):
            raise ValueError(f"the log: {answer['errors'][0].get('message')}")
        page = answer["data"]["tournamentLog"]
        # GraphQL names a kind by its enum value (SEAT_PROGRESS); the stream and REST by the
        # kind itself (seat_progress), as docs/protocol.md §13 lists them.
        log += [{**e["node"], "kind": e["node"]["kind"].lower()} for e in page["edges"]]
        if not page["pageInfo"]["hasNextPage"]:
            return Documents(view=view, replay=replay, log=log)
        after = page["pageInfo"]["endCursor"]
