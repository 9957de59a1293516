"""Parlour's application shell: settings, client, game service, storage and UI plumbing."""
