"""The languages the server speaks, and how a request or a socket picks one.

Django's own i18n does the translating. It has gettext catalogues under ``locale/``, and
``LocaleMiddleware`` for ``Accept-Language``. This module adds what it lacks for an API:

- ``?lang=`` on any URL, which wins over the header;
- a coded refusal of a language the server does not speak;
- the same choice for a WebSocket, from its opening request;
- compiling the catalogues without GNU gettext.
"""

from __future__ import annotations

from asgiref.typing import WebSocketScope
from django.conf import settings
from django.http import HttpRequest, HttpResponseBase, QueryDict
from django.http.cookie import parse_cookie
from django.utils import translation
from django.utils.cache import patch_vary_headers
from django.utils.deprecation import MiddlewareMixin
from django.utils.translation import gettext

from infra.errors import ApplicationError

QUERY_PARAMETER = "lang"


class UnsupportedLanguage(ApplicationError):
    """``?lang=`` names a language with no catalogue here."""


def supported() -> list[str]:
    return [code for code, _ in settings.LANGUAGES]


def language_of(code: str) -> str:
    """The supported language ``code`` names, or ``UnsupportedLanguage``.

    So ``zh-Hans`` and ``ru-RU`` name ``zh-hans`` and ``ru``."""
    try:
        return translation.get_supported_language_variant(code.strip().lower())
    except LookupError:
        raise UnsupportedLanguage(
            "unsupported_language",
            gettext("This server speaks no language named %(lang)s.") % {"lang": repr(code)},
            {"lang": code, "supported": supported()},
        ) from None


def request_language(request: HttpRequest) -> str:
    """``?lang=`` if given, refused when unknown.

    Else the ``django_language`` cookie's language. Else the best of ``Accept-Language``, in
    Django's own order."""
    asked = request.GET.get(QUERY_PARAMETER)
    if asked is not None:
        return language_of(asked)
    return translation.get_language_from_request(request)


def scope_language(scope: WebSocketScope) -> str:
    """A socket's language, chosen as for a request.

    That is its opening URL's ``?lang=``. Else its ``django_language`` cookie. Else its
    ``Accept-Language``."""
    request = HttpRequest()
    request.GET = QueryDict(bytes(scope.get("query_string") or b""), encoding="latin-1")
    for name, value in scope.get("headers") or []:
        if name == b"accept-language":
            request.META["HTTP_ACCEPT_LANGUAGE"] = value.decode("latin-1")
        elif name == b"cookie":
            request.COOKIES = parse_cookie(value.decode("latin-1"))
    try:
        return request_language(request)
    except UnsupportedLanguage:
        return settings.LANGUAGE_CODE  # a socket's refusal needs a language to be written in


class RequestLanguageMiddleware(MiddlewareMixin):
    """``LocaleMiddleware`` for ``Accept-Language``, plus ``?lang=``.

    Like it, this activates the language. It sets the answer's ``Content-Language`` and ``Vary:
    Accept-Language``. It is outermost, so every coded error of the layers below is in the chosen
    language. An unknown ``?lang=`` is ``400 unsupported_language``. That one is in English:
    nothing else was asked.
    """

    def process_request(self, request: HttpRequest) -> HttpResponseBase | None:
        translation.activate(settings.LANGUAGE_CODE)
        try:
            language = request_language(request)
        except UnsupportedLanguage as error:
            from infra.middleware import coded_error

            return coded_error(error)
        translation.activate(language)
        request.LANGUAGE_CODE = language
        return None

    def process_response(
        self, request: HttpRequest, response: HttpResponseBase
    ) -> HttpResponseBase:
        patch_vary_headers(response, ("Accept-Language",))
        response.headers.setdefault("Content-Language", translation.get_language())
        translation.deactivate()  # the next request on this thread starts from the default
        return response
