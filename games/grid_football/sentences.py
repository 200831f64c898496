"""One English sentence per grid-football event, marked for translation, so that the log tells the match.

``sentence(event) -> (msgid, params)``, or None for an event the log leaves out (none is left out: every roll,
walk, kick, interception, card and restart has its line).

The rules stay pure, so nothing here translates: ``N_`` only marks a literal for ``makemessages``
(``--keyword=N_``), and the presentation layer runs ``gettext(msgid) % params`` for its reader. Params:

- ``player`` / ``opponent`` / ``winner`` / ``home`` / ``away`` (keys in ``SIDE_PARAMS``): a side, ``"home"``
  or ``"away"``; the presenter replaces it with the name of who plays that side;
- ``number``, ``victim``, ``on``, ``off``: squad numbers (1 and 20 are the keepers, RULES.md §1);
- squares as the rules name them (``"5,8"``, RULES.md §10), a ball's path as its squares joined by arrows;
- other numbers as ints (the roll, the chance of a save in quarters, the minute).
"""

from __future__ import annotations

from typing import Any

from games.api import N_, MatchEvent
from games.labels import final_whistle

SIDE_PARAMS = ("player", "opponent", "winner", "home", "away")

# what each die is rolled for (the roll event's "use")
_ROLL = {
    "turn": N_("%(player)s rolls %(value)s."),
    "kickoff": N_("%(player)s rolls %(value)s for the kick-off."),
    "keeper": N_("%(player)s rolls %(value)s for the keeper's kick (one square more)."),
    "throw_in": N_("%(player)s rolls the D4 for the throw-in: %(value)s."),
    "corner": N_("%(player)s rolls %(value)s for the corner."),
    "penalty": N_("%(player)s rolls %(value)s for the penalty."),
    "shootout": N_("%(player)s rolls %(value)s for the shoot-out kick."),
    "free_kick": N_("%(player)s rolls %(value)s for the free kick."),
    "intercept": N_("%(player)s rolls the D3 for the interception: %(value)s."),
    "save": N_("%(player)s rolls the D4 for the save: %(value)s."),
    "throw": N_("%(player)s's keeper rolls %(value)s for his throw."),
}
_ROLL_ONE = N_("%(player)s rolls a 1, which this die does not count: rolled again.")
_TURN_ONE = N_("%(player)s rolls a 1: the clock moves on.")

_RESTART = {
    "keeper": N_(
        "%(player)s's keeper no. %(number)s restarts play: the ball may travel %(squares)s squares."
    ),
    "throw_in": N_("%(player)s's no. %(number)s throws the ball in: %(squares)s squares."),
    "corner": N_("%(player)s's no. %(number)s takes the corner: %(squares)s squares."),
    "penalty": N_("%(player)s's no. %(number)s takes the penalty: %(squares)s squares, into the goal."),
    "shootout": N_("Shoot-out: %(player)s's no. %(number)s shoots with %(squares)s squares."),
}

_PLACED = {
    "victim": N_("%(player)s's fouled no. %(number)s is placed on %(square)s."),
    "wall": N_("%(player)s's no. %(number)s forms the wall on %(square)s."),
    "ring": N_("%(player)s's no. %(number)s leaves the ring around the ball, to %(square)s."),
    "thrower": N_("%(player)s's no. %(number)s goes to take the throw-in from %(square)s."),
    "corner_taker": N_("%(player)s's no. %(number)s goes to take the corner, on %(square)s."),
    "penalty_taker": N_("%(player)s's no. %(number)s puts the ball on the spot, %(square)s."),
}

_OUT = {
    "throw_in": N_("The ball goes out at %(square)s: a throw-in for %(player)s."),
    "corner": N_("The ball goes over the back line: a corner for %(player)s."),
    "goal_kick": N_("The ball goes over the back line: a goal kick for %(player)s."),
}

_KICK = {
    "rest": N_("%(player)s's no. %(number)s plays the ball %(path)s, where it stops."),
    "relay": N_("%(player)s's no. %(number)s passes %(path)s to a team-mate."),
    "shot": N_("%(player)s's no. %(number)s shoots: %(path)s."),
}

_SAVE = {
    "goal": N_("%(player)s's keeper dives to %(square)s (a chance of %(chance)s in 4) but cannot stop it."),
    "saved": N_("%(player)s's keeper dives to %(square)s (a chance of %(chance)s in 4) and saves!"),
    "hold": N_("%(player)s's keeper dives to %(square)s (a chance of %(chance)s in 4) and holds the ball!"),
    "rebound": N_("%(player)s's keeper dives to %(square)s (a chance of %(chance)s in 4) and pushes it out!"),
    "handball": N_(
        "%(player)s's keeper saves on %(square)s, outside his penalty area: handball, a red card and a "
        "free kick."
    ),
}

