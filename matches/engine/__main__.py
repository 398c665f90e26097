"""``python -m matches.engine`` — see ``matches.engine.cli``."""

import sys

from matches.engine.cli import main

sys.exit(main())
