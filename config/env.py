"""The one place that reads the environment.

``read_environment(environ)`` turns environment variables into the project's settings values. A
malformed value raises ``ImproperlyConfigured`` naming its variable. With nothing set it returns the
embedded defaults. Those are a SQLite file, the in-memory channel layer and Celery tasks run
in-process. Taking the mapping lets tests pass fake environments. ``config.settings`` calls it once
with ``os.environ``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import SplitResult, unquote, urlsplit

from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent

# The default of 100 silently drops group messages in bursts (a round's events overflowed it);
# the database event log stays the source of truth, the layer only carries news
# (docs/architecture.md).
CHANNEL_CAPACITY = 5000

# A development-only key: settings refuse it when DEBUG is off (see ``_secret_key``).
INSECURE_SECRET_KEY = "django-insecure-challengers-local-development-only"

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off"}
_POSTGRES_SCHEMES = {"postgres", "postgresql"}
_REDIS_SCHEMES = {"redis", "rediss"}
LOG_FORMATS = ("json", "text")
DEFAULT_ARCHIVE_DAYS = 30

# Requests per client address (per scope) before `429 throttled`: creating a tournament, joining
# one, and every action (bots, start, seat settings, Deck Phase, answers). "off" lifts a limit.
DEFAULT_THROTTLE_RATES = {"create": "20/min", "join": "30/min", "action": "300/min"}
_RATE = re.compile(r"[1-9][0-9]*/(s|sec|second|m|min|minute|h|hour|d|day)")
# One year, the HSTS max-age browsers and the preload list expect.
DEFAULT_HSTS_SECONDS = 31_536_000


@dataclass(frozen=True)
class EnvSettings:
    """Everything ``config.settings`` takes from the environment."""

    debug: bool
    secret_key: str
    allowed_hosts: list[str]
    csrf_trusted_origins: list[str]
    cors_allowed_origins: list[str]
    websocket_allowed_origins: list[str]
    databases: dict[str, dict[str, Any]]
    channel_layers: dict[str, dict[str, Any]]
    celery_broker_url: str
    celery_result_backend: str
    celery_task_always_eager: bool
    redis_url: str | None
    task_runner: str
    match_event_pace_seconds: float
    celery_visibility_timeout: int
    caches: dict[str, dict[str, Any]]
    throttle_rates: dict[str, str | None]
    https: bool
    hsts_seconds: int
    hsts_include_subdomains: bool
    hsts_preload: bool
    behind_proxy: bool
    proxy_count: int
    reconcile_interval_seconds: int
    reconcile_requeue_seconds: int
    reconcile_stuck_seconds: int
    heartbeat_stale_seconds: int
    heartbeat_file: str | None
    worker_clock: bool
    beat_required: bool
    webhooks_allow_private: bool
    metrics_token: str | None
    event_archive_days: int | None
    log_format: str
    login_failure_limit: int
    login_cooloff_minutes: int


def read_environment(environ: Mapping[str, str]) -> EnvSettings:
    """Read the settings from ``environ``; raise ``ImproperlyConfigured`` if malformed."""
    debug = _boolean(environ, "DEBUG", default=True)
    redis_url = _redis_url(environ)
    broker = redis_url or "memory://"
    return EnvSettings(
        debug=debug,
        secret_key=_secret_key(environ, debug=debug),
        allowed_hosts=_allowed_hosts(environ, debug=debug),
        csrf_trusted_origins=_origins(environ, "CSRF_TRUSTED_ORIGINS"),
        # Web pages of other origins whose scripts may call the API and /graphql/ (CORS).
        cors_allowed_origins=[o.rstrip("/") for o in _origins(environ, "CORS_ALLOWED_ORIGINS")],
        websocket_allowed_origins=_origins(environ, "WEBSOCKET_ALLOWED_ORIGINS"),
        databases={"default": _database(environ)},
        channel_layers={"default": _channel_layer(redis_url)},
        celery_broker_url=broker,
        celery_result_backend=redis_url or "cache+memory://",
        celery_task_always_eager=redis_url is None,
        redis_url=redis_url,
        # Without a broker the embedded server runs tasks on a worker thread of its own, so
        # countdowns (deadlines, answer timeouts) still fire on time.
        task_runner="celery" if redis_url else "thread",
        match_event_pace_seconds=_whole_number(environ, "MATCH_EVENT_PACE_MS", default=250) / 1000,
        celery_visibility_timeout=_visibility_timeout(environ),
        caches={"default": _cache(redis_url)},
        throttle_rates={
            scope: _throttle_rate(environ, f"THROTTLE_{scope.upper()}", default=rate)
            for scope, rate in DEFAULT_THROTTLE_RATES.items()
        },
        # Served over HTTPS (by the server or the proxy in front): secure cookies, a redirect of
        # plain HTTP, HSTS. On by default once DEBUG is off.
        https=_boolean(environ, "HTTPS", default=not debug),
        hsts_seconds=_whole_number(environ, "HSTS_SECONDS", default=DEFAULT_HSTS_SECONDS),
        hsts_include_subdomains=_boolean(environ, "HSTS_INCLUDE_SUBDOMAINS", default=True),
        hsts_preload=_boolean(environ, "HSTS_PRELOAD", default=True),
        behind_proxy=_behind_proxy(environ),
        proxy_count=_proxy_count(environ),
        # The reconciler (tournaments.services.reconcile) and the signs of life (infra.liveness).
        reconcile_interval_seconds=_seconds(environ, "RECONCILE_INTERVAL_SECONDS", default=2),
        reconcile_requeue_seconds=_seconds(environ, "RECONCILE_REQUEUE_SECONDS", default=8),
        reconcile_stuck_seconds=_seconds(environ, "RECONCILE_STUCK_SECONDS", default=60),
        heartbeat_stale_seconds=_seconds(environ, "HEARTBEAT_STALE_SECONDS", default=15),
        # A file a worker's clock (and beat, on each task it sends) touches: the containers'
        # light health check reads its age (deploy/healthcheck.py --fresh).
        heartbeat_file=_value(environ, "HEARTBEAT_FILE"),
        worker_clock=_boolean(environ, "WORKER_CLOCK", default=True),
        beat_required=_boolean(environ, "BEAT_REQUIRED", default=False),
        # Leagues' webhooks may go to loopback, private and link-local addresses (a server on a
        # private network); off, public addresses only (leagues.services.destinations).
        webhooks_allow_private=_boolean(environ, "WEBHOOKS_ALLOW_PRIVATE", default=False),
        # /metrics answers a "Bearer <METRICS_TOKEN>"; with no token, only requests from loopback.
        metrics_token=_value(environ, "METRICS_TOKEN"),
        log_format=_log_format(environ, debug=debug),
        event_archive_days=_archive_days(environ),
        # The admin login (django-axes): an account is locked from one address after this many
        # failed attempts from there, for this many minutes.
        login_failure_limit=_at_least_one(environ, "LOGIN_FAILURE_LIMIT", default=5),
        login_cooloff_minutes=_at_least_one(environ, "LOGIN_COOLOFF_MINUTES", default=15),
    )


def secret_value(environ: Mapping[str, str], name: str) -> str | None:
    """``name``'s value, or that of its ``NAME_FILE`` (see ``_value``).

    For secrets outside the settings (``manage.py ensure_admin``'s ADMIN_PASSWORD)."""
    return _value(environ, name)


def _value(environ: Mapping[str, str], name: str) -> str | None:
    """``name``'s stripped value; None when unset or empty.

    ``NAME_FILE`` may name a file holding the value instead. That is Docker secrets' ``_FILE``
    convention (mounted under /run/secrets). Its content is the value, trailing newline stripped.
    Setting both is refused, as is an unreadable file.
    """
    raw = environ.get(name, "").strip()
    path = environ.get(f"{name}_FILE", "").strip()
    if path and raw:
        raise ImproperlyConfigured(f"Set {name} or {name}_FILE, not both.")
    if path:
        return _file_value(f"{name}_FILE", path)
    return raw or None


def _file_value(name: str, path: str) -> str | None:
    try:
        content = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise ImproperlyConfigured(f"{name}: cannot read {path!r} ({error}).") from error
    return content.strip() or None


def _boolean(environ: Mapping[str, str], name: str, *, default: bool) -> bool:
    raw = _value(environ, name)
    if raw is None:
        return default
    if raw.lower() in _TRUE:
        return True
    if raw.lower() in _FALSE:
        return False
    raise ImproperlyConfigured(f"{name} must be a boolean (true/false, 1/0, yes/no), not {raw!r}.")


def _behind_proxy(environ: Mapping[str, str]) -> bool:
    """Whether a front proxy sends the scheme in X-Forwarded-Proto.

    On with ``BEHIND_PROXY`` or any ``PROXY_COUNT`` above 0."""
    counted = _value(environ, "PROXY_COUNT") not in (None, "0")
    return _boolean(environ, "BEHIND_PROXY", default=False) or counted


def _proxy_count(environ: Mapping[str, str]) -> int:
    """How many proxies append to X-Forwarded-For before the server.

    The client is the entry that many from the end. ``BEHIND_PROXY`` alone means one (nginx of the
    compose file)."""
    default = 1 if _boolean(environ, "BEHIND_PROXY", default=False) else 0
    return _whole_number(environ, "PROXY_COUNT", default=default)


def _whole_number(environ: Mapping[str, str], name: str, *, default: int) -> int:
    raw = _value(environ, name)
    if raw is None:
        return default
    if not (raw.isascii() and raw.isdigit()):  # str.isdigit alone accepts "²"
        raise ImproperlyConfigured(f"{name} must be a whole number of 0 or more, not {raw!r}.")
    return int(raw)


def _seconds(environ: Mapping[str, str], name: str, *, default: int) -> int:
    """A whole number of seconds, 1 or more."""
    seconds = _whole_number(environ, name, default=default)
    if seconds < 1:
        raise ImproperlyConfigured(f"{name} must be 1 second or more, not 0.")
    return seconds


def _archive_days(environ: Mapping[str, str]) -> int | None:
    """Days before a finished tournament's event log is archived.

    ``None`` (``off``): never."""
    if (_value(environ, "EVENT_ARCHIVE_DAYS") or "").lower() == "off":
        return None
    return _whole_number(environ, "EVENT_ARCHIVE_DAYS", default=DEFAULT_ARCHIVE_DAYS)


def _log_format(environ: Mapping[str, str], *, debug: bool) -> str:
    """``json`` (for a log collector) or ``text`` (for a person).

    ``json`` writes one JSON object a line. Default: text under DEBUG (the embedded server), else
    JSON."""
    raw = _value(environ, "LOG_FORMAT")
    if raw is None:
        return "text" if debug else "json"
    if raw.lower() not in LOG_FORMATS:
        raise ImproperlyConfigured(f"LOG_FORMAT must be json or text, not {raw!r}.")
    return raw.lower()


def _at_least_one(environ: Mapping[str, str], name: str, *, default: int) -> int:
    value = _whole_number(environ, name, default=default)
    if value < 1:
        raise ImproperlyConfigured(f"{name} must be 1 or more, not 0.")
    return value


def _visibility_timeout(environ: Mapping[str, str]) -> int:
    """Seconds until a taken, unacknowledged task is handed back.

    A worker-side setting of the Redis transport. A worker killed mid-task leaves its message
    unacknowledged. A live worker restores it at this age. Keep it above the longest task *and* the
    longest countdown. Else a slow or scheduled task is delivered twice.
    """
    seconds = _whole_number(environ, "CELERY_VISIBILITY_TIMEOUT", default=60)
    if seconds < 1:
        raise ImproperlyConfigured("CELERY_VISIBILITY_TIMEOUT must be 1 second or more, not 0.")
    return seconds


def _secret_key(environ: Mapping[str, str], *, debug: bool) -> str:
    key = _value(environ, "SECRET_KEY")
    if key is not None:
        return key
    if not debug:
        raise ImproperlyConfigured("SECRET_KEY must be set when DEBUG is off.")
    return INSECURE_SECRET_KEY


def _allowed_hosts(environ: Mapping[str, str], *, debug: bool) -> list[str]:
    raw = _value(environ, "ALLOWED_HOSTS")
    if raw is None:
        # Local play on the embedded defaults should work from another device on the LAN.
        return ["*"] if debug else ["localhost", "127.0.0.1", "[::1]"]
    hosts = [host.strip() for host in raw.split(",") if host.strip()]
    if not hosts:
        raise ImproperlyConfigured("ALLOWED_HOSTS must list at least one host name.")
    return hosts


def _origins(environ: Mapping[str, str], name: str) -> list[str]:
    """Comma-separated origins (``scheme://host[:port]``), each with its scheme.

    Django compares them whole with a browser's ``Origin`` header."""
    raw = _value(environ, name)
    origins = [origin.strip() for origin in (raw or "").split(",") if origin.strip()]
    for origin in origins:
        url = urlsplit(origin)
        if url.scheme not in {"http", "https"} or not url.netloc or url.path not in {"", "/"}:
            raise ImproperlyConfigured(
                f"{name} must list origins such as https://game.example, not {origin!r}."
            )
    return origins


def _split_url(name: str, raw: str, schemes: set[str]) -> SplitResult:
    url = urlsplit(raw)
    if url.scheme not in schemes:
        allowed = ", ".join(f"{scheme}://" for scheme in sorted(schemes))
        raise ImproperlyConfigured(f"{name} must start with one of {allowed}; got {raw!r}.")
    try:
        url.port  # noqa: B018 - urlsplit parses the port lazily and raises here
    except ValueError as error:
        raise ImproperlyConfigured(f"{name} has a malformed port: {raw!r}.") from error
    if not url.hostname:
        raise ImproperlyConfigured(f"{name} must name a host: {raw!r}.")
    return url


def _database(environ: Mapping[str, str]) -> dict[str, object]:
    raw = _value(environ, "DATABASE_URL")
    if raw is None:
        sqlite_path = _value(environ, "SQLITE_PATH")
        return {
            "ENGINE": "django.db.backends.sqlite3",
            # SQLITE_PATH: another file (the example client test serves a temporary one).
            "NAME": Path(sqlite_path) if sqlite_path else BASE_DIR / "db.sqlite3",
            # The embedded task thread writes beside the web server: writers wait for the lock
            # (IMMEDIATE takes it at BEGIN, so no transaction fails upgrading a read lock).
            "OPTIONS": {"timeout": 20, "transaction_mode": "IMMEDIATE"},
            # A file, not shared-cache memory, for tests too: shared cache locks whole tables
            # and fails at once instead of waiting.
            "TEST": {"NAME": BASE_DIR / "test-db.sqlite3"},
        }
    url = _split_url("DATABASE_URL", raw, _POSTGRES_SCHEMES)
    name = unquote(url.path.lstrip("/"))
    if not name or "/" in name:
        raise ImproperlyConfigured(f"DATABASE_URL must name one database: {raw!r}.")
    # DATABASE_PASSWORD, when set, keeps the secret out of the URL (no percent-encoding to get
    # right, and the URL may be shown in logs and `docker compose config`).
    password = _value(environ, "DATABASE_PASSWORD") or unquote(url.password or "")
    return {
        "ENGINE": "django.db.backends.postgresql",
        "NAME": name,
        "USER": unquote(url.username or ""),
        "PASSWORD": password,
        "HOST": url.hostname,
        "PORT": str(url.port or 5432),
        # Persistent connections under ASGI exhausted PostgreSQL ("too many clients"); Django's
        # psycopg pool shares a few connections per process instead.
        "CONN_MAX_AGE": 0,
        # After a PostgreSQL restart the pooled connections are closed by the server. With the
        # pool, Django turns this into psycopg_pool's `check=ConnectionPool.check_connection`: each
        # connection is checked (an empty query) before a request gets it, and a dead one is
        # replaced instead of failing the request with `AdminShutdown`.
        "CONN_HEALTH_CHECKS": True,
        "OPTIONS": {"pool": _pool(environ)},
    }


def _pool(environ: Mapping[str, str]) -> dict[str, object]:
    """psycopg_pool's options (Django passes them to ``ConnectionPool``)."""
    return {
        "min_size": 1,
        "max_size": 10,
        # A request waits this long for a connection, then answers 503 `database_unavailable`
        # (infra.errors): with the database down, at once rather than after psycopg's 30 s.
        "timeout": _seconds(environ, "DATABASE_POOL_TIMEOUT", default=3),
    }


def _redis_url(environ: Mapping[str, str]) -> str | None:
    raw = _value(environ, "REDIS_URL")
    if raw is None:
        return None
    url = _split_url("REDIS_URL", raw, _REDIS_SCHEMES)
    db = url.path.lstrip("/")
    if db and not db.isdigit():
        raise ImproperlyConfigured(f"REDIS_URL must end in a database number, not {db!r}.")
    return raw


def _channel_layer(redis_url: str | None) -> dict[str, object]:
    if redis_url is None:
        return {
            "BACKEND": "channels.layers.InMemoryChannelLayer",
            "CONFIG": {"capacity": CHANNEL_CAPACITY},
        }
    # redis-py 8 with channels-redis 4.3 kills idle consumers after ~5 s ("Timeout reading
    # from ...") unless the socket timeout is switched off (channels_redis#422).
    host = {"address": redis_url, "socket_timeout": None}
    return {
        "BACKEND": "channels_redis.core.RedisChannelLayer",
        "CONFIG": {"hosts": [host], "capacity": CHANNEL_CAPACITY},
    }


def _cache(redis_url: str | None) -> dict[str, object]:
    """Django's cache: the API's throttle counts, the tournament views.

    Redis if any, failing open while down (``infra.cache``). Else this process's memory (one server
    process: the embedded defaults)."""
    if redis_url is None:
        return {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}
    return {
        "BACKEND": "infra.cache.FailOpenRedisCache",
        "LOCATION": redis_url,
        "KEY_PREFIX": "challengers",
        # A Redis that hangs costs a request at most this long per call, then it is a miss.
        "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1},
    }


def _throttle_rate(environ: Mapping[str, str], name: str, *, default: str) -> str | None:
    """``N/period`` (period s, min, hour or day), or None for "off"."""
    raw = _value(environ, name)
    if raw is None:
        return default
    if raw.lower() in _FALSE | {"none"}:
        return None
    rate = raw.replace(" ", "").lower()
    if not _RATE.fullmatch(rate):
        raise ImproperlyConfigured(
            f"{name} must be a rate like 20/min (per s, min, hour or day) or off, not {raw!r}."
        )
    return rate
