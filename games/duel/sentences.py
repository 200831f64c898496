"""The card duel's log lines: one per match event, in English, marked for translation.

Pure (the presenter translates): a line names the sides, cards and periods through ``Ref``s, which the
presenter words for its reader — in Magic Football a side is a country, in a room of the duel alone it is
the player who coaches it. The msgids are those the log always had, so their translations still apply.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from games.api import N_, Line, MatchEvent, Ref

SILENT = frozenset({"modifier_ended", "match_over"})  # said by the game around the match, or by nothing

LineMaker = Callable[[dict[str, Any]], Line | None]
_LINES: dict[str, LineMaker] = {}


def _on(kind: str) -> Callable[[LineMaker], LineMaker]:
    def register(fn: LineMaker) -> LineMaker:
        _LINES[kind] = fn
        return fn

    return register


def line(event: MatchEvent) -> Line | None:
    """The log line of a duel event (None: the event says nothing on its own)."""
    if event.kind in SILENT:
        return None
    maker = _LINES.get(event.kind)
    return maker(event.data) if maker is not None else None


def kinds() -> frozenset[str]:
    """Every event kind with a line of its own."""
    return frozenset(_LINES)


def _side(d: dict[str, Any], key: str = "side") -> Ref:
    return Ref("side", d.get(key))


def _score(d: dict[str, Any]) -> str:
    score = d.get("score")
    return f"{score[0]}–{score[1]}" if isinstance(score, list) and len(score) == 2 else ""


@_on("lineup_set")
def _lineup_set(d: dict[str, Any]) -> Line:
    return Line(N_("Your line-up for the %(period)s is set."), {"period": Ref("period", d.get("period"))},
                "users", "private")  # fmt: skip


@_on("kickoff")
def _kickoff(d: dict[str, Any]) -> Line:
    return Line(N_("Kick-off: %(period)s."), {"period": Ref("period", d.get("period"))}, "whistle")


@_on("card_revealed")
def _revealed(d: dict[str, Any]) -> Line:
    text = (
        N_("%(side)s's keeper %(card)s comes into action.")
        if d.get("keeper")
        else N_("%(side)s brings in %(card)s.")
    )
    return Line(text, {"side": _side(d), "card": Ref("player_label", d.get("card"))}, "shirt")


@_on("match_card_played")
def _match_card_played(d: dict[str, Any]) -> Line:
    target = d.get("target") if isinstance(d.get("target"), dict) else {}
    card = Ref("match_card", d.get("card"))
    if "stars" in d and target.get("card"):
        return Line(
            N_("%(side)s plays “%(card)s” on %(target)s: now %(stars)s★."),
            {
                "side": _side(d),
                "card": card,
                "target": Ref("player", target["card"]),
                "stars": d.get("stars"),
            },
            "sparkles",
        )
    return Line(N_("%(side)s plays “%(card)s”."), {"side": _side(d), "card": card}, "sparkles")


@_on("penalty_moment")
def _penalty(d: dict[str, Any]) -> Line:
    return Line(
        N_("Penalty for %(side)s! %(card)s (%(stars)s★) against keeper %(keeper)s (%(ks)s★)."),
        {
            "side": _side(d),
            "card": Ref("player", d.get("card")),
            "stars": d.get("stars"),
            "keeper": Ref("player", d.get("keeper")),
            "ks": d.get("keeper_stars"),
        },
        "goal",
    )


@_on("corner_moment")
def _corner(d: dict[str, Any]) -> Line:
    return Line(
        N_("Corner for %(side)s! %(card)s (%(stars)s★) heads against %(against)s (%(as)s★)."),
        {
            "side": _side(d),
            "card": Ref("player", d.get("card")),
            "stars": d.get("stars"),
            "against": Ref("player", d.get("against")),
            "as": d.get("against_stars"),
        },
        "flag-triangle-right",
    )


@_on("card_cancelled")
def _cancelled(d: dict[str, Any]) -> Line:
    return Line(
        N_("“%(card)s” is cancelled by “%(by)s”."),
        {"card": Ref("match_card", d.get("card")), "by": Ref("match_card", d.get("by"))},
        "circle-x",
    )


@_on("swap")
def _swap(d: dict[str, Any]) -> Line:
    if d.get("free"):
        text = N_("%(side)s swaps %(out)s for the reserve %(in)s (free swap).")
    else:
        text = N_("%(side)s swaps %(out)s for the reserve %(in)s; %(left)s swaps left.")
    return Line(
        text,
        {
            "side": _side(d),
            "out": Ref("player", d.get("out")),
            "in": Ref("player_label", d.get("in")),
            "left": d.get("swaps_left"),
        },
        "rotate-ccw",
    )


@_on("goal")
def _goal(d: dict[str, Any]) -> Line:
    return Line(
        N_(
            "Goal for %(side)s? %(card)s scores (%(stars)s★ against %(against)s★); "
            "it may still be disallowed."
        ),
        {
            "side": _side(d),
            "card": Ref("player", d.get("card")),
            "stars": d.get("stars"),
            "against": d.get("against_stars"),
        },
        "goal",
        "goal",
    )


@_on("goal_confirmed")
def _goal_confirmed(d: dict[str, Any]) -> Line:
    return Line(
        N_("GOAL! %(side)s scores: %(score)s."), {"side": _side(d), "score": _score(d)}, "goal", "goal"
    )


@_on("goal_disallowed")
def _goal_disallowed(d: dict[str, Any]) -> Line:
    return Line(N_("The goal of %(side)s is disallowed!"), {"side": _side(d)}, "circle-x")


@_on("penalty_saved")
def _saved(d: dict[str, Any]) -> Line:
    return Line(N_("The penalty of %(side)s is saved."), {"side": _side(d)}, "hand")


@_on("corner_cleared")
def _cleared(d: dict[str, Any]) -> Line:
    return Line(N_("The corner of %(side)s is cleared."), {"side": _side(d)}, "shield")


_WHY = {
    "both_keepers": N_("both keepers came into action"),
    "no_cards": N_("no cards left to bring in"),
    "disallowed_no_field_player": N_("no field player left after the disallowed goal"),
}


@_on("half_over")
def _half_over(d: dict[str, Any]) -> Line:
    period = Ref("period", d.get("period"))
    why = _WHY.get(d.get("reason"))  # type: ignore[arg-type]
    if why:
        return Line(
            N_("End of the %(period)s (%(why)s): %(score)s."),
            {"period": period, "why": Line(why), "score": _score(d)},
            "whistle",
        )
    return Line(N_("End of the %(period)s: %(score)s."), {"period": period, "score": _score(d)}, "whistle")


@_on("extra_time")
def _extra_time(d: dict[str, Any]) -> Line:
    return Line(N_("Level: extra time! Each side gets extra match cards; the first goal wins."), {}, "timer")


@_on("cards_dealt")
def _cards_dealt(d: dict[str, Any]) -> Line:
    cards = d.get("cards") if isinstance(d.get("cards"), list) else []
    return Line(N_("Your extra-time match cards: %(cards)s."), {"cards": Ref("match_cards", cards)},
                "sparkles", "private")  # fmt: skip


@_on("shootout_start")
def _shootout(d: dict[str, Any]) -> Line:
    return Line(N_("Still level: penalty series!"), {}, "goal")


@_on("shootout_kick")
def _kick(d: dict[str, Any]) -> Line:
    if d.get("scored"):
        text = N_("Penalty %(round)s, %(side)s: %(card)s (%(stars)s★) scores. %(score)s")
    else:
        text = N_("Penalty %(round)s, %(side)s: %(card)s (%(stars)s★) is stopped. %(score)s")
    return Line(
        text,
        {
            "round": d.get("round"),
            "side": _side(d),
            "card": Ref("player", d.get("card")),
            "stars": d.get("stars"),
            "score": _score(d),
        },
        "goal",
    )


@_on("die_roll")
def _die_roll(d: dict[str, Any]) -> Line:
    return Line(
        N_("The die decides: %(home)s %(h)s, %(away)s %(a)s."),
        {"home": Ref("side", "home"), "away": Ref("side", "away"), "h": d.get("home"), "a": d.get("away")},
        "dices",
    )
