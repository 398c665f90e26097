"""Check a finished Challengers! tournament without trusting the server, from this checkout.

    python examples/verify.py COMMITMENT --url http://127.0.0.1:8000 --tournament ID

The verifier package (``verifier/``; installed on its own: ``pip install ./verifier``, then
``challengers-verify``) run with this repository's pure modules: the same command, the same
checks (docs/protocol.md §15). ``COMMITMENT`` is the one you noted in the lobby.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "verifier"), str(ROOT)]  # the package and the pure modules it packs

from challengers_verify.cli import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
