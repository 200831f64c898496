"""What each viewer may NOT see, computed from the pure state — independently of the projection code.

The rules of the table (docs/RULES.md, "hidden information"):

- face up for everybody: country cards on the board, in the finals boxes, in the Cup and out of the game;
  the top card of box 5 and box 7; every used match card (box 6); in a running match the cards in
  action, spent (revealed) cards, played match cards, the goal scorer, penalty takers, the keeper facing
  a penalty and the corner's header — once revealed in a match a card stays known for that match;
- a seat also sees its own team, holding and hand (selection), the cards an own prompt offers (an AC's
  unused match cards), and in a match everything of the side it coaches;
- everything else is hidden: box 1–4 (money cards are shown to all *when drawn*, in that action),
  box 5/7 below the top, the Official's piles, other seats' teams, holdings and hands, the other side's
  (and the house bot's) unrevealed stack, reserve, line-up and match cards.

An event is judged at the moment it was emitted: a card it names must have been visible to the viewer
before or after that action, or have been revealed during it (a whole house-bot match can run inside one
action: the duel states it passes through are observed by wrapping ``matches.forward_events``).
"""

from __future__ import annotations

import contextlib
import html as htmllib
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from cards.catalog import Catalog
from tournament.rules import matches
from tournament.rules.state import GameState, MatchRecord, holding_key, selection_key, team_key

PUBLIC_PILES = ("box6", "cup", "out")
JSON_ID_RE = re.compile(r'"([A-Z][A-Z0-9]{2,3})"')  # a JSON string shaped like a card id
# card ids (F017, K03, R09, M12, G05) not inside a longer word; the word start is tested after a match
# (``html_leaks``), which lets ``re`` skip ahead to the next F/K/R/M/G instead of testing every character
HTML_ID_RE = re.compile(r"(F\d{3}|[KRMG]\d{2})(?![A-Za-z0-9])")
ALNUM_RE = re.compile(r"[A-Za-z0-9]")


# ------------------------------------------------------------------------------------ the duel
def duel_public(engine: Any) -> set[str]:
    """Cards of a running duel that are face up for everybody right now."""
    st = engine
    out: set[str] = set()
    for s in (0, 1):
        ids = st.ids[s]
        if st.active[s] >= 0:
            out.add(ids[st.active[s]])
        out.update(ids[c] for c in st.spent[s])
        out.update(st.used[s])
        out.update(st.et_played[s])
        for mod in st.mods[s]:
            out.add(mod[1])
    for play in st.plays:
        out.add(play[2])
    if st.moment is not None:
        kind, ms, _serial, header, mods = st.moment
        out.update(m[1] for m in mods)
        if kind == 2:  # corner: the header of the side taking it
            out.add(st.ids[ms][header])
        if kind == 1:  # penalty: the keeper facing it
            out.add(st.ids[1 - ms][st.nfield[1 - ms]])
    if st.goal is not None:
        out.add(st.ids[st.goal[0]][st.goal[2]])
    for side, card, _scored in st.kicks:
        out.add(st.ids[side][card])
    return out


def duel_side(engine: Any, s: int) -> set[str]:
    """Everything side ``s`` of a duel knows of its own cards."""
    st = engine
    return {*st.ids[s], *st.holding[s], *st.hold[s], *st.et_hold[s], *st.used[s], *st.et_played[s]}


def _seat_of(record: MatchRecord, s: int) -> int | None:
    side = record.home if s == 0 else record.away
    return side.seat if side is not None else None


# Duel steps that change what is face up: observed before and after each, so a card that comes into
# action and leaves it again within one decision (a goal, half time, a house-bot match) is seen too.
DUEL_STEPS = (
    "_set_lineup",
    "_kickoff",
    "_reveal",
    "_end_mods",
    "_leave",
    "_bring",
    "_close",
    "_goal",
    "_resolve_goal",
    "_resolve_moment",
    "_end_moment_mods",
    "_restore_outer",
    "_swap",
    "_play",
    "_undo",
    "_half_over",
    "_extra_time",
    "_shootout",
    "_finish",
)


