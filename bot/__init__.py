"""Parlour's application shell: settings, client, game service, storage and UI plumbing."""

__version__ = "0.2.0"  # the one place the version is written (pyproject.toml reads it)
