"""One English sentence per dice-football event, marked for translation.

``sentence(event) -> (msgid, params)``.

The rules stay pure, so nothing here translates: ``N_`` only marks a literal for ``makemessages``
(``--keyword=N_``), and the presentation layer runs ``gettext(msgid) % params`` for its reader. Params:

- ``player`` / ``opponent``: a side, ``"home"`` or ``"away"``; the presenter replaces it with the player's
  name before formatting (keys listed in ``SIDE_PARAMS``);
- ``square``, ``from``, ``to``: board squares as the board shows them, columns a-e and rows 1-11 (``c6`` is
  the centre spot);
- numbers as ints.
"""

from __future__ import annotations

from typing import Any

from games.api import MatchEvent
from games.dice_football.dice import parse_arrow
from games.dice_football.geometry import square_name
from games.labels import final_whistle


def N_(text: str) -> str:
    """Mark a literal for translation without translating it here (the rules import no Django)."""
    return text


SIDE_PARAMS = ("player", "opponent", "winner")

_ARROW = {
    ("control", "F"): N_("%(player)s rolls the CONTROL die: forward %(n)s."),
    ("control", "B"): N_("%(player)s rolls the CONTROL die: back %(n)s."),
    ("control", "L"): N_("%(player)s rolls the CONTROL die: sideways %(n)s, left or right."),
    ("control", "DF"): N_("%(player)s rolls the CONTROL die: diagonally forward %(n)s, left or right."),
    ("control", "DB"): N_("%(player)s rolls the CONTROL die: diagonally back %(n)s, left or right."),
    ("control", "?"): N_("%(player)s rolls the CONTROL die: “?” — %(opponent)s's defender steps in."),
    ("control", "X"): N_("%(player)s rolls the CONTROL die: “X” — the ball is lost."),
    ("pass", "F"): N_("%(player)s rolls the PASS die: forward %(n)s."),
    ("pass", "B"): N_("%(player)s rolls the PASS die: back %(n)s."),
    ("pass", "L"): N_("%(player)s rolls the PASS die: sideways %(n)s, left or right."),
    ("pass", "DF"): N_("%(player)s rolls the PASS die: diagonally forward %(n)s, left or right."),
    ("pass", "DB"): N_("%(player)s rolls the PASS die: diagonally back %(n)s, left or right."),
    ("pass", "?"): N_("%(player)s rolls the PASS die: “?” — %(opponent)s's defender steps in."),
    ("pass", "X"): N_("%(player)s rolls the PASS die: “X” — the ball is lost."),
    ("long", "F"): N_("%(player)s rolls the LONG die: forward %(n)s."),
    ("long", "B"): N_("%(player)s rolls the LONG die: back %(n)s."),
    ("long", "L"): N_("%(player)s rolls the LONG die: sideways %(n)s, left or right."),
    ("long", "DF"): N_("%(player)s rolls the LONG die: diagonally forward %(n)s, left or right."),
    ("long", "DB"): N_("%(player)s rolls the LONG die: diagonally back %(n)s, left or right."),
    ("long", "?"): N_("%(player)s rolls the LONG die: “?” — %(opponent)s's defender steps in."),
    ("long", "X"): N_("%(player)s rolls the LONG die: “X” — the ball is lost."),
}

_RESULT = {
    ("shot", "ON_TARGET"): N_("%(player)s shoots: on target!"),
    ("shot", "UNSTOPPABLE"): N_("%(player)s shoots: unstoppable!"),
    ("shot", "POST"): N_("%(player)s shoots: off the post!"),
    ("shot", "CROSSBAR"): N_("%(player)s shoots: off the crossbar!"),
    ("shot", "OUT"): N_("%(player)s shoots: wide."),
    ("def", "STEAL"): N_("%(player)s's defender rolls: the ball is won."),
    ("def", "MISS"): N_("%(player)s's defender rolls: missed."),
    ("def", "MISS_OR_OWN_GOAL"): N_(
        "%(player)s's defender rolls: missed — an own goal right in front of goal."
    ),
    ("def", "CLEAR"): N_("%(player)s's defender rolls: cleared."),
    ("def", "FOUL"): N_("%(player)s's defender rolls: foul!"),
    ("gk", "SAVED"): N_("%(player)s's keeper rolls: saved!"),
    ("gk", "PARRIED"): N_("%(player)s's keeper rolls: parried."),
    ("gk", "CORNER"): N_("%(player)s's keeper rolls: tipped over for a corner."),
    ("gk", "NOT_SAVED"): N_("%(player)s's keeper rolls: beaten."),
    ("pen", "GOAL"): N_("%(player)s takes the penalty: goal!"),
    ("pen", "PARRIED"): N_("%(player)s takes the penalty: parried."),
    ("pen", "CORNER"): N_("%(player)s takes the penalty: tipped over for a corner."),
    ("pen", "OUT"): N_("%(player)s takes the penalty: wide."),
}

