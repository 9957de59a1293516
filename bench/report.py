"""Write `docs/PERFORMANCE.md` from the benches' output files (`bench/results/*.json`).

Every figure in that page comes from a bench run's own output, with the commit, date,
machine and load average it was measured at. A result whose hot path (the code it measures)
changed after its commit is marked stale, so an old figure never passes for a current one.

Run: .venv/bin/python -m bench.report   (after the benches: see bench/README.md)
"""

from __future__ import annotations

import json
import subprocess
from typing import Any

from bench.results import RESULTS, ROOT

PAGE = ROOT / "docs" / "PERFORMANCE.md"

# The order of the page, and what each bench measures (bench/README.md has the details).
ABOUT = {
    "load": (
        "Load: many games at once through one real bot process",
        "`python -m bench.load`: Cock & Bull games of two members against the fake Discord, "
        "members clicking open loop at a fixed rate in all. CPU is the bot's processes "
        "together (the event loop's process and its picture workers), per interaction; "
        "`bot-token req/move` counts the requests made with the bot's token, which Discord "
        "limits to 50 a second for the whole bot (interaction answers and their follow-ups "
        "are not); the fake Discord holds that token to the same limit, and a bot over it "
        "waits out global 429s (a p99 of seconds). With `--baseline`, the "
        "same rows against an older version's bot, alternating, in the same run.",
    ),
    "profile": (
        "Where a move's CPU goes",
        "`python -m bench.profile`: the load above at a steady rate while py-spy samples the "
        "bot's processes; each sample goes to the stage of the innermost Python frame a stage "
        "claims (`bench/profile.py`, `STAGES`), samples of waiting threads are left out (told "
        "by their C frames too: the event loop idle in epoll, a thread waiting for the GIL or "
        "the disk), and "
        "the CPU per interaction, measured from /proc over as long just before (unsampled: "
        "py-spy stops the bot for each sample), is shared out by the stages' samples.",
    ),
    "floor": (
        "The floor under a click: discord.py alone, beside Parlour",
        "`python -m bench.floor`: the Cock & Bull load above against Parlour's bot, then the "
        "same clicks at the same rate against `bench/floor_bot.py`, a discord.py client set "
        "up as Parlour's is (the same intents, unparsed events, garbage collector settings "
        "and event loop) that answers every click by editing the message into the board "
        "Parlour last showed (its embed, a fresh upload of its picture, its buttons) and does "
        "nothing else. The floor is what any discord.py bot answering a move with a board "
        "pays on this machine; Parlour's CPU less the floor is its own work per move (the "
        "game, storage, picture, pings). With `--stages`, both bots' CPU per interaction "
        "shared out by `bench.profile`'s stages (py-spy samples, as in that bench).",
    ),
    "load_risk": (
        "Load: Risk games through one real bot process",
        "`python -m bench.load --game risk`: the load above with Risk games of two members "
        "(the rules' neutral army as a third side, default options), each played unmeasured "
        "through its set-up to the first turn's attacks. Then the player to act attacks "
        "from every territory that can, on the first enemy the menu offers, roll by roll "
        "with the most dice (never Blitz), moves everything in after a capture, places "
        "reinforcements with Auto and ends the turn when no attack is left (no fortifying). "
        "Every move draws the 1600 px map. CPU is the bot's processes together per "
        "interaction over every move measured: an attack's source or target picked, a roll "
        "and a move-in after a capture make nearly all of them, in the mix the notes give "
        "(`moves by kind`, by the label clicked), with reinforcements, turn ends and "
        "replaced games' openings and set-ups as the rest; not a roll alone.",
    ),
    "profile_risk": (
        "Where a Risk move's CPU goes",
        "`python -m bench.profile --game risk`: the Risk load above at a steady rate, "
        "sampled by py-spy and shared out by stage as for Cock & Bull; the notes give the "
        "mix of moves sampled.",
    ),
    "floor_risk": (
        "The floor under a Risk move: discord.py alone, beside Parlour",
        "`python -m bench.floor --game risk`: the Risk load above against Parlour's bot, then "
        "the discord.py floor bot answering clicks at the same rate with the Risk board "
        "Parlour last showed (its embed, a fresh upload of its 1600 px map, its buttons and "
        "territory menus), as for Cock & Bull; with `--stages`, both bots by stage.",
    ),
    "engine": (
        "Rules engines",
        "`python -m bench.engine`: seeded AI-against-AI games through the engine alone. Risk "
        "against pyrisk: three random players a side to world domination; Parlour's player "
        "makes pyrisk's `StupidAI` choices with Parlour's coarse actions (one decision, one "
        "step); a random player over `legal_actions` at the finest verbs plays about half "
        "as many games a second. A Parlour game is more work than pyrisk's under its rules "
        "(35 set-up armies each, not 29, and cards whose sets bring ever more armies): more "
        "steps a game, and more armies fought over (the last row), so games/s compares a "
        "bigger game with pyrisk's (`bench/README.md`).",
    ),
    "seasons": (
        "Seasons at scale",
        "`python -m bench.seasons`: a server's season of 10,000 players and 100,000 results "
        "over the five games, written straight into the tables; the season's `/leaderboard` "
        "(its board read and its embed worded) for each game, live and, after the end, "
        "frozen; the end itself (one transaction: the season marked ended, every game's "
        "final table frozen); and the event loop's lateness meanwhile, ticks every 5 ms, "
        "what a click arriving during the end waits for the loop.",
    ),
    "seasons_postgres": (
        "Seasons at scale, on PostgreSQL",
        "`python -m bench.seasons --database postgresql://…`: the same on PostgreSQL (a "
        "schema of its own), the server on the same machine.",
    ),
    "load_tournament": (
        "Load: a tournament's tables against ordinary games",
        "`python -m bench.load_tournament`: one bot process, as in the load above. First "
        "ordinary Cock & Bull games of two members, each played once to its end at the "
        "rate; then a Cock & Bull tournament of twice as many entrants, joined on its card "
        "and starting by itself, its tables (one thread each, as many as the ordinary "
        "games) played by clicks at the same rate from its first thread to its "
        "final post, every round change included. Requests are sorted by token: "
        "interaction-token (answers, follow-ups and edits through the interaction's "
        "webhook) and bot-token, Discord's global limit; of the bot-token ones, a table's "
        "opening (its thread, and the bot's posts there before its first click: the ping "
        "and first board) is per round or per game, not per move, and is shown apart. The "
        "limits: with openings aside, the event adds ≤ 0.1 bot-token requests per move to "
        "the ordinary games' (the standings card's edits, at most one per 5 s per event, "
        "and the final post), and its clicks' p99 stays ≤ 100 ms.",
    ),
    "pairing": (
        "Tournament pairing",
        "`python -m bench.pairing`: an event of 1,000 entrants over five rounds at tables of six "
        "and of two, each table's places drawn from a seed; every round dealt twenty times "
        "from the standings and every earlier table (`bot.tournament.pairing.deal_round`, as "
        "the bot deals it), and the standings before it computed once. Repeat meetings are "
        "the pairs seated together again over the event.",
    ),
    "render": (
        "Board pictures",
        "`python -m bench.render`: each presenter's `render_png` (drawing and PNG encoding) "
        "over states of seeded AI games.",
    ),
}


