"""The event log in words: every event kind the rules emit as a translated sentence.

Events carry ids and numbers only (``tournament/rules/events.py``); this module turns them into what a
reader understands — "Anna rolled 4 and lands on Brazil." then "Anna pays 120,000 M visit fee for Brazil
to Ben." — in the active language, with participant names in their seat colour, country and card names
from the catalog, and money in the reader's locale. A roll, the pawn's move and the landing square are
merged into one line. Private events ("You receive …") only ever reach their owner: callers pass the
events a viewer may see (``tournament.selectors``); nothing here decides visibility.

Output is HTML-safe: the translated template is escaped first, then filled with escaped values.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from django.utils import formats
from django.utils.html import conditional_escape, escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language, gettext, ngettext, pgettext_lazy

from cards.catalog import Catalog, get_catalog
from games.api import Line, MatchEvent, Ref, get_game
from tournament.rules.state import GameState

Event = dict[str, Any]


# ------------------------------------------------------------------------------------------ context


@dataclass
class LogContext:
    """What sentences need besides the event: names by seat, the catalog, matches, the reader's seat."""

    names: dict[int, str] = field(default_factory=dict)
    cat: Catalog | None = None
    reader_seat: int | None = None
    on_square: dict[int, str] = field(default_factory=dict)
    matches: dict[int, tuple[str, str]] = field(default_factory=dict)  # number -> (home, away) country
    # a room of another game (games/): its matches' sides are seats, and every match event reads as its
    # game's own line (``Game.line``); in Magic Football only matches of another format than the duel do
    competition: bool = False
    formats: dict[int, str] = field(default_factory=dict)  # number -> match format key
    coaches: dict[int, tuple[int | None, int | None]] = field(default_factory=dict)  # number -> seats

    @classmethod
    def from_state(
        cls, state: GameState, reader_seat: int | None = None, cat: Catalog | None = None
    ) -> LogContext:
        """Build a context from the game state the events belong to."""
        return cls(
            names={s: st.nickname for s, st in state.seats.items()},
            cat=cat or get_catalog(),
            reader_seat=reader_seat,
            on_square=dict(state.on_square),
            matches={
                m.number: (m.home.country if m.home else "", m.away.country if m.away else "")
                for m in state.matches
            },
            competition=state.game != "magic-football",
            formats={m.number: m.format for m in state.matches},
            coaches={
                m.number: (m.home.seat if m.home else None, m.away.seat if m.away else None)
                for m in state.matches
            },
        )

    @property
    def catalog(self) -> Catalog:
        """The catalog (loaded on first use)."""
        if self.cat is None:
            self.cat = get_catalog()
        return self.cat


@dataclass(frozen=True)
class LogLine:
    """One readable line of the log."""

    seq: int
    kind: str
    html: SafeString
    icon: str = "info"  # a lucide icon name (``.icon-<name>`` in app.css)
    tone: str = ""  # "", "money", "match", "goal", "phase", "host", "private", "turn"
    private: bool = False
    match: int | None = None
    seats: tuple[int, ...] = ()


# ------------------------------------------------------------------------------------------ formatting


def _fill(template: str, **values: Any) -> SafeString:
    """Escape a translated template, then substitute escaped (or already safe) values."""
    return mark_safe(escape(template) % {k: conditional_escape(v) for k, v in values.items()})


def money_text(amount: Any) -> str:
    """An amount in the active locale: "1,250,000 M" in English, "1.250.000 M" in Dutch."""
    try:
        value = int(amount)
    except (TypeError, ValueError):
        return str(amount)
    return f"{formats.number_format(value, force_grouping=True)}\u00a0M"


def _who(ctx: LogContext, seat: Any) -> SafeString:
    if not isinstance(seat, int) or isinstance(seat, bool):
        return mark_safe(escape(gettext("the house bot")))
    name = ctx.names.get(seat)
    if name is None:
        name = gettext("seat %(seat)s") % {"seat": seat}
    return mark_safe(f'<b class="who seat-{seat}">{escape(name)}</b>')


def reading_dutch() -> bool:
    """True when the active language is Dutch (the catalog stores names and texts in EN and NL)."""
    return (get_language() or "en").startswith("nl")


def country_name(cat: Catalog, country: Any) -> str:
    """A country's name in the active language (the id when unknown)."""
    c = cat.countries.get(country) if isinstance(country, str) else None
    if c is None:
        return str(country or "?")
    return c.name_nl if reading_dutch() else c.name_en


def player_label(cat: Catalog, card: Any) -> str:
    """ "Tiago Mourão (6★)" for a field, keeper or rival card."""
    try:
        p = cat.player(card)
    except (KeyError, TypeError):
        return str(card)
    return f"{p.name} ({p.stars}★)"


def match_card_name(cat: Catalog, card: Any) -> str:
    """A match card's name in the active language."""
    mc = cat.match_cards.get(card) if isinstance(card, str) else None
    if mc is None:
        return str(card)
    return mc.name_nl if reading_dutch() else mc.name_en


def money_card_name(cat: Catalog, card: Any) -> str:
    """A money card's name in the active language."""
    mc = cat.money_cards.get(card) if isinstance(card, str) else None
    if mc is None:
        return str(card)
    return mc.name_nl if reading_dutch() else mc.name_en


def money_card_text(cat: Catalog, card: Any) -> str:
    """A money card's printed text in the active language."""
    mc = cat.money_cards.get(card) if isinstance(card, str) else None
    if mc is None:
        return ""
    return mc.text_nl if reading_dutch() else mc.text_en


class Labels:
    """Translatable labels by key, each translated once per language: pages draw them by the hundred
    (every square of the board on every render), and a Django translation lookup is not free."""

    def __init__(self, table: dict[str, Any], default: Any = None) -> None:
        self._table = table  # key -> lazy translation (extracted by makemessages as usual)
        self._default = default  # for unknown keys (lazy too); None: the key itself
        self._done: dict[tuple[str, str], str] = {}

    def __call__(self, key: str) -> str:
        """The label of ``key`` in the active language."""
        lang_key = (get_language() or "", key)
        label = self._done.get(lang_key)
        if label is None:
            lazy = self._table.get(key, self._default)
            label = self._done[lang_key] = str(lazy) if lazy is not None else key
        return label


square_kind_label = Labels(
    {
        "start": pgettext_lazy("square", "Start"),
        "training": pgettext_lazy("square", "Training"),
        "credit": pgettext_lazy("square", "Credit"),
        "debet": pgettext_lazy("square", "Debet"),
        "field": pgettext_lazy("square", "Field player"),
        "keeper": pgettext_lazy("square", "Keeper"),
        "luck": pgettext_lazy("square", "Luck"),
        "risk": pgettext_lazy("square", "Risk"),
        "country": pgettext_lazy("square", "Country"),
        "match": pgettext_lazy("square", "Match"),
        "money": pgettext_lazy("square", "Money"),
    }
)
"""The name of a square kind."""


def square_label(ctx: LogContext, index: Any) -> str:
    """ "Brazil" for a country square holding a country, "Start", else "the Luck square"."""
    squares = ctx.catalog.board.squares
    if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < len(squares):
        return "?"
    kind = squares[index].kind.value
    if kind == "country":
        country = ctx.on_square.get(index)
        if country:
            return country_name(ctx.catalog, country)
        return gettext("an empty country square")
    if kind == "start":
        return square_kind_label(kind)
    return gettext("the %(kind)s square") % {"kind": square_kind_label(kind)}


