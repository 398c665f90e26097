"""The environment reader: embedded defaults, the full stack, and loud failures."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured

from config.env import CHANNEL_CAPACITY, DEFAULT_THROTTLE_RATES, read_environment

POSTGRES = "postgres://player:s%40cret@db.example:6543/challengers"
REDIS = "redis://cache.example:6380/2"


def test_nothing_set_gives_sqlite_in_memory_layer_and_eager_tasks() -> None:
    env = read_environment({})
    assert env.databases["default"]["ENGINE"] == "django.db.backends.sqlite3"
    assert str(env.databases["default"]["NAME"]).endswith("db.sqlite3")
    layer = env.channel_layers["default"]
    assert layer["BACKEND"] == "channels.layers.InMemoryChannelLayer"
    assert layer["CONFIG"]["capacity"] == CHANNEL_CAPACITY > 100
    assert env.celery_task_always_eager is True
    assert env.celery_broker_url == "memory://"
    assert env.debug is True
    assert env.secret_key


def test_database_url_gives_postgresql_with_the_pool_and_no_persistent_connections() -> None:
    database = read_environment({"DATABASE_URL": POSTGRES}).databases["default"]
    assert database["ENGINE"] == "django.db.backends.postgresql"
    assert (database["NAME"], database["USER"], database["PASSWORD"]) == (
        "challengers",
        "player",
        "s@cret",
    )
    assert (database["HOST"], database["PORT"]) == ("db.example", "6543")
    assert database["OPTIONS"]["pool"]
    assert database["CONN_MAX_AGE"] == 0


def test_the_pool_checks_each_connection_before_lending_it_and_waits_briefly() -> None:
    """A PostgreSQL restart leaves closed connections in the pool: each is checked before a
    request gets it. With the database down a request waits DATABASE_POOL_TIMEOUT at most."""
    database = read_environment({"DATABASE_URL": POSTGRES}).databases["default"]
    # Django gives the pool `check=ConnectionPool.check_connection` when health checks are on.
    assert database["CONN_HEALTH_CHECKS"] is True
    assert database["OPTIONS"]["pool"]["timeout"] == 3
    environ = {"DATABASE_URL": POSTGRES, "DATABASE_POOL_TIMEOUT": "7"}
    assert read_environment(environ).databases["default"]["OPTIONS"]["pool"]["timeout"] == 7
    with pytest.raises(ImproperlyConfigured, match="DATABASE_POOL_TIMEOUT"):
        read_environment({"DATABASE_URL": POSTGRES, "DATABASE_POOL_TIMEOUT": "0"})


def test_postgresql_scheme_and_default_port_are_accepted() -> None:
    database = read_environment({"DATABASE_URL": "postgresql://u@h/db"}).databases["default"]
    assert (database["PORT"], database["PASSWORD"]) == ("5432", "")


def test_redis_url_gives_redis_layer_without_socket_timeout_and_a_redis_broker() -> None:
    env = read_environment({"REDIS_URL": REDIS})
    layer = env.channel_layers["default"]
    assert layer["BACKEND"] == "channels_redis.core.RedisChannelLayer"
    assert layer["CONFIG"]["hosts"] == [{"address": REDIS, "socket_timeout": None}]
    assert layer["CONFIG"]["capacity"] == CHANNEL_CAPACITY
    assert env.celery_broker_url == REDIS
    assert env.celery_result_backend == REDIS
    assert env.celery_task_always_eager is False


def test_debug_off_requires_a_secret_key() -> None:
    with pytest.raises(ImproperlyConfigured, match="SECRET_KEY"):
        read_environment({"DEBUG": "false"})
    env = read_environment({"DEBUG": "0", "SECRET_KEY": "k", "ALLOWED_HOSTS": "a.example, b"})
    assert (env.debug, env.secret_key, env.allowed_hosts) == (False, "k", ["a.example", "b"])


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("DATABASE_URL", "mysql://root@localhost/challengers"),
        ("DATABASE_URL", "postgres://localhost"),
        ("DATABASE_URL", "postgres://localhost:port/db"),
        ("DATABASE_URL", "postgres:///db"),
        ("DATABASE_URL", "not a url"),
        ("REDIS_URL", "http://localhost:6379/0"),
        ("REDIS_URL", "redis://localhost:6379/zero"),
        ("REDIS_URL", "redis://:6379/0"),
        ("DEBUG", "maybe"),
        ("ALLOWED_HOSTS", " , "),
    ],
)
def test_a_malformed_value_is_refused_naming_the_variable(name: str, value: str) -> None:
    with pytest.raises(ImproperlyConfigured, match=name):
        read_environment({name: value})


def test_the_match_event_pace_is_read_in_milliseconds_and_a_bad_one_is_named() -> None:
    assert read_environment({}).match_event_pace_seconds == 0.25
    assert read_environment({"MATCH_EVENT_PACE_MS": "0"}).match_event_pace_seconds == 0
    with pytest.raises(ImproperlyConfigured, match="MATCH_EVENT_PACE_MS"):
        read_environment({"MATCH_EVENT_PACE_MS": "fast"})


def test_tasks_run_on_the_embedded_thread_without_a_broker_and_on_celery_with_one() -> None:
    assert read_environment({}).task_runner == "thread"
    assert read_environment({"REDIS_URL": "redis://127.0.0.1:6379/0"}).task_runner == "celery"


def test_the_celery_visibility_timeout_is_read_in_seconds_and_a_bad_one_is_named() -> None:
    assert read_environment({}).celery_visibility_timeout == 60
    assert read_environment({"CELERY_VISIBILITY_TIMEOUT": " 3 "}).celery_visibility_timeout == 3
    for bad in ("soon", "-5", "2.5", "0"):
        with pytest.raises(ImproperlyConfigured, match="CELERY_VISIBILITY_TIMEOUT"):
            read_environment({"CELERY_VISIBILITY_TIMEOUT": bad})


def test_a_number_written_with_other_digits_is_refused_not_crashed_on() -> None:
    for bad in ("²", "٣"):
        with pytest.raises(ImproperlyConfigured, match="MATCH_EVENT_PACE_MS"):
            read_environment({"MATCH_EVENT_PACE_MS": bad})


def test_the_cache_is_redis_with_redis_url_and_local_memory_without() -> None:
    assert read_environment({}).caches["default"]["BACKEND"].endswith("LocMemCache")
    cache = read_environment({"REDIS_URL": REDIS}).caches["default"]
    assert cache["BACKEND"] == "infra.cache.FailOpenRedisCache"
    assert cache["LOCATION"] == REDIS


def test_throttle_rates_have_defaults_can_be_changed_or_turned_off() -> None:
    assert read_environment({}).throttle_rates == DEFAULT_THROTTLE_RATES
    env = read_environment({"THROTTLE_CREATE": "5/hour", "THROTTLE_JOIN": "off"})
    assert env.throttle_rates == {**DEFAULT_THROTTLE_RATES, "create": "5/hour", "join": None}
    for bad in ("fast", "5", "0/min", "5/week", "-1/min", "²/min"):
        with pytest.raises(ImproperlyConfigured, match="THROTTLE_ACTION"):
            read_environment({"THROTTLE_ACTION": bad})


def test_https_and_hsts_are_on_by_default_once_debug_is_off() -> None:
    local = read_environment({})
    assert (local.https, local.behind_proxy) == (False, False)
    production = read_environment({"DEBUG": "false", "SECRET_KEY": "k"})
    assert production.https is True
    assert production.hsts_seconds == 31_536_000
    assert production.hsts_include_subdomains and production.hsts_preload
    plain = read_environment(
        {"DEBUG": "false", "SECRET_KEY": "k", "HTTPS": "false", "BEHIND_PROXY": "yes"}
    )
    assert (plain.https, plain.behind_proxy) == (False, True)
    with pytest.raises(ImproperlyConfigured, match="HSTS_SECONDS"):
        read_environment({"HSTS_SECONDS": "a year"})


def test_csrf_trusted_origins_are_listed_origins_with_their_scheme() -> None:
    assert read_environment({}).csrf_trusted_origins == []
    env = read_environment({"CSRF_TRUSTED_ORIGINS": "https://game.example, http://localhost:8000"})
    assert env.csrf_trusted_origins == ["https://game.example", "http://localhost:8000"]
    for bad in ("game.example", "ftp://game.example", "https://game.example/admin/", "https://"):
        with pytest.raises(ImproperlyConfigured, match="CSRF_TRUSTED_ORIGINS"):
            read_environment({"CSRF_TRUSTED_ORIGINS": bad})


def test_websocket_allowed_origins_are_listed_origins_with_their_scheme() -> None:
    assert read_environment({}).websocket_allowed_origins == []
    env = read_environment({"WEBSOCKET_ALLOWED_ORIGINS": "https://play.example"})
    assert env.websocket_allowed_origins == ["https://play.example"]
    with pytest.raises(ImproperlyConfigured, match="WEBSOCKET_ALLOWED_ORIGINS"):
        read_environment({"WEBSOCKET_ALLOWED_ORIGINS": "play.example"})


def test_database_password_overrides_the_urls_own() -> None:
    env = read_environment({"DATABASE_URL": POSTGRES, "DATABASE_PASSWORD": "p@ss/word:%"})
    assert env.databases["default"]["PASSWORD"] == "p@ss/word:%"
    assert read_environment({"DATABASE_URL": POSTGRES}).databases["default"]["PASSWORD"] == "s@cret"


def test_webhooks_go_to_public_addresses_unless_private_ones_are_allowed() -> None:
    assert read_environment({}).webhooks_allow_private is False
    assert read_environment({"WEBHOOKS_ALLOW_PRIVATE": "yes"}).webhooks_allow_private is True
    with pytest.raises(ImproperlyConfigured, match="WEBHOOKS_ALLOW_PRIVATE"):
        read_environment({"WEBHOOKS_ALLOW_PRIVATE": "lan"})


def test_the_login_lockout_defaults_to_five_failures_for_fifteen_minutes() -> None:
    env = read_environment({})
    assert (env.login_failure_limit, env.login_cooloff_minutes) == (5, 15)
    changed = read_environment({"LOGIN_FAILURE_LIMIT": "3", "LOGIN_COOLOFF_MINUTES": "60"})
    assert (changed.login_failure_limit, changed.login_cooloff_minutes) == (3, 60)
    for name, value in (("LOGIN_FAILURE_LIMIT", "0"), ("LOGIN_COOLOFF_MINUTES", "soon")):
        with pytest.raises(ImproperlyConfigured, match=name):
            read_environment({name: value})


def test_a_secret_is_read_from_the_file_its_file_variable_names(tmp_path: Path) -> None:
    (tmp_path / "secret_key").write_text("from-a-file\n")
    (tmp_path / "db_password").write_text("p@ss/word:%\n")
    env = read_environment(
        {
            "DEBUG": "false",
            "SECRET_KEY_FILE": str(tmp_path / "secret_key"),
            "DATABASE_URL": POSTGRES,
            "DATABASE_PASSWORD_FILE": str(tmp_path / "db_password"),
        }
    )
    assert env.secret_key == "from-a-file"
    assert env.databases["default"]["PASSWORD"] == "p@ss/word:%"


def test_a_secret_file_that_cannot_be_read_or_a_value_set_twice_is_refused(
    tmp_path: Path,
) -> None:
    with pytest.raises(ImproperlyConfigured, match="SECRET_KEY_FILE: cannot read"):
        read_environment({"DEBUG": "false", "SECRET_KEY_FILE": str(tmp_path / "missing")})
    (tmp_path / "key").write_text("k")
    both = {"SECRET_KEY": "k", "SECRET_KEY_FILE": str(tmp_path / "key")}
    with pytest.raises(ImproperlyConfigured, match="SECRET_KEY or SECRET_KEY_FILE, not both"):
        read_environment(both)
    (tmp_path / "empty").write_text("\n")
    with pytest.raises(ImproperlyConfigured, match="SECRET_KEY must be set"):
        read_environment({"DEBUG": "false", "SECRET_KEY_FILE": str(tmp_path / "empty")})


def test_the_proxy_count_says_which_forwarded_address_is_the_client() -> None:
    assert read_environment({}).proxy_count == 0
    assert read_environment({"BEHIND_PROXY": "true"}).proxy_count == 1
    two = read_environment({"PROXY_COUNT": "2"})
    assert (two.proxy_count, two.behind_proxy) == (2, True)
    assert read_environment({"PROXY_COUNT": "0"}).behind_proxy is False
    with pytest.raises(ImproperlyConfigured, match="PROXY_COUNT"):
        read_environment({"PROXY_COUNT": "two"})


def test_cors_allowed_origins_are_none_by_default_and_listed_origins_otherwise() -> None:
    assert read_environment({}).cors_allowed_origins == []
    env = read_environment({"CORS_ALLOWED_ORIGINS": "https://game.example/, http://localhost:3000"})
    assert env.cors_allowed_origins == ["https://game.example", "http://localhost:3000"]
    with pytest.raises(ImproperlyConfigured, match="CORS_ALLOWED_ORIGINS"):
        read_environment({"CORS_ALLOWED_ORIGINS": "game.example"})
