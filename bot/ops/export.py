"""A member's copy of their data (the right of access): `/my-data` and `python -m bot
export-user`, one JSON document from every server.

It holds what Parlour keeps about them and what they saw anyway, never another player's
hidden information: each game's public facts (the game, server, channel, status, house
rules, the seats as the board names them), the member's own moves, results, ratings,
tournament entries and places, and settings. No saved game state goes in, since a state
holds every player's hidden hand, bets or mission; nor another member's id.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

from bot import __version__
from bot.storage import Storage


async def member_data(storage: Storage, player_id: int) -> dict[str, Any]:
    """Everything kept about `player_id`, shaped for them to read."""
    records = await storage.member_records(player_id)
    seats: dict[int, list[dict[str, Any]]] = {}
    for seat in records["seats"]:
        seats.setdefault(seat["game_id"], []).append(
            {
                "seat": seat["seat"] + 1,
                "name": seat["name"],
                "bot": bool(seat["is_bot"]),
                "side": seat["side"],
                "you": bool(seat["mine"]),
            }
        )
    moves: dict[int, list[dict[str, Any]]] = {}
    for move in records["moves"]:
        action = json.loads(move["action"])
        moves.setdefault(move["game_id"], []).append(
            {
                "step": move["step"],
                "move": f"{action['verb']}:{action['arg']}" if action["arg"] else action["verb"],
                "played_by_the_ai": bool(move["by_ai"]),
                "at": _when(move["created_at"]),
            }
        )
    results = {r["game_id"]: _result(r) for r in records["results"]}
    return {
        "member": str(player_id),
        "exported_by": f"Parlour {__version__}",
        "settings": (
            {"text_board": bool(records["settings"][0]["text_board"])}
            if records["settings"]
            else {}
        ),
        "turn_notifications": [
            {"server": str(n["guild_id"]), "notify": n["notify"]} for n in records["notifications"]
        ],
        # The last turn each game announced by DM (so that a restart sends it once), and
        # whether Discord refused one.
        "turn_dms": [
            {
                "game_id": d["game_id"],
                "server": str(d["guild_id"]),
                "step": d["step"],
                "timer_reminder": bool(d["reminder"]),
                "text": d["line"],
                "status": d["status"],
                "sent_at": None if d["sent_at"] is None else _when(d["sent_at"]),
            }
            for d in records["turn_dms"]
        ],
        "dms_refused": [
            {
                "server": str(r["guild_id"]),
                "at": _when(r["refused_at"]),
                "you_were_told": bool(r["told"]),
            }
            for r in records["dm_refusals"]
        ],
        "games": [
            {
                "game_id": game["id"],
                "game": game["game"],
                "server": str(game["guild_id"]),
                "channel": str(game["channel_id"]),
                "status": game["status"],
                "house_rules": json.loads(game["options"]),
                "created_at": _when(game["created_at"]),
                "updated_at": _when(game["updated_at"]),
                "you_hosted": bool(game["hosted"]),
                "you_ended_it": bool(game["ended"]),
                "seats": seats.get(game["id"], []),
                "your_moves": moves.get(game["id"], []),
                "your_result": results.get(game["id"]),
            }
            for game in records["games"]
        ],
        "ratings": [
            {
                "server": str(r["guild_id"]),
                "game": r["game"],
                "rating": r["mu"],
                "uncertainty": r["sigma"],
                "rated_games": r["played"],
                "wins": r["wins"],
            }
            for r in records["ratings"]
        ],
        "tournaments": [
            {
                "tournament": t["tournament_id"],
                "name": t["name"],
                "joined_at": _when(t["joined_at"]),
                "first_round": t["first_round"],
                "checked_in": bool(t["checked_in"]),
                "status": t["status"],
                "places": [
                    {"round": p["round"], "table": p["table_no"], "place": p["place"]}
                    | {"played_by_the_ai": bool(p["replaced"])}
                    for p in records["tournament_places"]
                    if p["tournament_id"] == t["tournament_id"]
                ],
            }
            for t in records["tournaments"]
        ],
    }


def as_json(data: dict[str, Any]) -> str:
    """The document as a file: indented, UTF-8 names as they are."""
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def _result(row: dict[str, Any]) -> dict[str, Any]:
    return {
        "place": row["place"],
        "score": row["score"],
        "won": bool(row["won"]),
        "stats": json.loads(row["stats"]),
        "team": row["team"],
        "rating_before": row["rating_before"],
        "rating_after": row["rating_after"],
        "finished_at": _when(row["finished_at"]),
    }


def _when(moment: float) -> str:
    return datetime.fromtimestamp(moment, UTC).isoformat(timespec="seconds")
