"""Words every football game of the platform says alike: the periods of a match, how it was decided, and the
final whistle's log line. N_-marked English (nothing under ``games/`` imports Django); the presentation layer
translates. One msgid per meaning, so each is translated once for every game."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.api import N_

PERIODS = {
    1: N_("1st half"),
    2: N_("2nd half"),
    3: N_("Extra time, 1st half"),
    4: N_("Extra time, 2nd half"),
    5: N_("Penalty shoot-out"),
}

DECIDED_BY = {
    "regular": N_("in regular time"),
    "extra_time": N_("after extra time"),
    "penalties": N_("on penalties"),
}

_WON = {
    "regular": N_("Full time: %(winner)s wins %(home)s–%(away)s."),
    "extra_time": N_("After extra time %(winner)s wins %(home)s–%(away)s."),
    "penalties": N_("%(winner)s wins on penalties (%(pens_home)s–%(pens_away)s) after %(home)s–%(away)s."),
}


def final_whistle(
    score: Sequence[int], winner: str | None, decided_by: str, penalties: Sequence[int] | None
) -> tuple[str, dict[str, Any]]:
    """The log line of a match's end: a msgid and its params (``winner`` a side, which the presenter
    names; the shoot-out's score when there was one)."""
    h, a = score
    if winner is None:
        return N_("Full time: a draw, %(home)s–%(away)s."), {"home": h, "away": a}
    params: dict[str, Any] = {"winner": winner, "home": h, "away": a}
    if penalties is not None:
        params["pens_home"], params["pens_away"] = penalties
    return _WON[decided_by], params


def full_time(view: Mapping[str, Any]) -> dict[str, Any] | None:
    """What a board says of a finished match (``view["phase"] == "over"``): the winning side (None: a draw)
    and how the match was decided (a msgid of ``DECIDED_BY``); None while it is played."""
    if view.get("phase") != "over":
        return None
    return {"winner": view.get("winner"), "decided_by": DECIDED_BY.get(str(view.get("decided_by") or ""), "")}
