"""A stand-in for ``docker compose up``: the app services of ``docker-compose.yml`` as processes.

No container runtime can run our images on the test machines (docs/operations.md, "The compose
stack in CI"), so this starts each service built from the ``Dockerfile`` (``build: .``) the way
its container would, everything read from the two files, nothing copied:

- **command** and **healthcheck** of the service (``CMD`` exec'd, ``CMD-SHELL`` through ``sh -c``),
  after compose's ``${VAR:-default}`` interpolation from the operator's environment;
- **user**: the Dockerfile's ``USER``, its uid, group and home from the ``groupadd --gid`` and
  ``useradd --uid --gid`` that made it, the process dropped to it with ``setpriv`` (we run as
  root, as the Docker daemon does), ``HOME`` set to its home as Docker sets it (whether or not
  the image made that directory);
- **environment**: the Dockerfile's ``ENV``, then the service's ``environment`` (a key with no
  value passes the operator's through), service host names in URLs (``postgres``, ``redis``)
  mapped to the test's own PostgreSQL database and Redis database;
- **volumes**: each named volume a fresh directory owned by root, as Docker creates it, unless
  the image holds that path: then the volume starts with the image's owner (Docker copies the
  image's directory into an empty volume). The image's directories are those its ``RUN install
  -d -o USER`` lines make; a directory made any other way is not seen here (it would show as
  root-owned: the stand-in errs towards the failure);
- **secrets**: ``secrets:`` of the service as files under ``/run/secrets``, from their
  ``environment:`` source;
- **paths**: a container's own paths (``/tmp``, volume targets, ``/run/secrets``) substituted
  consistently by directories under a temporary root, ``WORKDIR`` (``/app``) by the checkout,
  and the two published ports (8000, 8001) by free ones;
- **order**: ``depends_on`` (``service_completed_successfully``: the one-shot exits 0 first;
  ``service_healthy``: its healthcheck passes, polled, never a fixed sleep).

What it cannot stand in for: the images themselves (python:3.11-slim's packages, postgres:15,
redis:7, nginx), the network namespace and DNS of each container, and the resource limits.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import yaml

ROOT = Path(__file__).resolve().parents[2]
PORTS = ("8000", "8001")
_INTERPOLATION = re.compile(r"\$\$|\$\{(\w+)(?:(:?[-?])([^}]*))?\}")


def unavailable(tool: str, needed_for: str) -> str | None:
    """Why a stand-in test cannot run here (None when it can): it needs PostgreSQL and Redis
    (as the CI run sets them), root with ``setpriv`` to start the services as the image's user,
    and ``tool``, which it uses ``needed_for``."""
    on_postgres = os.environ.get("DATABASE_URL", "").startswith("postgres")
    if not (on_postgres and os.environ.get("REDIS_URL")):
        return "a full-stack test (the CI run sets DATABASE_URL and REDIS_URL)"
    if os.geteuid() != 0 or not shutil.which("setpriv"):
        return "starts the services as the image's user: needs root and setpriv"
    if not shutil.which(tool):
        return f"{needed_for}: needs {tool}"
    return None


def interpolate(text: str, environ: Mapping[str, str]) -> str:
    """Compose's interpolation: ``$$`` is ``$``; ``${A}``, ``${A:-d}``, ``${A-d}``, ``${A:?e}``."""

    def one(match: re.Match[str]) -> str:
        if match.group(0) == "$$":
            return "$"
        name, operator, word = match.groups()
        value = environ.get(name)
        if operator and operator.endswith("?") and not value:
            raise ValueError(f"{name}: {word}")
        if (operator == ":-" and not value) or (operator == "-" and value is None):
            return word
        return value or ""

    return _INTERPOLATION.sub(one, text)


def _interpolated(value: Any, environ: Mapping[str, str]) -> Any:
    if isinstance(value, str):
        return interpolate(value, environ)
    if isinstance(value, list):
        return [_interpolated(item, environ) for item in value]
    if isinstance(value, dict):
        return {key: _interpolated(item, environ) for key, item in value.items()}
    return value


def compose_file(environ: Mapping[str, str]) -> dict[str, Any]:
    raw = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    return dict(_interpolated(raw, environ))


@dataclass(frozen=True)
class Account:
    """A user of the image: ``useradd``'s uid, group and home (its default, ``/home/NAME``)."""

    uid: int
    gid: int
    home: str


@dataclass(frozen=True)
class Image:
    """What the stand-in needs of the Dockerfile."""

    env: dict[str, str]
    workdir: str
    user: Account
    owned_dirs: dict[str, int]  # a directory of the image -> its owner's uid

    @property
    def uid(self) -> int:
        return self.user.uid


