"""Where a webhook may be sent: only to public http(s) addresses.

An organizer names a URL. Without this check the server would POST to whatever it names. That could
be our own Redis on 127.0.0.1, a cloud's metadata service on 169.254.169.254, or a LAN printer. This
is server-side request forgery.

A destination is checked when it is registered and again at every delivery. The host is resolved
once. Every address it resolves to must be public. The connection goes to that checked address. So
DNS rebinding gains nothing. A name may answer a public address to the check, and a private one to
the connect. Redirects are never followed.

Numeric hosts are read as the resolver reads them. ``2130706433``, ``0177.0.0.1`` and ``0x7f.1`` are
all 127.0.0.1. IPv4-mapped and -embedding IPv6 addresses are read by the IPv4 address inside.

``WEBHOOKS_ALLOW_PRIVATE`` is a setting for servers on a private network. It lets loopback, private,
shared and link-local addresses through. Unspecified, multicast and the cloud metadata addresses
stay refused even then.
"""

from __future__ import annotations

import ipaddress
import re
import socket
import ssl
from dataclasses import dataclass
from http.client import HTTPConnection, HTTPSConnection
from urllib.parse import SplitResult, urlsplit

from django.conf import settings
from django.utils.translation import gettext as _

Address = ipaddress.IPv4Address | ipaddress.IPv6Address

FORBIDDEN = "webhook_url_forbidden"
SCHEMES = {"http": 80, "https": 443}
# Instance metadata services (AWS/GCP/Azure/OpenStack, AWS over IPv6, Alibaba, Oracle): refused
# even where private ranges are allowed, since they hand out the machine's cloud credentials.
METADATA = frozenset(
    ipaddress.ip_address(a)
    for a in ("169.254.169.254", "169.254.170.2", "fd00:ec2::254", "100.100.100.200", "192.0.0.192")
)
NAT64 = ipaddress.IPv6Network("64:ff9b::/96")
# A DNS name: dotted labels of letters, digits, "-" and "_" (as resolvers take them), at most 253.
HOST_NAME = re.compile(r"(?=.{1,253}\.?$)[a-z0-9_](?:[a-z0-9_-]{0,62})(?:\.[a-z0-9_-]{1,63})*\.?")