_OWN_KEEPER = {
    "SAVED": N_("%(player)s's keeper stops the clearance: saved."),
    "PARRIED": N_("%(player)s's keeper parries the clearance: the ball goes to %(opponent)s."),
    "CORNER": N_("%(player)s's keeper tips the clearance out: corner for %(opponent)s."),
    "NOT_SAVED": N_("%(player)s's keeper cannot reach the clearance."),
}

_STAR_FACE = {
    "LONG_SHOT": N_("long shot"),
    "ASSIST": N_("assist"),
    "UNSTOPPABLE": N_("unstoppable shot"),
    "PERFECT_SAVE": N_("perfect save"),
    "RECOVERY": N_("recovery"),
    "FOUL": N_("foul"),
}

_STAR_ROLLED = {
    "LONG_SHOT": N_("%(player)s rolls the STAR die: long shot."),
    "ASSIST": N_("%(player)s rolls the STAR die: assist."),
    "UNSTOPPABLE": N_("%(player)s rolls the STAR die: unstoppable shot."),
    "PERFECT_SAVE": N_("%(player)s rolls the STAR die: perfect save."),
    "RECOVERY": N_("%(player)s rolls the STAR die: recovery."),
    "FOUL": N_("%(player)s rolls the STAR die: foul."),
}

_STAR_PLAYED = {
    "LONG_SHOT": N_("%(player)s plays the STAR long shot from %(square)s!"),
    "ASSIST": N_("%(player)s plays the STAR assist from %(square)s!"),
    "UNSTOPPABLE": N_("%(player)s plays the STAR unstoppable shot from %(square)s!"),
    "PERFECT_SAVE": N_("%(player)s plays the STAR perfect save!"),
    "RECOVERY": N_("%(player)s plays the STAR recovery and wins the ball on %(square)s!"),
    "FOUL": N_("%(player)s plays the STAR foul: the referee whistles on %(square)s."),
}

_MOVE = {
    "arrow": N_("The ball goes from %(from)s to %(to)s."),
    "clearance": N_("Cleared from %(from)s to %(to)s."),
    "shot": N_("The shot flies from %(from)s to %(to)s."),
    "post": N_("The ball rebounds to %(to)s."),
    "crossbar": N_("The ball drops on %(to)s."),
    "parry": N_("The ball is pushed out to %(to)s."),
    "long_shot": N_("A long shot from %(from)s towards goal."),
    "assist": N_("The assist lands on %(to)s."),
    "to_penalty_spot": N_("The ball is placed on the penalty spot."),
}

_EXIT = {
    "side_line": N_("The ball goes from %(from)s over the side line."),
    "goal_line": N_("The ball goes from %(from)s over the goal line."),
    "own_goal_line": N_("The ball goes from %(from)s over %(player)s's own goal line."),
    "own_goal": N_("The ball goes from %(from)s into %(player)s's own goal!"),
}

_POSSESSION = {
    "steal": N_("%(player)s wins the ball on %(square)s and must start with CONTROL."),
    "lost": N_("%(player)s gets the ball on %(square)s and must start with CONTROL."),
    "recovery": N_("%(player)s has the ball on %(square)s and must start with CONTROL."),
    "parried": N_("%(player)s picks up the loose ball on %(square)s."),
}

_RESTART = {
    "throw_in": N_("Throw-in for %(player)s on %(square)s."),
    "goal_kick": N_("Goal kick for %(player)s."),
    "keeper_restart": N_("The keeper of %(player)s has the ball."),
    "corner": N_("Corner for %(player)s."),
    "free_kick": N_("Free kick for %(player)s on %(square)s."),
    "direct_free_kick": N_("Direct free kick for %(player)s on %(square)s: a shot is allowed."),
    "penalty": N_("Penalty for %(player)s!"),
}

