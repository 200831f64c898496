"""Strict mapping from a posted form to one game action: every field checked, unknown fields refused.

The room pages post ``action`` (which form), ``version`` (the game version the page showed), ``action_id``
(a fresh id rendered into each form, so a double click is a harmless duplicate) and the few fields of that
form. This module only checks shapes, types and ranges; whether the action is legal — your turn, your
prompt, a card you hold, enough money — is the rules' business, so a forged prompt id or card id simply
fails their legality checks. Errors are ``MalformedAction`` with a translatable detail.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext_noop

from games.api import Game, game_keys, get_game
from tournament.rules.errors import MalformedAction
from tournament.services.actions import ACTION_ID_RE

CARD_RE = re.compile(r"^[A-Z][A-Z0-9]{1,7}$")
ACCOUNT_RE = re.compile(r"^(bank|bonus|p[1-8])$")
MAX_PROMPT = 10**9
MAX_VERSION = 10**9
MAX_PICK = 99_999  # a decision lists fewer choices (chess football's relocation and move: thousands)
TRACK = 40
IGNORED = frozenset({"csrfmiddlewaretoken"})
COMMON = frozenset({"action", "version", "action_id"})
# Forms whose action says by itself whether it is still good, so the page's version does not guard it
# (posted with version None). A pick, a line-up or a default names one open decision by its prompt id, and
# a prompt keeps its id only while its choices (a line-up: its options and default) stay the same. The
# host's hand-over names its seat and direction (to a bot / back to the human), and the rules refuse it
# when the seat is no longer a human's. In a cup or a league the other matches, and in any room its bots,
# move the version on all the time, so the page's version is nearly always a step behind at the click:
# every pick, a slowly ordered line-up, and "Hand to a bot" for a stuck player were refused as stale.
UNGUARDED = frozenset({"pick", "force_default", "lineup", "seat_bot"})

# form name -> (single-valued fields, multi-valued fields); every listed field is required unless optional
FIELDS: dict[str, tuple[frozenset[str], frozenset[str]]] = {
    "roll": (frozenset(), frozenset()),
    "buy": (frozenset({"prompt", "buy"}), frozenset()),
    "contract": (frozenset({"prompt", "contract"}), frozenset()),
    "luck": (frozenset({"prompt", "square"}), frozenset()),
    "return_card": (frozenset({"prompt", "card"}), frozenset()),
    "discard_match": (frozenset({"prompt", "card"}), frozenset()),
    "marker": (frozenset({"prompt", "take"}), frozenset()),
    "keep_selection": (frozenset({"prompt", "keeper"}), frozenset({"field"})),
    "ac_keep": (frozenset({"prompt"}), frozenset({"keep"})),
    # the duel's line-up (an order of cards and a reserve) or grid football's (squad numbers, the keeper's
    # goal column and the centre columns of lines of three)
    "lineup": (frozenset({"prompt", "reserve", "keeper_column"}), frozenset({"order", "players", "centre"})),
    "window": (frozenset({"prompt", "choice"}), frozenset()),
    "pick": (frozenset({"prompt", "pick"}), frozenset()),  # a listed choice by its number (games' boards)
    "add_bot": (frozenset({"strength"}), frozenset()),
    "remove_seat": (frozenset({"seat"}), frozenset()),
    "leave": (frozenset(), frozenset()),
    "house_rules": (
        frozenset({"mode", "seats", "visit_fee_to", "decision_timer", "match_format"}),
        frozenset(),
    ),
    "room_rules": (frozenset({"competition", "seats", "decision_timer"}), frozenset()),  # other games
    "start": (frozenset(), frozenset()),
    "pause": (frozenset(), frozenset()),
    "resume": (frozenset(), frozenset()),
    "end_game": (frozenset(), frozenset()),
    "transfer": (frozenset({"src", "dst", "amount", "memo"}), frozenset()),
    "seat_bot": (frozenset({"seat", "bot"}), frozenset()),
    "force_default": (frozenset({"prompt"}), frozenset()),
    "rewind": (frozenset({"to_version"}), frozenset()),
}
# fields that may be left out (or empty)
OPTIONAL = {
    "keep_selection": frozenset({"keeper", "field"}),
    "ac_keep": frozenset({"keep"}),
    "lineup": frozenset({"reserve", "keeper_column"}),
    "house_rules": frozenset({"match_format"}),
}
PROMPT_ANSWERS = frozenset(
    {
        "buy",
        "contract",
        "luck",
        "return_card",
        "discard_match",
        "marker",
        "keep_selection",
        "ac_keep",
        "lineup",
        "window",
        "pick",
    }
)


@dataclass(frozen=True, slots=True)
class FormAction:
    """A posted form, checked: which form, the action for ``game_act``, the version and action id."""

    form: str
    action: dict[str, Any]
    version: int | None  # None: the action names what it answers (a pick or a line-up names its decision)
    action_id: str


def _bad(detail: str, **params: Any) -> MalformedAction:
    return MalformedAction(detail=detail % params if params else detail)


def _int(value: str, low: int, high: int, what: str) -> int:
    text = value.strip()
    if not re.fullmatch(r"\d{1,10}", text):
        raise _bad(gettext_noop("a whole number is expected"))
    number = int(text)
    if not low <= number <= high:
        raise _bad(gettext_noop("a number out of range"))
    return number


def _choice(value: str, allowed: tuple[str, ...]) -> str:
    if value not in allowed:
        raise _bad(gettext_noop("an unexpected choice"))
    return value


def _yes_no(value: str) -> bool:
    return _choice(value, ("yes", "no")) == "yes"


def _card(value: str) -> str:
    if not CARD_RE.match(value):
        raise _bad(gettext_noop("that is not a card"))
    return value


def _cards(values: list[str], limit: int = 16) -> list[str]:
    if len(values) > limit:
        raise _bad(gettext_noop("too many cards"))
    return [_card(v) for v in values]


def _amount(value: str) -> int:
    # "1.000.000", "1,000,000" and "1 000 000" all mean one million magic: amounts are whole numbers
    text = re.sub(r"[\s.,_\u00a0']", "", value)
    return _int(text, 1, 100_000_000, "amount")


def parse(data: Any) -> FormAction:
    """Check a posted form (a Django ``QueryDict`` or a mapping of lists) and build its action.

    :raises MalformedAction: an unknown form or field, a missing or repeated field, a wrong type or range.
    """
    fields = _lists(data)
    form_values = fields.get("action") or []
    if len(form_values) != 1 or form_values[0] not in FIELDS:
        raise _bad(gettext_noop("unknown form"))
    form = form_values[0]
    single, multi = FIELDS[form]
    optional = OPTIONAL.get(form, frozenset())
    unknown = set(fields) - single - multi - COMMON - IGNORED
    if unknown:
        raise _bad(gettext_noop("unexpected field"))
    for name in COMMON | single:
        values = fields.get(name, [])
        if len(values) > 1:
            raise _bad(gettext_noop("a field was sent twice"))
        if not values and name not in optional:
            raise _bad(gettext_noop("a field is missing"))
    version = _int(_one(fields, "version"), 0, MAX_VERSION, "version")
    action_id = _one(fields, "action_id")
    if not ACTION_ID_RE.match(action_id):
        raise _bad(gettext_noop("the form is damaged: reload the page"))
    action = _build(form, fields)
    if form in UNGUARDED:
        return FormAction(form=form, action=action, version=None, action_id=action_id)
    return FormAction(form=form, action=action, version=version, action_id=action_id)


def _lists(data: Any) -> dict[str, list[str]]:
    if hasattr(data, "lists"):
        items = dict(data.lists())
    elif isinstance(data, Mapping):
        items = {k: (list(v) if isinstance(v, list | tuple) else [v]) for k, v in data.items()}
    else:
        raise _bad(gettext_noop("unknown form"))
    out: dict[str, list[str]] = {}
    for key, values in items.items():
        if not isinstance(key, str) or len(key) > 40:
            raise _bad(gettext_noop("unexpected field"))
        if len(values) > 16 or not all(isinstance(v, str) and len(v) <= 400 for v in values):
            raise _bad(gettext_noop("a field is too long"))
        out[key] = list(values)
    return out


def _one(fields: dict[str, list[str]], name: str, default: str = "") -> str:
    values = fields.get(name) or []
    return values[0] if values else default


def _answer(fields: dict[str, list[str]], choice: dict[str, Any]) -> dict[str, Any]:
    prompt = _int(_one(fields, "prompt"), 1, MAX_PROMPT, "prompt")
    return {"type": "answer", "prompt": prompt, "choice": choice}


def _build(form: str, fields: dict[str, list[str]]) -> dict[str, Any]:
    one = lambda name: _one(fields, name)  # noqa: E731
    if form == "roll":
        return {"type": "roll"}
    if form == "pick":
        prompt = _int(one("prompt"), 1, MAX_PROMPT, "prompt")
        return {"type": "answer", "prompt": prompt, "pick": _int(one("pick"), 0, MAX_PICK, "pick")}
    if form == "buy":
        return _answer(fields, {"buy": _yes_no(one("buy"))})
    if form == "contract":
        return _answer(fields, {"contract": _yes_no(one("contract"))})
    if form == "luck":
        return _answer(fields, {"square": _int(one("square"), 0, TRACK - 1, "square")})
    if form in ("return_card", "discard_match"):
        return _answer(fields, {"card": _card(one("card"))})
    if form == "marker":
        return _answer(fields, {"take": _choice(one("take"), ("field", "keeper", "match", "money"))})
    if form == "keep_selection":
        keeper = one("keeper")
        return _answer(
            fields, {"field": _cards(fields.get("field", [])), "keeper": _card(keeper) if keeper else None}
        )
    if form == "ac_keep":
        return _answer(fields, {"keep": _cards(fields.get("keep", []), 8)})
    if form == "lineup" and ("players" in fields or "keeper_column" in fields or "centre" in fields):
        # grid football's squad sheet: numbers only; the rules say what is wrong with the eleven
        if "order" in fields or "reserve" in fields:
            raise _bad(gettext_noop("an unexpected choice"))
        numbers: dict[str, Any] = {
            "kind": "lineup",
            "players": [_int(v, 0, 99, "player") for v in fields.get("players", [])],
        }
        if one("keeper_column"):
            numbers["keeper_column"] = _int(one("keeper_column"), 0, 99, "column")
        if fields.get("centre"):
            numbers["centre"] = [_int(v, 0, 99, "column") for v in fields["centre"]]
        return _answer(fields, numbers)
    if form == "lineup":
        order = _cards(fields.get("order", []), 12)
        reserve = one("reserve")
        if reserve:
            reserve = _card(reserve)
            if reserve not in order:
                raise _bad(gettext_noop("the reserve must be one of your field players"))
            order = [c for c in order if c != reserve]
        if len(set(order)) != len(order):
            raise _bad(gettext_noop("a player is listed twice"))
        return _answer(fields, {"kind": "lineup", "order": order, "reserve": reserve or None})
    if form == "window":
        choice = one("choice")
        if choice in ("pass", "swap"):
            return _answer(fields, {"kind": choice})
        if choice.startswith("play:"):
            return _answer(fields, {"kind": "play", "card": _card(choice[5:])})
        raise _bad(gettext_noop("an unexpected choice"))
    if form == "add_bot":
        return {"type": "add_bot", "strength": _choice(one("strength"), ("easy", "strong", "random"))}
    if form == "remove_seat":
        return {"type": "remove_seat", "seat": _int(one("seat"), 1, 8, "seat")}
    if form == "leave":
        return {"type": "remove_seat", "seat": None}  # the view fills in the viewer's own seat
    if form in ("house_rules", "room_rules"):
        timer = _int(one("decision_timer"), 0, 600, "timer")
        if 0 < timer < 10:
            raise _bad(gettext_noop("the decision timer is off (0) or 10 to 600 seconds"))
        if form == "room_rules":
            return {
                "type": "house_rules",
                "competition": _choice(one("competition"), ("single", "cup", "league")),
                "seats": _int(one("seats"), 2, 8, "seats"),
                "decision_timer": timer or None,
            }
        rules = {
            "type": "house_rules",
            "mode": _choice(one("mode"), ("world_cup", "euro")),
            "seats": _int(one("seats"), 2, 8, "seats"),
            "visit_fee_to": _choice(one("visit_fee_to"), ("coach", "bank")),
            "decision_timer": timer or None,
        }
        if one("match_format"):  # how the matches are played (R20); the rules refuse a game not offered
            rules["match_format"] = _choice(one("match_format"), game_keys())
        return rules
    if form in ("start", "pause", "resume", "end_game"):
        return {"type": form}
    if form == "transfer":
        src, dst = one("src"), one("dst")
        if not ACCOUNT_RE.match(src) or not ACCOUNT_RE.match(dst):
            raise _bad(gettext_noop("choose two different accounts"))
        memo = " ".join(one("memo").split())
        if not 1 <= len(memo) <= 200:
            raise _bad(gettext_noop("a reason of 1 to 200 characters is required"))
        return {"type": "transfer", "src": src, "dst": dst, "amount": _amount(one("amount")), "memo": memo}
    if form == "seat_bot":
        return {"type": "seat_bot", "seat": _int(one("seat"), 1, 8, "seat"), "bot": _yes_no(one("bot"))}
    if form == "force_default":
        return {"type": "force_default", "prompt": _int(one("prompt"), 1, MAX_PROMPT, "prompt")}
    if form == "rewind":
        return {"type": "rewind", "to_version": _int(one("to_version"), 0, MAX_VERSION, "version")}
    raise _bad(
        gettext_noop("unknown form")
    )  # pragma: no cover - FIELDS and this function list the same forms


# ------------------------------------------------------------------------------------------ rooms


NICKNAME_FIELD_MAX = 64  # longer input is refused before the rules see it (they allow 24 visible characters)
CODE_CLEAN_RE = re.compile(r"[\s\-_.]")


def clean_code(raw: Any) -> str:
    """A room code as typed: case, spaces and dashes do not matter ("ABCD-EFGH 23" → "abcdefgh23")."""
    if not isinstance(raw, str):
        return ""
    return CODE_CLEAN_RE.sub("", raw).lower()[:32]


@dataclass(frozen=True, slots=True)
class CreateForm:
    """The landing page's "Create a room" form, checked."""

    nickname: str
    mode: str
    seats: int
    bots: int
    visit_fee_to: str
    decision_timer: int | None
    game: str = "magic-football"
    competition: str = "single"
    options: dict[str, Any] = field(default_factory=dict)