def period_label(period: Any) -> str:
    """The name of a period of a match."""
    return {
        1: gettext("1st half"),
        2: gettext("2nd half"),
        3: gettext("extra time"),
        4: gettext("the penalty series"),
    }.get(period, str(period))


def account_label(ctx: LogContext, key: Any) -> SafeString | str:
    """ "the Bank", "the Bonus Fund" or a participant's name."""
    if key == "bank":
        return gettext("the Bank")
    if key == "bonus":
        return gettext("the Bonus Fund")
    if isinstance(key, str) and key.startswith("p") and key[1:].isdigit():
        return _who(ctx, int(key[1:]))
    return str(key)


def _side_country(ctx: LogContext, p: dict[str, Any], side_key: str = "side") -> str:
    number = p.get("match")
    home_away = ctx.matches.get(number) if isinstance(number, int) else None
    side = p.get(side_key)
    if home_away is None or side not in ("home", "away"):
        return gettext("a side") if side is None else str(side)
    return country_name(ctx.catalog, home_away[0] if side == "home" else home_away[1])


def _score(p: dict[str, Any], ctx: LogContext) -> str:
    score = p.get("score")
    if isinstance(score, list) and len(score) == 2:
        return f"{score[0]}–{score[1]}"
    return ""


def _list(items: Iterable[str]) -> str:
    return ", ".join(items)


def _names(ctx: LogContext, cards: Any) -> str:
    if not isinstance(cards, list):
        return ""
    return _list(player_label(ctx.catalog, c) for c in cards)


def _rolls(ctx: LogContext, rolls: Any) -> SafeString:
    if not isinstance(rolls, dict):
        return mark_safe("")
    parts = []
    for seat, die in sorted(rolls.items(), key=lambda kv: int(kv[0]) if str(kv[0]).isdigit() else 0):
        who = _who(ctx, int(seat)) if str(seat).isdigit() else escape(seat)
        parts.append(f"{who} {escape(die)}")
    return mark_safe(", ".join(parts))


# ------------------------------------------------------------------------------------------ sentences

Handler = Callable[[LogContext, dict[str, Any]], "tuple[SafeString, str, str] | None"]
HANDLERS: dict[str, Handler] = {}
QUIET = frozenset({"deciding", "m.modifier_ended", "m.match_over"})


def on(*kinds: str) -> Callable[[Handler], Handler]:
    """Register a sentence for event kinds."""

    def register(fn: Handler) -> Handler:
        for kind in kinds:
            HANDLERS[kind] = fn
        return fn

    return register


# --- lobby and set-up


@on("joined")
def _joined(ctx: LogContext, p: dict[str, Any]):
    if p.get("bot"):
        return _fill(gettext("%(who)s joins the room as a bot."), who=_who(ctx, p.get("seat"))), "bot", ""
    return _fill(gettext("%(who)s joins the room."), who=_who(ctx, p.get("seat"))), "user-plus", ""


@on("left")
def _left(ctx: LogContext, p: dict[str, Any]):
    return _fill(gettext("Seat %(seat)s is free again."), seat=p.get("seat")), "door-open", ""


def _timer_text(timer: Any) -> str:
    return gettext("no decision timer") if not timer else gettext("%(n)s s per decision") % {"n": timer}


@on("house_rules")
def _house_rules(ctx: LogContext, p: dict[str, Any]):
    if "competition" in p:  # a room of another game
        kinds = {"single": gettext("one match"), "cup": gettext("a cup"), "league": gettext("a league")}
        return (
            _fill(
                gettext("House rules: %(kind)s, %(seats)s seats, %(timer)s."),
                kind=kinds.get(p.get("competition"), ""),
                seats=p.get("seats"),
                timer=_timer_text(p.get("decision_timer")),
            ),
            "settings",
            "host",
        )
    mode = gettext("World Cup") if p.get("mode") == "world_cup" else gettext("European Championship")
    fee = gettext("to the national coach") if p.get("visit_fee_to") == "coach" else gettext("to the Bank")
    timer_text = _timer_text(p.get("decision_timer"))
    return (
        _fill(
            gettext("House rules: %(mode)s, %(seats)s seats, visit fees %(fee)s, %(timer)s."),
            mode=mode,
            seats=p.get("seats"),
            fee=fee,
            timer=timer_text,
        ),
        "settings",
        "host",
    )


@on("game_started")
def _game_started(ctx: LogContext, p: dict[str, Any]):
    mode = gettext("World Cup") if p.get("mode") == "world_cup" else gettext("European Championship")
    return _fill(gettext("Kick-off! The %(mode)s qualifiers begin."), mode=mode), "whistle", "phase"


@on("order_roll")
def _order_roll(ctx: LogContext, p: dict[str, Any]):
    return (
        _fill(gettext("Rolls for the starting order: %(rolls)s."), rolls=_rolls(ctx, p.get("rolls"))),
        "dices",
        "",
    )


@on("turn_order")
def _turn_order(ctx: LogContext, p: dict[str, Any]):
    order = p.get("order") if isinstance(p.get("order"), list) else []
    who = mark_safe(", ".join(str(_who(ctx, s)) for s in order))
    return _fill(gettext("Turn order: %(order)s."), order=who), "users", ""


@on("turn")
def _turn(ctx: LogContext, p: dict[str, Any]):
    return _fill(gettext("%(who)s's turn."), who=_who(ctx, p.get("seat"))), "arrow-right", "turn"


# --- the pawn and the squares


@on("rolled")
def _rolled(ctx: LogContext, p: dict[str, Any]):
    return (
        _fill(gettext("%(who)s rolled %(die)s."), who=_who(ctx, p.get("seat")), die=p.get("die")),
        "dices",
        "",
    )


@on("second_roll")
def _second_roll(ctx: LogContext, p: dict[str, Any]):
    return (
        _fill(gettext("%(who)s rolls again: %(die)s."), who=_who(ctx, p.get("seat")), die=p.get("die")),
        "dices",
        "",
    )


@on("pawn_moved")
def _pawn_moved(ctx: LogContext, p: dict[str, Any]):
    if p.get("seat") is None:
        return _fill(gettext("The pawn goes back to Start.")), "footprints", ""
    text = (
        gettext("%(who)s jumps to %(square)s.")
        if p.get("jump")
        else gettext("%(who)s moves on to %(square)s.")
    )
    return _fill(text, who=_who(ctx, p.get("seat")), square=square_label(ctx, p.get("dst"))), "footprints", ""


@on("landed")
def _landed(ctx: LogContext, p: dict[str, Any]):
    return (
        _fill(
            gettext("%(who)s lands on %(square)s."),
            who=_who(ctx, p.get("seat")),
            square=square_label(ctx, p.get("square")),
        ),
        "footprints",
        "",
    )


@on("bonus_fund_empty")
def _bonus_empty(ctx: LogContext, p: dict[str, Any]):
    return _fill(gettext("The Bonus Fund is empty: nothing to take.")), "piggy-bank", ""


@on("card_turned_up")
def _turned_up(ctx: LogContext, p: dict[str, Any]):
    if p.get("box") == "box7":
        text = gettext("A new keeper is turned face up: %(card)s.")
    else:
        text = gettext("A new field player is turned face up: %(card)s.")
    return _fill(text, card=player_label(ctx.catalog, p.get("card"))), "sparkles", ""


