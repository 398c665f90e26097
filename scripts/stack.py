"""The pieces of the full stack as processes, shared by ``bench_stack.py`` and ``drill.py``.

A ``Stack`` starts Celery workers and Daphnes (the shape of ``docker-compose.yml`` scaled with
``--scale worker=N --scale ws=N``) as subprocesses of this process, each in a process group of
its own so that a SIGKILL takes its pool with it (as a container's death would), and stops every
one of them by its PID when the ``with`` block ends, however it ends.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parent.parent
VENV_BIN = Path(sys.executable).parent
# A safety net, not a budget: a service is waited for until its own sign of readiness (its port
# answers, its log says ready) or its exit; on a loaded machine a worker took over 60 s to start.
READY_SECONDS = 600


def stack_environment(database_url: str, redis_url: str, **extra: str) -> dict[str, str]:
    """The environment of every process of the stack: DEBUG off, no throttling of the one
    client address the harness plays from, and ``extra`` on top."""
    return {
        **os.environ,
        "DATABASE_URL": database_url,
        "REDIS_URL": redis_url,
        "MATCH_EVENT_PACE_MS": "0",
        "DEBUG": "false",
        "HTTPS": "false",
        "SECRET_KEY": "full-stack-harness-only",
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "THROTTLE_CREATE": "off",
        "THROTTLE_JOIN": "off",
        "THROTTLE_ACTION": "off",
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "PYTHONPATH": str(ROOT),
        **extra,
    }


def prepare_database(env: dict[str, str]) -> None:
    """Create the stack's database if it is missing, migrate it, load the catalogue."""
    import psycopg

    url = urlsplit(env["DATABASE_URL"])
    name = url.path.lstrip("/")
    admin = urlunsplit(url._replace(path="/postgres"))
    with psycopg.connect(admin, autocommit=True) as conn:
        if not conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone():
            conn.execute(f'CREATE DATABASE "{name}"')
    for command in (["migrate", "--verbosity", "0"], ["load_catalogue"]):
        manage(env, *command)


def manage(env: dict[str, str], *command: str) -> str:
    """Run ``manage.py <command>`` in the stack's environment; its standard output."""
    done = subprocess.run(
        [sys.executable, "manage.py", *command],
        cwd=ROOT,
        env=env,
        check=True,
        capture_output=True,
        text=True,
    )
    return done.stdout


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def listening(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1):
            return True
    except OSError:
        return False


def wait_until(condition: Callable[[], object], *, seconds: float, what: str) -> float:
    """Poll ``condition()`` every 0.1 s until it is true; the seconds it took. ``seconds`` is a
    safety net: past it, raise naming ``what``."""
    started = time.monotonic()
    while not condition():
        if time.monotonic() - started > seconds:
            raise TimeoutError(f"{what}: not within {seconds:.0f} s")
        time.sleep(0.1)
    return time.monotonic() - started


def cpu_seconds(pid: int) -> float:
    """User + system CPU of a process and of its descendants still running (a prefork pool)."""
    tick = os.sysconf("SC_CLK_TCK")
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    except OSError:  # not Linux, or the process is gone
        return 0.0
    return (int(fields[11]) + int(fields[12])) / tick + sum(cpu_seconds(int(c)) for c in children)


@dataclass
class Service:
    """One process of the stack, and how to start it again."""

    name: str
    command: list[str]
    log: Path
    port: int | None = None
    ready_text: str = " ready."  # what its log says once it works (when it has no port)
    process: subprocess.Popen[bytes] | None = None
    starts: int = 0
    started: float = 0.0  # time.monotonic() of the last start

    @property
    def pid(self) -> int:
        assert self.process is not None
        return self.process.pid

    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def waits_for(self) -> str:
        """What ``ready`` waits for, for a person reading the harness's output."""
        if self.port is not None:
            return f"port {self.port} accepting connections"
        return f"{self.ready_text.strip()!r} in {self.log.name}"

    def ready(self) -> bool:
        if self.port is not None:
            return listening(self.port)
        # Each start appends to the same log: count this start's line too.
        return self.log.read_text(errors="replace").count(self.ready_text) >= self.starts


