"""A PostgreSQL cluster and a Redis server of the harness's own, to stop and start at will.

Both listen on 127.0.0.1 on free ports with their data under a folder of their own, so a fault
drill never touches the machine's PostgreSQL (5432) or Redis (6379). PostgreSQL's programs refuse
to run as root: as root they run as the ``postgres`` user (``runuser``), who then owns the data
folder. Redis keeps nothing on disk (no RDB, no AOF): a restart starts it empty, the worst case
for whatever lived only in the broker.
"""

from __future__ import annotations

import contextlib
import glob
import os
import shutil
import signal
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

from stack import free_port, listening, wait_until

# A safety net, not a budget: each start is waited for until the server listens (pg_ctl -w).
START_SECONDS = 600


def postgres_bin() -> Path:
    """The newest PostgreSQL server's programs (Debian keeps them out of PATH)."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=_version)
    if found:
        return Path(found[-1]).parent
    on_path = shutil.which("initdb")
    if on_path is None:
        raise RuntimeError("no PostgreSQL server programs (initdb, pg_ctl) on this machine")
    return Path(on_path).parent


def _version(path: str) -> int:
    folder = Path(path).parent.parent.name
    return int(folder) if folder.isdigit() else 0


def available() -> str | None:
    """Why a private PostgreSQL and Redis cannot run here, or None when they can."""
    try:
        postgres_bin()
    except RuntimeError as error:
        return str(error)
    if shutil.which("redis-server") is None:
        return "no redis-server on this machine"
    if os.geteuid() == 0 and shutil.which("runuser") is None:
        return "running as root and no runuser to run PostgreSQL as the postgres user"
    return None


@dataclass
class PrivatePostgres:
    """``initdb`` once, then ``pg_ctl start``/``stop`` on its own port and data folder."""

    folder: Path
    port: int = field(default_factory=free_port)

    @property
    def data(self) -> Path:
        return self.folder / "data"

    @property
    def url(self) -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/drill"

    def create(self) -> None:
        """A fresh cluster owned by the user the server runs as; the folder readable by it."""
        self.folder.mkdir(parents=True, exist_ok=True)
        self.folder.chmod(0o755)
        self.data.mkdir(mode=0o700)
        if os.geteuid() == 0:
            shutil.chown(self.folder, "postgres")
            shutil.chown(self.data, "postgres")
        self._run("initdb", "-D", str(self.data), "-U", "postgres", "--auth=trust", "-E", "UTF8")

    def configure(self, **settings: str) -> None:
        """``name = 'value'`` lines appended to the cluster's configuration file (the last one of
        a name wins), for the next start."""
        quoted = {name: value.replace("'", "''") for name, value in settings.items()}
        lines = "".join(f"{name} = '{value}'\n" for name, value in quoted.items())
        with (self.data / "postgresql.conf").open("a") as conf:
            conf.write(lines)

    def run(self, program: str, *args: str) -> None:
        """One of PostgreSQL's programs (``pg_basebackup``…), as the user the server runs as."""
        self._run(program, *args)

    def start(self) -> None:
        options = (
            f"-c listen_addresses=127.0.0.1 -c port={self.port} "
            f"-c unix_socket_directories={self.folder} -c fsync=off -c max_connections=200 "
            "-c track_commit_timestamp=on"  # when each event was stored: the drill's recovery
        )
        log = str(self.folder / "postgres.log")
        self._run("pg_ctl", "start", "-w", "-t", str(START_SECONDS), "-D", str(self.data),
                  "-l", log, "-o", options)  # fmt: skip
        wait_until(lambda: listening(self.port), seconds=START_SECONDS, what="PostgreSQL up")

    def stop(self, mode: str = "fast") -> None:
        """``fast``: every session ended, a clean shutdown; ``immediate``: as a crash."""
        if (self.data / "postmaster.pid").exists():
            self._run("pg_ctl", "stop", "-w", "-m", mode, "-D", str(self.data))

    def kill(self) -> None:
        """The postmaster and every backend by PID (the last resort of a clean-up)."""
        pid_file = self.data / "postmaster.pid"
        if pid_file.exists():
            pid = int(pid_file.read_text().split()[0])
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)

    def _run(self, program: str, *args: str) -> None:
        command = [str(postgres_bin() / program), *args]
        if os.geteuid() == 0:
            command = ["runuser", "-u", "postgres", "--", *command]
        subprocess.run(command, check=True, capture_output=True, cwd=self.folder)


@dataclass
class PrivateRedis:
    """``redis-server`` on its own port, in the foreground as a child of this process."""

    folder: Path
    port: int = field(default_factory=free_port)
    process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        command = ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1",
                   "--save", "", "--appendonly", "no", "--dir", str(self.folder)]  # fmt: skip
        with (self.folder / "redis.log").open("ab") as log:
            self.process = subprocess.Popen(
                command, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
            )
        wait_until(lambda: listening(self.port), seconds=START_SECONDS, what="Redis up")

    def stop(self) -> None:
        """SIGTERM, as ``docker stop`` would (nothing is saved: it has no persistence)."""
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
