"""``makemessages`` that also extracts the pure rules' ``N_("...")`` detail texts.

The rules under ``tournament/rules/`` import no Django, so their English ``detail=`` strings are marked with
the no-op ``tournament.rules.errors.N_``; ``tournament.messages.error_text`` translates them at render time.
"""

from __future__ import annotations

from django.core.management.commands import makemessages


class Command(makemessages.Command):
    """Django's ``makemessages`` plus ``--keyword=N_`` for Python sources."""

    xgettext_options = [*makemessages.Command.xgettext_options, "--keyword=N_"]
