"""Reusable widgets of the Freight UI."""
