"""``manage.py import_record FILE``: a game record (``/r/<code>/record.json``) becomes a new room.

The record is replayed from its seed and refused when its actions, events or digest were changed
(``tournament/services/records.py``). Nobody hosts the new room (ruling G15): it is watched and replayed.
"""

from __future__ import annotations

import sys
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from tournament.messages import error_text
from tournament.rules.errors import RulesError
from tournament.services.records import parse_record, record_import


class Command(BaseCommand):
    help = "Import a game record (JSON) as a new room, after replaying and verifying it."

    def add_arguments(self, parser) -> None:  # type: ignore[no-untyped-def]
        parser.add_argument(
            "file", help="the record, as downloaded from /r/<code>/record.json ('-' for stdin)"
        )

    def handle(self, *args, **options) -> None:  # type: ignore[no-untyped-def]
        name = options["file"]
        try:
            raw = sys.stdin.buffer.read() if name == "-" else Path(name).read_bytes()
        except OSError as exc:
            raise CommandError(f"cannot read {name}: {exc.strerror}") from None
        try:
            room = record_import(record=parse_record(raw))
        except RulesError as exc:
            raise CommandError(error_text(exc)) from None
        self.stdout.write(f"{room.code}: imported — replay at /r/{room.code}/replay")