@on("open_pile_reshuffled")
def _reshuffled(ctx: LogContext, p: dict[str, Any]):
    return (
        _fill(
            gettext("The open pile is shuffled into a new blind stack (%(count)s cards)."),
            count=p.get("count"),
        ),
        "rotate-ccw",
        "",
    )


@on("blind_stack_empty", "field_stack_empty")
def _stack_empty(ctx: LogContext, p: dict[str, Any]):
    return _fill(gettext("No player cards are left in that stack.")), "info", ""


@on("cannot_afford")
def _cannot_afford(ctx: LogContext, p: dict[str, Any]):
    if p.get("country"):
        thing = country_name(ctx.catalog, p.get("country"))
    else:
        thing = player_label(ctx.catalog, p.get("card"))
    return (
        _fill(
            gettext("%(who)s cannot afford %(thing)s (%(amount)s)."),
            who=_who(ctx, p.get("seat")),
            thing=thing,
            amount=money_text(p.get("amount")),
        ),
        "circle-x",
        "",
    )


@on("card_bought")
def _bought(ctx: LogContext, p: dict[str, Any]):
    return (
        _fill(
            gettext("%(who)s buys %(card)s for %(price)s."),
            who=_who(ctx, p.get("seat")),
            card=player_label(ctx.catalog, p.get("card")),
            price=money_text(p.get("price")),
        ),
        "shirt",
        "money",
    )


@on("declined")
def _declined(ctx: LogContext, p: dict[str, Any]):
    if p.get("country"):
        return (
            _fill(
                gettext("%(who)s does not sign a contract with %(country)s."),
                who=_who(ctx, p.get("seat")),
                country=country_name(ctx.catalog, p.get("country")),
            ),
            "x",
            "",
        )
    return (
        _fill(
            gettext("%(who)s does not buy %(card)s."),
            who=_who(ctx, p.get("seat")),
            card=player_label(ctx.catalog, p.get("card")),
        ),
        "x",
        "",
    )


@on("blind_card_taken")
def _blind_taken(ctx: LogContext, p: dict[str, Any]):
    return _fill(gettext("%(who)s takes a blind field player."), who=_who(ctx, p.get("seat"))), "shirt", ""


@on("card_received")
def _card_received(ctx: LogContext, p: dict[str, Any]):
    card = p.get("card")
    if isinstance(card, str) and card.startswith("M"):
        return (
            _fill(gettext("You receive match card “%(card)s”."), card=match_card_name(ctx.catalog, card)),
            "sparkles",
            "private",
        )
    return _fill(gettext("You receive %(card)s."), card=player_label(ctx.catalog, card)), "shirt", "private"


@on("nothing_happens")
def _nothing(ctx: LogContext, p: dict[str, Any]):
    if p.get("reason") == "trainer_match_square":
        text = gettext("%(who)s is not a national coach yet: no match card.")
    else:
        text = gettext("Nothing happens for %(who)s.")
    return _fill(text, who=_who(ctx, p.get("seat"))), "info", ""


@on("money_card")
def _money_card(ctx: LogContext, p: dict[str, Any]):
    return (
        _fill(
            gettext("%(who)s draws money card “%(name)s”: %(text)s"),
            who=_who(ctx, p.get("seat")),
            name=money_card_name(ctx.catalog, p.get("card")),
            text=money_card_text(ctx.catalog, p.get("card")),
        ),
        "coins",
        "",
    )


@on("money_stack_empty")
def _money_empty(ctx: LogContext, p: dict[str, Any]):
    return _fill(gettext("There are no money cards left.")), "coins", ""


@on("chain_stopped")
def _chain_stopped(ctx: LogContext, p: dict[str, Any]):
    return _fill(gettext("The chain of money cards stops here.")), "info", ""


@on("country_qualified")
def _qualified(ctx: LogContext, p: dict[str, Any]):
    country = p.get("country")
    c = ctx.catalog.countries.get(country) if isinstance(country, str) else None
    klass = c.klass if c else "?"
    if p.get("cup"):
        text = gettext("%(country)s, the last Cup winner, is qualified from the start (class %(klass)s).")
    else:
        text = gettext("%(country)s qualifies (class %(klass)s).")
    return _fill(text, country=country_name(ctx.catalog, country), klass=klass), "flag", ""


@on("no_country_left")
def _no_country(ctx: LogContext, p: dict[str, Any]):
    return _fill(gettext("No country cards are left to qualify.")), "flag", ""


@on("own_country")
def _own_country(ctx: LogContext, p: dict[str, Any]):
    return (
        _fill(
            gettext("%(who)s visits %(country)s, the own country: a money card."),
            who=_who(ctx, p.get("seat")),
            country=country_name(ctx.catalog, p.get("country")),
        ),
        "flag",
        "",
    )


@on("already_coach")
def _already_coach(ctx: LogContext, p: dict[str, Any]):
    return (
        _fill(
            gettext("%(who)s is already a national coach and takes a money card instead of %(country)s."),
            who=_who(ctx, p.get("seat")),
            country=country_name(ctx.catalog, p.get("country")),
        ),
        "flag",
        "",
    )


@on("became_coach")
def _became_coach(ctx: LogContext, p: dict[str, Any]):
    return (
        _fill(
            gettext("%(who)s becomes national coach of %(country)s! The Official deals %(n)s players."),
            who=_who(ctx, p.get("seat")),
            country=country_name(ctx.catalog, p.get("country")),
            n=p.get("dealt"),
        ),
        "crown",
        "phase",
    )


@on("cards_dealt")
def _cards_dealt(ctx: LogContext, p: dict[str, Any]):
    cards = p.get("cards") if isinstance(p.get("cards"), list) else []
    if cards and all(isinstance(c, str) and c.startswith("M") for c in cards):
        names = _list(match_card_name(ctx.catalog, c) for c in cards)
        return _fill(gettext("You are dealt match cards: %(cards)s."), cards=names), "sparkles", "private"
    return _fill(gettext("You are dealt: %(cards)s."), cards=_names(ctx, cards)), "shirt", "private"


@on("selection_kept")
def _selection_kept(ctx: LogContext, p: dict[str, Any]):
    n = p.get("returned") if isinstance(p.get("returned"), int) else 0
    return (
        _fill(
            ngettext(
                "%(who)s picks the team and gives %(n)s card back.",
                "%(who)s picks the team and gives %(n)s cards back.",
                n,
            ),
            who=_who(ctx, p.get("seat")),
            n=n,
        ),
        "users",
        "",
    )


@on("cards_returned")
def _cards_returned(ctx: LogContext, p: dict[str, Any]):
    return (
        _fill(gettext("You gave back: %(cards)s."), cards=_names(ctx, p.get("cards")) or "–"),
        "rotate-ccw",
        "private",
    )


@on("card_returned")
def _card_returned(ctx: LogContext, p: dict[str, Any]):
    return (
        _fill(
            gettext("%(who)s gives %(card)s back to the Official."),
            who=_who(ctx, p.get("seat")),
            card=player_label(ctx.catalog, p.get("card")),
        ),
        "rotate-ccw",
        "",
    )


@on("match_card_taken")
def _mc_taken(ctx: LogContext, p: dict[str, Any]):
    return _fill(gettext("%(who)s takes a match card."), who=_who(ctx, p.get("seat"))), "sparkles", ""


