"""Running a server: the warm-up before connecting, the event-loop and garbage-collection
watches, the invite link, the chores (`backup`, `check`, `copy-db`) and forgetting members
and servers."""
