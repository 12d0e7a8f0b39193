"""Credentials: the client ID and secret of a profile, where they are kept, and how to sign in."""
