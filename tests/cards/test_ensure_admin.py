"""ensure_admin: the start command's way to make admin reachable."""

from __future__ import annotations

from io import StringIO

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command


def _run() -> str:
    out = StringIO()
    call_command("ensure_admin", stdout=out)
    return out.getvalue()


@pytest.mark.django_db
def test_it_creates_the_admin_from_admin_password_then_resets_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("ADMIN_PASSWORD", "letmein-42")
    assert "created" in _run()
    assert "reset from ADMIN_PASSWORD" in _run()
    admin = User.objects.get(username="admin")
    assert admin.is_superuser and admin.check_password("letmein-42")


@pytest.mark.django_db
def test_without_admin_password_it_prints_a_generated_one_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("ADMIN_PASSWORD", raising=False)
    password = _run().rsplit("password ", 1)[1].strip()
    assert User.objects.get(username="admin").check_password(password)
    assert "password unchanged" in _run()