@on("match_card_discarded")
def _mc_discarded(ctx: LogContext, p: dict[str, Any]):
    return (
        _fill(
            gettext("%(who)s discards match card “%(card)s”."),
            who=_who(ctx, p.get("seat")),
            card=match_card_name(ctx.catalog, p.get("card")),
        ),
        "x",
        "",
    )


@on("match_stack_empty")
def _mc_empty(ctx: LogContext, p: dict[str, Any]):
    return _fill(gettext("There are no match cards left.")), "sparkles", ""


@on("match_stack_reshuffled")
def _mc_reshuffled(ctx: LogContext, p: dict[str, Any]):
    return (
        _fill(
            gettext("The used match cards are shuffled into a new stack (%(count)s cards)."),
            count=p.get("count"),
        ),
        "rotate-ccw",
        "",
    )


# --- money


@on("transfer")
def _transfer(ctx: LogContext, p: dict[str, Any]):
    reason = str(p.get("reason", ""))
    amount = money_text(p.get("amount"))
    src = account_label(ctx, p.get("src"))
    dst = account_label(ctx, p.get("dst"))
    country = country_name(ctx.catalog, p.get("country")) if p.get("country") else ""
    if reason == "purchase":
        return None  # "card_bought" says it, with the price
    if reason == "starting_capital":
        text = gettext("%(dst)s receives the starting capital of %(amount)s.")
    elif reason == "bonus_fund":
        text = gettext("%(dst)s lands exactly on Start and takes the Bonus Fund: %(amount)s!")
    elif reason == "training":
        text = gettext("%(src)s pays %(amount)s into the Bonus Fund (training).")
    elif reason == "credit":
        text = gettext("%(dst)s receives %(amount)s from the Bank (credit).")
    elif reason == "debet":
        text = gettext("%(src)s pays %(amount)s into the Bonus Fund (debet).")
    elif reason == "risk":
        text = gettext("%(src)s pays %(amount)s to the Bank for a blind field player (risk).")
    elif reason == "visit_fee":
        text = gettext("%(src)s pays %(amount)s visit fee for %(country)s to %(dst)s.")
    elif reason == "entry_fee":
        text = gettext("%(src)s pays the entry fee of %(amount)s for %(country)s.")
    elif reason == "compensation":
        text = gettext("%(dst)s receives %(amount)s compensation from the Bank.")
    elif reason == "host_transfer":
        text = gettext("The host moves %(amount)s from %(src)s to %(dst)s: “%(memo)s”.")
    elif reason == "bank_closes":
        text = gettext("The Bank closes: %(amount)s from %(src)s goes to the Bank.")
    elif reason == "settlement":
        text = gettext("Settlement: %(src)s hands %(amount)s to the Bank.")
    elif reason == "rewind":
        text = gettext("Rewind: %(amount)s goes back from %(src)s to %(dst)s.")
    elif reason.startswith("money_card:"):
        card = money_card_name(ctx.catalog, reason.split(":", 1)[1])
        return (
            _fill(
                gettext("%(src)s pays %(amount)s to %(dst)s (money card “%(card)s”)."),
                src=src,
                dst=dst,
                amount=amount,
                card=card,
            ),
            "coins",
            "money",
        )
    else:
        text = gettext("%(src)s pays %(amount)s to %(dst)s.")
    tone = "host" if reason in ("host_transfer", "rewind") else "money"
    icon = "landmark" if reason in ("host_transfer", "bank_closes", "settlement", "rewind") else "coins"
    if reason == "visit_fee":
        icon = "hand-coins"
    if reason == "bonus_fund":
        icon = "piggy-bank"
    return (
        _fill(text, src=src, dst=dst, amount=amount, country=country, memo=p.get("memo", "")),
        icon,
        tone,
    )


@on("payment_waived")
def _waived(ctx: LogContext, p: dict[str, Any]):
    return (
        _fill(
            gettext("%(who)s cannot pay it all: %(amount)s is waived."),
            who=_who(ctx, p.get("seat")),
            amount=money_text(p.get("amount")),
        ),
        "hand-coins",
        "money",
    )


@on("bc_fired")
def _fired(ctx: LogContext, p: dict[str, Any]):
    return (
        _fill(
            gettext(
                "%(who)s cannot pay and is fired as national coach of %(country)s: players and match cards "
                "go back to the Official, %(amount)s compensation."
            ),
            who=_who(ctx, p.get("seat")),
            country=country_name(ctx.catalog, p.get("country")),
            amount=money_text(p.get("compensation")),
        ),
        "circle-x",
        "phase",
    )


# --- phases


def _phase_name(phase: Any) -> str:
    return {
        "phase1": gettext("the qualifiers"),
        "phase2": gettext("the road to the finals"),
        "phase3": gettext("the finals"),
    }.get(phase, str(phase))


@on("phase_over")
def _phase_over(ctx: LogContext, p: dict[str, Any]):
    return _fill(gettext("End of %(phase)s."), phase=_phase_name(p.get("phase"))), "flag", "phase"


@on("phase_started")
def _phase_started(ctx: LogContext, p: dict[str, Any]):
    return (
        _fill(gettext("Now: %(phase)s!"), phase=_phase_name(p.get("phase"))),
        "flag-triangle-right",
        "phase",
    )


@on("country_eliminated")
def _eliminated(ctx: LogContext, p: dict[str, Any]):
    return (
        _fill(
            gettext("%(country)s (class 3, no coach) is eliminated."),
            country=country_name(ctx.catalog, p.get("country")),
        ),
        "circle-x",
        "",
    )


@on("marker_placed")
def _marker(ctx: LogContext, p: dict[str, Any]):
    return _fill(gettext("Marker %(n)s is placed on the board."), n=p.get("marker")), "flag", ""


@on("participant_out")
def _out(ctx: LogContext, p: dict[str, Any]):
    return (
        _fill(
            gettext("%(who)s has no country when the finals begin and is out."), who=_who(ctx, p.get("seat"))
        ),
        "log-out",
        "phase",
    )


@on("settled")
def _settled(ctx: LogContext, p: dict[str, Any]):
    n = p.get("cards") if isinstance(p.get("cards"), int) else 0
    return (
        _fill(
            ngettext(
                "%(who)s turns %(money)s into %(n)s extra field player.",
                "%(who)s turns %(money)s into %(n)s extra field players.",
                n,
            ),
            who=_who(ctx, p.get("seat")),
            money=money_text(p.get("money")),
            n=n,
        ),
        "shirt",
        "",
    )


@on("bank_closed")
def _bank_closed(ctx: LogContext, p: dict[str, Any]):
    return _fill(gettext("The Bank is closed: from now on only the matches count.")), "landmark", "phase"


@on("finals_placed")
def _finals_placed(ctx: LogContext, p: dict[str, Any]):
    country = country_name(ctx.catalog, p.get("country"))
    if p.get("coach") is None:
        return (
            _fill(gettext("Finals box %(box)s: %(country)s (rival)."), box=p.get("box"), country=country),
            "trophy",
            "",
        )
    return (
        _fill(
            gettext("Finals box %(box)s: %(country)s, coached by %(who)s."),
            box=p.get("box"),
            country=country,
            who=_who(ctx, p.get("coach")),
        ),
        "trophy",
        "",
    )


# --- matches (tournament side)


def _match_kind(kind: Any, slot: Any = "") -> str:
    if kind == "challenge":
        return gettext("Challenge")
    if kind == "qf":
        return gettext("Quarter-final %(slot)s") % {"slot": slot or ""}
    if kind == "sf":
        return gettext("Semi-final")
    if kind == "f":
        return gettext("Final")
    return str(kind)


