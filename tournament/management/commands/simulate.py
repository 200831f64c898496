"""``manage.py simulate``: play whole bot tournaments through the real services and database.

    python manage.py simulate --players 6 --games 20 --seed 1 [--strength strong|easy|random|mixed]
                              [--game magic-football|duel|dice-football|chess-football]
                              [--competition single|cup|league]
                              [--db sqlite|postgres|DATABASE_URL] [--keep-db] [--json] [--plot money.png]

The database is chosen before Django reads its settings, so the command runs in two steps: the process
you start prepares the database (a temporary SQLite file, or a fresh PostgreSQL database on
127.0.0.1:5432, or the URL you give) and runs itself again as a child with ``SQLITE_PATH`` /
``DATABASE_URL`` set; the child migrates, loads the catalog and plays. The child's exit code is the
command's: 1 when any game broke an invariant or differs from its replay. The temporary database is
removed afterwards (``--keep-db`` keeps it and prints where it is).
"""

from __future__ import annotations

import io
import json
import os
import secrets
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

CHILD_FLAG = "MFT_SIMULATE_CHILD"
PG_SERVER = "postgresql://postgres@127.0.0.1:5432"
STRENGTHS = ("strong", "easy", "random", "mixed")


class Command(BaseCommand):
    help = "Play bot tournaments through the services and database; report, check invariants, plot money."
    # The simulator serves no HTTP: the project's system checks (URLs, views, security) are not its concern.
    requires_system_checks: list[str] = []

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--players", type=int, default=4, help="bot participants per game, 2–8 (default 4)"
        )
        parser.add_argument("--games", type=int, default=1, help="games to play (default 1)")
        parser.add_argument(
            "--seed", type=int, default=1, help="seed of the first game; game i uses seed + i"
        )
        parser.add_argument(
            "--strength",
            choices=STRENGTHS,
            default="strong",
            help="bots' strength; mixed = strong, easy, random in rotating seats",
        )
        parser.add_argument("--mode", choices=("world_cup", "euro"), default="world_cup")
        parser.add_argument(
            "--game",
            default="magic-football",
            help="magic-football (default) or a registered game: " + ", ".join(_game_keys()),
        )
        parser.add_argument(
            "--competition",
            choices=("single", "cup", "league"),
            default="",
            help="another game's competition: one match (the default for 2 players), a cup (the default "
            "for 3-8) or a league",
        )
        parser.add_argument(
            "--option",
            action="append",
            default=[],
            metavar="KEY=VALUE",
            help="a room option of another game, as the lobby offers it (e.g. length=short for chess "
            "football); repeat for several",
        )
        parser.add_argument(
            "--db",
            default="sqlite",
            help="sqlite (a temporary file, default) | postgres (a fresh database on "
            "127.0.0.1:5432) | a DATABASE_URL",
        )
        parser.add_argument("--keep-db", action="store_true", help="keep the temporary database afterwards")
        parser.add_argument(
            "--json",
            action="store_true",
            help="one JSON object per game on stdout (no progress bar, no table)",
        )
        parser.add_argument("--plot", metavar="FILE", help="PNG or SVG of money over the first game's events")

    def handle(self, *args: Any, **options: Any) -> None:
        players, games = options["players"], options["games"]
        if not 2 <= players <= 8:
            raise CommandError("--players must be 2 to 8", returncode=2)
        if games < 1:
            raise CommandError("--games must be at least 1", returncode=2)
        game = options["game"]
        if game not in ("magic-football", *_game_keys()):
            raise CommandError(
                f"--game must be one of magic-football, {', '.join(_game_keys())}", returncode=2
            )
        if game == "magic-football" and options["competition"]:
            raise CommandError("--competition is for another game's room", returncode=2)
        if game != "magic-football" and options.get("plot"):
            raise CommandError("--plot draws Magic Football's money; other games have none", returncode=2)
        options["room_options"] = _room_options(game, options.get("option") or [])
        plot = options.get("plot")
        if plot and Path(plot).suffix.lower() not in (".png", ".svg"):
            raise CommandError("--plot needs a file name ending in .png or .svg", returncode=2)
        code = self._play(options) if os.environ.get(CHILD_FLAG) == "1" else self._in_child(options)
        if code:
            sys.exit(code)

    # ------------------------------------------------------------------ step 1: the database
    def _in_child(self, options: dict[str, Any]) -> int:
        env = dict(os.environ)
        env[CHILD_FLAG] = "1"
        env.setdefault("DJANGO_SETTINGS_MODULE", "magicfootball.settings")
        db = options["db"]
        cleanup = None
        where = ""
        if db == "sqlite":
            tmp = tempfile.mkdtemp(prefix="mft-simulate-")
            path = str(Path(tmp) / "simulate.sqlite3")
            env.pop("DATABASE_URL", None)
            env.pop("REDIS_URL", None)  # nobody can watch a temporary database: no channel layer needed
            env["SQLITE_PATH"] = path
            where = f"SQLite database kept at {path}"

            def cleanup() -> None:
                shutil.rmtree(tmp, ignore_errors=True)

        elif db == "postgres":
            name = f"mft_sim_{secrets.token_hex(4)}"
            _pg_admin(f'CREATE DATABASE "{name}"')
            env["DATABASE_URL"] = f"{PG_SERVER}/{name}"
            env.pop("REDIS_URL", None)
            where = f"PostgreSQL database kept: DATABASE_URL={env['DATABASE_URL']}"

            def cleanup() -> None:
                _pg_admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

        else:
            if "://" not in db:
                raise CommandError("--db must be sqlite, postgres or a DATABASE_URL", returncode=2)
            env["DATABASE_URL"] = db
        argv = [sys.executable, str(Path(settings.BASE_DIR) / "manage.py"), "simulate", *self._argv(options)]
        try:
            return subprocess.call(argv, env=env)
        except KeyboardInterrupt:
            return 130
        finally:
            if cleanup is not None:
                if options["keep_db"]:
                    self.stderr.write(where)
                else:
                    cleanup()

    @staticmethod
    def _argv(options: dict[str, Any]) -> list[str]:
        argv = [
            "--players",
            str(options["players"]),
            "--games",
            str(options["games"]),
            "--seed",
            str(options["seed"]),
            "--strength",
            options["strength"],
            "--mode",
            options["mode"],
            "--game",
            options["game"],
        ]
        if options["competition"]:
            argv += ["--competition", options["competition"]]
        for key, value in options.get("room_options", {}).items():
            argv += ["--option", f"{key}={value}"]
        if options["json"]:
            argv.append("--json")
        if options.get("plot"):
            argv += ["--plot", str(Path(options["plot"]).resolve())]
        return argv

    # ------------------------------------------------------------------ step 2: play
    def _play(self, options: dict[str, Any]) -> int:
        from django.core.management import call_command
        from rich.console import Console

        from tournament import simulation

        call_command("migrate", verbosity=0, interactive=False)
        call_command("load_catalog", verbosity=0, stdout=io.StringIO())  # stdout is for JSON lines
        err = Console(stderr=True)
        as_json = options["json"]
        games, players, seed = options["games"], options["players"], options["seed"]
        reports: list[simulation.GameReport] = []
        progress = None
        if not as_json:
            from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

            progress = Progress(
                TextColumn("[bold]{task.description}"),
                BarColumn(),
                MofNCompleteColumn(),
                TextColumn("{task.fields[info]}"),
                TimeElapsedColumn(),
                console=err,
                transient=False,
            )
            progress.start()
            task = progress.add_task("tournaments", total=games, info="")
        try:
            for i in range(games):
                strengths = simulation.seat_strengths(players, options["strength"], i)

                def tick(n: int, i: int = i) -> None:
                    if progress is not None and n % 25 == 0:
                        progress.update(task, info=f"game {i + 1}: {n} actions")

                report = simulation.play_game(
                    seed=seed + i,
                    players=players,
                    strengths=strengths,
                    mode=options["mode"],
                    game=options["game"],
                    competition=options["competition"],
                    options=options["room_options"],
                    on_action=tick,
                )
                reports.append(report)
                if as_json:
                    sys.stdout.write(json.dumps(report.as_json(), ensure_ascii=False) + "\n")
                    sys.stdout.flush()
                elif progress is not None:
                    progress.update(task, advance=1, info=f"last: {_winner_text(report.winner)}")
                if not report.invariants_ok:
                    err.print(
                        f"[red]game {report.code} (seed {report.seed}) broke an invariant:[/red] "
                        + "; ".join(report.problems[:3])
                    )
                if i == 0 and options.get("plot"):
                    simulation.plot_money(
                        report.code,
                        options["plot"],
                        title=f"Money over the game — seed {report.seed}, room {report.code}",
                    )
        finally:
            if progress is not None:
                progress.stop()
        summary = simulation.summarize(reports)
        if not as_json:
            _print_summary(Console(), summary, options)
        elif summary["broken"]:
            err.print(f"{summary['broken']} of {games} games broke an invariant")
        if options.get("plot"):
            err.print(f"money plot written to {options['plot']}")
        return 1 if summary["broken"] else 0


