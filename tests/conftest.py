"""Fixtures shared by the whole suite."""

from __future__ import annotations

from typing import Any

import pytest

from cards.catalogue import LoadReport, catalogue_load


@pytest.fixture
def catalogue(db: None) -> LoadReport:
    """The project's card catalogue, loaded into the test database."""
    return catalogue_load()


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings: Any) -> None:
    """Tests log users in often; a real password hash costs ~0.5 s each time."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
