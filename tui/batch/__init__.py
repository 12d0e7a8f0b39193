"""Batches of orders from an order export: read, map, check, rate, choose, book, write results.

No Textual here (an import contract says so): the CLI (``freight batch``) and the Batch screen
use the same engine. Money stays a Decimal in its own currency and is never summed across
currencies.
"""
