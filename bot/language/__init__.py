"""The language spoken: the catalogs (`locale/`), the words every message is made of, and
the slash commands' localizations."""
