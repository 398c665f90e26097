"""Webhooks cannot be aimed inward: a URL naming (or resolving to) a loopback, private,
link-local, multicast, reserved, unspecified or metadata address is refused with
``webhook_url_forbidden`` at registration, a delivery checks the resolved address again before
it connects, and a redirect is never followed. ``WEBHOOKS_ALLOW_PRIVATE`` lets private ranges
through (the receivers here listen on 127.0.0.1, so delivery tests turn it on) but never the
metadata, multicast or unspecified addresses."""

from __future__ import annotations

import ipaddress
import ssl
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID
from django.db import transaction
from rest_framework.test import APIClient

from leagues.models import League, WebhookDelivery, WebhookEndpoint
from leagues.services import webhooks
from leagues.services.destinations import refusal
from tests.leagues.helpers import create_organizer, league_with_season, ok, org, post, refused
from tests.leagues.receiver import receiver

pytestmark = pytest.mark.django_db(transaction=True)

INWARD = [
    "http://127.0.0.1:6379/",
    "http://127.1/",
    "http://2130706433/",  # 127.0.0.1 as one decimal number
    "http://0177.0.0.1/",  # octal
    "http://0x7f.0.0.1/",  # hexadecimal
    "http://0x7f000001/",
    "http://0/",
    "http://0.0.0.0:8000/",
    "http://10.0.0.5/",
    "http://172.16.3.4/",
    "http://192.168.1.1/",
    "http://100.64.0.1/",  # shared address space (carrier-grade NAT)
    "http://169.254.169.254/latest/meta-data/",  # cloud metadata
    "http://169.254.1.1/",
    "http://224.0.0.1/",
    "http://240.0.0.1/",
    "http://255.255.255.255/",
    "http://[::1]/",
    "http://[::]/",
    "http://[::ffff:127.0.0.1]/",  # IPv4-mapped IPv6
    "http://[::ffff:7f00:1]/",
    "http://[::ffff:169.254.169.254]/",
    "http://[fe80::1]/",
    "http://[fc00::1]/",
    "http://[fd00:ec2::254]/",
    "http://[ff02::1]/",
    "http://[2002:7f00:1::]/",  # 6to4 of 127.0.0.1
    "http://[64:ff9b::a00:1]/",  # NAT64 of 10.0.0.1
    "https://localhost/hook",  # a name that resolves inward
    "http://localhost.:8000/",
    "http://api.localhost/",
]
PUBLIC = ["https://93.184.215.14/hook", "http://[2606:4700:4700::1111]/", "http://8.8.8.8:8080/"]


def hook(client: APIClient, token: str, slug: str, url: str) -> Any:
    return post(client, f"leagues/{slug}/webhooks/", {"url": url}, org(token))


@pytest.mark.parametrize("url", INWARD)
def test_an_inward_url_is_refused_at_registration(catalogue: Any, url: str) -> None:
    client = APIClient()
    token = create_organizer("org")
    slug, _ = league_with_season(client, token)
    refused(hook(client, token, slug, url), 400, "webhook_url_forbidden")
    assert not WebhookEndpoint.objects.exists()


@pytest.mark.parametrize("url", PUBLIC)
def test_a_public_address_is_accepted(catalogue: Any, url: str) -> None:
    client = APIClient()
    token = create_organizer("org")
    slug, _ = league_with_season(client, token)
    assert ok(hook(client, token, slug, url))["url"] == url


MALFORMED = [
    "ftp://example.com/",
    "http:///x",
    "http://user:pw@93.184.215.14/",
    "http://h:99999/",
    "http://exa mple.com/",  # a space in the host
    "http://example.com /hook",
    "http://example.com/a hook",
    "http://example.com\x00/",
    "http://exa%20mple.com/",
    "http://a..b/",
    "http://-x.example/",
    "http://[::1/",  # an unclosed bracket (urlsplit raises)
    "http://example.com\u2100/",  # NFKC would read "℀" as "a/c" (urlsplit raises)
    "http://[v1.x]/",  # brackets hold an IPv6 address, not a name
    "http://[93.184.215.14]/",
    "http://example.com:0/",
    "http://ex<a>mple.com/",
    "http://exa\u00a0mple.com/",  # a no-break space in the host
    "http://user@example.com/",
    "http://@example.com/",
    "http://example.com\\@evil.com/",  # userinfo by another name
    "javascript:alert(1)",
    "mailto:a@example.com",
    "//example.com/hook",
]


