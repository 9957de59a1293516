"""The table: lobbies, moves clicked or typed, the board publisher and its pictures, bot
seats and timers, recovery, replays and history, and the presenters that word a game."""
