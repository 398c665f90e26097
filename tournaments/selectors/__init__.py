"""Reads: per-viewer projections of tournaments and matches. Hidden facts are filtered here only."""