@pytest.mark.parametrize("url", MALFORMED)
def test_a_malformed_url_is_refused(catalogue: Any, url: str) -> None:
    client = APIClient()
    token = create_organizer("org")
    slug, _ = league_with_season(client, token)
    response = hook(client, token, slug, url)
    assert response.status_code == 400, response.content
    body = response.json()
    if "\x00" in url:  # DRF's text fields refuse a NUL before the service sees it
        assert (body["code"], list(body["details"])) == ("invalid", ["url"]), body
    else:
        assert (body["code"], body["details"]) == ("bad_webhook_url", {"field": "url"}), body
    assert not WebhookEndpoint.objects.exists()


def test_private_ranges_are_allowed_on_request_but_metadata_never() -> None:
    def allowed(text: str) -> bool:
        return refusal(ipaddress.ip_address(text), allow_private=True) is None

    for text in ("127.0.0.1", "10.1.2.3", "192.168.0.9", "::1", "fc00::1", "169.254.1.1"):
        assert allowed(text) and refusal(ipaddress.ip_address(text), allow_private=False)
    for text in ("169.254.169.254", "fd00:ec2::254", "::ffff:169.254.169.254", "0.0.0.0", "::"):
        assert not allowed(text)
    assert not allowed("224.0.0.1") and not allowed("ff02::1")


def test_the_setting_lets_a_loopback_receiver_register(catalogue: Any, settings: Any) -> None:
    client = APIClient()
    token = create_organizer("org")
    slug, _ = league_with_season(client, token)
    settings.WEBHOOKS_ALLOW_PRIVATE = True
    ok(hook(client, token, slug, "http://localhost:8000/hook"))
    refused(hook(client, token, slug, "http://169.254.169.254/"), 400, "webhook_url_forbidden")


def send_one(slug: str) -> WebhookDelivery:
    with transaction.atomic():
        league = League.objects.get(slug=slug)
        webhooks.emit(league_id=league.pk, kind="round_finished", key="k-1", data={"a": 1})
    return WebhookDelivery.objects.get()


def test_a_delivery_checks_the_resolved_address_again(catalogue: Any, settings: Any) -> None:
    """Registered while private ranges were allowed (or a name that resolved outward then):
    with the setting off, the delivery refuses to connect and the receiver hears nothing."""
    client = APIClient()
    token = create_organizer("org")
    slug, _ = league_with_season(client, token)
    with receiver() as received:
        settings.WEBHOOKS_ALLOW_PRIVATE = True
        ok(hook(client, token, slug, received.url.replace("127.0.0.1", "localhost")))
        settings.WEBHOOKS_ALLOW_PRIVATE = False
        delivery = send_one(slug)
        assert received.requests == []
    assert delivery.status == "failed" and delivery.attempts == webhooks.MAX_ATTEMPTS
    assert delivery.last_error.startswith("webhook_url_forbidden:")
    assert delivery.last_status is None


@contextmanager
def redirector(location: str) -> Iterator[str]:
    """A tiny server on 127.0.0.1 that answers every POST with a 307 to ``location``."""

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            self.rfile.read(int(self.headers["Content-Length"]))
            self.send_response(307)
            self.send_header("Location", location)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, format: str, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/hook"
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


def test_a_redirect_is_never_followed(catalogue: Any, settings: Any) -> None:
    """Even with private ranges allowed, a 307 to another address is an answer, not a route:
    the inward target receives nothing and the delivery records the 307."""
    settings.WEBHOOKS_ALLOW_PRIVATE = True
    client = APIClient()
    token = create_organizer("org")
    slug, _ = league_with_season(client, token)
    with receiver() as inward, redirector(inward.url) as url:
        ok(hook(client, token, slug, url))
        delivery = send_one(slug)
        assert inward.requests == []
    assert delivery.status == "failed" and delivery.last_status == 307
    assert delivery.last_error == "HTTP 307"