def _coach(ctx: LogContext, seat: Any, role: Any) -> SafeString:
    if seat is None or role == "bot":
        return mark_safe(escape(gettext("the house bot")))
    if role == "ac":
        return _fill(gettext("%(who)s as assistant coach"), who=_who(ctx, seat))
    return _who(ctx, seat)


@on("challenge")
def _challenge(ctx: LogContext, p: dict[str, Any]):
    ac = p.get("ac")
    if ac is None:
        text = gettext("%(who)s (%(country)s) must challenge rival %(rival)s; the house bot plays the rival.")
    else:
        text = gettext("%(who)s (%(country)s) must challenge rival %(rival)s; %(ac)s coaches the rival.")
    return (
        _fill(
            text,
            who=_who(ctx, p.get("seat")),
            country=country_name(ctx.catalog, p.get("country")),
            rival=country_name(ctx.catalog, p.get("rival")),
            ac=_who(ctx, ac) if ac is not None else "",
        ),
        "swords",
        "match",
    )


@on("ac_roll")
def _ac_roll(ctx: LogContext, p: dict[str, Any]):
    return (
        _fill(gettext("Roll for the assistant coach: %(rolls)s."), rolls=_rolls(ctx, p.get("rolls"))),
        "dices",
        "match",
    )


@on("ac_cards_dealt")
def _ac_cards(ctx: LogContext, p: dict[str, Any]):
    n = p.get("count") if isinstance(p.get("count"), int) else 0
    return (
        _fill(
            ngettext(
                "The Official gives the rival's coach %(n)s match card.",
                "The Official gives the rival's coach %(n)s match cards.",
                n,
            ),
            n=n,
        ),
        "sparkles",
        "match",
    )


def round_label(key: Any) -> str:
    """A competition round's name (``games.competition.round_name``'s keys) in the reader's language."""
    names = {
        "match": gettext("The match"),
        "final": gettext("The final"),
        "semi_final": gettext("The semi-finals"),
        "quarter_final": gettext("The quarter-finals"),
    }
    if key in names:
        return names[key]
    number = str(key).removeprefix("round_")
    return gettext("Round %(n)s") % {"n": number}


def _seats(ctx: LogContext, seats: Any) -> SafeString:
    items = seats if isinstance(seats, list) else []
    return mark_safe(", ".join(_who(ctx, s) for s in items))


@on("competition_started")
def _competition_started(ctx: LogContext, p: dict[str, Any]):
    rounds = p.get("rounds") if isinstance(p.get("rounds"), int) else 0
    kind = p.get("competition")
    if kind == "cup":
        text = ngettext(
            "The draw is made: a knock-out cup of %(n)s round. Draw: %(draw)s.",
            "The draw is made: a knock-out cup of %(n)s rounds. Draw: %(draw)s.",
            rounds,
        )
    elif kind == "league":
        text = ngettext(
            "The draw is made: a league, everyone plays everyone once in %(n)s round. Draw: %(draw)s.",
            "The draw is made: a league, everyone plays everyone once in %(n)s rounds. Draw: %(draw)s.",
            rounds,
        )
    else:
        text = gettext("One match: %(draw)s.")
    return _fill(text, n=rounds, draw=_seats(ctx, p.get("draw"))), "trophy", "phase"


@on("round_started")
def _round_started(ctx: LogContext, p: dict[str, Any]):
    pairs = p.get("matches") if isinstance(p.get("matches"), list) else []
    games = mark_safe(
        ", ".join(
            _fill(gettext("%(home)s v %(away)s"), home=_who(ctx, m[0]), away=_who(ctx, m[1]))
            for m in pairs
            if isinstance(m, list) and len(m) == 2
        )
    )
    text = _fill(gettext("%(round)s: %(matches)s."), round=round_label(p.get("name")), matches=games)
    if p.get("byes"):
        text = _fill(
            gettext("%(text)s Through without playing: %(who)s."), text=text, who=_seats(ctx, p.get("byes"))
        )
    if p.get("resting"):
        text = _fill(gettext("%(text)s Resting: %(who)s."), text=text, who=_seats(ctx, p.get("resting")))
    return text, "swords", "phase"


@on("competition_won")
def _competition_won(ctx: LogContext, p: dict[str, Any]):
    texts = {
        "cup": gettext("%(who)s wins the cup!"),
        "league": gettext("%(who)s wins the league!"),
    }
    text = texts.get(p.get("competition"), gettext("%(who)s wins the match!"))
    return _fill(text, who=_who(ctx, p.get("seat"))), "trophy", "goal"


@on("competition_drawn")
def _competition_drawn(ctx: LogContext, p: dict[str, Any]):
    return escape(gettext("The match ends level: nobody wins.")), "whistle", "phase"


def absence_text(absence: dict[str, Any]) -> str:
    """Why a player may not play this match (ruling CP7: suspended or injured, for how many matches), for the
    log and the team sheet."""
    more = int(absence.get("matches", 1)) - 1
    reason = absence.get("reason")
    if reason == "suspended":
        this = gettext("suspended for this match")
        longer = ngettext(
            "suspended for this match and %(n)s more match",
            "suspended for this match and %(n)s more matches",
            more,
        )
    elif reason == "injured":
        this = gettext("injured for this match")
        longer = ngettext(
            "injured for this match and %(n)s more match",
            "injured for this match and %(n)s more matches",
            more,
        )
    else:
        return gettext("not available")
    return longer % {"n": more} if more > 0 else this


def _absent_text(ctx: LogContext, p: dict[str, Any]) -> SafeString:
    """Who may not play a competition match and why (CP7): "Anna: no. 7, suspended for this match; …"."""
    absent = p.get("absent") if isinstance(p.get("absent"), dict) else {}
    return mark_safe(
        "; ".join(
            _fill(
                gettext("%(name)s: no. %(number)s, %(why)s"),
                name=_who(ctx, p.get(f"{side}_coach")),
                number=a.get("player"),
                why=absence_text(a),
            )
            for side in ("home", "away")
            for a in absent.get(side) or []
            if isinstance(a, dict)
        )
    )


@on("match_started")
def _match_started(ctx: LogContext, p: dict[str, Any]):
    if p.get("home_role") == "seat":  # a competition room: seat against seat, no countries
        text = _fill(
            gettext("%(round)s: %(home)s v %(away)s."),
            round=round_label(p.get("round_name") or p.get("match_kind")),
            home=_who(ctx, p.get("home_coach")),
            away=_who(ctx, p.get("away_coach")),
        )
        absent = _absent_text(ctx, p)
        if absent:
            text = _fill(gettext("%(text)s Not available: %(who)s."), text=text, who=absent)
        return text, "swords", "match"
    return (
        _fill(
            gettext("%(kind)s: %(home)s (%(hc)s) v %(away)s (%(ac)s)."),
            kind=_match_kind(p.get("match_kind"), p.get("slot")),
            home=country_name(ctx.catalog, p.get("home")),
            away=country_name(ctx.catalog, p.get("away")),
            hc=_coach(ctx, p.get("home_coach"), p.get("home_role")),
            ac=_coach(ctx, p.get("away_coach"), p.get("away_role")),
        ),
        "swords",
        "match",
    )


