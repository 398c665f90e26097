"""The catalogue's GraphQL enums, made from the models' choices (``apikit.enums.enum_of``).

Each set of values has one home. REST's filters and OpenAPI schema read it too."""

from __future__ import annotations

from apikit.enums import enum_of
from cards.models import Box as Boxes
from cards.models import Confidence as Confidences
from cards.models import Level, SetKind, Timing

Box = enum_of("Box", sorted(Boxes.values), "A whole box: its basic set, draft rules and sets.")
CardLevel = enum_of("CardLevel", Level.values, "S (starter), A, B, C, R (Robot hard) or SOLO.")
CardTiming = enum_of("CardTiming", Timing.values, "When a card's effect acts.")
CardSetKind = enum_of("CardSetKind", SetKind.values, "Basic, additional, starter or Robot.")
Confidence = enum_of("Confidence", Confidences.values, "How sure the catalogue is of a card.")
