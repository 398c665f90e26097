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
