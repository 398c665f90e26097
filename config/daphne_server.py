"""Daphne, with its access log written through Python's logging (``LOGGING``).

Daphne writes its access lines straight to a stream, past ``LOGGING``: not in the JSON format,
and past the filter that masks tokens (``config.logfilters.RedactTokens``), so a deprecated
``?token=`` in a URL was written as sent. Here each access line is a log record of the logger
``daphne.access`` (INFO), formatted and filtered as every other line. Run it as Daphne is run:

    python -m config.daphne_server -b 0.0.0.0 -p 8001 config.serve:application

(``manage.py serve`` uses it too.) Daphne's options are unchanged; ``--access-log`` only turns
the access log on (as ``-v 1``, the default, does): its lines go to ``LOGGING``'s handlers
wherever it points.
"""

from __future__ import annotations

import datetime
import logging
from typing import Any

from daphne import server
from daphne.access import AccessLogGenerator
from daphne.cli import CommandLineInterface as DaphneCommandLine

log = logging.getLogger("daphne.access")


class AccessLog(AccessLogGenerator):
    """Daphne's access entries as log records: ``client "request" status size``."""

    def __init__(self) -> None:
        super().__init__(stream=None)

    def write_entry(
        self,
        host: str,
        date: datetime.datetime,
        request: str,
        status: int | None = None,
        length: int | None = None,
        ident: str | None = None,
        user: str | None = None,
    ) -> None:
        # The record has its own time: Daphne's date (local, without a zone) is left out.
        log.info('%s "%s" %s %s', host, request, status or "-", length or "-")


class Server(server.Server):
    def __init__(self, *args: Any, action_logger: Any = None, **kwargs: Any) -> None:
        logger = AccessLog() if action_logger is not None else None
        super().__init__(*args, action_logger=logger, **kwargs)


class CommandLineInterface(DaphneCommandLine):
    server_class = Server


if __name__ == "__main__":
    CommandLineInterface.entrypoint()
