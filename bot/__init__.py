"""Parlour's application shell: settings, client, game service, storage and UI plumbing."""

# The one place the version is written (pyproject.toml reads it): a release's own, or on main
# between releases the next one's with ".dev0" (PEP 440), so that main never passes for a
# release.
__version__ = "0.3.0.dev0"
