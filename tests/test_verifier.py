"""The verifier (``verifier/``, installed on its own) accepts a real tournament and rejects each
forged document.

The package is installed into a fresh venv with ``pip install --no-index --no-deps`` (standard
library only: no network, no server code but the pure modules it packages). A tournament is
played to its end on a live server by ``examples/play.py``, which prints the commitment while the
tournament is in its lobby; the verifier is given that commitment and the server's URL and says
``OK``, saving the documents it read. Each forgery is an edit of those saved documents, and the
verifier must say ``FAIL`` with a reason that names it.
"""

from __future__ import annotations

import copy
import hashlib
import json
import subprocess
import sys
import urllib.request
import venv
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.live_server import ROOT, live_server

Edit = Callable[[dict[str, Any]], None]
pytestmark = pytest.mark.long  # a server, a whole tournament and a venv: ~90 s


@pytest.fixture(scope="module")
def verifier(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The ``challengers-verify`` command of a fresh venv the package alone was installed in."""
    folder = tmp_path_factory.mktemp("verifier-venv")
    venv.EnvBuilder(with_pip=True).create(folder)
    pip = [str(folder / "bin" / "python"), "-m", "pip", "install", "--no-index", "--no-deps"]
    done = subprocess.run(
        [*pip, str(ROOT / "verifier")], capture_output=True, text=True, timeout=300, cwd=folder
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return folder / "bin" / "challengers-verify"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with live_server(tmp_path_factory.mktemp("verifier-server")) as url:
        yield url


@pytest.fixture(scope="module")
def played(server: str) -> tuple[str, str, str]:
    """A finished tournament on the live server: (URL, id, commitment noted in the lobby)."""
    done = subprocess.run(
        [sys.executable, str(ROOT / "examples" / "play.py"), server, "--seats", "3"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    tournament = lines[0].split()[1].rstrip(",")
    assert lines[1].startswith("Commitment "), lines[:2]
    return server, tournament, lines[1].split()[1]


def _verify(command: Path, *arguments: str) -> tuple[int, str]:
    done = subprocess.run(
        [str(command), *arguments], capture_output=True, text=True, timeout=300, cwd=command.parent
    )
    return done.returncode, done.stdout + done.stderr


@pytest.fixture(scope="module")
def saved(
    verifier: Path, played: tuple[str, str, str], tmp_path_factory: pytest.TempPathFactory
) -> Path:
    """The documents the verifier read when it accepted the real tournament."""
    url, tournament, commitment = played
    folder = tmp_path_factory.mktemp("documents")
    code, said = _verify(
        verifier, commitment, "--url", url, "--tournament", tournament, "--save", str(folder)
    )
    assert code == 0, said
    assert said.startswith(f"OK tournament {tournament}: the commitment opens"), said
    return folder


@pytest.mark.timeout(900)
def test_it_accepts_the_saved_documents_of_a_real_tournament(
    verifier: Path, played: tuple[str, str, str], saved: Path
) -> None:
    code, said = _verify(verifier, played[2], "--files", str(saved))
    assert code == 0 and said.startswith("OK "), said


def _sha(seed: int, nonce: str) -> str:
    return hashlib.sha256(f"{seed}:{nonce}".encode()).hexdigest()


def _new_seed(documents: dict[str, Any]) -> None:
    """(a) A seed and a commitment chosen at the end, consistent with each other."""
    seed, nonce = int(documents["replay"]["seed"]) + 1, "0" * 32
    fresh = {"seed": str(seed), "nonce": nonce, "commitment": _sha(seed, nonce)}
    documents["replay"].update(fresh)
    documents["view"]["fairness"].update(
        commitment=fresh["commitment"], revealed_seed=fresh["seed"], revealed_nonce=nonce
    )
    for event in documents["log"]:
        if event["kind"] == "seed_revealed":
            event["payload"].update(fresh)


def _later(documents: dict[str, Any]) -> dict[str, Any]:
    """The first match of round 2 (its decks came out of a Deck Phase and a round)."""
    return next(m for m in documents["replay"]["matches"] if m["round"] == 2)


def _rigged_deck(documents: dict[str, Any]) -> None:
    """(b) A deck that is not the one the draft made: a pile card dealt into it."""
    match = _later(documents)
    match["setup"]["decks"]["A"][0] = match["setup"]["piles"]["C"][0]


def _reordered_piles(documents: dict[str, Any]) -> None:
    """(c) A level pile in another order than the seed's."""
    match = _later(documents)
    match["setup"]["piles"]["A"].reverse()


def _left_out(documents: dict[str, Any]) -> None:
    """(d) A match the log opened, left out of the replay."""
    documents["replay"]["matches"].remove(_later(documents))


FORGERIES = {
    "a new seed and commitment chosen at the end": (_new_seed, "FAIL commitment: "),
    "rigged decks in a match setup": (_rigged_deck, "FAIL rigged decks: "),
    "reordered level piles": (_reordered_piles, "FAIL reordered level piles: "),
    "a match left out of the replay": (_left_out, "FAIL left out: "),
}


@pytest.mark.timeout(900)
@pytest.mark.parametrize("forgery", list(FORGERIES))
def test_it_rejects_each_forged_document(
    verifier: Path, played: tuple[str, str, str], saved: Path, tmp_path: Path, forgery: str
) -> None:
    edit, reason = FORGERIES[forgery]
    documents = {
        name: json.loads((saved / f"{name}.json").read_text()) for name in ("view", "replay", "log")
    }
    forged = copy.deepcopy(documents)
    edit(forged)
    assert forged != documents
    for name, value in forged.items():
        (tmp_path / f"{name}.json").write_text(json.dumps(value))
    code, said = _verify(verifier, played[2], "--files", str(tmp_path))
    assert code == 1 and said.startswith(reason), said


def _post(url: str, body: dict[str, Any], token: str | None = None) -> Any:
    headers = {"Content-Type": "application/json", "Accept": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    request = urllib.request.Request(url, json.dumps(body).encode(), headers)
    with urllib.request.urlopen(request, timeout=60) as answer:
        return json.load(answer)


@pytest.mark.timeout(900)
def test_a_tournament_its_host_cancels_after_the_start_shows_it_and_opens_the_commitment(
    verifier: Path, server: str, tmp_path: Path
) -> None:
    api = f"{server}/api/v1/tournaments"
    ticket = _post(f"{api}/", {"name": "Cancelled", "seats": 3})
    number, token = ticket["id"], ticket["seat"]["token"]
    with urllib.request.urlopen(f"{api}/{number}/", timeout=60) as answer:
        noted = json.load(answer)["fairness"]["commitment"]  # in the lobby
    _post(f"{api}/{number}/bots/", {"count": 2}, token)
    _post(f"{api}/{number}/start/", {}, token)
    _post(f"{api}/{number}/cancel/", {}, token)
    folder = tmp_path / "cancelled"
    code, said = _verify(
        verifier, noted, "--url", server, "--tournament", str(number), "--save", str(folder)
    )
    assert (code, said.strip()) == (
        0,
        f"OK tournament {number} was cancelled by its host in round 1: the revealed seed "
        "opens your commitment",
    )
    log = json.loads((folder / "log.json").read_text())
    kinds = [event["kind"] for event in log]
    assert kinds.index("tournament_started") < kinds.index("seed_revealed")
    assert kinds[-2:] == ["seed_revealed", "tournament_cancelled"]
    assert log[-1]["payload"] == {"round": 1, "reason": None}
    revealed = log[-2]["payload"]
    assert _sha(int(revealed["seed"]), revealed["nonce"]) == noted
    code, said = _verify(verifier, _sha(1, "0" * 32), "--files", str(folder))
    assert code == 1 and said.startswith("FAIL commitment: "), said
