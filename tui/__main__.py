"""Run Freight with ``python -m tui``."""

from tui.web.tether import tie_to_server

tie_to_server()  # an app `freight serve` started ends with the server

from tui.cli import main  # noqa: E402

raise SystemExit(main())
