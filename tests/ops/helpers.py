"""Finished bot tournaments for the operations tests."""

from __future__ import annotations

from rest_framework.test import APIClient

from tests.leagues.helpers import create_organizer, league_with_season, ok, org, post


def finished_bot_tournaments(count: int, seats: int = 2) -> list[int]:
    """``count`` tournaments of bots in one league season, played to their end in process."""
    client = APIClient()
    token = create_organizer("ops")
    slug, season = league_with_season(client, token, slug="ops")
    ids = []
    for _ in range(count):
        path = f"leagues/{slug}/seasons/{season}/tournaments/"
        tid: int = ok(post(client, path, {"seats": seats}, org(token)))["id"]
        ok(post(client, f"tournaments/{tid}/bots/", {"count": seats}, org(token)), 200)
        ok(post(client, f"tournaments/{tid}/start/", None, org(token)), 200)
        ids.append(tid)
    return ids


def own_redis_db(url: str, db: int) -> str:
    """``url`` (a Redis URL) on database ``db``, emptied first: a stand-in stack's broker and
    layer of its own, so its queues are not the ones the other tests of the run read (a metrics
    scrape counting the run's ``celery`` queue found the stack's beat's tasks in it)."""
    import redis

    own = url.rsplit("/", 1)[0] + f"/{db}" if url.count("/") > 2 else f"{url.rstrip('/')}/{db}"
    redis.Redis.from_url(own).flushdb()
    return own
