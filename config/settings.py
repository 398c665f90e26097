"""Django settings. Every value that changes between machines comes from ``config.env``."""

from __future__ import annotations

import os
import sys
from datetime import timedelta

from corsheaders.defaults import default_headers
from csp.constants import NONCE, NONE, SELF
from django.utils.translation import gettext_lazy as _

from config.env import BASE_DIR, read_environment

ENV = read_environment(os.environ)

DEBUG = ENV.debug
SECRET_KEY = ENV.secret_key
ALLOWED_HOSTS = ENV.allowed_hosts
# Origins a browser may post forms from besides the request's own host (the admin behind a TLS
# terminator on another name or port). nginx passes the client's Host with its port, so the
# proxy's own address needs nothing here (deploy/nginx.conf).
CSRF_TRUSTED_ORIGINS = ENV.csrf_trusted_origins
# Pages on other sites whose scripts may open this server's sockets (a web client served from
# elsewhere), besides pages served under ALLOWED_HOSTS; a client with no Origin (a program, not a
# browser) is always let in (infra.wsorigin).
WEBSOCKET_ALLOWED_ORIGINS = ENV.websocket_allowed_origins

# The catalogue's history is a record, not an editor: no "revert" from it (edits go through
# the change page and its rules).
SIMPLE_HISTORY_REVERT_DISABLED = True

# Daphne's app, first, makes `runserver` the ASGI server (WebSockets too). Importing it installs
# Twisted's reactor, ~1 s of CPU, so every other command, worker and server starts without it.
RUNSERVER = sys.argv[1:2] == ["runserver"]

INSTALLED_APPS = [
    *(["daphne"] if RUNSERVER else []),
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "rest_framework",
    "django_filters",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "channels",
    "axes",
    "corsheaders",
    "simple_history",  # cards: every change of a card or a set with its values (admin History)
    "infra.apps.InfraConfig",
    "server.apps.ServerConfig",
    "cards",
    "matches",
    "tournaments",
    "leagues",
    "frontend",
]

MIDDLEWARE = [
    # Outermost of all: the request id for every log line, and each request counted and timed.
    "infra.logcontext.RequestContextMiddleware",
    "server.metrics_http.RequestMetricsMiddleware",
    # Then the language (?lang=, else Accept-Language) every answer below is written in.
    "infra.i18n.RequestLanguageMiddleware",
    # Outermost: every answer under /api/ is coded JSON, whichever layer below refused the request.
    "infra.middleware.ApiErrorsMiddleware",
    "django.middleware.security.SecurityMiddleware",
    # Content-Security-Policy on every answer (CONTENT_SECURITY_POLICY below).
    "csp.middleware.CSPMiddleware",
    # CORS for the API and /graphql/ (CORS_* below): before anything that may answer first.
    "corsheaders.middleware.CorsMiddleware",
    # Per-viewer answers of the API and /graphql/ are private to their caller (infra.headers).
    "infra.headers.ViewerCacheMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    # Who made a change (the catalogue's history records the request's user).
    "simple_history.middleware.HistoryRequestMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # Innermost: a keyed POST under /api/v1/ runs once; a retry gets the first answer.
    "infra.idempotency.IdempotencyMiddleware",
    # Answers a locked-out login (django-axes recommends it last).
    "axes.middleware.AxesMiddleware",
]

