"""``manage.py replay <room>``: prove a stored game equals its replay from seed and action log."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from tournament.models import Game
from tournament.services.replays import game_replay


class Command(BaseCommand):
    help = "Rebuild a game from its seed and event log and check it equals the stored state."

    def add_arguments(self, parser) -> None:  # type: ignore[no-untyped-def]
        parser.add_argument("rooms", nargs="*", help="room codes (default: with --all, every room)")
        parser.add_argument("--all", action="store_true", help="replay every room in the database")

    def handle(self, *args, **options) -> None:  # type: ignore[no-untyped-def]
        codes = list(options["rooms"])
        if options["all"]:
            codes = list(Game.objects.order_by("created_at").values_list("code", flat=True))
        if not codes:
            raise CommandError("name a room code (or use --all)")
        failed = 0
        for code in codes:
            if not Game.objects.filter(code=code).exists():
                raise CommandError(f"no room with code {code!r}")
            report = game_replay(code=code)
            if report.equal:
                self.stdout.write(
                    f"{code}: OK — {report.actions} actions replayed to version {report.version}"
                )
            else:
                failed += 1
                self.stdout.write(f"{code}: DIFFERENT after {report.actions} actions")
                for line in report.differences:
                    self.stdout.write(f"  {line}")
        if failed:
            raise CommandError(f"{failed} of {len(codes)} games differ from their replay")