class DestinationError(Exception):
    """A refused destination. ``code`` is ``webhook_url_forbidden`` or ``bad_webhook_url``."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass(frozen=True)
class Destination:
    """A URL taken apart: where to connect, and the ``Host`` and request path to send."""

    scheme: str
    host: str
    port: int
    target: str


def private_allowed() -> bool:
    return bool(getattr(settings, "WEBHOOKS_ALLOW_PRIVATE", False))


def parse(url: str) -> Destination:
    """The URL's parts, or ``bad_webhook_url``.

    A URL is bad if it is not http(s) or has no host. It is bad if its host is neither a name nor an
    address. A bad port, credentials, or a space or control character anywhere also make it bad.
    """
    stripped = url.strip()
    if any(char.isspace() or ord(char) < 32 or ord(char) == 127 for char in stripped):
        raise DestinationError(
            "bad_webhook_url", _("A webhook URL has no spaces or control characters.")
        )
    try:  # urlsplit raises on an unclosed "[", and on a host NFKC would change ("℀" is "a/c")
        parts = urlsplit(stripped)
        hostname = parts.hostname
    except ValueError as bad:
        raise DestinationError("bad_webhook_url", _("The webhook URL is malformed.")) from bad
    if parts.scheme not in SCHEMES or not hostname:
        raise DestinationError("bad_webhook_url", _("A webhook URL is http:// or https:// a host."))
    if parts.username is not None or parts.password is not None:
        raise DestinationError("bad_webhook_url", _("A webhook URL carries no user or password."))
    return Destination(parts.scheme, _host(hostname, parts), _port(parts), _target(parts))


def _host(host: str, parts: SplitResult) -> str:
    """``host`` if it is an IP address or a DNS name, else ``bad_webhook_url``.

    A DNS name has dotted labels of 1 to 63 letters, digits, ``-`` and ``_``. An international name
    is read by its IDNA form. Square brackets hold an IPv6 address only (``[v1.x]`` is no name).
    """
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        address = None
    bracketed = parts.netloc.rpartition("@")[2].startswith("[")
    if bracketed == isinstance(address, ipaddress.IPv6Address) and address is not None:
        return host
    try:
        ascii_host = host.encode("idna").decode("ascii")
    except UnicodeError:
        ascii_host = ""
    if bracketed or not HOST_NAME.fullmatch(ascii_host):
        raise DestinationError(
            "bad_webhook_url", _("The webhook URL's host is neither a host name nor an address.")
        )
    return host


def _port(parts: SplitResult) -> int:
    try:
        port = parts.port
    except ValueError as bad:
        raise DestinationError(
            "bad_webhook_url", _("The webhook URL's port is malformed.")
        ) from bad
    if port == 0:
        raise DestinationError("bad_webhook_url", _("The webhook URL's port is malformed."))
    return port if port is not None else SCHEMES[parts.scheme]


def _target(parts: SplitResult) -> str:
    path = parts.path or "/"
    return f"{path}?{parts.query}" if parts.query else path


def refusal(address: Address, *, allow_private: bool) -> str | None:
    """Why ``address`` may not be sent to (``None``: it may)."""
    inner = _embedded_ipv4(address)
    if inner is not None:
        return refusal(inner, allow_private=allow_private)
    if address in METADATA:
        return _("a cloud metadata address")
    if address.is_unspecified or address.is_multicast:
        return _("an unspecified or multicast address")
    if address.is_global and not address.is_reserved:
        return None
    if allow_private and (address.is_private or address.is_loopback or address.is_link_local):
        return None
    if allow_private and address in ipaddress.ip_network("100.64.0.0/10"):
        return None
    return _("not a public address")


def _embedded_ipv4(address: Address) -> ipaddress.IPv4Address | None:
    """The IPv4 address an IPv6 one stands for, if any: mapped, 6to4, Teredo, NAT64."""
    if not isinstance(address, ipaddress.IPv6Address):
        return None
    if address.ipv4_mapped is not None:
        return address.ipv4_mapped
    if address.sixtofour is not None:
        return address.sixtofour
    if address.teredo is not None:
        return address.teredo[1]
    if address in NAT64:
        return ipaddress.IPv4Address(int(address) & 0xFFFFFFFF)
    return None


def resolve(destination: Destination) -> list[Address]:
    """Every address the host resolves to, or ``[]`` if it does not resolve.

    Hosts are read as the system's resolver reads them. So a decimal or octal IPv4 means what a
    connect to it would reach.
    """
    try:
        found = socket.getaddrinfo(
            destination.host, destination.port, type=socket.SOCK_STREAM, proto=socket.IPPROTO_TCP
        )
    except (socket.gaierror, UnicodeError):
        found = []
    addresses = [ipaddress.ip_address(str(info[4][0]).split("%", 1)[0]) for info in found]
    if _names_loopback(destination.host):  # whatever this machine's resolver makes of it
        addresses += [ipaddress.ip_address("127.0.0.1"), ipaddress.ip_address("::1")]
    return list(dict.fromkeys(addresses))


def _names_loopback(host: str) -> bool:
    """``localhost`` and every name under it mean this machine (RFC 6761).

    A trailing dot does not matter.
    """
    name = host.rstrip(".").lower()
    return name == "localhost" or name.endswith(".localhost")


def check_addresses(destination: Destination, addresses: list[Address]) -> None:
    """Refuse unless a webhook may be sent to every address."""
    allow = private_allowed()
    for address in addresses:
        why = refusal(address, allow_private=allow)
        if why is not None:
            raise DestinationError(
                FORBIDDEN,
                _("Webhooks go to public addresses only: %(host)s is %(why)s.")
                % {"host": destination.host, "why": why},
            )


def check_registration(url: str) -> Destination:
    """At registration: a well-formed URL whose host, if it resolves now, is public.

    A name that does not resolve yet is accepted. Every delivery resolves and checks it again.
    """
    destination = parse(url)
    check_addresses(destination, resolve(destination))
    return destination


def checked_address(destination: Destination) -> Address:
    """At delivery: the one address to connect to, resolved now and checked."""
    addresses = resolve(destination)
    if not addresses:
        message = _("%(host)s does not resolve.") % {"host": destination.host}
        raise DestinationError("webhook_unresolved", message)
    check_addresses(destination, addresses)
    return addresses[0]


class _PinnedHTTP(HTTPConnection):
    """HTTP to one checked address, whatever the host name resolves to by now."""

    def __init__(self, destination: Destination, address: Address, timeout: float) -> None:
        super().__init__(destination.host, destination.port, timeout=timeout)
        self.address = address

    def connect(self) -> None:
        self.sock = socket.create_connection((str(self.address), self.port), self.timeout)


class _PinnedHTTPS(HTTPSConnection):
    """HTTPS to one checked address. The certificate is still checked against the host name."""

    def __init__(self, destination: Destination, address: Address, timeout: float) -> None:
        self.tls = ssl.create_default_context()
        super().__init__(destination.host, destination.port, timeout=timeout, context=self.tls)
        self.address = address

    def connect(self) -> None:
        raw = socket.create_connection((str(self.address), self.port), self.timeout)
        self.sock = self.tls.wrap_socket(raw, server_hostname=self.host)


def post(url: str, body: bytes, headers: dict[str, str], *, timeout: float) -> int:
    """POST ``body`` to ``url`` through a checked address and return the answer's status.

    A redirect is an answer like any other: never followed. Raises ``DestinationError`` for a
    refused destination. Raises ``OSError`` when the connection fails.
    """
    destination = parse(url)
    address = checked_address(destination)
    kind = _PinnedHTTPS if destination.scheme == "https" else _PinnedHTTP
    connection = kind(destination, address, timeout)
    try:
        connection.request("POST", destination.target, body=body, headers=headers)
        response = connection.getresponse()
        response.read(65536)
        return int(response.status)
    finally:
        connection.close()