# The admin login resists guessing (django-axes, infra.lockout): after LOGIN_FAILURE_LIMIT failed
# attempts for one account from one address, that pair is locked for LOGIN_COOLOFF_MINUTES from
# the last counted failure. Only the pair: the owner still logs in from any other address, so a
# stranger cannot lock them out. Tries during the lock are refused uncounted (the cool-off does
# not grow); a success resets its pair. Attempts are rows in the database (SQLite or PostgreSQL
# alike); staff unlock early by deleting the "Access attempts" rows in the admin, or with
# `manage.py axes_reset` / `axes_reset_username NAME`. A lockout is logged (login_locked_out)
# and counted (challengers_login_lockouts_total; alert ChallengersLoginLockouts).
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = ENV.login_failure_limit
AXES_COOLOFF_TIME = timedelta(minutes=ENV.login_cooloff_minutes)
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False
AXES_RESET_ON_SUCCESS = True
# The address the API's throttles count (X-Forwarded-For's last entry behind the proxy).
AXES_CLIENT_IP_CALLABLE = "infra.idempotency.client_address"
AXES_HTTP_RESPONSE_CODE = 429
# The refusal: a translated page with the minutes left and Retry-After (never axes' JSON with
# "Access-Control-Allow-Origin: *" for an XMLHttpRequest).
AXES_LOCKOUT_CALLABLE = "infra.lockout.lockout_response"

ROOT_URLCONF = "server.urls"
WSGI_APPLICATION = "server.wsgi.application"
ASGI_APPLICATION = "server.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

DATABASES = ENV.databases
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
CHANNEL_LAYERS = ENV.channel_layers
# Redis with REDIS_URL (shared by every server process), else this process's memory.
CACHES = ENV.caches

# Served over HTTPS (HTTPS, on by default once DEBUG is off): plain HTTP is redirected, cookies
# are secure, and browsers are told to come back over HTTPS only (HSTS_SECONDS, 0 = no HSTS).
SECURE_SSL_REDIRECT = ENV.https
SESSION_COOKIE_SECURE = ENV.https
CSRF_COOKIE_SECURE = ENV.https
SECURE_HSTS_SECONDS = ENV.hsts_seconds if ENV.https else 0
SECURE_HSTS_INCLUDE_SUBDOMAINS = ENV.hsts_include_subdomains
SECURE_HSTS_PRELOAD = ENV.hsts_preload
# A probe inside the private network asks over plain HTTP.
SECURE_REDIRECT_EXEMPT = [r"^api/v1/health/$", r"^metrics$"]
# BEHIND_PROXY (or PROXY_COUNT): a proxy (deploy/nginx.conf) terminates TLS and says so in
# X-Forwarded-Proto, and names the client in X-Forwarded-For (the address throttling counts).
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https") if ENV.behind_proxy else None

# Content-Security-Policy (django-csp; docs/security.md, "Headers"): scripts, styles, images,
# fonts and connections (fetch, the WebSocket streams) from this server only, no inline script
# or style, no plugin, no framing, forms posted here only. The web client, the admin and
# GraphiQL run under it as they are; the one exception is the API docs page (Swagger UI's
# template carries an inline <style>: server.urls adds 'unsafe-inline' to style-src there). A
# page that inlines its stylesheet (a season's, drawn: no fetch before its first paint) names it
# by a nonce of that answer alone; a page that asks for none has none in its header.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF, NONCE],
        "img-src": [SELF, "data:"],
        "font-src": [SELF],
        "connect-src": [SELF],
        "object-src": [NONE],
        "base-uri": [NONE],
        "frame-ancestors": [NONE],
        "form-action": [SELF],
    }
}

