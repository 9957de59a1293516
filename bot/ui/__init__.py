"""Discord's side of an interaction: the router's 3-second promise, one reply each, the
buttons and menus and their custom ids, slash commands synced and their values checked."""
