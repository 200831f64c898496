"""What every registered game must do, checked the same way for each (OpenSpiel's shared test, for us).

Seeded matches between random bots, from a room's own set-up to the final whistle, friendly and knock-out:

- at every step the state survives ``to_dict``/``from_dict`` unchanged and the restored copy plays on
  exactly like the original;
- every pending decision's ``default`` is legal (a decision timer or an absent player takes it);
- no view shows a viewer what another side keeps to itself (``Game.private``) before an event showed it
  (``Game.reveals``), and no public event names such a card without being the event that shows it;
- every event has a log line whose placeholders its values fill, or is declared silent;
- the match ends with a result (a winner in a knock-out match), and replaying its decisions from the
  same seed gives the same final state.

A game adds only its own scenario tests beside these (tests/games/<game>/).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

import pytest
import sweep

from games.api import SIDES, Game, Line, MatchEvent, Ref, game_keys, get_game
from games.rng import Rng

SEEDS = range(sweep.size(ci=12, soak=120))
MAX_DECISIONS = 20_000


def _copy(rng: Rng) -> Rng:
    return Rng(*rng.state())


def _start(game: Game, seed: int, knockout: bool) -> tuple[Any, list[MatchEvent], Rng]:
    rng = Rng(seed)
    setup = game.room_setup(("p1", "p2"), knockout, game.clean_options({}), rng)
    fmt = game.format
    start = getattr(fmt, "start_with_events", None)
    if start is not None:
        state, events = start(setup, rng)
    else:
        state, events = fmt.start(setup, rng), []
    return state, list(events), rng


def _strings(value: Any) -> set[str]:
    """Every string in a JSON-like value (keys too); one pass over a stack, as views grow with a match's
    move list."""
    out: set[str] = set()
    stack = [value]
    while stack:
        v = stack.pop()
        if isinstance(v, str):
            out.add(v)
        elif isinstance(v, dict):
            stack.extend(v.values())
            stack.extend(v)
        elif isinstance(v, list | tuple):
            stack.extend(v)
    return out


def _placeholders_filled(line: Line) -> None:
    values = {k: ("x" if isinstance(v, Ref | Line) else v) for k, v in line.params.items()}
    line.text % values  # raises KeyError / TypeError when a placeholder has no value
    for nested in line.params.values():
        if isinstance(nested, Line):
            _placeholders_filled(nested)


@dataclass
class Played:
    decisions: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    kinds: set[str] = field(default_factory=set)
    lines: int = 0
    final: dict[str, Any] = field(default_factory=dict)


def play(game: Game, seed: int, knockout: bool, check: bool = True) -> Played:
    """One seeded match between random bots, checking every step (see the module docstring)."""
    fmt = game.format
    state, events, rng = _start(game, seed, knockout)
    bot_rng = Rng(seed ^ 0x5EED)
    random_bot = game.policies["random"]
    revealed: set[str] = set()
    out = Played()

    def absorb(new: list[MatchEvent]) -> None:
        secret = game.private(state, "home") | game.private(state, "away")
        for ev in new:
            shown = set(game.reveals(ev))
            if check and ev.audience == "public":
                named = (_strings(ev.data) & secret) - revealed - shown
                assert not named, f"seed {seed}: public {ev.kind} names hidden {sorted(named)}"
            revealed.update(shown)
            out.kinds.add(ev.kind)
            line = game.line(ev)
            if line is not None:
                _placeholders_filled(line)
                out.lines += 1

    absorb(events)
    for _ in range(MAX_DECISIONS):
        pending = fmt.decisions(state)
        if not pending:
            break
        if check:
            for viewer in (*SIDES, None):
                others = [s for s in SIDES if s != viewer]
                hidden = set().union(*(game.private(state, s) for s in others)) - revealed
                leaked = (_strings(fmt.view(state, viewer)) & hidden) if hidden else set()
                assert not leaked, f"seed {seed}: {viewer or 'a spectator'} sees {sorted(leaked)}"
            for d in pending:
                if d.choices:
                    assert d.default in d.choices, f"seed {seed}: default {d.default} not among the choices"
                trial = fmt.from_dict(fmt.to_dict(state))
                fmt.apply(trial, d.side, d.default, _copy(rng))  # raises if the default is not legal
        decision = pending[bot_rng.randbelow(len(pending))] if len(pending) > 1 else pending[0]
        choice = random_bot(fmt, state, decision, bot_rng)
        out.decisions.append((decision.side, choice))
        if check:
            stored = fmt.to_dict(state)
            assert json.loads(json.dumps(stored)) == stored, "to_dict must be JSON"
            restored = fmt.from_dict(stored)
            assert fmt.to_dict(restored) == stored
            twin_events = fmt.apply(restored, decision.side, choice, _copy(rng))
        new = fmt.apply(state, decision.side, choice, rng)
        if check:
            assert twin_events == new and fmt.to_dict(restored) == fmt.to_dict(state), (
                f"seed {seed}: a restored state played on differently"
            )
        absorb(new)
    else:
        pytest.fail(f"seed {seed}: no result after {MAX_DECISIONS} decisions")
    result = fmt.result(state)
    assert result is not None, f"seed {seed}: no decision pending, yet no result"
    if knockout:
        assert result.winner in SIDES, f"seed {seed}: a knock-out match ended without a winner"
    out.final = fmt.to_dict(state)
    return out


GAMES = game_keys()


@pytest.mark.parametrize("knockout", [False, True], ids=["friendly", "knock-out"])
@pytest.mark.parametrize("key", GAMES)
def test_random_matches_keep_every_promise_of_the_platform(key: str, knockout: bool) -> None:
    game = get_game(key)
    kinds: set[str] = set()
    for seed in SEEDS:
        played = play(game, seed, knockout)
        kinds |= played.kinds
        assert played.lines > 0
        replayed, _events, rng = _start(game, seed, knockout)  # the same decisions from the same seed
        for side, choice in played.decisions:
            game.format.apply(replayed, side, choice, rng)
        assert game.format.to_dict(replayed) == played.final, f"seed {seed}: the replay differs"
    assert kinds, "the matches emitted no events"


@pytest.mark.parametrize("key", GAMES)
def test_a_game_is_registered_completely(key: str) -> None:
    game = get_game(key)
    assert game.key == game.format.key == key
    assert {"random", "easy", "strong"} <= set(game.policies)
    assert game.title and game.summary
    assert set(game.competitions) <= {"single", "cup", "league"} and "single" in game.competitions
    defaults = game.clean_options({})
    assert set(defaults) == {o.key for o in game.options}
    for option in game.options:
        assert len(option.choices) >= 2
        for value, _label in option.choices:
            assert game.clean_options({option.key: value})[option.key] == value


@pytest.mark.parametrize("key", GAMES)
def test_bad_room_options_are_refused(key: str) -> None:
    from games.api import MatchError

    game = get_game(key)
    with pytest.raises(MatchError):
        game.clean_options({"no_such_option": 1})
    for option in game.options:
        with pytest.raises(MatchError):
            game.clean_options({option.key: "<script>"})


def test_the_checks_can_fail() -> None:
    """The control: a game whose view shows the other side's hidden cards is caught."""
    duel = get_game("duel")

    class Leaky:
        def __getattr__(self, name: str) -> Any:
            return getattr(duel.format, name)

        def view(self, state: Any, side: Any, reveal_all: bool = False) -> dict[str, Any]:
            return duel.format.view(state, side, reveal_all=True)

    from dataclasses import replace

    leaky = replace(duel, format=Leaky())  # type: ignore[arg-type]
    with pytest.raises(AssertionError, match="sees"):
        play(leaky, 0, False)
