"""Freight: a keyboard-driven terminal app to rate, book and track freight."""

__version__ = "0.1.0"