@dataclass
class MatchMemory:
    """What became public (or known to a side's coach) during each match, observed state by state."""

    public: dict[int, set[str]] = field(default_factory=dict)  # match number -> revealed cards
    own: dict[tuple[int, int], set[str]] = field(default_factory=dict)  # (match, seat) -> own side's cards
    during: set[str] = field(default_factory=set)  # revealed within the action being applied
    own_during: dict[int, set[str]] = field(default_factory=dict)  # seat -> own-side cards within it
    current: int | None = None  # the match whose decision is being applied

    def observe(self, record: MatchRecord) -> None:
        """Record what a match's current duel state shows (publicly, and to each coach)."""
        if record.engine is None:
            return
        pub = duel_public(record.engine)
        self.public.setdefault(record.number, set()).update(pub)
        self.during |= pub
        for s in (0, 1):
            seat = _seat_of(record, s)
            if seat is not None:
                mine = duel_side(record.engine, s)
                self.own.setdefault((record.number, seat), set()).update(mine)
                self.own_during.setdefault(seat, set()).update(mine)

    def _step(self, engine: Any) -> None:
        pub = duel_public(engine)
        self.during |= pub
        if self.current is not None:
            self.public.setdefault(self.current, set()).update(pub)

    def begin_action(self, state: GameState) -> None:
        """Start observing one action applied to ``state``."""
        self.during = set()
        self.own_during = {}
        running = state.running_match
        if running is not None:
            self.observe(running)

    @contextlib.contextmanager
    def watching(self) -> Iterator[None]:
        """Observe every duel state the rules pass through while this block runs (the rules are wrapped,
        not changed: each wrapper calls the original and only looks at the state)."""
        from cards.rules.duel import DuelFormat

        original_forward, original_answer = matches.forward_events, matches.answer
        originals = {name: getattr(DuelFormat, name) for name in DUEL_STEPS}

        def forward(ctx: Any, record: MatchRecord, events: Any) -> None:
            original_forward(ctx, record, events)
            self.observe(record)

        def answer(ctx: Any, prompt: Any, choice: Any) -> None:
            self.current = prompt.context.get("match")
            original_answer(ctx, prompt, choice)

        def wrap(fn: Any) -> Any:
            def step(fmt: Any, st: Any, *args: Any, **kwargs: Any) -> Any:
                self._step(st)
                result = fn(fmt, st, *args, **kwargs)
                self._step(st)
                return result

            return step

        matches.forward_events, matches.answer = forward, answer
        for name, fn in originals.items():
            setattr(DuelFormat, name, wrap(fn))
        try:
            yield
        finally:
            matches.forward_events, matches.answer = original_forward, original_answer
            for name, fn in originals.items():
                setattr(DuelFormat, name, fn)
            self.current = None


# ------------------------------------------------------------------------------------ the table
def visible_cards(state: GameState, seat: int | None, memory: MatchMemory) -> set[str]:
    """Every card ``seat`` (None: a spectator, or a host who does not play) may see in ``state``."""
    out: set[str] = set(state.on_square.values()) | set(state.finals.values())
    for key in PUBLIC_PILES:
        out.update(state.piles.get(key, []))
    for key in ("box5", "box7"):
        pile = state.piles.get(key, [])
        if pile:
            out.add(pile[-1])
    if seat is not None:
        for key in (team_key(seat), holding_key(seat), selection_key(seat)):
            out.update(state.piles.get(key, []))
        for prompt in state.prompts:
            if prompt.seat == seat and prompt.kind == "ac_keep":
                out.update(prompt.context.get("cards", []))
    running = state.running_match
    if running is not None and running.engine is not None:
        memory.observe(running)
        out |= memory.public.get(running.number, set())
        if seat is not None:
            out |= memory.own.get((running.number, seat), set())
    return out


def money_drawn(before: GameState, events: list[Any]) -> set[str]:
    """The money cards an action drew: exactly the top ones of box 4 before it, one per ``money_card``."""
    drawn = sum(1 for e in events if e.kind == "money_card")
    stack = before.piles.get("box4", [])
    return set(stack[len(stack) - drawn :]) if drawn else set()


@dataclass
class Leak:
    """A card identity found where its viewer may not see it."""

    where: str
    viewer: str
    card: str
    context: str

    def __str__(self) -> str:
        return f"{self.where} for {self.viewer}: {self.card} in …{self.context}…"


# ------------------------------------------------------------------------------------ scanning
def json_strings(value: Any, path: str = "", shape: Any = None) -> Iterator[tuple[str, str]]:
    """Every string (and key) in a JSON value with its path; a player card's nationality is skipped.

    ``shape``: for a delta's ``patch``, which carries only the changed members of objects, the full view
    it merges into; whether an object is a player card is read there, not from the few members sent."""
    if isinstance(value, dict):
        ref = shape if isinstance(shape, dict) else value
        player_card = "stars" in ref and "position" in ref
        for key, item in value.items():
            yield f"{path}.{key}#key", str(key)
            if player_card and key == "country":
                continue  # a visible player's nationality, not a country card
            yield from json_strings(item, f"{path}.{key}", shape and ref.get(key))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from json_strings(item, f"{path}[{i}]")
    elif isinstance(value, str):
        yield path, value


def _has_hidden(value: Any, hidden: set[str]) -> bool:
    """Fast pre-check (no paths): does any string or key of ``value`` name a hidden card?"""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if item in hidden:
                return True
        elif isinstance(item, dict):
            if "stars" in item and "position" in item:
                item = {k: v for k, v in item.items() if k != "country"}
            for key, sub in item.items():
                if key in hidden:
                    return True
                stack.append(sub)
        elif isinstance(item, list):
            stack.extend(item)
    return False


NATIONALITY_RE = re.compile(r'"position":"[A-Z]{2}","country":"[A-Z]{3}"')  # inside a player card


