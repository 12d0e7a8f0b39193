"""``freight serve``: the app in a web browser, through textual-serve (the ``web`` extra)."""
