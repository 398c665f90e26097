"""No log we ship holds a token: a game is played against a live server with DEBUG off (JSON
logs, Daphne's access lines through ``LOGGING``), behind ``deploy/nginx.conf`` in a real nginx
when one is installed, with a stream opened with the deprecated ``?token=`` and one with the
``bearer.<token>`` subprotocol; then every line of every log is searched for the tokens."""

from __future__ import annotations

import asyncio
import importlib.util
import io
import json
import logging
import os
import re
import shutil
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from websockets.asyncio.client import connect
from websockets.typing import Subprotocol

from infra.logfilters import RedactTokens
from infra.logformat import json_formatter
from tests.live_server import ROOT, free_port, live_server

SECONDS = 240  # bounds for events on a loaded machine; each wait ends at its event


def nginx_binary() -> str | None:
    """nginx from PATH, or the one ``scripts/test`` puts in the venv (``ensure_nginx``)."""
    venv = Path(sys.executable).parent / "nginx"
    return shutil.which("nginx") or (str(venv) if venv.exists() else None)


def _example() -> ModuleType:
    """``examples/play.py`` as a module: the SDK's client it imports and its Deck Phase policy."""
    spec = importlib.util.spec_from_file_location("example_play", ROOT / "examples" / "play.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _nginx_config(folder: Path, upstream: int, port: int) -> Path:
    """``deploy/nginx.conf`` as shipped, with its two upstreams pointed at the live server, its
    port and log folder moved, inside a main file of paths in ``folder``."""
    site = (ROOT / "deploy" / "nginx.conf").read_text(encoding="utf-8")
    for name in ("http:8000", "ws:8001"):
        site = site.replace(f"server {name};", f"server 127.0.0.1:{upstream};")
    site = site.replace("listen 80;", f"listen 127.0.0.1:{port};")
    site = site.replace("/var/log/nginx/", f"{folder}/")
    (folder / "site.conf").write_text(site, encoding="utf-8")
    temps = " ".join(
        f"{kind}_temp_path {folder}/{kind};" for kind in ("client_body", "proxy", "fastcgi")
    )
    user = "user root;" if os.geteuid() == 0 else ""
    main = folder / "nginx.conf"
    main.write_text(
        f"{user} daemon off; worker_processes 1; pid {folder}/nginx.pid;\n"
        f"error_log {folder}/error.log info;\nevents {{}}\n"
        f"http {{ {temps} uwsgi_temp_path {folder}/uwsgi; scgi_temp_path {folder}/scgi;\n"
        # nginx's default format, where the site sets none: scanned too.
        f"  access_log {folder}/default-access.log;\n"
        f"  include {folder}/site.conf; }}\n",
        encoding="utf-8",
    )
    return main


@contextmanager
def nginx_in_front(folder: Path, upstream_url: str) -> Iterator[str]:
    binary = nginx_binary()
    assert binary is not None
    port = free_port()
    config = _nginx_config(folder, int(upstream_url.rsplit(":", 1)[1]), port)
    errors = (folder / "nginx.stderr").open("wb")
    command = [binary, "-p", str(folder), "-e", str(folder / "error.log"), "-c", str(config)]
    proxy = subprocess.Popen(command, stdout=errors, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        _wait_for_health(url, proxy)
        yield url
    finally:
        proxy.terminate()
        proxy.wait(10)
        errors.close()


def _wait_for_health(url: str, process: subprocess.Popen[bytes]) -> None:
    """Until the health endpoint answers through the proxy (or the proxy exits)."""
    for _ in range(SECONDS * 10):
        try:
            with urllib.request.urlopen(f"{url}/api/v1/health/", timeout=2):
                return
        except OSError:
            assert process.poll() is None, "nginx exited"
            time.sleep(0.1)  # polling for the first answer
    raise AssertionError("nginx never answered")


async def watch_until_the_end(url: str, *, subprotocols: list[Subprotocol] | None = None) -> int:
    """Read a stream until ``tournament_finished``; the number of frames."""
    count = 0
    async with connect(url, subprotocols=subprotocols, open_timeout=30) as socket:
        async for message in socket:
            count += 1
            if json.loads(message).get("kind") == "tournament_finished":
                return count
    raise AssertionError("the stream closed before the end")


async def host_plays(example: ModuleType, api: Any, tournament: int, stream: str) -> int:
    """The host's seat, as ``examples/play.py`` plays it, its token in the subprotocol."""
    protocols = [Subprotocol("challengers.v1"), Subprotocol(f"bearer.{api.token}")]
    count = 0
    async with connect(f"{stream}?after=0", subprotocols=protocols) as socket:
        assert socket.subprotocol == "challengers.v1"
        async for message in socket:
            count += 1
            frame = json.loads(message)
            kind, payload = frame["kind"], frame["payload"]
            if kind == "deck_phase_opened":
                await asyncio.to_thread(example.play_deck_phase, api, tournament)
            elif kind == "match_question":
                question = payload["question"]
                body = {"question": question["seq"], "answer": question["default"]}
                await asyncio.to_thread(api.matches_answer_create, payload["match"], body)
            elif kind == "tournament_finished":
                return count
    raise AssertionError("the stream closed before the end")


async def play_a_game(base: str) -> list[str]:
    """Host (subprotocol stream) and a guest who leaves (a bot plays on; its deprecated
    ``?token=`` stream watches to the end) and a bot; the tokens used."""
    example = _example()
    host, guest = example.Client(base), example.Client(base)  # the SDK's, as play.py uses it
    ticket = host.tournaments_create({"name": "Logs", "seats": 3})
    host.token, tournament = ticket["seat"]["token"], ticket["id"]
    joined = guest.tournaments_join_create({"code": ticket["code"], "name": "Guest"})
    guest.token = joined["seat"]["token"]
    host.tournaments_bots_create(tournament, {"count": 1})
    host.tournaments_start_create(tournament)
    guest.tournaments_leave_create(tournament)
    # A legacy HTTP client that puts its token in a URL (refused: an unknown parameter); the
    # access lines must not keep it.
    with pytest.raises(urllib.error.HTTPError):
        urllib.request.urlopen(f"{base}/api/v1/health/?token={guest.token}", timeout=30)
    stream = base.replace("http", "ws", 1) + f"/ws/tournaments/{tournament}/"
    legacy = watch_until_the_end(f"{stream}?token={guest.token}&after=0")
    played = host_plays(example, host, tournament, stream)
    frames = await asyncio.wait_for(asyncio.gather(legacy, played), SECONDS)
    assert all(frames)
    return [host.token, guest.token]


def scanned(logs: list[Path], tokens: list[str]) -> tuple[int, list[str]]:
    """The number of lines in ``logs``, and every line holding one of ``tokens``."""
    texts = [path.read_text(errors="replace") for path in logs if path.exists()]
    lines = [line for text in texts for line in text.splitlines()]
    return len(lines), [line for line in lines if any(token in line for token in tokens)]


@pytest.mark.timeout(600)
def test_no_log_holds_a_token_after_a_game_with_both_kinds_of_stream(tmp_path: Path) -> None:
    with live_server(tmp_path, production=True) as direct:
        behind = nginx_in_front(tmp_path, direct) if nginx_binary() else None
        with behind or _nothing(direct) as base:
            tokens = asyncio.run(play_a_game(base))
    ours = tmp_path / "daphne.log"  # the server's JSON lines and Daphne's access lines
    nginx = ("access.log", "default-access.log", "error.log") if behind else ()
    logs = [ours, *(tmp_path / name for name in nginx)]
    total, leaks = scanned(logs, tokens)
    print(f"{total} log lines scanned in {len(logs)} logs, {len(leaks)} with a token")
    assert leaks == []
    text = ours.read_text()
    assert "WSCONNECT /ws/tournaments/" in text, "Daphne's access lines are in the log"
    assert "/api/v1/health/?token=[redacted]" in text, "the HTTP access line, masked"
    assert all(json.loads(line)["level"] for line in text.splitlines() if line.startswith("{"))
    if behind:
        access = (tmp_path / "access.log").read_text().splitlines()
        paths = [json.loads(line)["path"] for line in access]
        assert "/api/v1/health/" in paths and any(p.startswith("/ws/tournaments/") for p in paths)


@contextmanager
def _nothing(url: str) -> Iterator[str]:
    yield url


def test_nginx_logs_no_token_of_a_stream_that_fails_upstream(tmp_path: Path) -> None:
    """nginx's error lines quote the request line, query and all: a ``?token=`` stream whose
    upstream fails (Daphne down) writes none; the same failure without a token is logged."""
    binary = nginx_binary()
    if binary is None:
        pytest.skip("nginx is not installed (scripts/test installs it: ensure_nginx)")
    port, secret = free_port(), "legacy-" + os.urandom(8).hex()
    config = _nginx_config(tmp_path, free_port(), port)  # an upstream nothing listens on
    command = [binary, "-p", str(tmp_path), "-e", str(tmp_path / "error.log"), "-c", str(config)]
    with (tmp_path / "nginx.stderr").open("wb") as stderr:
        proxy = subprocess.Popen(command, stdout=stderr, stderr=subprocess.STDOUT)
        try:
            for query in (f"?token={secret}&after=0", "?after=0"):
                _wait_for_status(f"http://127.0.0.1:{port}/ws/tournaments/7/{query}", 502, proxy)
        finally:
            proxy.terminate()
            proxy.wait(10)
    names = ("error.log", "nginx.stderr", "access.log", "default-access.log")
    total, leaks = scanned([tmp_path / name for name in names], [secret])
    assert total and leaks == []
    assert 'request: "GET /ws/tournaments/7/?after=0 ' in (tmp_path / "error.log").read_text()
    access = [json.loads(line) for line in (tmp_path / "access.log").read_text().splitlines()]
    assert [(line["path"], line["status"]) for line in access[-2:]] == [
        ("/ws/tournaments/7/", 502)
    ] * 2


def _wait_for_status(url: str, status: int, process: subprocess.Popen[bytes]) -> None:
    """Ask ``url`` until nginx answers (it may not listen yet); its answer must be ``status``."""
    for _ in range(SECONDS * 10):
        try:
            urllib.request.urlopen(url, timeout=30)
        except urllib.error.HTTPError as answer:
            assert answer.code == status
            return
        except OSError:
            assert process.poll() is None, "nginx exited"
            time.sleep(0.1)  # polling for the first answer
            continue
        raise AssertionError(f"{url}: answered, expected {status}")
    raise AssertionError("nginx never answered")


def test_nginx_is_there_to_check_its_log_format() -> None:
    if nginx_binary() is None:
        pytest.skip(
            "nginx is not installed (scripts/test installs it: ensure_nginx): "
            "deploy/nginx.conf's log format was not checked"
        )


def test_the_filter_masks_tokens_in_messages_extras_and_tracebacks() -> None:
    out = io.StringIO()
    handler = logging.StreamHandler(out)
    handler.setFormatter(json_formatter())
    handler.addFilter(RedactTokens())
    log = logging.getLogger("tests.token_logs")
    log.addHandler(handler)
    secret = "s3cr3t-T0ken_value-1234567890"
    try:
        log.warning("GET /ws/tournaments/1/?after=0&token=%s", secret)
        log.warning("offered %s", ["challengers.v1", f"bearer.{secret}"])
        log.warning("header", extra={"authorization": f"Bearer {secret}"})
        try:
            raise ValueError(f"/api/v1/x/?token={secret}")
        except ValueError:
            log.exception("failed")
    finally:
        log.removeHandler(handler)
    lines = out.getvalue().splitlines()
    assert len(lines) == 4 and not any(secret in line for line in lines), lines
    assert re.search(r"token=\[redacted\]", lines[0]) and "bearer.[redacted]" in lines[1]
    assert "Bearer [redacted]" in lines[2] and "Traceback" in json.loads(lines[3])["exc_info"]
