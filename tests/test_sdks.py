"""The SDKs (``sdk/``) are what ``manage.py export_sdks`` makes from the committed schemas.

The check needs node and npm (``npm ci`` in ``sdk/typescript`` on first use, from its lock)."""

from __future__ import annotations

import shutil

import pytest

from config import sdks

NODE = shutil.which("node")
needs_node = pytest.mark.skipif(
    NODE is None or shutil.which("npm") is None, reason="node and npm are not installed"
)


@needs_node
@pytest.mark.timeout(300)
def test_the_committed_sdks_are_generated_from_the_committed_schemas() -> None:
    """The drift check: regenerated into a temporary folder, every generated file equals the
    committed one (else: run ``manage.py export_sdks`` and commit sdk/)."""
    diff = sdks.stale()
    assert diff == "", "sdk/ differs from schema/: run manage.py export_sdks\n" + diff[:20_000]


def test_the_generated_files_are_marked_and_the_rest_is_not() -> None:
    for name in sdks.GENERATED:
        assert "manage.py export_sdks" in (sdks.SDK_DIR / name).read_text(encoding="utf-8")[:300]
    written = {"python/challengers_client/client.py", "typescript/src/index.ts"}
    assert not written & set(sdks.GENERATED)
    for name in written:
        assert (sdks.SDK_DIR / name).exists()
