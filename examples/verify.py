"""Check a finished Challengers! tournament without trusting the server.

    python examples/verify.py http://127.0.0.1:8000 TOURNAMENT_ID

Needs the standard library and the pure rules engine of this repository (``matches/engine``,
no Django). It reads the public API only and prints one line: ``OK …`` (exit 0) or
``FAIL …`` (exit 1). It checks that

1. the revealed seed and nonce open the commitment shown since the lobby
   (SHA-256 of ``"<seed>:<nonce>"``);
2. every match's seed is the one derived from the revealed seed (the first 8 bytes of
   SHA-256 of ``"<seed>:match:<round>:<park>"``, big-endian, shifted right by one bit);
3. re-playing every match from its setup, seed and answers with the engine gives exactly its
   published events (every shuffle re-derived from the match's seed), and again from the
   events' own chance outcomes;
4. every match's published winner is the side the re-play crowned.

The derivation is written out in docs/protocol.md ("Verifying a tournament").
"""

from __future__ import annotations

import argparse
import hashlib
import json
import struct
import sys
import urllib.request
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the repository's engine

from matches.engine import play_match, verify
from matches.engine.cards import CardSpec, spec_from_entry
from matches.engine.model import MatchResult, MatchSetup


def fetch(base: str, path: str) -> Any:
    request = urllib.request.Request(
        base.rstrip("/") + path, headers={"Accept": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.load(response)


def commitment(seed: str, nonce: str) -> str:
    return hashlib.sha256(f"{seed}:{nonce}".encode()).hexdigest()


def derive_seed(seed: str, *labels: object) -> int:
    text = ":".join(str(part) for part in (seed, *labels))
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big") >> 1


def specs_of(cards: dict[str, Any]) -> dict[str, CardSpec]:
    sets = frozenset(cards["all_sets"])
    specs = (spec_from_entry(entry, sets) for entry in cards["entries"])
    return {spec.key: spec for spec in specs}


def setup_of(data: dict[str, Any], specs: dict[str, CardSpec]) -> MatchSetup:
    def refs(pairs: list[list[Any]]) -> tuple[tuple[int, str], ...]:
        return tuple((uid, key) for uid, key in pairs)

    return MatchSetup(
        decks={side: refs(pairs) for side, pairs in data["decks"].items()},
        round=data["round"],
        first=data["first"],
        park=data["park"],
        shuffle=True,
        piles={level: refs(pairs) for level, pairs in data["piles"].items()},
        trophies=data["trophies"],
        fans=data["fans"],
        lost_previous=data["lost_previous"],
        sets_in_play=tuple(data["sets_in_play"]),
        robot=data["robot"],
        final=data["final"],
        specs=specs,
    )


def chance(match: dict[str, Any]) -> dict[str, Any]:
    """The deck orders (top card first) and the toss the match seed gives, derived here alone
    (docs/protocol.md, "Verifying a tournament", step 3)."""
    decks = match["setup"]["decks"]
    a, b = len(decks["A"]), len(decks["B"])
    n = a + b + 1
    words = struct.unpack(f"<{n}I", hashlib.shake_128(match["seed"].encode()).digest(4 * n))
    keys = [(word & ((1 << 30) - 1) & ~255) | i for i, word in enumerate(words)]
    cards = [uid for side in ("A", "B") for uid, _ in decks[side]]

    def order(ids: range) -> list[int]:
        return [cards[i] for i in sorted(ids, key=keys.__getitem__, reverse=True)]

    return {"A": order(range(a)), "B": order(range(a, a + b)), "toss": "AB"[keys[-1] >> 29]}


def recorded_chance(events: list[dict[str, Any]]) -> dict[str, Any]:
    found: dict[str, Any] = {"toss": None}
    for event in events:
        if event["kind"] == "shuffle":
            found[event["side"]] = list(event["order"])
        elif event["kind"] == "flag_toss":
            found["toss"] = event["side"]
    return found


def check_chance(match: dict[str, Any]) -> bool:
    """Whether the recorded shuffles (and toss) are the ones the match seed gives."""
    decks = match["setup"]["decks"]
    if len(decks["A"]) + len(decks["B"]) >= 256:
        return True  # the engine's re-play below still checks them
    derived, recorded = chance(match), recorded_chance(match["events"])
    if match["setup"]["first"] is not None:
        derived["toss"] = None
    return all(derived[k] == recorded.get(k) for k in ("A", "B", "toss"))


def check_match(match: dict[str, Any], seed: str, specs: dict[str, CardSpec]) -> str | None:
    """What is wrong with one match, or ``None``."""
    name = f"match {match['id']} (round {match['round']}, {match['park']})"
    if int(match["seed"]) != derive_seed(seed, "match", match["round"], match["park"]):
        return f"{name}: its seed is not the one derived from the revealed seed"
    if not check_chance(match):
        return f"{name}: a recorded shuffle is not the one its seed gives"
    setup = setup_of(match["setup"], specs)
    if not verify(setup, int(match["seed"]), match["answers"], match["events"]):
        return f"{name}: re-playing it does not give its published events"
    outcome = play_match(
        setup, int(match["seed"]), {"A": None, "B": None}, answers=match["answers"]
    )
    assert isinstance(outcome, MatchResult)
    if match["published_winner"] != match["seats"][outcome.winner]:
        return f"{name}: the published winner is not the one the re-play crowned"
    return None


def check(base: str, tournament_id: int) -> tuple[bool, str]:
    view = fetch(base, f"/api/v1/tournaments/{tournament_id}/")
    replay = fetch(base, f"/api/v1/tournaments/{tournament_id}/replay/")
    public = {m["id"]: m for m in fetch(base, f"/api/v1/tournaments/{tournament_id}/matches/")}
    seed, nonce = replay["seed"], replay["nonce"]
    if commitment(seed, nonce) != view["fairness"]["commitment"]:
        return False, "the revealed seed and nonce do not open the commitment"
    specs = specs_of(replay["cards"])
    played = [m for m in replay["matches"] if m["status"] == "finished"]
    for match in played:
        match["published_winner"] = public[match["id"]]["winner"]
        wrong = check_match(match, seed, specs)
        if wrong:
            return False, wrong
    return True, (
        f"tournament {tournament_id}: the commitment opens, and {len(played)} matches' seeds, "
        f"shuffles, events and winners re-play exactly"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("url", help="The server, e.g. http://127.0.0.1:8000")
    parser.add_argument("tournament", type=int, help="The finished tournament's id")
    arguments = parser.parse_args()
    try:
        ok, verdict = check(arguments.url, arguments.tournament)
    except Exception as error:  # a verifier says why it could not check, in one line
        ok, verdict = False, f"could not check: {type(error).__name__}: {error}"
    print(("OK " if ok else "FAIL ") + verdict)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
