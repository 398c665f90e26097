"""The shipped proxy (deploy/nginx.conf) answers an oversize URL, oversize headers or /metrics
with the API's coded JSON (414, 431, 404), not nginx's HTML page: run by the nginx on this
machine."""

from __future__ import annotations

import http.client
import json
import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.live_server import free_port

ROOT = Path(__file__).resolve().parents[2]
# The machine's, or the binary scripts/test takes from Debian's package into .venv/bin.
NGINX = shutil.which("nginx") or shutil.which("nginx", path=f"/usr/sbin:{ROOT / '.venv' / 'bin'}")

pytestmark = pytest.mark.skipif(
    NGINX is None, reason="no nginx (scripts/test takes it from Debian's nginx package)"
)


def wrapped(folder: Path, port: int) -> str:
    """The shipped server block in a minimal main config, on ``port``, its upstreams closed."""
    server = (ROOT / "deploy" / "nginx.conf").read_text()
    server = server.replace("listen 80;", f"listen 127.0.0.1:{port};")
    server = server.replace("server http:8000;", "server 127.0.0.1:9;")
    server = server.replace("server ws:8001;", "server 127.0.0.1:9;")
    # The shipped log path exists in the image, not on every test machine.
    server = server.replace("/var/log/nginx/access.log", str(folder / "access.log"))
    temp = " ".join(
        f"{kind}_temp_path {folder / kind};" for kind in ("client_body", "proxy", "fastcgi")
    )
    temp += f" uwsgi_temp_path {folder / 'uwsgi'}; scgi_temp_path {folder / 'scgi'};"
    return (
        f"daemon off; pid {folder / 'nginx.pid'}; error_log {folder / 'error.log'};\n"
        "events { worker_connections 64; }\n"
        f"http {{ access_log off; {temp}\n{server}\n}}\n"
    )


@pytest.fixture(scope="module")
def proxy(tmp_path_factory: pytest.TempPathFactory) -> Iterator[int]:
    folder = tmp_path_factory.mktemp("nginx")
    port = free_port()
    (folder / "nginx.conf").write_text(wrapped(folder, port))
    assert NGINX is not None
    command = [NGINX, "-p", str(folder), "-c", str(folder / "nginx.conf")]
    server = subprocess.Popen(command, stderr=subprocess.PIPE)
    try:
        _wait_for(port, server)
        yield port
    finally:
        server.terminate()
        server.wait(10)


def _wait_for(port: int, server: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 20
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            if server.poll() is not None or time.monotonic() > deadline:
                assert server.stderr is not None
                raise AssertionError(server.stderr.read().decode()) from None
            time.sleep(0.05)


def ask(port: int, path: str, headers: dict[str, str]) -> tuple[int, str, dict[str, Any]]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        connection.request("GET", path, headers=headers)
        response = connection.getresponse()
        return response.status, response.getheader("Content-Type", ""), json.loads(response.read())
    finally:
        connection.close()


def test_a_url_over_8_kib_is_414_in_json(proxy: int) -> None:
    status, kind, body = ask(proxy, f"/api/v1/health/?q={'a' * 100_000}", {})
    assert (status, kind, body["code"]) == (414, "application/json", "url_too_long")


def test_a_header_over_8_kib_is_431_in_json(proxy: int) -> None:
    status, kind, body = ask(proxy, "/api/v1/health/", {"X-Big": "b" * 60_000})
    assert (status, kind, body["code"]) == (431, "application/json", "headers_too_large")
    assert body["details"] == {"max_line_bytes": 8192, "max_bytes": 32768}


def test_headers_over_32_kib_in_all_are_431_in_json(proxy: int) -> None:
    headers = {f"X-Part-{n}": "p" * 7000 for n in range(6)}
    status, _, body = ask(proxy, "/api/v1/health/", headers)
    assert (status, body["code"]) == (431, "headers_too_large")


def test_metrics_are_never_passed_on_and_refused_in_json(proxy: int) -> None:
    status, kind, body = ask(proxy, "/metrics", {})
    assert (status, kind, body["code"]) == (404, "application/json", "not_found")