def stale_since(commit: str, paths: list[str]) -> list[str]:
    """The commits after `commit` that changed `paths` (its own changes, if it was
    measured on a dirty tree, are not known: those figures are stale at once)."""
    clean = commit.removesuffix("-dirty")
    log = subprocess.run(
        ["git", "-C", str(ROOT), "log", "--format=%h", f"{clean}..HEAD", "--", *paths],
        capture_output=True,
        text=True,
        check=False,
    )
    changed = log.stdout.split() if log.returncode == 0 else [f"{clean} (unknown commit)"]
    if commit.endswith("-dirty"):
        changed.append(f"{clean}-dirty")
    return changed


def markdown_table(headers: list[str], rows: list[list[str]]) -> list[str]:
    lines = ["| " + " | ".join(headers) + " |", "|" + "---|" * len(headers)]
    lines += ["| " + " | ".join(cell.replace("|", "\\|") for cell in row) + " |" for row in rows]
    return lines


def section(result: dict[str, Any]) -> list[str]:
    title, about = ABOUT.get(result["bench"], (result["bench"], ""))
    lines = [f"## {title}", "", about, ""]
    argv = " ".join(result["argv"])
    lines.append(
        f"Measured at `{result['commit']}` on {result['date']}, {result['machine']}; load "
        f"average {result['load_before']} before, {result['load_after']} after"
        + (f"; `{argv}`." if argv else ".")
    )
    changed = stale_since(result["commit"], result["hot_paths"])
    if changed:
        lines += [
            "",
            f"**Stale:** {', '.join(result['hot_paths'])} changed since "
            f"({', '.join(changed[:5])}{'…' if len(changed) > 5 else ''}); run it again.",
        ]
    for table in result["tables"]:
        lines += ["", table["caption"], "", *markdown_table(table["headers"], table["rows"])]
    if result["notes"]:
        lines += ["", *(f"- {note}" for note in result["notes"])]
    return [*lines, ""]


def page(results: list[dict[str, Any]]) -> str:
    order = {name: n for n, name in enumerate(ABOUT)}
    results = sorted(results, key=lambda r: (order.get(r["bench"], len(order)), r["bench"]))
    lines = [
        "# Performance",
        "",
        "Written by `python -m bench.report` from the benches' output files in "
        "`bench/results/`; do not edit by hand. How to run each bench: `bench/README.md`. "
        "Timing is never asserted by a test; what CI holds is the work each move does "
        "(pictures drawn, database transactions, requests by kind: "
        "`tests/e2e/test_budgets.py`).",
        "",
    ]
    for result in results:
        lines += section(result)
    return "\n".join(lines)


def main() -> None:
    results = [json.loads(path.read_text()) for path in sorted(RESULTS.glob("*.json"))]
    PAGE.write_text(page(results))
    print(f"{PAGE}: {len(results)} bench results")


if __name__ == "__main__":
    main()
