"""A webhook receiver the test runs itself on 127.0.0.1 (http.server in a thread): it answers
500 to its first ``fail_first`` requests, then 200, and processes each idempotency key once."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


@dataclass
class Received:
    url: str = ""
    fail_first: int = 0
    requests: list[tuple[dict[str, str], bytes]] = field(default_factory=list)
    processed: dict[str, bytes] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def take(self, headers: dict[str, str], body: bytes) -> int:
        with self.lock:
            self.requests.append((headers, body))
            if len(self.requests) <= self.fail_first:
                return 500
            key = headers["Idempotency-Key"]
            self.processed.setdefault(key, body)  # a repeat of a seen key is dropped
            return 200


@contextmanager
def receiver(fail_first: int = 0) -> Iterator[Received]:
    received = Received(fail_first=fail_first)

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers["Content-Length"]))
            status = received.take(dict(self.headers.items()), body)
            self.send_response(status)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, format: str, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    received.url = f"http://127.0.0.1:{server.server_address[1]}/hook"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield received
    finally:
        server.shutdown()
        server.server_close()
        thread.join()
