"""Non-interactive commands (``freight shipments``, ``rates``, ``track`` …): no Textual here."""
