"""``challengers-verify``: check a finished tournament against the commitment you recorded.

    challengers-verify COMMITMENT --url http://127.0.0.1:8000 --tournament 7 [--save DIR]
    challengers-verify COMMITMENT --files DIR

``COMMITMENT`` is the ``fairness.commitment`` you noted while the tournament was in its lobby. The
check never reads it from the server. Prints ``OK …`` (exit 0) or ``FAIL …`` with the reason (exit
1).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from challengers_verify.check import Forged, verify_tournament
from challengers_verify.documents import Documents, fetch, load


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="challengers-verify", description=__doc__.split("\n")[0])
    parser.add_argument("commitment", help="The commitment you recorded in the lobby (hex).")
    parser.add_argument("--url", help="The server, e.g. http://127.0.0.1:8000")
    parser.add_argument("--tournament", type=int, help="The finished tournament's id")
    parser.add_argument("--files", type=Path, help="A folder of saved view/replay/log.json")
    parser.add_argument("--save", type=Path, help="Also save the documents read to this folder")
    return parser


def _documents(arguments: argparse.Namespace) -> Documents:
    if arguments.files is not None:
        return load(arguments.files)
    if arguments.url is None or arguments.tournament is None:
        raise SystemExit("give --files DIR, or --url URL and --tournament ID")
    found = fetch(arguments.url, arguments.tournament)
    if arguments.save is not None:
        found.save(arguments.save)
    return found


def main(argv: list[str] | None = None) -> int:
    arguments = _parser().parse_args(argv)
    documents = _documents(arguments)
    try:
        ok, verdict = (
            True,
            verify_tournament(
                arguments.commitment, documents.view, documents.replay, documents.log
            ),
        )
    except Forged as forged:
        ok, verdict = False, str(forged)
    except Exception as error:  # a verifier says why it could not check, in one line
        ok, verdict = False, f"could not check: {type(error).__name__}: {error}"
    print(("OK " if ok else "FAIL ") + verdict)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
