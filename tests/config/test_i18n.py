"""Every transport answers in the caller's language (``?lang=``, else the web client's
``django_language`` cookie, else ``Accept-Language``): the codes never change, the messages do."""

from __future__ import annotations

from typing import Any

import pytest
from channels.testing import WebsocketCommunicator
from django.test import Client

from server.asgi import application

ENGLISH = "No such tournament."
LANGUAGES = ["en", "zh-hans", "ru"]


def rest_error(**kwargs: Any) -> tuple[dict[str, Any], Any]:
    response = Client().get("/api/v1/tournaments/999999/", **kwargs)
    assert response.status_code == 404
    body: dict[str, Any] = response.json()
    return body, response


@pytest.mark.django_db
@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_rest_error_keeps_its_code_in_every_language(lang: str) -> None:
    by_query, response = rest_error(QUERY_STRING=f"lang={lang}")
    by_header, _ = rest_error(headers={"Accept-Language": f"{lang};q=0.9, de;q=0.1"})
    assert by_query == by_header
    assert by_query["code"] == "not_found"
    assert (by_query["message"] == ENGLISH) == (lang == "en"), by_query
    assert response["Content-Language"] == lang
    assert "Accept-Language" in response["Vary"]


@pytest.mark.django_db
def test_the_query_wins_over_the_header_and_english_is_the_default() -> None:
    body, _ = rest_error(QUERY_STRING="lang=ru", headers={"Accept-Language": "zh-Hans"})
    assert body["message"] == "Нет такого турнира."
    body, response = rest_error()
    assert body["message"] == ENGLISH and response["Content-Language"] == "en"
    body, _ = rest_error(headers={"Accept-Language": "zh-CN"})
    assert body["message"] == "没有这场锦标赛。"


@pytest.mark.django_db
def test_the_web_clients_cookie_chooses_over_the_header() -> None:
    cookie = {"Cookie": "django_language=ru", "Accept-Language": "zh-Hans"}
    body, _ = rest_error(headers=cookie)
    assert body["message"] == "Нет такого турнира."
    body, _ = rest_error(QUERY_STRING="lang=en", headers=cookie)
    assert body["message"] == ENGLISH


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_stream_reads_the_web_clients_cookie_too() -> None:
    headers = [(b"accept-language", b"zh-Hans"), (b"cookie", b"a=1; django_language=ru")]
    communicator = WebsocketCommunicator(application, "/ws/tournaments/999999/", headers)
    connected, _ = await communicator.connect(timeout=5)
    assert connected
    frame = await communicator.receive_json_from(timeout=5)
    assert (frame["code"], frame["message"]) == ("not_found", "Нет такого турнира.")
    await communicator.disconnect()


def test_the_page_is_served_in_the_chosen_language_with_its_catalogue() -> None:
    page = Client().get("/", headers={"Accept-Language": "zh-CN"}).content.decode()
    assert '<html lang="zh-hans">' in page and "/jsi18n/?lang=zh-hans" in page
    assert '<option value="ru" lang="ru">Русский</option>' in page
    page = Client().get("/", headers={"Cookie": "django_language=ru"}).content.decode()
    assert '<html lang="ru">' in page and "Перейти к игре" in page


@pytest.mark.django_db
def test_an_unknown_language_is_refused_and_changes_nothing() -> None:
    response = Client().get("/api/v1/tournaments/", QUERY_STRING="lang=tlh")
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "unsupported_language"
    assert body["details"] == {"lang": "tlh", "supported": LANGUAGES}


def test_a_pure_rule_error_is_translated(catalogue: Any) -> None:
    client = Client()
    body = {"name": "Ann", "seats": 2, "additional_sets": ["Castle"]}
    response = client.post(
        "/api/v1/tournaments/?lang=zh-hans", body, content_type="application/json"
    )
    assert response.status_code == 400
    assert response.json()["code"] == "five_sets"
    assert response.json()["message"] == "请恰好选择五个不同的扩展系列。"


@pytest.mark.django_db
@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_graphql_error_keeps_its_code_in_every_language(lang: str) -> None:
    query = "query { tournament(id: 999999) { status } }"
    response = Client().post(
        f"/graphql/?lang={lang}", {"query": query}, content_type="application/json"
    )
    error = response.json()["errors"][0]
    assert error["extensions"]["code"] == "not_found"
    assert (error["message"] == ENGLISH) == (lang == "en"), error


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
@pytest.mark.parametrize("lang", LANGUAGES)
async def test_a_stream_refusal_keeps_its_code_in_every_language(lang: str) -> None:
    headers = [(b"accept-language", lang.encode())]
    communicator = WebsocketCommunicator(application, "/ws/tournaments/999999/", headers)
    connected, _ = await communicator.connect(timeout=5)
    assert connected
    frame = await communicator.receive_json_from(timeout=5)
    assert frame["code"] == "not_found"
    assert (frame["message"] == ENGLISH) == (lang == "en"), frame
    await communicator.disconnect()


def test_the_client_gets_its_javascript_catalogue_and_the_glossary() -> None:
    client = Client()
    catalogue = client.get("/jsi18n/", {"lang": "ru"})
    assert catalogue.status_code == 200 and catalogue["Content-Language"] == "ru"
    assert "django.gettext" in catalogue.content.decode()
    glossary = client.get("/glossary.json").json()
    bench = glossary["terms"]["bench"]
    assert (bench["en"], bench["zh-hans"], bench["ru"]) == ("bench", "替补区", "скамья")
    assert glossary["sets"]["City"]["zh-hans"] == "城市"