# CORS (django-cors-headers; docs/security.md, "Headers"): the API and /graphql/ answer the
# scripts of the pages at CORS_ALLOWED_ORIGINS (none by default: a browser page of another
# origin reads nothing). No credentials: the API reads only the Authorization header (a seat or
# organizer token the page holds), never a cookie, so no cookie is ever sent cross-origin.
CORS_ALLOWED_ORIGINS = ENV.cors_allowed_origins
CORS_URLS_REGEX = r"^/(api|graphql)/"
CORS_ALLOW_CREDENTIALS = False
CORS_ALLOW_HEADERS = (*default_headers, "idempotency-key", "x-request-id")
CORS_EXPOSE_HEADERS = ["Retry-After", "X-Request-ID", "Idempotent-Replayed", "Content-Language"]

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en"
# Every answer is written in one of these (?lang= or Accept-Language; English by default): the
# gettext catalogues under locale/, compiled by `manage.py compile_catalogues` (both scripts).
LANGUAGES = [("en", _("English")), ("zh-hans", _("Simplified Chinese")), ("ru", _("Russian"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
# WhiteNoise serves the apps' static files straight from their folders, so neither the one-command
# server nor the containers need a `collectstatic` step (and there is no STATIC_ROOT to fill).
STATIC_ROOT = None
WHITENOISE_USE_FINDERS = True

REST_FRAMEWORK = {
    "DEFAULT_SCHEMA_CLASS": "apikit.openapi.OperationSchema",
    "DEFAULT_FILTER_BACKENDS": ["django_filters.rest_framework.DjangoFilterBackend"],
    "DEFAULT_PAGINATION_CLASS": None,
    "EXCEPTION_HANDLER": "infra.errors.api_exception_handler",
    # Seat tokens only: no password (Basic) or admin session reaches the public API.
    "DEFAULT_AUTHENTICATION_CLASSES": ["tournaments.callers.SeatTokenAuthentication"],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.AllowAny"],
    "UNAUTHENTICATED_USER": None,
    # JSON in and out (the browsable HTML pages are gone: the docs are at /api/v1/docs/).
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    # JSON bodies only: a form or multipart body is 415 unsupported_media_type, so a cross-site
    # HTML form (which cannot send application/json without CORS) can change nothing.
    "DEFAULT_PARSER_CLASSES": ["infra.parsers.JsonParser"],
    # The client address of a throttle: X-Forwarded-For's PROXY_COUNT-th entry from the end
    # behind proxies (the one the outermost proxy appended), else the peer (never a header a
    # client could forge).
    "NUM_PROXIES": ENV.proxy_count,
}

# Requests per client address and scope (THROTTLE_CREATE, THROTTLE_JOIN, THROTTLE_ACTION; None
# = unlimited), read on each request (infra.throttling). The test suite turns them off (it plays
# hundreds of tournaments a minute from one address) unless a test sets THROTTLE_RATES itself.
THROTTLE_RATES = ENV.throttle_rates

SPECTACULAR_SETTINGS = {
    "TITLE": "Challengers! game server API",
    "DESCRIPTION": "Card catalogue, tournaments and matches of Challengers! and Beach Cup.",
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # The docs page paints the operations' tags and opens one on a click (rendering all ~75
    # operations and ~140 models at once took seconds): scripts/bench_docs_page.py.
    "SWAGGER_UI_SETTINGS": {
        "deepLinking": True,
        "docExpansion": "none",
        "defaultModelsExpandDepth": -1,
    },
    # Summaries, every error answer with its codes, the Idempotency-Key header, the Bearer seat
    # token, precise integer types (apikit.openapi).
    # Two answers' ``status`` fields hold different sets: each named after its GraphQL enum.
    "ENUM_NAME_OVERRIDES": {
        "TournamentStatusEnum": "tournaments.enums.TOURNAMENT_STATUSES",
        "MatchStatusEnum": "tournaments.enums.MATCH_VIEW_STATUSES",
        "TournamentEventKindEnum": "tournaments.enums.LOG_VIEW_KINDS",
        "LeagueMemberKindEnum": "leagues.models.MemberKind.values",
        "SeatActionEnum": "tournaments.enums.SEAT_ACTIONS",
        "SeatKindEnum": "tournaments.models.SeatKind.values",
        "AdviceKindEnum": "tournaments.rules.bots.advice.ADVICE_KINDS",
        "WinterModeEnum": "tournaments.rules.winter.MODES",
        "MatchSideEnum": "matches.engine.model.SIDES",
        "ProbeStatusEnum": "server.health.PROBE_STATUSES",
        "OrganizerAccountStatusEnum": "leagues.organizing_shapes.ACCOUNT_STATUSES",
        "JoinRequestStatusEnum": "leagues.models.JoinStatus.values",
    },
    "POSTPROCESSING_HOOKS": [
        "apikit.openapi.add_components",
        "drf_spectacular.hooks.postprocess_schema_enums",
        "apikit.openapi.add_event_unions",
        "apikit.openapi.complete_schema",
    ],
}

CELERY_BROKER_URL = ENV.celery_broker_url
CELERY_RESULT_BACKEND = ENV.celery_result_backend
# Without REDIS_URL there is no broker: tasks run in the calling process, errors included.
CELERY_TASK_ALWAYS_EAGER = ENV.celery_task_always_eager
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# A worker outlives a Redis restart or outage, however long: kombu's Redis transport with the
# repair of infra.broker, and reconnection attempts with no limit (Celery's default gives up,
# and exits, after 100).
CELERY_BROKER_TRANSPORT = "infra.broker:Transport" if ENV.redis_url else None
CELERY_BROKER_CONNECTION_MAX_RETRIES = None
# A task is acknowledged only when it has finished, and a worker that dies mid-task hands it
# back to the broker: every task is idempotent (it re-checks the state under a lock), so a
# redelivery records nothing twice.
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# Nothing reads a task's return value: no result is written to Redis after each task.
CELERY_TASK_IGNORE_RESULT = True
# Celery's Django fixup closes the database pool around every task of a prefork worker, so each
# task opened a new PostgreSQL connection (a new server process). It now closes the pool every
# this many tasks; server.celery hands the connection back to the pool around each task instead.
CELERY_DB_REUSE_MAX = 1000
# What every running tournament still owes is derived from its rows and driven again when no task
# is in flight (tournaments.services.reconcile), every RECONCILE_INTERVAL_SECONDS: by each
# worker's clock (infra.liveness; WORKER_CLOCK) and by Celery beat when one runs, one of them
# per period (a lease). Work owed RECONCILE_REQUEUE_SECONDS with no task queued for it is queued
# again; a tournament owed work for RECONCILE_STUCK_SECONDS counts as stuck in /health/.
RECONCILE_INTERVAL_SECONDS = ENV.reconcile_interval_seconds
RECONCILE_REQUEUE_SECONDS = ENV.reconcile_requeue_seconds
RECONCILE_STUCK_SECONDS = ENV.reconcile_stuck_seconds
RECONCILE_SOURCES = [
    "leagues.services.webhooks.deliveries_owed",
    "leagues.services.recording.results_owed",
    "leagues.services.schedules.starts_owed",
]
WORKER_CLOCK = ENV.worker_clock
# A worker or beat silent for this long is reported dead by /health/; BEAT_REQUIRED: a dead beat
# fails the health check (the workers' clocks reconcile without it, so by default it only shows).
HEARTBEAT_STALE_SECONDS = ENV.heartbeat_stale_seconds
HEARTBEAT_FILE = ENV.heartbeat_file
BEAT_REQUIRED = ENV.beat_required
CELERY_BEAT_SCHEDULE: dict[str, dict[str, str | float]] = {
    "reconcile": {"task": "tournaments.tasks.reconcile", "schedule": RECONCILE_INTERVAL_SECONDS},
    # Retention (docs/operations.md): finished tournaments' logs packed after EVENT_ARCHIVE_DAYS.
    "archive-events": {"task": "tournaments.retention.archive_events", "schedule": 3600.0},
}
# Task modules outside the apps' `tasks` modules (Celery's autodiscovery finds only those).
CELERY_IMPORTS = ["tournaments.retention"]
# Days after which a finished or cancelled tournament's event log (and its matches' events) is
# packed into one compressed archive row (EVENT_ARCHIVE_DAYS, default 30; "off": never).
EVENT_ARCHIVE_DAYS = ENV.event_archive_days
# Tasks the tournaments core queues by name when a round or a tournament finishes
# (tournaments.services.hooks): the leagues app records results and sends webhooks, for the
# tournaments in a league only (no task for the others).
LEAGUE_TOURNAMENT = "leagues.services.recording.in_league"
# How many running tournaments play a card (``set_name``, ``name``): the cards admin says so on
# save. Named, not imported, because the catalogue sits below the tournaments.
CARD_USERS = "tournaments.selectors.cards.running_tournaments_holding"
# A card design's figures from stored play (``key``): the card's admin page shows them.
CARD_STATS = "tournaments.selectors.cardstats.card_stats"
# Cards with their totals from stored play (a Card queryset, annotated): the card list's columns.
CARD_LIST_FIGURES = "tournaments.selectors.cardstats.card_list_figures"
# A win rate as shown (``deck_wins``, ``decks``: rate, 95 % interval, sample size): the list's.
CARD_WIN_SHOWN = "tournaments.selectors.cardstats.win_shown"
# Queues cards' balance simulations (``keys``, ``matches``): the card list's "Simulate" action.
CARD_SIMULATE = "tournaments.services.balance.card_balances_queue"
TOURNAMENT_HOOKS = {
    "round_finished": [
        {"task": "leagues.tasks.round_finished", "when": LEAGUE_TOURNAMENT},
    ],
    "tournament_finished": [
        {"task": "leagues.tasks.tournament_finished", "when": LEAGUE_TOURNAMENT},
    ],
}
# Unacknowledged tasks of a dead worker come back after this many seconds (Redis transport; a
# worker-side setting: the live workers restore them). CELERY_VISIBILITY_TIMEOUT, default 60.
# A killed worker's work does not wait for it: the reconciler queues it again after
# RECONCILE_REQUEUE_SECONDS (+ one interval), well within 30 s.
CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": ENV.celery_visibility_timeout}

REDIS_URL = ENV.redis_url
# "celery": tasks go to the broker (or run eagerly in tests); "thread": the embedded server's own
# worker thread runs them, honouring countdowns.
TASK_RUNNER = ENV.task_runner
# Delay between two released match events, so viewers can watch (MATCH_EVENT_PACE_MS, 0 = instant).
MATCH_EVENT_PACE_SECONDS = ENV.match_event_pace_seconds

WEBHOOKS_ALLOW_PRIVATE = ENV.webhooks_allow_private
# Every tournament's seed comes from a server secret, the host's seed mixed in. True makes the
# host's seed the effective one (repeatable tournaments for tests and operators; never in public).
TRUST_HOST_SEED = False

# LOG_FORMAT: "json" (one object a line: time, level, logger, message, the request/tournament/
# task ids, an event's fields) or "text"; JSON by default once DEBUG is off (infra.logformat).
LOG_FORMAT = ENV.log_format
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {
        "quiet_clock": {"()": "infra.logfilters.QuietClock"},
        # No token is ever written: a deprecated stream ?token=, a bearer subprotocol, a header.
        "redact_tokens": {"()": "infra.logfilters.RedactTokens"},
        "context": {"()": "infra.logcontext.ContextFilter"},
    },
    "formatters": {
        "json": {"()": "infra.logformat.json_formatter"},
        "text": {"()": "infra.logformat.text_formatter"},
    },
    "handlers": {
        "console": {
            "class": "logging.StreamHandler",
            "filters": ["quiet_clock", "context", "redact_tokens"],
            "formatter": LOG_FORMAT,
        }
    },
    "root": {"handlers": ["console"], "level": "INFO" if DEBUG else "WARNING"},
    # The state changes (infra.observe) are logged whatever the root's level.
    # So are Daphne's access lines (server.daphne_server), as gunicorn would write them.
    "loggers": {"challengers": {"level": "INFO"}, "daphne.access": {"level": "INFO"}},
}
# Workers log through LOGGING too (one format for every process), not Celery's own handler.
CELERY_WORKER_HIJACK_ROOT_LOGGER = False

# /metrics (server.metrics_http): with METRICS_TOKEN set, for "Authorization: Bearer <token>";
# unset, for requests from this host only. Figures computed at each scrape come from these.
METRICS_TOKEN = ENV.metrics_token
METRICS_COLLECTORS = [
    "infra.metrics_state.QueueCollector",
    "tournaments.metrics.TournamentCollector",
]