def _dockerfile_lines() -> list[str]:
    text = (ROOT / "Dockerfile").read_text().replace("\\\n", " ")
    return [line.strip() for line in text.splitlines() if line.strip()]


def read_image() -> Image:
    env: dict[str, str] = {}
    workdir, user = "/", "root"
    users, groups = {"root": Account(0, 0, "/root")}, {"root": 0}
    owned: dict[str, int] = {}
    for line in _dockerfile_lines():
        instruction, _, rest = line.partition(" ")
        if instruction == "ENV":
            env.update(_pair(word) for word in shlex.split(rest))
        elif instruction == "WORKDIR":
            workdir = rest.strip()
        elif instruction == "USER":
            user = rest.strip()
        elif instruction == "RUN":
            _read_run(rest, users, groups, owned)
    return Image(env=env, workdir=workdir, user=users[user], owned_dirs=owned)


def _pair(word: str) -> tuple[str, str]:
    name, _, value = word.partition("=")
    return name, value


def _read_run(
    command: str, users: dict[str, Account], groups: dict[str, int], owned: dict[str, int]
) -> None:
    """``groupadd --gid N NAME``, ``useradd --uid N [--gid G] [--home-dir H] NAME`` and
    ``install -d -o NAME DIR...``, in each ``&&`` part."""
    for part in command.split("&&"):
        words = shlex.split(part)
        if words[:1] == ["groupadd"] and "--gid" in words:
            groups[words[-1]] = _option(words, "--gid", int)
        if words[:1] == ["useradd"] and "--uid" in words:
            uid, name = _option(words, "--uid", int), words[-1]
            group = _option(words, "--gid", str) or name
            gid = groups[group] if group in groups else int(group) if group.isdigit() else uid
            home = _option(words, "--home-dir", str) or f"/home/{name}"
            users[name] = Account(uid=uid, gid=gid, home=home)
        if words[:2] == ["install", "-d"] and "-o" in words:
            owner = users[words[words.index("-o") + 1]].uid
            owned.update({word: owner for word in words if word.startswith("/")})


def _option(words: list[str], flag: str, kind: Callable[[str], Any]) -> Any:
    return kind(words[words.index(flag) + 1]) if flag in words else None


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _as_user(uid: int, gid: int) -> list[str]:
    """Run as ``uid`` and ``gid`` (no other groups). The test machines' interpreter lives
    under /root (mode 0700): the process keeps CAP_DAC_READ_SEARCH alone, to read and search
    any file, never to write one, so every write the container's user is refused stays refused."""
    caps = ["--inh-caps=+dac_read_search", "--ambient-caps=+dac_read_search"]
    return ["setpriv", f"--reuid={uid}", f"--regid={gid}", "--clear-groups", *caps, "--"]


@dataclass
class Container:
    """One service started as its container would be."""

    name: str
    command: list[str]
    healthcheck: list[str] | None
    env: dict[str, str]
    user: Account
    log: Path
    process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        with self.log.open("ab") as log:
            self.process = subprocess.Popen(
                [*_as_user(self.user.uid, self.user.gid), *self.command],
                cwd=ROOT,
                env=self.env,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )

    def healthy(self) -> bool:
        assert self.healthcheck is not None
        probe = subprocess.run(
            [*_as_user(self.user.uid, self.user.gid), *self.healthcheck],
            cwd=ROOT,
            env=self.env,
            capture_output=True,
            timeout=60,
            check=False,
        )
        return probe.returncode == 0

    def stop(self, sig: int = signal.SIGTERM) -> None:
        """As ``docker compose stop`` (SIGTERM) or ``kill -s SIG``: ``sig`` to the container's
        first process, SIGKILL 30 s later; once it has exited, what it leaves (a shell's
        ``sleep``) is killed, as the end of a container's PID namespace kills it."""
        if self.process is not None and self.process.poll() is None:
            with suppress(ProcessLookupError):
                os.kill(self.process.pid, sig)
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.kill(self.process.pid, signal.SIGKILL)
                self.process.wait()
        if self.process is not None:
            with suppress(ProcessLookupError):
                os.killpg(self.process.pid, signal.SIGKILL)

    def output(self) -> str:
        return self.log.read_text(errors="replace")


