"""The embedded server's task thread runs tasks in due order and keeps their countdowns."""

from __future__ import annotations

import threading
import time

from celery import shared_task

from infra.taskqueue import ThreadRunner

RAN: list[tuple[str, float]] = []
DONE = threading.Event()


@shared_task
def note(label: str) -> None:
    RAN.append((label, time.monotonic()))
    if label == "last":
        DONE.set()


def test_tasks_run_in_due_order_and_not_before_their_countdown() -> None:
    RAN.clear()
    DONE.clear()
    runner = ThreadRunner()
    start = time.monotonic()
    runner.schedule(note, ("last",), 0.4)
    runner.schedule(note, ("first",), 0)
    runner.schedule(note, ("middle",), 0.2)
    assert DONE.wait(5)
    assert [label for label, _ in RAN] == ["first", "middle", "last"]
    assert RAN[2][1] - start >= 0.4
    assert RAN[1][1] - start >= 0.2


def test_a_failing_task_does_not_stop_the_runner() -> None:
    RAN.clear()
    DONE.clear()
    runner = ThreadRunner()
    runner.schedule(note, (), 0)  # wrong arguments: the task raises
    runner.schedule(note, ("last",), 0.05)
    assert DONE.wait(5)
