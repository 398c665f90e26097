"""URLs: admin, the versioned API (`/api/v1/`) with its schema and docs, and GraphQL (`/graphql/`).

They also serve the web client with its translations. `/jsi18n/` is Django's JavaScript catalogue of
the `djangojs` gettext domain. `/glossary.json` holds the game's terms in every language."""

from __future__ import annotations

from csp.constants import UNSAFE_INLINE
from csp.decorators import csp_update
from django.contrib import admin
from django.urls import URLPattern, URLResolver, include, path
from django.views.i18n import JavaScriptCatalog

from cards.glossary import glossary_view
from server.api_docs import docs_view, schema_view
from server.graphql_views import graphql_view
from server.health import HealthView
from server.metrics_http import metrics_view
from server.probes import LiveView, ReadyView

# Swagger UI (server.api_docs): its page template carries an inline <style>, the one exception
# to the Content-Security-Policy.
api_docs = csp_update({"style-src": [UNSAFE_INLINE]})(docs_view)

api_v1: list[URLPattern | URLResolver] = [
    path("health/", HealthView.as_view(), name="health"),
    path("live/", LiveView.as_view(), name="live"),
    path("ready/", ReadyView.as_view(), name="ready"),
    path("schema/", schema_view, name="schema"),  # made once per process, gzip, ETag
    path("docs/", api_docs, name="docs"),
    path("", include("cards.api.urls")),
    path("", include("tournaments.api.urls")),
    path("", include("leagues.api.urls")),
]

urlpatterns: list[URLPattern | URLResolver] = [
    path("admin/", admin.site.urls),
    path("api/v1/", include(api_v1)),
    path("graphql/", graphql_view, name="graphql"),
    path("jsi18n/", JavaScriptCatalog.as_view(domain="djangojs"), name="javascript-catalog"),
    path("glossary.json", glossary_view, name="glossary"),
    path("metrics", metrics_view, name="metrics"),
    path("", include("leagues.web.pages")),  # the league pages: the shell, or 404
    path("", include("frontend.urls")),
]

handler404 = "infra.errors.api_not_found"
handler500 = "infra.errors.server_failed"
