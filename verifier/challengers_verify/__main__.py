"""``python -m challengers_verify``: the same as ``challengers-verify``."""

import sys

from challengers_verify.cli import main

sys.exit(main())