def playable_games() -> list[Game]:
    """The other games a room can be opened for: those registered with a board (their pages exist)."""
    games = [get_game(key) for key in game_keys()]
    return [g for g in games if g.board and g.board_context is not None]


def parse_create(data: Any) -> tuple[CreateForm | None, dict[str, str]]:
    """Check the create form; returns the form or the errors by field (messages are translatable)."""
    errors: dict[str, str] = {}

    def get(name: str, default: str = "") -> str:
        value = data.get(name, default) if hasattr(data, "get") else default
        return value if isinstance(value, str) else default

    nickname = get("nickname").strip()
    if not nickname or len(nickname) > NICKNAME_FIELD_MAX:
        errors["nickname"] = gettext_noop("A nickname needs 1 to 24 visible characters.")
    mode = get("mode", "world_cup")
    if mode not in ("world_cup", "euro"):
        errors["mode"] = gettext_noop("Choose the World Cup or the European Championship.")
    seats = _number(get("seats", "4"))
    if seats is None or not 2 <= seats <= 8:
        errors["seats"] = gettext_noop("A room has 2 to 8 seats.")
    bots = _number(get("bots", "0"))
    if bots is None or bots < 0 or (seats is not None and bots > max(0, seats - 1)):
        errors["bots"] = gettext_noop("Bots fill the other seats: at most one fewer than the seats.")
    fee = get("visit_fee_to", "coach")
    if fee not in ("coach", "bank"):
        errors["visit_fee_to"] = gettext_noop("Visit fees go to the national coach or to the Bank.")
    timer = _number(get("decision_timer", "0"))
    if timer is None or not (timer == 0 or 10 <= timer <= 600):
        errors["decision_timer"] = gettext_noop("The decision timer is off or 10 to 600 seconds.")
    key = get("game", "magic-football")
    game = next((g for g in playable_games() if g.key == key), None)
    competition, options = "single", {}
    if key != "magic-football":
        if game is None:
            errors["game"] = gettext_noop("Choose one of the games offered here.")
        else:
            competition = get("competition", "single" if seats == 2 else "cup")
            if competition not in game.competitions:
                errors["competition"] = gettext_noop("Choose one match, a cup or a league.")
            elif seats is not None and (competition == "single") != (seats == 2):
                errors["competition"] = gettext_noop(
                    "One match is for 2 players; a cup or a league for 3 to 8."
                )
            for option in game.options:
                index = _number(get(f"opt_{option.key}", "0"))
                if index is None or index >= len(option.choices):
                    errors["options"] = gettext_noop("Choose one of the offered settings.")
                    break
                options[option.key] = option.choices[index][0]
    if errors:
        return None, errors
    assert seats is not None and bots is not None and timer is not None
    return CreateForm(nickname, mode, seats, bots, fee, timer or None, key, competition, options), {}


def _number(text: str) -> int | None:
    text = text.strip()
    return int(text) if re.fullmatch(r"\d{1,4}", text) else None
