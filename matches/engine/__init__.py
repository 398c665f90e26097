"""The pure rules engine of one Challengers! match. Imports only the standard library."""