def may_leak(text: str, hidden: set[str]) -> bool:
    """Quick filter on an encoded frame: could any of its strings be a hidden card id? (A player's
    nationality is not a country card; ``json_leaks`` then decides on the structure.)"""
    return not hidden.isdisjoint(JSON_ID_RE.findall(NATIONALITY_RE.sub("", text)))


def json_leaks(value: Any, hidden: set[str], where: str, viewer: str, shape: Any = None) -> list[Leak]:
    """Hidden card ids anywhere in a JSON value (with the path of each); ``shape`` as in ``json_strings``."""
    if not _has_hidden(value, hidden):
        return []
    return [
        Leak(where, viewer, text, path) for path, text in json_strings(value, "", shape) if text in hidden
    ]


WORD_CHAR_RE = re.compile(r"\w")


def trie_pattern(words: list[str]) -> str:
    """A regular expression matching any of ``words``, the longest possible first, shaped as a trie.

    Python's ``re`` tries the alternatives of ``a|b|c`` one by one at every character; a trie tries one
    character at a time and starts with a character set it can skip text with, about 100 times faster
    over the leak sweeps' HTML (which scan millions of characters).
    """
    trie: dict[str, dict] = {}
    for word in words:
        node = trie
        for char in word:
            node = node.setdefault(char, {})
        node[""] = {}

    def build(node: dict[str, dict]) -> str:
        branches = [re.escape(char) + build(child) for char, child in sorted(node.items()) if char]
        if not branches:
            return ""
        body = branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"
        return f"(?:{body})?" if "" in node else body  # greedy: the longer word is tried first

    return build(trie)


def whole_words(pattern: re.Pattern[str], text: str) -> Iterator[re.Match[str]]:
    r"""The matches ``(?<!\w)pattern`` would give: the word-start test is made after a match is found,
    because a leading look-behind keeps ``re`` from skipping ahead with the pattern's first characters."""
    pos = 0
    while (match := pattern.search(text, pos)) is not None:
        start = match.start()
        if start and WORD_CHAR_RE.match(text, start - 1):
            pos = start + 1  # inside a word: look again from the next character, as the regex would
            continue
        yield match
        pos = max(match.end(), start + 1)


@dataclass(frozen=True)
class HtmlNames:
    r"""Card names that identify exactly one card (in the language of the frames), for scanning HTML.

    ``finditer`` finds what ``(?<!\w)(name|name|…)(?!\w)`` (longest names first) finds, much faster
    (``trie_pattern``, ``whole_words``); test_no_leaks.py checks they agree.
    """

    by_name: dict[str, str]
    pattern: re.Pattern[str]

    @classmethod
    def build(cls, cat: Catalog, lang: str = "en") -> HtmlNames:
        names: dict[str, list[str]] = {}
        for table in (cat.field_players, cat.keepers, cat.rivals):
            for card in table.values():
                names.setdefault(card.name, []).append(card.id)
        for card in [*cat.match_cards.values(), *cat.money_cards.values()]:
            name = card.name_nl if lang == "nl" else card.name_en
            if " " in name:  # one-word names ("Penalty", "Offside") are also the game's own vocabulary
                names.setdefault(name, []).append(card.id)
        unique = {name: ids[0] for name, ids in names.items() if len(ids) == 1 and len(name) >= 4}
        return cls(unique, re.compile("(" + trie_pattern(list(unique)) + r")(?!\w)"))

    def finditer(self, text: str) -> Iterator[tuple[int, int, str]]:
        """(start, end, name) of every whole-word occurrence of a name, left to right, not overlapping."""
        for match in whole_words(self.pattern, text):
            yield match.start(), match.end(), match.group(1)


SVG_GEOMETRY_RE = re.compile(r'\s(?:d|points|viewBox|transform)="[^"]*"')  # "M12 9v4" is a path, not M12


def card_ids(text: str) -> Iterator[re.Match[str]]:
    """Card ids in ``text`` that do not continue a word (``(?<![A-Za-z0-9])`` tested after the match)."""
    pos = 0
    while (match := HTML_ID_RE.search(text, pos)) is not None:
        start = match.start()
        if start and ALNUM_RE.match(text, start - 1):
            pos = start + 1
            continue
        yield match
        pos = match.end()


def html_leaks(text: str, hidden: set[str], names: HtmlNames, where: str, viewer: str) -> list[Leak]:
    """Hidden cards named in an HTML frame: by id (attributes, form values) or by their printed name."""
    plain = htmllib.unescape(SVG_GEOMETRY_RE.sub(" ", text))
    found: list[Leak] = []
    for match in card_ids(plain):
        if match.group(1) in hidden:
            found.append(
                Leak(where, viewer, match.group(1), plain[max(0, match.start() - 60) : match.end() + 20])
            )
    for start, end, name in names.finditer(plain):
        card = names.by_name[name]
        if card in hidden:
            found.append(Leak(where, viewer, card, plain[max(0, start - 60) : end + 20]))
    return found