_WHISTLE = {
    1: N_("The whistle: normal time is over at %(home_goals)s–%(away_goals)s."),
    2: N_("The whistle: extra time is over at %(home_goals)s–%(away_goals)s."),
}

_SIMPLE = {
    "lineup_chosen": N_("%(player)s has named the line-up."),
    "centre": N_("%(player)s's no. %(number)s moves beside the centre spot, to %(square)s."),
    "warm_up": N_("%(player)s sends no. %(number)s to warm up."),
    "walk": N_("%(player)s's no. %(number)s walks from %(from)s to %(to)s."),
    "catch": N_("%(player)s's keeper no. %(number)s catches the ball on %(square)s."),
    "pass": N_("%(player)s has no legal move and passes."),
    "follow": N_("%(player)s's no. %(number)s follows up, from %(from)s to %(to)s."),
    "intercept": N_("%(player)s's no. %(number)s steps into %(square)s to intercept."),
    "receive": N_("%(player)s's no. %(number)s receives the deflected ball on %(square)s."),
    "row1": N_("%(player)s's no. %(number)s leaves the back row, to %(to)s."),
    "offside": N_("%(player)s's no. %(number)s is offside and goes back from %(from)s to %(to)s."),
    "step": N_("%(player)s's no. %(number)s steps to %(to)s."),
    "bench": N_("%(player)s's no. %(number)s goes back to the bench."),
    "makeshift_keeper": N_("%(player)s's no. %(number)s goes in goal as a makeshift keeper."),
    "keeper": N_("%(player)s's keeper no. %(number)s stands on %(square)s."),
    "injured_out": N_("%(player)s's no. %(number)s is injured out of the match."),
}

# event kind -> (lucide icon, tone) of its line
LOOK = {
    "goal": ("goal", "goal"),
    "full_time": ("flag", "match"),
    "whistle": ("whistle", "match"),
    "extra_time": ("whistle", "match"),
    "match_start": ("whistle", "match"),
    "kickoff": ("whistle", "match"),
    "lineup": ("users", "private"),
    "lineup_chosen": ("users", "match"),
    "lineups": ("users", "match"),
    "roll": ("dice-6", "match"),
    "clock": ("clock", "match"),
    "foul": ("triangle-alert", "match"),
    "card": ("triangle-alert", "match"),
    "injury": ("bandage", "match"),
    "injured_out": ("bandage", "match"),
    "substitution": ("users", "match"),
    "warm_up": ("users", "match"),
    "bench": ("users", "match"),
    "offside": ("flag-triangle-right", "match"),
    "shot": ("goal", "match"),
    "save": ("hand", "match"),
    "out": ("flag", "match"),
    "restart": ("whistle", "match"),
    "shootout": ("goal", "match"),
    "shootout_kick": ("goal", "match"),
}


def _other(side: str) -> str:
    return "away" if side == "home" else "home"


def _path(squares: list[str]) -> str:
    return " → ".join(squares)


def players_text(numbers: list[int]) -> str:
    """A line-up's squad numbers as the log and the board show them (``1, 2, 5, …``)."""
    return ", ".join(str(n) for n in numbers)


