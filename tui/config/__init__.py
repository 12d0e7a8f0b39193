"""Configuration: where files live, the typed config file, and which profile a run uses."""
