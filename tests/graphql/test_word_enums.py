"""A value that is one of a few words is an enum in GraphQL, as in OpenAPI (issue 41): a match's
side (``MatchSide``) wherever it is told, and every closed set of words a log or match event
holds (its reasons, its steps, a bot's chat line). Only a kind's own single word stays a
``String``."""

from __future__ import annotations

import re

from server.schema import schema


def _fields(type_name: str) -> dict[str, str]:
    body = re.search(rf"^type {type_name} .*?\{{(.*?)^\}}", str(schema), re.M | re.S)
    assert body is not None, type_name
    return dict(re.findall(r"^  (\w+)(?:\(.*?\))?: (.+)$", body.group(1), re.M))


def test_every_side_of_a_match_is_a_match_side() -> None:
    sides = re.findall(r"^  side: (\w+)", str(schema), re.M)
    assert sides and set(sides) == {"MatchSide"}
    assert _fields("EndMatchEvent")["winner"] == "MatchSide!"
    assert _fields("StartMatchEvent")["first"] == "MatchSide"
    assert _fields("StartMatchEvent")["matchKind"] == "MatchKind!"
    assert _fields("MatchSeat")["side"] == "MatchSide!"
    assert _fields("Question")["side"] == "MatchSide!"


def test_the_logs_closed_words_are_enums() -> None:
    assert _fields("SeatLeftLogEvent")["reason"] == "SeatLeftReason!"
    assert _fields("SeatDroppedLogEvent")["reason"] == "SeatDroppedReason!"
    assert _fields("SeatProgressLogEvent")["did"] == "DeckStep!"
    assert _fields("TournamentFinishedLogEvent")["reason"] == "FinishReason!"
    assert _fields("ChatLogEvent")["line"] == "BotLine"
    assert _fields("MatchPhaseOpenedLogEvent")["matches"].startswith("[PhaseMatch")
    assert _fields("PhaseMatch")["kind"] == "MatchKind!"
