"""Form logic without a UI: what a form holds, checks and sends (no Textual here)."""
