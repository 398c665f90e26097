"""League writes, one module per concern (docs/architecture.md)."""
