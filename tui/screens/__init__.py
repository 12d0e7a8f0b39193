"""Screens of the Freight UI, one per file."""