@dataclass
class StandIn:
    """The app services of the compose file under ``root``, on the test's PostgreSQL and Redis."""

    root: Path
    urls: dict[str, str]  # a service host name (postgres, redis) -> the URL standing in for it
    operator_env: dict[str, str]
    compose: dict[str, Any] = field(init=False)
    image: Image = field(init=False)
    ports: dict[str, str] = field(init=False)
    containers: dict[str, Container] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.compose = compose_file(self.operator_env)
        self.image = read_image()
        self.ports = {port: str(_free_port()) for port in PORTS}
        self.volumes: dict[str, Path] = {}
        for name in self.compose.get("volumes", {}):
            self.volumes[name] = self.root / "volumes" / name

    def app_services(self) -> list[str]:
        """The services built from the Dockerfile, in an order that honours ``depends_on``."""
        services = self.compose["services"]
        built = [name for name, spec in services.items() if spec.get("build")]
        ordered: list[str] = []
        while len(ordered) < len(built):
            for name in built:
                needs = [d for d in services[name].get("depends_on", {}) if d in built]
                if name not in ordered and all(d in ordered for d in needs):
                    ordered.append(name)
        return ordered

    def container(self, name: str, *, as_name: str | None = None) -> Container:
        """Service ``name``'s container (``as_name``: another one of it, with its own ``/tmp``)."""
        spec = self.compose["services"][name]
        paths = self._paths(as_name or name, spec)
        command = _words(spec["command"])
        check = spec.get("healthcheck", {})
        test = None if check.get("disable") else _probe(check["test"])
        user = self._user(spec)
        env = {**self._environment(spec, paths), "HOME": user.home}
        return Container(
            name=name,
            command=[_substituted(word, paths, self.ports) for word in command],
            healthcheck=[_substituted(w, paths, self.ports) for w in test] if test else None,
            env=env,
            user=user,
            log=self.root / f"{as_name or name}.log",
        )

    def _user(self, spec: dict[str, Any]) -> Account:
        """The image's ``USER``, or the service's ``user: UID[:GID]`` (a user the image does not
        know: Docker gives it the home ``/``)."""
        if "user" not in spec:
            return self.image.user
        uid, _, gid = str(spec["user"]).partition(":")
        return Account(uid=int(uid), gid=int(gid or uid), home="/")

    def _paths(self, name: str, spec: dict[str, Any]) -> dict[str, str]:
        """A container path -> the directory standing in for it, made as Docker would."""
        private = self.root / "containers" / name
        tmp = private / "tmp"
        tmp.mkdir(parents=True)
        tmp.chmod(0o1777)
        paths = {"/tmp": str(tmp), self.image.workdir: str(ROOT)}
        for volume in spec.get("volumes", []):
            source, target = str(volume).split(":")[:2]
            if source in self.volumes:
                paths[target] = str(self._volume(source, target))
        paths["/run/secrets"] = str(self._secrets(private, spec))
        return paths

    def _volume(self, name: str, target: str) -> Path:
        folder = self.volumes[name]
        if not folder.exists():  # a fresh named volume: root's, or the image's directory's
            folder.mkdir(parents=True, mode=0o755)
            owner = self.image.owned_dirs.get(target, 0)
            os.chown(folder, owner, owner)
        return folder

    def _secrets(self, private: Path, spec: dict[str, Any]) -> Path:
        folder = private / "secrets"
        folder.mkdir()
        for entry in spec.get("secrets", []):
            name = entry if isinstance(entry, str) else entry["source"]
            source = self.compose["secrets"][name]
            value = self.operator_env.get(source["environment"], "")
            (folder / name).write_text(value)
            (folder / name).chmod(0o444)
        return folder

    def _environment(self, spec: dict[str, Any], paths: dict[str, str]) -> dict[str, str]:
        env = {"PATH": f"{Path(sys.executable).parent}:/usr/bin:/bin", **self.image.env}
        env["HOSTNAME"] = socket.gethostname()  # what Celery names its node after
        for key, value in (spec.get("environment") or {}).items():
            if value is None:
                value = self.operator_env.get(key)
            if value is not None:
                env[key] = self._mapped(_substituted(str(value), paths, self.ports))
        return env

    def _mapped(self, value: str) -> str:
        """A URL naming a compose service (``postgres://…@postgres:5432/…``) -> the test's own."""
        with suppress(ValueError):
            host = urlsplit(value).hostname
            if host in self.urls:
                return self.urls[host]
        return value

    def up(self, *, seconds: float) -> None:
        """Start every app service in order; wait for each to complete or turn healthy."""
        for name in self.app_services():
            self._wait_for_dependencies(name, seconds=seconds)
            container = self.container(name)
            self.containers[name] = container
            container.start()

    def _wait_for_dependencies(self, name: str, *, seconds: float) -> None:
        for dependency, rule in self.compose["services"][name].get("depends_on", {}).items():
            other = self.containers.get(dependency)
            if other is None:
                continue  # postgres and redis: the machine's, up before the test
            if rule["condition"] == "service_completed_successfully":
                self.wait_completed(dependency, seconds=seconds)
            elif rule["condition"] == "service_healthy":
                self.wait_healthy(dependency, seconds=seconds)

    def wait_completed(self, name: str, *, seconds: float) -> None:
        container = self.containers[name]
        assert container.process is not None
        try:
            code = container.process.wait(timeout=seconds)
        except subprocess.TimeoutExpired as error:
            raise AssertionError(f"{name} still runs: {container.output()[-3000:]}") from error
        assert code == 0, f"{name} exited {code}: {container.output()[-3000:]}"

    def wait_healthy(self, name: str, *, seconds: float) -> None:
        container = self.containers[name]

        def healthy_or_dead() -> bool:
            assert container.process is not None
            if container.process.poll() is not None:
                raise AssertionError(
                    f"{name} exited {container.process.returncode}: {container.output()[-3000:]}"
                )
            return container.healthy()

        # Each probe starts an interpreter: once a second (Docker's default is every 30 s).
        wait_until(healthy_or_dead, seconds=seconds, what=f"{name} healthy", every=1.0)

    def run(self, name: str, *command: str, **env: str) -> subprocess.CompletedProcess[str]:
        """``docker compose exec NAME COMMAND``: a command in a started service's container."""
        container = self.containers[name]
        words = [self._in(name, word) for word in command]
        return subprocess.run(
            [*_as_user(container.user.uid, container.user.gid), *words],
            cwd=ROOT,
            env={**container.env, **env},
            capture_output=True,
            text=True,
            timeout=600,
            check=False,
        )

    def _in(self, name: str, word: str) -> str:
        spec = self.compose["services"][name]
        paths = {"/tmp": str(self.root / "containers" / name / "tmp")}
        for volume in spec.get("volumes", []):
            source, target = str(volume).split(":")[:2]
            if source in self.volumes:
                paths[target] = str(self.volumes[source])
        return _substituted(word, paths, self.ports)

    def start_another(self, name: str, as_name: str, **env: str) -> Container:
        """``docker compose run -d --name AS_NAME -e K=V… NAME``: one more container of service
        ``name``, its environment overridden by ``env`` (given as a container would get it)."""
        container = self.container(name, as_name=as_name)
        container.env.update(env)
        self.containers[as_name] = container
        container.start()
        return container

    def stop(self, name: str, sig: int = signal.SIGTERM) -> None:
        self.containers[name].stop(sig)

    def volume(self, name: str) -> Path:
        return self.volumes[name]

    def down(self) -> None:
        for container in reversed(list(self.containers.values())):
            container.stop()