def sentence(event: MatchEvent) -> tuple[str, dict[str, Any]] | None:
    """The log line of one event: a msgid (to translate) and its params."""
    k = event.kind
    d = event.data
    side = d.get("side")
    p: dict[str, Any] = {"player": side, "opponent": _other(side)} if isinstance(side, str) else {}
    if "player" in d:
        p["number"] = d["player"]
    for key in ("square", "from", "to", "victim", "on", "off"):
        if key in d:
            p[key] = d[key]
    if k in _SIMPLE:
        if k == "walk" and "steps" in d:
            p["steps"] = d["steps"]
            if d["steps"] == 0:
                return N_("%(player)s's no. %(number)s plays the ball where he stands, on %(to)s."), p
            return N_("%(player)s's no. %(number)s walks onto the ball on %(to)s (%(steps)s steps)."), p
        return _SIMPLE[k], p
    if k == "roll":
        p["value"] = d["value"]
        if not d["counts"]:
            return _ROLL_ONE, p
        if d["use"] == "turn" and d["value"] == 1:
            return _TURN_ONE, p
        return _ROLL[d["use"]], p
    if k == "clock":
        return N_("The clock: minute %(minute)s."), {"minute": d["minute"]}
    if k == "match_start":
        if d.get("fixed_length"):
            return N_("Both coaches name their eleven. A fixed-length match: it lasts a number of rolls."), {}
        return N_("Both coaches name their eleven, in secret and at the same time."), {}
    if k == "lineup":
        return N_("%(player)s's line-up, secret until both are in: %(players)s."), {
            "player": side,
            "players": players_text(d["players"]),
        }
    if k == "lineups":
        return N_(
            "The line-ups are revealed: %(home)s fields %(home_players)s; %(away)s fields %(away_players)s."
        ), {
            "home": "home",
            "away": "away",
            "home_players": players_text(d["home"]["players"]),
            "away_players": players_text(d["away"]["players"]),
        }
    if k == "collision":
        squares = ", ".join(f"{who} {sq}" for who, sq in d["squares"].items())
        return N_("Midfielders collide on the middle row; the home side moves them: %(squares)s."), {
            "squares": squares
        }
    if k == "kickoff":
        return N_(
            "Kick-off rolls: %(home)s %(home_roll)s, %(away)s %(away_roll)s. %(player)s kicks off, "
            "%(squares)s squares."
        ), {
            "player": side,
            "home": "home",
            "away": "away",
            "home_roll": d["rolls"]["home"],
            "away_roll": d["rolls"]["away"],
            "squares": d["squares"],
        }
    if k == "foul":
        if d["penalty"]:
            return N_(
                "Foul! %(player)s's no. %(number)s brings down %(opponent)s's no. %(victim)s on %(square)s, "
                "in the penalty area: a penalty!"
            ), p
        return N_(
            "Foul! %(player)s's no. %(number)s brings down %(opponent)s's no. %(victim)s on %(square)s."
        ), p
    if k == "card":
        if d["card"] == "yellow":
            return N_("Yellow card for %(player)s's no. %(number)s."), p
        if d["count"] >= 2:
            return N_("A second yellow card: red for %(player)s's no. %(number)s, who leaves the pitch."), p
        return N_("Red card for %(player)s's no. %(number)s, who leaves the pitch."), p
    if k == "injury":
        if d["count"] >= 2:
            return N_("%(player)s's no. %(number)s is hurt a second time."), p
        return N_("%(player)s's no. %(number)s is hurt: a bandage."), p
    if k == "substitution":
        return N_("Substitution for %(player)s: no. %(on)s comes on for no. %(off)s, on %(square)s."), p
    if k == "charge":
        p["pushed"] = len(d["pushed"])
        if p["pushed"] > 1:
            return N_(
                "Shoulder charge! %(player)s's no. %(number)s pushes %(opponent)s's no. %(victim)s and "
                "the players behind him one square on."
            ), p
        return N_(
            "Shoulder charge! %(player)s's no. %(number)s pushes %(opponent)s's no. %(victim)s one square on."
        ), p
    if k == "kick":
        p["path"] = _path(d["path"])
        return _KICK[d["end"]], p
    if k == "deflection":
        if not d["success"]:
            return N_("%(player)s's no. %(number)s misses the ball."), p
        p["path"] = _path(d["path"])
        return N_("%(player)s's no. %(number)s deflects the ball: %(path)s!"), p
    if k == "rebound":
        return N_("The ball rebounds: %(path)s."), {"path": _path(d["path"])}
    if k == "out":
        p["square"] = d["exit"]
        return _OUT[d["restart"]], p
    if k == "shot":
        p["goal"] = d["goal"]
        p["strength"] = d["strength"]
        return N_("%(player)s shoots at the goal square %(goal)s, with %(strength)s squares to spare."), p
    if k == "save":
        p["chance"] = d["chance"]
        return _SAVE[d["outcome"]], p
    if k == "goal":
        p["home_goals"], p["away_goals"] = d["score"]
        return N_("GOAL for %(player)s! %(home_goals)s–%(away_goals)s."), p
    if k == "restart":
        if d["kind"] == "free_kick":
            p["roll"] = d["roll"]
            return N_(
                "Free kick for %(player)s, a roll of %(roll)s: one of its players must play the ball this "
                "turn."
            ), p
        p["squares"] = d["squares"]
        return _RESTART[d["kind"]], p
    if k == "placed":
        return _PLACED[d["as"]], p
    if k == "corner_shift":
        return N_("Corner: every player outside the last two rows moves one square towards it."), {}
    if k == "area_cleared":
        return N_("The penalty area at %(player)s's end is cleared."), {"player": d["area"]}
    if k == "whistle":
        h, a = d["score"]
        return _WHISTLE.get(int(d["period"]), _WHISTLE[1]), {"home_goals": h, "away_goals": a}
    if k == "extra_time":
        return N_("Level: extra time, and the first goal wins. %(player)s kicks off."), {
            "player": d["kickoff"]
        }
    if k == "shootout":
        return N_("Still level: a penalty shoot-out, %(n)s kicks each, then sudden death."), {"n": d["kicks"]}
    if k == "shootout_kick":
        p["home_goals"], p["away_goals"] = d["pens"]
        if d["scored"]:
            return N_("Shoot-out: %(player)s's no. %(number)s scores (%(home_goals)s–%(away_goals)s)."), p
        return N_("Shoot-out: %(player)s's no. %(number)s misses (%(home_goals)s–%(away_goals)s)."), p
    if k == "full_time":
        return final_whistle(d["score"], d["winner"], d["decided_by"], d["pens"])
    raise KeyError(f"no sentence for event kind {k!r}")
