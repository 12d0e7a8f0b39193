"""Shipment list logic without a UI: rows, columns, dates, scans, status words (no Textual)."""