def _words(command: str | list[str]) -> list[str]:
    return shlex.split(command) if isinstance(command, str) else [str(w) for w in command]


def _probe(test: list[str] | str) -> list[str]:
    if isinstance(test, str):
        return ["sh", "-c", test]
    kind, *rest = test
    return rest if kind == "CMD" else ["sh", "-c", rest[0]]


def _substituted(word: str, paths: dict[str, str], ports: dict[str, str]) -> str:
    """A container's paths and published ports in ``word`` replaced by the stand-in's."""
    # One pass: a stand-in directory (under /tmp) is never substituted again.
    own = sorted((path for path in paths if path != "/"), key=len, reverse=True)
    pattern = r"(?<![\w/])(" + "|".join(map(re.escape, own)) + r")(?=/|\b|$)"
    word = re.sub(pattern, lambda match: paths[match.group(1)], word)
    for port, free in ports.items():
        word = re.sub(rf"(?<!\d){port}(?!\d)", free, word)
    return word


def wait_until(
    condition: Callable[[], object], *, seconds: float, what: str, every: float = 0.5
) -> None:
    """Poll ``condition()`` every ``every`` s until it is true; raise naming ``what`` when too
    late."""
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            raise TimeoutError(f"{what}: not within {seconds:.0f} s")
        time.sleep(every)


@contextmanager
def standing_in(root: Path, urls: dict[str, str], environ: dict[str, str]) -> Iterator[StandIn]:
    stack = StandIn(root=root, urls=urls, operator_env=environ)
    try:
        yield stack
    finally:
        stack.down()
        shutil.rmtree(root, ignore_errors=True)