def _decided_text(p: dict[str, Any]) -> str:
    how = p.get("decided_by")
    pens = p.get("penalties")
    if how == "extra_time":
        return gettext(" after extra time")
    if how == "penalties" and isinstance(pens, list) and len(pens) == 2:
        return gettext(" after penalties (%(a)s–%(b)s)") % {"a": pens[0], "b": pens[1]}
    if how == "die":
        return gettext(" on the roll of the die")
    return ""


@on("match_over")
def _match_over(ctx: LogContext, p: dict[str, Any]):
    winner = p.get("winner")
    if "winner_seat" in p:  # a competition room: seat against seat
        home, away = _who(ctx, p.get("home_coach")), _who(ctx, p.get("away_coach"))
        if p.get("winner_seat") is None:
            text = _fill(
                gettext("Full time: %(home)s %(score)s %(away)s, a draw."),
                home=home,
                away=away,
                score=_score(p, ctx),
            )
        else:
            text = _fill(
                gettext("Full time: %(home)s %(score)s %(away)s. %(winner)s wins%(how)s."),
                home=home,
                away=away,
                score=_score(p, ctx),
                winner=_who(ctx, p.get("winner_seat")),
                how=_decided_text(p),
            )
        return text, "whistle", "match"
    return (
        _fill(
            gettext("Full time: %(home)s %(score)s %(away)s. %(winner)s wins%(how)s."),
            home=country_name(ctx.catalog, p.get("home")),
            away=country_name(ctx.catalog, p.get("away")),
            score=_score(p, ctx),
            winner=country_name(ctx.catalog, winner) if winner else "?",
            how=_decided_text(p),
        ),
        "whistle",
        "match",
    )


@on("ac_kept_cards")
def _ac_kept(ctx: LogContext, p: dict[str, Any]):
    n = p.get("count") if isinstance(p.get("count"), int) else 0
    return (
        _fill(
            ngettext(
                "%(who)s keeps %(n)s unused match card.",
                "%(who)s keeps %(n)s unused match cards.",
                n,
            ),
            who=_who(ctx, p.get("seat")),
            n=n,
        ),
        "sparkles",
        "match",
    )


@on("cards_received")
def _cards_received(ctx: LogContext, p: dict[str, Any]):
    cards = p.get("cards") if isinstance(p.get("cards"), list) else []
    names = _list(match_card_name(ctx.catalog, c) for c in cards)
    return _fill(gettext("You keep match cards: %(cards)s."), cards=names), "sparkles", "private"


@on("rival_eliminated")
def _rival_out(ctx: LogContext, p: dict[str, Any]):
    return (
        _fill(
            gettext("%(who)s beats rival %(country)s: %(country)s is out."),
            who=_who(ctx, p.get("by")),
            country=country_name(ctx.catalog, p.get("country")),
        ),
        "trophy",
        "match",
    )


@on("bc_resigned")
def _resigned(ctx: LogContext, p: dict[str, Any]):
    return (
        _fill(
            gettext("%(who)s loses and resigns: %(country)s is out, and %(who)s is a trainer again."),
            who=_who(ctx, p.get("seat")),
            country=country_name(ctx.catalog, p.get("country")),
        ),
        "log-out",
        "match",
    )


@on("knocked_out")
def _knocked_out(ctx: LogContext, p: dict[str, Any]):
    return (
        _fill(gettext("%(country)s is knocked out."), country=country_name(ctx.catalog, p.get("country"))),
        "circle-x",
        "match",
    )


@on("cup_won")
def _cup_won(ctx: LogContext, p: dict[str, Any]):
    coach = p.get("coach")
    country = country_name(ctx.catalog, p.get("country"))
    if coach is None:
        return _fill(gettext("%(country)s wins the Cup!"), country=country), "trophy", "goal"
    return (
        _fill(gettext("%(country)s wins the Cup! Coach: %(who)s."), country=country, who=_who(ctx, coach)),
        "trophy",
        "goal",
    )


# --- the duel (m.* events from the match format, forwarded with the match number)


@on("m.lineup_set")
def _lineup_set(ctx: LogContext, p: dict[str, Any]):
    return (
        _fill(gettext("Your line-up for the %(period)s is set."), period=period_label(p.get("period"))),
        "users",
        "private",
    )


@on("m.kickoff")
def _kickoff(ctx: LogContext, p: dict[str, Any]):
    return _fill(gettext("Kick-off: %(period)s."), period=period_label(p.get("period"))), "whistle", "match"


@on("m.card_revealed")
def _revealed(ctx: LogContext, p: dict[str, Any]):
    if p.get("keeper"):
        text = gettext("%(side)s's keeper %(card)s comes into action.")
    else:
        text = gettext("%(side)s brings in %(card)s.")
    return (
        _fill(text, side=_side_country(ctx, p), card=player_label(ctx.catalog, p.get("card"))),
        "shirt",
        "match",
    )


@on("m.match_card_played")
def _mc_played(ctx: LogContext, p: dict[str, Any]):
    target = p.get("target") if isinstance(p.get("target"), dict) else {}
    card = match_card_name(ctx.catalog, p.get("card"))
    if "stars" in p and target.get("card"):
        return (
            _fill(
                gettext("%(side)s plays “%(card)s” on %(target)s: now %(stars)s★."),
                side=_side_country(ctx, p),
                card=card,
                target=ctx.catalog.player(target["card"]).name
                if _known_player(ctx, target.get("card"))
                else "?",
                stars=p.get("stars"),
            ),
            "sparkles",
            "match",
        )
    return (
        _fill(gettext("%(side)s plays “%(card)s”."), side=_side_country(ctx, p), card=card),
        "sparkles",
        "match",
    )


def _known_player(ctx: LogContext, card: Any) -> bool:
    try:
        ctx.catalog.player(card)
    except (KeyError, TypeError):
        return False
    return True


@on("m.penalty_moment")
def _penalty(ctx: LogContext, p: dict[str, Any]):
    return (
        _fill(
            gettext("Penalty for %(side)s! %(card)s (%(stars)s★) against keeper %(keeper)s (%(ks)s★)."),
            side=_side_country(ctx, p),
            card=_player_name(ctx, p.get("card")),
            stars=p.get("stars"),
            keeper=_player_name(ctx, p.get("keeper")),
            ks=p.get("keeper_stars"),
        ),
        "goal",
        "match",
    )


@on("m.corner_moment")
def _corner(ctx: LogContext, p: dict[str, Any]):
    return (
        _fill(
            gettext("Corner for %(side)s! %(card)s (%(stars)s★) heads against %(against)s (%(as)s★)."),
            side=_side_country(ctx, p),
            card=_player_name(ctx, p.get("card")),
            stars=p.get("stars"),
            against=_player_name(ctx, p.get("against")),
            **{"as": p.get("against_stars")},
        ),
        "flag-triangle-right",
        "match",
    )


def _player_name(ctx: LogContext, card: Any) -> str:
    return ctx.catalog.player(card).name if _known_player(ctx, card) else "?"


@on("m.card_cancelled")
def _cancelled(ctx: LogContext, p: dict[str, Any]):
    return (
        _fill(
            gettext("“%(card)s” is cancelled by “%(by)s”."),
            card=match_card_name(ctx.catalog, p.get("card")),
            by=match_card_name(ctx.catalog, p.get("by")),
        ),
        "circle-x",
        "match",
    )