@dataclass
class Stack:
    """Workers and Daphnes as subprocesses; ``start``/``kill``/``stop`` by name or in bulk."""

    env: dict[str, str]
    logs: Path
    services: dict[str, Service] = field(default_factory=dict)
    held: set[str] = field(default_factory=set)  # kept down on purpose: not to be restarted

    def add_worker(self, name: str, *, concurrency: int = 2, nice: int = 0) -> Service:
        command = [
            "nice", "-n", str(nice), str(VENV_BIN / "celery"), "-A", "server", "worker",
            "-P", "prefork", "-c", str(concurrency), "-n", f"{name}@%h", "-l", "INFO",
            "--without-gossip", "--without-mingle", "--without-heartbeat",
        ]  # fmt: skip
        return self._add(Service(name, command, self.logs / f"{name}.log"))

    def add_beat(self, name: str = "beat") -> Service:
        command = [str(VENV_BIN / "celery"), "-A", "server", "beat", "-l", "INFO",
                   "--schedule", str(self.logs / f"{name}-schedule")]  # fmt: skip
        return self._add(Service(name, command, self.logs / f"{name}.log", ready_text="Starting"))

    def add_daphne(self, name: str, port: int) -> Service:
        command = [str(VENV_BIN / "python"), "-m", "server.daphne_server"]
        command += ["-b", "127.0.0.1", "-p", str(port)]
        command.append("server.asgi:application")
        return self._add(Service(name, command, self.logs / f"{name}.log", port=port))

    def add(self, name: str, command: list[str], *, port: int | None = None) -> Service:
        return self._add(Service(name, command, self.logs / f"{name}.log", port=port))

    def _add(self, service: Service) -> Service:
        self.services[service.name] = service
        return service

    def of_kind(self, prefix: str) -> list[Service]:
        return [s for name, s in self.services.items() if name.startswith(prefix)]

    def start(self, *names: str) -> None:
        """Start the named services (every one when none is named) and wait until ready."""
        chosen = [self.services[n] for n in names] if names else list(self.services.values())
        for service in chosen:
            with service.log.open("ab") as out:
                service.process = subprocess.Popen(
                    service.command,
                    cwd=ROOT,
                    env=self.env,
                    stdout=out,
                    stderr=subprocess.STDOUT,
                    start_new_session=True,  # its own process group: killed with its children
                )
            service.starts += 1
            service.started = time.monotonic()
        for service in chosen:
            self._wait_ready(service)

    def _wait_ready(self, service: Service) -> None:
        def ready() -> bool:
            if not service.alive():
                raise RuntimeError(f"{service.name} exited at start; see {service.log}")
            return service.ready()

        wait_until(ready, seconds=READY_SECONDS, what=f"{service.name} ready")
        took = time.monotonic() - service.started
        print(f"{service.name}: ready {took:.1f} s after its start ({service.waits_for()})",
              file=sys.stderr)  # fmt: skip

    @contextmanager
    def holding(self, name: str) -> Iterator[None]:
        """While the block runs, ``name`` is down on purpose: a supervisor leaves it alone."""
        self.held.add(name)
        try:
            yield
        finally:
            self.held.discard(name)

    def kill(self, name: str) -> None:
        """SIGKILL the service's whole process group, as a crash or the OOM killer would."""
        service = self.services[name]
        if service.alive():
            os.killpg(service.pid, signal.SIGKILL)
            assert service.process is not None
            service.process.wait()

    def stop(self) -> None:
        """SIGTERM every live service's group, SIGKILL what is still there after 20 s."""
        live = [s for s in self.services.values() if s.alive()]
        for service in live:
            _signal_group(service.pid, signal.SIGTERM)
        for service in live:
            assert service.process is not None
            try:
                service.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                _signal_group(service.pid, signal.SIGKILL)
                service.process.wait()
            _signal_group(service.pid, signal.SIGKILL)  # a pool child left behind


class Supervisor:
    """Restarts every service that exits on its own, as compose's ``restart: unless-stopped``
    would, from a thread of its own; ``restarted`` names each one, once per restart."""

    def __init__(self, stack: Stack, every: float = 0.5) -> None:
        self.stack, self.every = stack, every
        self.restarted: list[str] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, name="supervisor", daemon=True)

    def __enter__(self) -> Supervisor:
        self._thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        self._stop.set()
        self._thread.join()

    def _loop(self) -> None:
        while not self._stop.wait(self.every):
            for name, service in list(self.stack.services.items()):
                if name not in self.stack.held and not service.alive():
                    self.restarted.append(name)
                    self._restart(name)

    def _restart(self, name: str) -> None:
        with suppress(RuntimeError, TimeoutError):  # it died again at start: the next round
            self.stack.start(name)


def _signal_group(pid: int, number: int) -> None:
    with suppress(ProcessLookupError):
        os.killpg(pid, number)


@contextmanager
def running(stack: Stack) -> Iterator[Stack]:
    """Every service of ``stack`` started and ready; all of them stopped when the block ends."""
    try:
        stack.start()
        yield stack
    finally:
        stack.stop()


@contextmanager
def interrupts_unwind() -> Iterator[None]:
    """SIGTERM (and SIGHUP) unwind like Ctrl-C, so the ``finally`` blocks stop what started."""

    def unwind(number: int, _frame: object) -> None:
        raise KeyboardInterrupt(f"signal {number}")

    saved = {n: signal.signal(n, unwind) for n in (signal.SIGTERM, signal.SIGHUP)}
    try:
        yield
    finally:
        for number, handler in saved.items():
            signal.signal(number, handler)
