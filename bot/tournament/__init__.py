"""Swiss tournaments at tables: pairing, scoring, the event's lifecycle."""
