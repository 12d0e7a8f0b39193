"""Fixtures that start the real sandbox (filled in with the sandbox)."""
