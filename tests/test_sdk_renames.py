"""The Python SDK keeps each method renamed since the last release (``schema/released/``) as a
deprecated alias for one release (issue 41: the operation ids became one style): the old name
warns and calls the new one with the same arguments."""

from __future__ import annotations

import importlib
import sys
from typing import Any

import pytest
import yaml

from server import sdks
from tests.live_server import ROOT

# The SDK of this checkout, imported as its clients import it (examples/play.py).
sys.path.insert(0, str(ROOT / "sdk" / "python"))
Operations: Any = importlib.import_module("challengers_client.operations").Operations


class Recorded(Operations):
    def __init__(self) -> None:
        self.calls: list[tuple[str, str, dict[str, Any]]] = []

    def _call(self, method: str, path: str, **options: Any) -> Any:
        self.calls.append((method, path, options))
        return {}


@pytest.mark.parametrize(
    ("old", "new", "args"),
    [
        ("tournament_list", "tournaments_list", {"status": "lobby"}),
        ("tournament_deck_pick", "tournaments_draft_pick_create", {"tournament_id": 7}),
        ("league_member_list", "leagues_members_list", {"slug": "club"}),
    ],
)
def test_a_released_name_warns_and_calls_the_new_method(
    old: str, new: str, args: dict[str, Any]
) -> None:
    if old == "tournament_deck_pick":
        args = {**args, "body": {"card": 3}}
    by_old, by_new = Recorded(), Recorded()
    with pytest.warns(DeprecationWarning, match=f"{old} is now {new}"):
        getattr(by_old, old)(**args)
    getattr(by_new, new)(**args)
    assert by_old.calls == by_new.calls != []


def test_every_renamed_operation_has_its_alias() -> None:
    schema = ROOT / "schema"
    released = yaml.safe_load((schema / "released" / "openapi.yaml").read_text())
    now = yaml.safe_load((schema / "openapi.yaml").read_text())
    renamed = sdks.renamed_operations(released, now)
    assert len(renamed) == 16
    assert all(callable(getattr(Operations, old, None)) for old in renamed)