@on("m.swap")
def _swap(ctx: LogContext, p: dict[str, Any]):
    if p.get("free"):
        text = gettext("%(side)s swaps %(out)s for the reserve %(in)s (free swap).")
    else:
        text = gettext("%(side)s swaps %(out)s for the reserve %(in)s; %(left)s swaps left.")
    return (
        _fill(
            text,
            side=_side_country(ctx, p),
            out=_player_name(ctx, p.get("out")),
            left=p.get("swaps_left"),
            **{"in": player_label(ctx.catalog, p.get("in"))},
        ),
        "rotate-ccw",
        "match",
    )


@on("m.goal")
def _goal(ctx: LogContext, p: dict[str, Any]):
    return (
        _fill(
            gettext(
                "Goal for %(side)s? %(card)s scores (%(stars)s★ against %(against)s★); "
                "it may still be disallowed."
            ),
            side=_side_country(ctx, p),
            card=_player_name(ctx, p.get("card")),
            stars=p.get("stars"),
            against=p.get("against_stars"),
        ),
        "goal",
        "goal",
    )


@on("m.goal_confirmed")
def _goal_confirmed(ctx: LogContext, p: dict[str, Any]):
    return (
        _fill(gettext("GOAL! %(side)s scores: %(score)s."), side=_side_country(ctx, p), score=_score(p, ctx)),
        "goal",
        "goal",
    )


@on("m.goal_disallowed")
def _goal_disallowed(ctx: LogContext, p: dict[str, Any]):
    return (
        _fill(gettext("The goal of %(side)s is disallowed!"), side=_side_country(ctx, p)),
        "circle-x",
        "match",
    )


@on("m.penalty_saved")
def _saved(ctx: LogContext, p: dict[str, Any]):
    return _fill(gettext("The penalty of %(side)s is saved."), side=_side_country(ctx, p)), "hand", "match"


@on("m.corner_cleared")
def _cleared(ctx: LogContext, p: dict[str, Any]):
    return _fill(gettext("The corner of %(side)s is cleared."), side=_side_country(ctx, p)), "shield", "match"


@on("m.half_over")
def _half_over(ctx: LogContext, p: dict[str, Any]):
    reason = p.get("reason")
    if reason == "both_keepers":
        why = gettext("both keepers came into action")
    elif reason == "no_cards":
        why = gettext("no cards left to bring in")
    elif reason == "disallowed_no_field_player":
        why = gettext("no field player left after the disallowed goal")
    else:
        why = ""
    if why:
        return (
            _fill(
                gettext("End of the %(period)s (%(why)s): %(score)s."),
                period=period_label(p.get("period")),
                why=why,
                score=_score(p, ctx),
            ),
            "whistle",
            "match",
        )
    return (
        _fill(
            gettext("End of the %(period)s: %(score)s."),
            period=period_label(p.get("period")),
            score=_score(p, ctx),
        ),
        "whistle",
        "match",
    )


@on("m.extra_time")
def _extra_time(ctx: LogContext, p: dict[str, Any]):
    return (
        _fill(gettext("Level: extra time! Each side gets extra match cards; the first goal wins.")),
        "timer",
        "match",
    )


@on("m.cards_dealt")
def _et_cards(ctx: LogContext, p: dict[str, Any]):
    cards = p.get("cards") if isinstance(p.get("cards"), list) else []
    names = _list(match_card_name(ctx.catalog, c) for c in cards)
    return _fill(gettext("Your extra-time match cards: %(cards)s."), cards=names), "sparkles", "private"


@on("m.shootout_start")
def _shootout(ctx: LogContext, p: dict[str, Any]):
    return _fill(gettext("Still level: penalty series!")), "goal", "match"


@on("m.shootout_kick")
def _kick(ctx: LogContext, p: dict[str, Any]):
    pens = p.get("score") if isinstance(p.get("score"), list) else []
    score = f"{pens[0]}–{pens[1]}" if len(pens) == 2 else ""
    if p.get("scored"):
        text = gettext("Penalty %(round)s, %(side)s: %(card)s (%(stars)s★) scores. %(score)s")
    else:
        text = gettext("Penalty %(round)s, %(side)s: %(card)s (%(stars)s★) is stopped. %(score)s")
    return (
        _fill(
            text,
            round=p.get("round"),
            side=_side_country(ctx, p),
            card=_player_name(ctx, p.get("card")),
            stars=p.get("stars"),
            score=score,
        ),
        "goal",
        "match",
    )


@on("m.die_roll")
def _die_roll(ctx: LogContext, p: dict[str, Any]):
    home_away = ctx.matches.get(p.get("match")) if isinstance(p.get("match"), int) else None
    home = country_name(ctx.catalog, home_away[0]) if home_away else gettext("home")
    away = country_name(ctx.catalog, home_away[1]) if home_away else gettext("away")
    return (
        _fill(
            gettext("The die decides: %(home)s %(h)s, %(away)s %(a)s."),
            home=home,
            away=away,
            h=p.get("home"),
            a=p.get("away"),
        ),
        "dices",
        "match",
    )


# --- the host and the clock


@on("paused")
def _paused(ctx: LogContext, p: dict[str, Any]):
    return _fill(gettext("The host pauses the game.")), "pause", "host"


@on("resumed")
def _resumed(ctx: LogContext, p: dict[str, Any]):
    return _fill(gettext("The host resumes the game.")), "play", "host"


@on("game_ended_by_host")
def _ended(ctx: LogContext, p: dict[str, Any]):
    return _fill(gettext("The host ends the game.")), "circle-x", "host"


@on("decided_by_default")
def _by_default(ctx: LogContext, p: dict[str, Any]):
    if p.get("by") == "system":
        text = gettext("Time is up: the default decision is taken for %(who)s.")
    else:
        text = gettext("The host takes the default decision for %(who)s.")
    return _fill(text, who=_who(ctx, p.get("seat"))), "timer", "host"


@on("seat_to_bot")
def _to_bot(ctx: LogContext, p: dict[str, Any]):
    return _fill(gettext("A bot now decides for %(who)s."), who=_who(ctx, p.get("seat"))), "bot", "host"


@on("seat_to_human")
def _to_human(ctx: LogContext, p: dict[str, Any]):
    return _fill(gettext("%(who)s decides again."), who=_who(ctx, p.get("seat"))), "user", "host"


@on("rewound")
def _rewound(ctx: LogContext, p: dict[str, Any]):
    undone = p.get("undone") if isinstance(p.get("undone"), int) else 0
    text = ngettext(
        "The host turns the game back by %(n)s action to correct a mistake; the blind piles are reshuffled.",
        "The host turns the game back by %(n)s actions to correct a mistake; the blind piles are reshuffled.",
        undone,
    )
    return _fill(text, n=undone), "history", "host"


# ------------------------------------------------------------------------------------------ rendering

_TOKEN = re.compile(r"<[^>]*>|&[#\w]+;|.", re.S)


def sentence(html: SafeString) -> SafeString:
    """A log line with its first letter in upper case.

    Many sentences begin with a value that reads in lower case mid-sentence: "the Bank pays …" ("de Bank
    betaalt …"), "the house bot keeps …", "a side brings in …". The first letter of the line's text (past
    tags, entities and opening quotes) is put in upper case, except in a participant's nickname, which is
    written as its owner typed it.
    """
    inside_who = 0
    for token in _TOKEN.finditer(html):
        text = token.group()
        if text.startswith("<") and len(text) > 1:
            if text.startswith('<b class="who'):
                inside_who += 1
            elif text == "</b>" and inside_who:
                inside_who -= 1
            continue
        if not text.isalnum():
            continue
        if inside_who or text.isupper() or not text.isalpha():
            return html
        start = token.start()
        return mark_safe(html[:start] + text.upper() + html[start + 1 :])
    return html