_GOAL = {
    "unstoppable": N_("GOAL for %(player)s! An unstoppable shot. %(home)s–%(away)s."),
    "not_saved": N_("GOAL for %(player)s! The keeper is beaten. %(home)s–%(away)s."),
    "penalty": N_("GOAL for %(player)s from the penalty spot! %(home)s–%(away)s."),
    "star_unstoppable": N_("GOAL for %(player)s! The STAR shot cannot be stopped. %(home)s–%(away)s."),
    "own_goal": N_("Own goal — the goal counts for %(player)s. %(home)s–%(away)s."),
}


def _other(side: str) -> str:
    return "away" if side == "home" else "home"


def _sq(square: list[int] | None) -> str:
    return square_name(square[0], square[1]) if square else ""


def sentence(event: MatchEvent) -> tuple[str, dict[str, Any]]:
    """The log line of one event: a msgid (to translate) and its params."""
    k = event.kind
    d = event.data
    side = d.get("side")
    p: dict[str, Any] = {"player": side, "opponent": _other(side)} if isinstance(side, str) else {}
    if k == "roll":
        die, face = d["die"], d["face"]
        if d["use"] == "boskov":
            if face == "?":
                return N_("%(player)s rolls CONTROL for the referee: “?” — no penalty after all."), p
            return N_("%(player)s rolls CONTROL for the referee: the penalty stands."), p
        if d["use"] == "own_keeper":
            return _OWN_KEEPER[face], p
        if die in ("control", "pass", "long"):
            cls, n = parse_arrow(face)
            p["n"] = n
            return _ARROW[(die, cls)], p
        return _RESULT[(die, face)], p
    if k == "move":
        path = d["path"]
        if "exit" in d:
            p["from"] = _sq(path[-2])
            return _EXIT[d["exit"]], p
        p["from"], p["to"] = _sq(path[0]), _sq(path[-1])
        return _MOVE[d["how"]], p
    if k == "star_rolled":
        return _STAR_ROLLED[d["face"]], p
    if k == "star_played":
        p["square"] = _sq(d["square"])
        return _STAR_PLAYED[d["face"]], p
    if k in ("possession", "restart", "ball_placed", "no_penalty", "kickoff"):
        p["square"] = _sq(d.get("square"))
        if k == "possession":
            return _POSSESSION[d["reason"]], p
        if k == "restart":
            return _RESTART[d["restart"]], p
        if k == "ball_placed":
            return N_("%(player)s places the ball on %(square)s."), p
        if k == "no_penalty":
            return N_("No penalty: %(player)s plays on from %(square)s."), p
        if d["period"] >= 3:
            return N_("Extra time: %(player)s kicks off."), p
        if d["period"] == 2:
            return N_("Second half: %(player)s kicks off."), p
        return N_("%(player)s kicks off."), p
    if k == "goal":
        p["home"], p["away"] = d["score"]
        return _GOAL[d["how"]], p
    if k == "toss":
        return N_("%(player)s wins the toss and takes the STAR die; %(opponent)s kicks off."), {
            "player": d["winner"],
            "opponent": d["kicks_off"],
        }
    if k == "crossbar_choice":
        if d["choice"] == "defender":
            return N_("%(player)s sends the defender to the loose ball."), p
        if d["choice"] == "keeper":
            return N_("%(player)s's keeper goes for the loose ball."), p
        return N_("%(player)s answers the crossbar with the STAR."), p
    if k == "sent_off":
        if d["star"]:
            return N_("Two fouls in a row: %(player)s's defender is sent off and hands over the STAR die."), p
        return N_("Two fouls in a row: %(player)s's defender is sent off."), p
    if k == "time_up":
        return N_("Time is up: play goes on until the defence wins the ball."), {}
    if k == "half_over":
        h, a = d["score"]
        if d["period"] == 1:
            return N_("Half time: %(home)s–%(away)s."), {"home": h, "away": a}
        return N_("End of the period: %(home)s–%(away)s."), {"home": h, "away": a}
    if k == "extra_time":
        return N_("Level: extra time."), {}
    if k == "shootout_start":
        return N_("Level: penalty shoot-out; %(player)s shoots first."), {"player": d["first"]}
    if k == "shootout_kick":
        p["home"], p["away"] = d["score"]
        if d["scored"]:
            return N_("Shoot-out: %(player)s scores (%(home)s–%(away)s)."), p
        return N_("Shoot-out: %(player)s misses (%(home)s–%(away)s)."), p
    if k == "match_over":
        return final_whistle(d["score"], d["winner"], d["decided_by"], d["penalties"])
    raise KeyError(f"no sentence for event kind {k!r}")


def star_face_name(face: str) -> str:
    """The translatable name of a STAR face, for the board's STAR badge."""
    return _STAR_FACE[face]