def _game_keys() -> tuple[str, ...]:
    from games.api import game_keys

    return game_keys()


def _winner_text(winner: dict[str, Any] | None) -> str:
    """The progress bar's last winner: a country (Magic Football) or a seat's nickname."""
    if not winner:
        return "-"
    return str(winner.get("country") or winner.get("nickname") or "-")


def _pg_admin(sql: str) -> None:
    import psycopg

    try:
        with psycopg.connect(f"{PG_SERVER}/postgres", autocommit=True, connect_timeout=5) as conn:
            conn.execute(sql)
    except psycopg.OperationalError as exc:
        raise CommandError(f"PostgreSQL on 127.0.0.1:5432 is not reachable: {exc}") from exc


def _print_summary(console: Any, s: dict[str, Any], options: dict[str, Any]) -> None:
    """The table after a run: soundness, lengths, goals, time and winners; Magic Football adds its
    phases, country classes and money."""
    from rich.table import Table

    games = s["games"]
    magic = options["game"] == "magic-football"
    unit = "game" if magic else "room"
    head = Table(
        title=f"{games} {'tournaments' if magic else options['game'] + ' rooms'}, {options['players']} "
        f"{options['strength']} bots, seeds {options['seed']}–{options['seed'] + games - 1}",
        show_header=False,
    )
    head.add_row(
        "invariants and replays",
        "[green]all sound[/green]" if not s["broken"] else f"[red]{s['broken']} broken[/red]",
    )
    if magic:
        head.add_row(
            "turns per game (phase 1 / phase 2)", f"{s['turns']['phase1']:.1f} / {s['turns']['phase2']:.1f}"
        )
        head.add_row("finals matches per game", f"{s['turns']['phase3']:.1f}")
    head.add_row(
        f"matches per {unit}{' (challenges + finals)' if magic else ''}", f"{s['matches_per_game']:.1f}"
    )
    head.add_row("average goals per match", f"{s['goals_per_match']:.2f}")
    head.add_row(f"actions / events per {unit}", f"{s['actions_per_game']:.0f} / {s['events_per_game']:.0f}")
    head.add_row(f"seconds per {unit}", f"{s['seconds_per_game']:.2f}")
    console.print(head)

    winners = Table(title="Cup winners" if magic else "Winners")
    winners.add_column("by country class" if magic else "by strength")
    winners.add_column("cups" if magic else "rooms won", justify="right")
    for klass, n in s["winners_by_class"].items():
        winners.add_row(klass, f"{n} ({n / games:.0%})")
    for kind, n in s["winners_by_coach_kind"].items():
        winners.add_row(
            f"coached by {kind.upper() if kind in ('bc', 'ac') else 'the house bot'}",
            f"{n} ({n / games:.0%})",
        )
    for strength, n in s["winners_by_strength"].items():
        seats = s["seats_by_strength"].get(strength)
        share = f", {n / seats:.0%} per seat" if seats else ""
        winners.add_row(f"{strength} bot", f"{n}{share}")
    console.print(winners)
    if not magic:
        return

    money = Table(title="Money flows per game (average, by reason)")
    money.add_column("reason")
    money.add_column("magic", justify="right")
    for reason, amount in s["money_per_game"].items():
        money.add_row(reason, f"{amount:,.0f}")
    console.print(money)


def _room_options(game: str, given: list[str]) -> dict[str, Any]:
    """``--option key=value`` pairs as the room's options (values as the game's ``Option`` has them): a
    simulation can play the short matches a game night chooses, not only the rules' full length."""
    if not given:
        return {}
    if game == "magic-football":
        raise CommandError("--option is for another game's room", returncode=2)
    from games.api import get_game

    offered = {o.key: o for o in get_game(game).options}
    out: dict[str, Any] = {}
    for pair in given:
        key, sep, text = pair.partition("=")
        option = offered.get(key)
        if not sep or option is None:
            known = ", ".join(offered) or "none"
            raise CommandError(f"--option {pair!r}: {game} has the options {known} (KEY=VALUE)", returncode=2)
        values = [v for v, _label in option.choices if str(v) == text]
        if not values:
            choices = ", ".join(str(v) for v, _label in option.choices)
            raise CommandError(f"--option {key} must be one of {choices}", returncode=2)
        out[key] = values[0]
    return out
