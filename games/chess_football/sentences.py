"""One English sentence per chess-football event, marked for translation.

``sentence(event) -> (msgid, params)``, or None for an event the log leaves out.

The rules stay pure, so nothing here translates: ``N_`` only marks a literal for ``makemessages``
(``--keyword=N_``), and the presentation layer runs ``gettext(msgid) % params`` for its reader. Params:

- ``player`` / ``opponent`` / ``winner``: a side, ``"home"`` or ``"away"``; the presenter replaces it with the
  name of who plays that side (keys listed in ``SIDE_PARAMS``);
- ``move``: a move in our notation (RULES.md §10), the same in every language, as the move list shows it;
- ``square``, ``aim``, ``cover``: squares as the rules name them (``e7`` the centre, ``e0`` the South
  middle goal square); ``piece``, ``taker``: a piece's name (``L2``, ``D1``, ``C``, ``K``);
- numbers as ints.

A move's line tells the move; what it caused (a tackle and its caution, a goal, a red square…) has the
lines of its own events. The void moves concede and forfeit are told by their own events only.
"""

from __future__ import annotations

from typing import Any

from games.api import N_, MatchEvent
from games.labels import final_whistle

SIDE_PARAMS = ("player", "opponent", "winner")

_PERIOD_END = {
    1: N_("Half time: %(home)s–%(away)s."),
    2: N_("End of the second half: %(home)s–%(away)s."),
    3: N_("End of the first half of extra time: %(home)s–%(away)s."),
    4: N_("End of extra time: %(home)s–%(away)s."),
}

_SIMPLE = {
    "tackle": N_("%(player)s's %(piece)s tackles on %(square)s and wins the ball."),
    "caution": N_("%(player)s's %(piece)s is cautioned and goes to the admonition box."),
    "send_off": N_("%(player)s's %(piece)s is cautioned with both admonition cards used: sent off."),
    "red_square": N_(
        "The ball lands on %(player)s's red square %(square)s: the keeper must play it away at once, "
        "or it is a penalty."
    ),
    "reentry": N_("%(player)s brings %(piece)s back on %(square)s with an admonition card."),
    "relocation": N_("%(player)s's offside %(piece)s is put back on %(square)s."),
    "offside_forfeit": N_(
        "%(player)s is offside and forfeits the move: %(opponent)s puts an offender back, then moves."
    ),
    "concede": N_("%(player)s cannot clear the red square and concedes a penalty."),
    "penalty_void": N_(
        "Penalty for %(player)s, but no light piece or captain is on the board to take it: "
        "%(opponent)s's keeper has the ball."
    ),
    "penalty_awarded": N_("Penalty for %(player)s! Both sides now choose in secret."),
    "penalty_chosen": N_("%(player)s has made the penalty choice."),
    "kickoff": N_("%(player)s kicks off."),
}

_PENALTY = {
    True: N_("%(player)s's %(taker)s shoots at %(aim)s, the keeper covers %(cover)s: goal!"),
    False: N_("%(player)s's %(taker)s shoots at %(aim)s, the keeper covers %(cover)s: saved!"),
}
_KICK = {
    True: N_(
        "Shoot-out: %(player)s shoots at %(aim)s, the keeper covers %(cover)s: scored (%(home)s–%(away)s)."
    ),
    False: N_(
        "Shoot-out: %(player)s shoots at %(aim)s, the keeper covers %(cover)s: saved (%(home)s–%(away)s)."
    ),
}

# event kind -> (lucide icon, tone) of its line
LOOK = {
    "goal": ("goal", "goal"),
    "full_time": ("flag", "match"),
    "toss": ("circle-help", "match"),
    "kickoff": ("whistle", "match"),
    "period_end": ("whistle", "match"),
    "caution": ("triangle-alert", "match"),
    "send_off": ("circle-alert", "match"),
    "red_square": ("triangle-alert", "match"),
    "penalty_awarded": ("whistle", "match"),
    "penalty_choice": ("hand", "private"),
    "penalty_chosen": ("hand", "match"),
    "penalty": ("goal", "match"),
    "shootout": ("goal", "match"),
    "shootout_kick": ("goal", "match"),
    "offside_forfeit": ("flag-triangle-right", "match"),
    "relocation": ("flag-triangle-right", "match"),
}


def _other(side: str) -> str:
    return "away" if side == "home" else "home"


def sentence(event: MatchEvent) -> tuple[str, dict[str, Any]] | None:
    """The log line of one event: a msgid (to translate) and its params; None for a void move's ``move``
    event, which its own event tells."""
    k = event.kind
    d = event.data
    side = d.get("side")
    p: dict[str, Any] = {"player": side, "opponent": _other(side)} if isinstance(side, str) else {}
    for key in ("piece", "square"):
        if key in d:
            p[key] = d[key]
    if k == "relocation":
        p["square"] = d["to"]
    if k in _SIMPLE:
        return _SIMPLE[k], p
    if k == "move":
        if d["move"] in ("concede", "forfeit"):
            return None
        if d["move"] == "pass":
            return N_("%(player)s has no legal move and passes."), p
        p["move"] = d["move"]
        return N_("%(player)s plays %(move)s."), p
    if k == "toss":
        return N_("%(player)s wins the toss and kicks off."), {"player": d["winner"]}
    if k == "goal":
        p["home"], p["away"] = d["score"]
        return N_("GOAL for %(player)s! %(home)s–%(away)s."), p
    if k == "penalty_choice":
        return _choice(d, p)
    if k == "penalty":
        p.update(taker=d["taker"], aim=d["aim"], cover=d["cover"])
        return _PENALTY[bool(d["scored"])], p
    if k == "period_end":
        h, a = d["score"]
        return _PERIOD_END[d["period"]], {"home": h, "away": a}
    if k == "shootout":
        return N_("Still level: a penalty shoot-out, %(n)s kicks each, then sudden death."), {"n": d["kicks"]}
    if k == "shootout_kick":
        p.update(aim=d["aim"], cover=d["cover"])
        p["home"], p["away"] = d["pens"]
        return _KICK[bool(d["scored"])], p
    if k == "full_time":
        return final_whistle(d["score"], d["winner"], d["decided_by"], d["pens"])
    raise KeyError(f"no sentence for event kind {k!r}")


def _choice(d: dict[str, Any], p: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """A side's penalty choice (a private event: only that side reads it while the game runs)."""
    choice = d["choice"]
    if choice["kind"] == "cover":
        p["square"] = choice["square"]
        return N_("%(player)s's secret choice: the keeper covers %(square)s."), p
    p["aim"] = choice["aim"]
    if "taker" in choice:
        p["taker"] = choice["taker"]
        return N_("%(player)s's secret choice: %(taker)s shoots at %(aim)s."), p
    return N_("%(player)s's secret choice: the kick goes to %(aim)s."), p