def _fallback(ctx: LogContext, kind: str, p: dict[str, Any]) -> SafeString:
    """An unknown kind still reads as something: its name in words, plus who it concerns."""
    words = kind.removeprefix("m.").replace("_", " ")
    seat = p.get("seat")
    if isinstance(seat, int) and not isinstance(seat, bool):
        return _fill(gettext("%(who)s: %(what)s."), who=_who(ctx, seat), what=words)
    return _fill(gettext("Event: %(what)s."), what=words)


def _games_line(ctx: LogContext, kind: str, payload: dict[str, Any]) -> bool:
    """Whether a match event reads as its game's own line (``Game.line``) rather than a handler here."""
    if not kind.startswith("m."):
        return False
    match = payload.get("match")
    return ctx.competition or ctx.formats.get(match, "duel") != "duel"  # type: ignore[arg-type]


def _present(ctx: LogContext, ref: Ref, match: Any) -> SafeString | str:
    """A ``Ref`` of a game's log line in the reader's words: a side as the seat that plays it (a room of
    another game) or as its country (Magic Football), a card by its name, a period by its name."""
    value = ref.value
    if ref.kind == "side":
        index = 0 if value == "home" else 1 if value == "away" else None
        if index is None:
            return str(value or "?")
        if ctx.competition:
            seats = ctx.coaches.get(match, (None, None))
            return _who(ctx, seats[index])
        return country_name(ctx.catalog, ctx.matches.get(match, ("", ""))[index])
    if ref.kind in ("player", "player_label"):
        return player_label(ctx.catalog, value) if ref.kind == "player_label" else _player_name(ctx, value)
    if ref.kind == "match_card":
        return match_card_name(ctx.catalog, value)
    if ref.kind == "period":
        return period_label(value)
    return str(value)


def _game_line(ctx: LogContext, kind: str, payload: dict[str, Any]) -> tuple[SafeString, str, str] | None:
    """A match event in its game's own words (``games.api.Game.line``), translated for the reader."""
    match = payload.get("match")
    data = {k: v for k, v in payload.items() if k != "match"}
    try:
        game = get_game(ctx.formats.get(match, "duel"))  # type: ignore[arg-type]
    except KeyError:
        return None
    line = game.line(MatchEvent(kind.removeprefix("m."), data))
    if line is None:
        return None
    if line.plural is not None:
        text = ngettext(line.text, line.plural[0], int(line.params.get(line.plural[1], 0) or 0))
    else:
        text = gettext(line.text)
    values = {k: _value(ctx, v, match) for k, v in line.params.items()}
    return _fill(text, **values), line.icon, line.tone


def _value(ctx: LogContext, value: Any, match: Any) -> Any:
    """A value of a game's log line for the reader: a ``Ref`` worded, a phrase (a ``Line`` inside the line,
    e.g. why a half ended) translated, anything else as it is."""
    if isinstance(value, Ref):
        return _present(ctx, value, match)
    if isinstance(value, Line):
        return gettext(value.text)
    return value


def describe(event: Event, ctx: LogContext) -> LogLine | None:
    """One event as a line, or None for events that say nothing on their own (prompts being opened)."""
    kind = str(event.get("kind", ""))
    payload = event.get("payload") if isinstance(event.get("payload"), dict) else {}
    if kind in QUIET:
        return None
    handler = HANDLERS.get(kind)
    if _games_line(ctx, kind, payload):
        out = _game_line(ctx, kind, payload)
        if out is None:
            return None
        html, icon, tone = out
    elif handler is None:
        html, icon, tone = _fallback(ctx, kind, payload), "info", ""
    else:
        out = handler(ctx, payload)
        if out is None:
            return None
        html, icon, tone = out
    private = tone == "private"
    seats = tuple(s for s in (payload.get("seat"),) if isinstance(s, int) and not isinstance(s, bool))
    match = payload.get("match") if kind.startswith("m.") or kind in ("match_started", "match_over") else None
    return LogLine(
        seq=int(event.get("seq", 0)),
        kind=kind,
        html=sentence(html),
        icon=icon,
        tone=tone,
        private=private,
        match=match if isinstance(match, int) else None,
        seats=seats,
    )


def _merge_roll(events: list[Event], i: int, ctx: LogContext) -> tuple[LogLine | None, int]:
    """ "Anna rolled 4 and lands on Brazil." from rolled + pawn_moved + landed (same seat, in order)."""
    rolled = events[i]
    p = rolled.get("payload") or {}
    seat = p.get("seat")
    j = i + 1
    if (
        j < len(events)
        and events[j].get("kind") == "pawn_moved"
        and (events[j].get("payload") or {}).get("seat") == seat
    ):
        j += 1
        if j < len(events) and events[j].get("kind") == "landed":
            landed = events[j].get("payload") or {}
            html = _fill(
                gettext("%(who)s rolled %(die)s and lands on %(square)s."),
                who=_who(ctx, seat),
                die=p.get("die"),
                square=square_label(ctx, landed.get("square")),
            )
            line = LogLine(
                seq=int(events[j].get("seq", 0)),
                kind="rolled",
                html=sentence(html),
                icon=f"dice-{p.get('die')}" if p.get("die") in (1, 2, 3, 4, 5, 6) else "dices",
                seats=(seat,) if isinstance(seat, int) else (),
            )
            return line, j + 1
    return describe(rolled, ctx), i + 1


def _merge_move(events: list[Event], i: int, ctx: LogContext) -> tuple[LogLine | None, int]:
    """A jump or a money card's move and its landing square in one line."""
    moved = events[i]
    p = moved.get("payload") or {}
    seat = p.get("seat")
    j = i + 1
    if seat is not None and j < len(events) and events[j].get("kind") == "landed":
        landed = events[j].get("payload") or {}
        text = (
            gettext("%(who)s jumps to %(square)s.")
            if p.get("jump")
            else gettext("%(who)s moves on to %(square)s.")
        )
        html = _fill(text, who=_who(ctx, seat), square=square_label(ctx, landed.get("square")))
        line = LogLine(
            seq=int(events[j].get("seq", 0)),
            kind="pawn_moved",
            html=sentence(html),
            icon="footprints",
            seats=(seat,) if isinstance(seat, int) else (),
        )
        return line, j + 1
    return describe(moved, ctx), i + 1


def render(events: list[Event], ctx: LogContext) -> list[LogLine]:
    """The lines of ``events`` (oldest first in, oldest first out), merging each roll with its move."""
    lines: list[LogLine] = []
    i = 0
    while i < len(events):
        kind = events[i].get("kind")
        if kind == "rolled":
            line, i = _merge_roll(events, i, ctx)
        elif kind == "pawn_moved":
            line, i = _merge_move(events, i, ctx)
        else:
            line, i = describe(events[i], ctx), i + 1
        if line is not None:
            lines.append(line)
    return lines


__all__ = [
    "HANDLERS",
    "LogContext",
    "LogLine",
    "account_label",
    "country_name",
    "describe",
    "match_card_name",
    "money_text",
    "period_label",
    "player_label",
    "render",
    "sentence",
    "square_kind_label",
    "square_label",
]