def test_events_carry_occurred_at_and_a_sequence_per_endpoint(
    catalogue: Any, settings: Any
) -> None:
    settings.WEBHOOKS_ALLOW_PRIVATE = True
    client = APIClient()
    token = create_organizer("org")
    slug, _ = league_with_season(client, token)
    with receiver() as first, receiver() as second:
        ok(hook(client, token, slug, first.url))
        league = League.objects.get(slug=slug)
        webhooks.emit(league_id=league.pk, kind="round_finished", key="a", data={})
        ok(hook(client, token, slug, second.url))
        for key in ("b", "c", "b"):
            webhooks.emit(league_id=league.pk, kind="round_finished", key=key, data={})
        got = {
            endpoint.url: [(d.idempotency_key, d.sequence, d.payload["sequence"]) for d in rows]
            for endpoint in WebhookEndpoint.objects.all()
            if (rows := endpoint.deliveries.order_by("sequence"))
        }
        assert got == {
            first.url: [("a", 1, 1), ("b", 2, 2), ("c", 3, 3)],
            second.url: [("b", 1, 1), ("c", 2, 2)],
        }
        stamps = [d.payload["occurred_at"] for d in WebhookDelivery.objects.order_by("id")]
        assert all(stamp.endswith("Z") for stamp in stamps) and stamps == sorted(stamps)
        assert len(first.processed) == 3 and len(second.processed) == 2


def self_signed(directory: Path, name: str) -> tuple[Path, Path]:
    """A certificate for ``name`` signed by its own key (files: the cert, the key)."""
    key = ec.generate_private_key(ec.SECP256R1())
    subject = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, name)])
    now = datetime.now(UTC)
    cert = (
        x509.CertificateBuilder()
        .subject_name(subject)
        .issuer_name(subject)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - timedelta(minutes=5))
        .not_valid_after(now + timedelta(hours=1))
        .add_extension(x509.SubjectAlternativeName([x509.DNSName(name)]), critical=False)
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .sign(key, hashes.SHA256())
    )
    cert_file, key_file = directory / f"{name}.pem", directory / f"{name}.key"
    cert_file.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    key_file.write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    return cert_file, key_file


@contextmanager
def tls_receiver(cert: Path, key: Path) -> Iterator[tuple[str, list[dict[str, str]]]]:
    """An HTTPS receiver on 127.0.0.1 that answers 200 and keeps each request's headers."""
    seen: list[dict[str, str]] = []

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            self.rfile.read(int(self.headers["Content-Length"]))
            seen.append(dict(self.headers.items()))
            self.send_response(200)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, format: str, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(cert, key)
    server.socket = context.wrap_socket(server.socket, server_side=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"https://localhost:{server.server_address[1]}/hook", seen
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


@pytest.mark.parametrize(("named", "delivered"), [("localhost", True), ("other.example", False)])
def test_https_goes_to_the_checked_address_and_verifies_the_host_name(
    catalogue: Any, settings: Any, monkeypatch: Any, tmp_path: Path, named: str, delivered: bool
) -> None:
    """The connection is pinned to the checked 127.0.0.1, yet TLS still checks the certificate
    against the URL's host name: a certificate for another name is refused."""
    settings.WEBHOOKS_ALLOW_PRIVATE = True
    cert, key = self_signed(tmp_path, named)
    monkeypatch.setenv("SSL_CERT_FILE", str(cert))  # trust this certificate alone
    client = APIClient()
    token = create_organizer("org")
    slug, _ = league_with_season(client, token)
    with tls_receiver(cert, key) as (url, seen):
        ok(hook(client, token, slug, url))
        delivery = send_one(slug)
    if delivered:
        assert delivery.status == "delivered" and len(seen) == 1
        assert seen[0]["Host"] == url.removeprefix("https://").removesuffix("/hook")
    else:
        assert delivery.status == "failed" and seen == []
        assert "certificate" in delivery.last_error.lower()
