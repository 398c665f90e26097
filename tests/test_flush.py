"""The suite's flush between transactional tests (``tests/conftest.py``): rows deleted, not
truncated; content types and permissions kept as they are."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Group, Permission, User
from django.contrib.contenttypes.models import ContentType
from django.core.management import call_command
from django.db import connection

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="PostgreSQL's flush alone"),
]


def _ids() -> tuple[set[int], set[int]]:
    return set(ContentType.objects.values_list("id", flat=True)), set(
        Permission.objects.values_list("id", flat=True)
    )


def test_a_flush_deletes_the_rows_and_keeps_content_types_and_permissions() -> None:
    User.objects.create_user("flushed")
    Group.objects.create(name="flushed").permissions.add(Permission.objects.earliest("pk"))
    kept = _ids()
    # As ``TransactionTestCase`` flushes after each test.
    call_command("flush", interactive=False, verbosity=0, reset_sequences=False)
    assert not User.objects.exists() and not Group.objects.exists()
    # A truncate would have written them again (post_migrate), under new ids.
    assert _ids() == kept and all(kept)
