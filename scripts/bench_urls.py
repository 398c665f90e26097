"""The benchmarks' URL configuration: the product's URLs plus the yardstick at ``/bench/bare/``.

The yardstick is a bare DRF ``ListAPIView`` of 20 ``Card`` rows with a 6-field
``ModelSerializer``: what a plain DRF list costs on this machine, to compare every read with.
It lives here, in the benchmarks, never in the product. ``application`` serves it over WSGI
(``gunicorn bench_urls:application`` with ``scripts/`` on the path).
"""

from __future__ import annotations

import os
from typing import Any

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

from django.core.wsgi import get_wsgi_application

application = get_wsgi_application()

from django.conf import settings  # noqa: E402
from django.urls import URLPattern, URLResolver, include, path  # noqa: E402
from rest_framework import generics, serializers  # noqa: E402

from cards.models import Card  # noqa: E402
from server.urls import urlpatterns as product_urls  # noqa: E402


class BareCard(serializers.ModelSerializer[Card]):
    class Meta:
        model = Card
        fields = ["id", "name", "level", "power", "keyword", "timing"]


class BareList(generics.ListAPIView[Card]):
    serializer_class = BareCard
    authentication_classes: list[Any] = []
    permission_classes: list[Any] = []

    def get_queryset(self) -> Any:
        return Card.objects.order_by("pk")[:20]


urlpatterns: list[URLPattern | URLResolver] = [
    path("bench/", include([path("bare/", BareList.as_view())])),
    *product_urls,
]
settings.ROOT_URLCONF = __name__
