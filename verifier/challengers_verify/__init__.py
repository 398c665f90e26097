"""Check a finished Challengers! tournament without trusting the server (docs/protocol.md §15)."""
