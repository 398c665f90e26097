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


STARTED = threading.Event()
RELEASE = threading.Event()


@shared_task
def held() -> None:
    STARTED.set()
    RELEASE.wait(30)
    RAN.append(("held", time.monotonic()))


def test_clear_drops_what_waits_and_returns_once_the_running_task_ends() -> None:
    RAN.clear()
    STARTED.clear()
    RELEASE.clear()
    runner = ThreadRunner()
    runner.schedule(held, (), 0)
    runner.schedule(note, ("dropped",), 0.05)
    assert STARTED.wait(5)
    clearing = threading.Thread(target=runner.clear)
    clearing.start()
    clearing.join(0.2)
    assert clearing.is_alive()  # still waiting: the held task has not ended
    RELEASE.set()
    clearing.join(30)
    assert not clearing.is_alive()
    assert [label for label, _ in RAN] == ["held"]  # ended before clear returned; none after
