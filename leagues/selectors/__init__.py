"""League reads: the queries the transports answer with (docs/architecture.md)."""
