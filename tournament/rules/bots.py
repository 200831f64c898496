"""Bot coaches: every decision of the game, at three strengths (``easy``, ``strong``, ``random``).

Bots never touch state: they pick one of a prompt's legal choices, and the caller submits it through the
same service as a human would (the live driver, the simulator) or through ``apply_action`` (the house
bot, the pure tournaments of ``autoplay``).

- ``easy``: the plain defaults of ``tournament.rules.policy`` (also what an expired decision timer does,
  R19) and the ``easy`` match policy.
- ``strong``: a strategy for every prompt kind, written down below as money and star values, plus the
  ``strong`` match policy of ``cards.rules.bots``.
- ``random``: a uniformly random legal choice for every prompt, random line-ups and random selections.

Bots play fair: they read only what their seat may see (public board, money of every seat, the face-up
cards, their own team, holding and selection), never a blind pile or another seat's hand.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from cards.catalog import Catalog, SquareKind
from games.api import get_game
from games.rng import Rng, make_rng
from tournament.rules import matches, policy
from tournament.rules.state import (
    BONUS,
    HOLDING_LIMIT,
    PRICE_PER_STAR,
    SETTLEMENT_UNIT,
    TEAM_FIELD_LIMIT,
    GameState,
    Prompt,
    account_key,
    holding_key,
    selection_key,
    team_key,
)

STRENGTHS = ("easy", "strong", "random")

# ------------------------------------------------------------------------------------------- values
# The strong bot weighs everything in magic. One star more in the eleven is worth about what the Bank
# charges for it: a player costs 100,000 per star, and at settlement 500,000 buys one blind player.
STAR_VALUE = 150_000
# A keeper's stars count double: every half ends at a keeper, and an opponent scores only by beating it.
KEEPER_WEIGHT = 2.0
# A match card in the holding: the strong match policy turns about one in three into a goal saved or
# scored, and a goal decides most knock-out matches.
MATCH_CARD_VALUE = 180_000
# Cash a BC keeps for visit fees (≤ 140,000), Debet (≤ 300,000) and red money cards: a BC who cannot pay
# is fired and loses team, holding and contract (R10).
BC_RESERVE = 450_000
# Cash a trainer keeps on top of the entry cost he is saving for.
TRAINER_RESERVE = 150_000
# A trainer buys only players this good: his team is mostly dealt with his contract, and only a top
# player survives the choice of the eleven (R9).
TRAINER_BUYS_FROM = 5
# Becoming BC is the only road to the finals: worth far more than any purchase.
CONTRACT_VALUE = 3_000_000
# Losing a phase-2 challenge costs the whole team, the contract and the holding (§5, resign).
RESIGN_COST = 2_500_000
# A money card is worth about nothing on average (catalog: gains and losses balance) plus a share of the
# Bonus Fund (G09 pays half, G10 sends the pawn to Start): 1.5 Bonus Funds spread over 22 cards.
MONEY_CARD_BONUS_SHARE = 1.5 / 22
# Expected value of the second roll on Credit / Debet squares (3.5 pips × 50,000).
SECOND_ROLL = 175_000


def decide(state: GameState, prompt: Prompt, strength: str, cat: Catalog, rng: Rng) -> dict[str, Any]:
    """The choice a bot of ``strength`` makes for ``prompt`` (always a legal choice).

    ``rng`` feeds the random bot (and nothing else): the same state, prompt and generator give the same
    choice, so a bot game replays exactly.
    """
    if matches.is_match_prompt(prompt):
        record = next(m for m in state.matches if m.number == prompt.context["match"])
        game = get_game(record.format)
        decision = next(d for d in game.format.decisions(record.engine) if d.side == prompt.context["side"])
        policy = game.policies.get(strength) or game.policies["easy"]
        return dict(policy(game.format, record.engine, decision, rng))
    if strength == "random":
        return random_choice(state, prompt, rng)
    if strength == "strong":
        strategy = STRONG.get(prompt.kind)
        if strategy is not None:
            return strategy(Seen(state, prompt.seat, cat), prompt)
    return dict(prompt.default)


# ------------------------------------------------------------------------------------------ random


def random_choice(state: GameState, prompt: Prompt, rng: Rng) -> dict[str, Any]:
    """A uniformly random legal choice, including the open-ended selections."""
    if prompt.kind == "keep_selection":
        field = list(prompt.options["field"])
        rng.shuffle(field)
        keepers = prompt.options["keepers"]
        return {
            "field": sorted(field[: prompt.options["keep_field"]]),
            "keeper": rng.choice(keepers) if keepers else None,
        }
    if prompt.kind == "ac_keep":
        cards = list(prompt.options["cards"])
        rng.shuffle(cards)
        n = rng.randbelow(min(prompt.options["room"], len(cards)) + 1)
        return {"keep": sorted(cards[:n])}
    if prompt.choices:
        return dict(rng.choice(prompt.choices))
    return dict(prompt.default)


# ------------------------------------------------------------------------------------------ strong


class Seen:
    """What one seat knows, with the valuations the strong bot works with."""

    __slots__ = ("cat", "me", "money", "seat", "st")

    def __init__(self, state: GameState, seat: int | None, cat: Catalog) -> None:
        assert seat is not None, "the strong bot decides for a seat"
        self.st = state
        self.seat = seat
        self.cat = cat
        self.me = state.seats[seat]
        self.money = state.accounts.get(account_key(seat), 0)

    # ---------------------------------------------------------------- the team
    def stars(self, card: str) -> int:
        return self.cat.player(card).stars

    def team(self) -> list[str]:
        """Own team plus cards in hand waiting for a choice (they are ours to keep or give back)."""
        return [*self.st.pile(team_key(self.seat)), *self.st.pile(selection_key(self.seat))]

    def strength(self, cards: list[str]) -> float:
        """Stars of the best eleven field players plus the weighted best keeper."""
        field = sorted((self.stars(c) for c in cards if c[0] != "K"), reverse=True)[:TEAM_FIELD_LIMIT]
        keepers = [self.stars(c) for c in cards if c[0] == "K"]
        return sum(field) + KEEPER_WEIGHT * max(keepers, default=0)

    def gain(self, card: str) -> float:
        """Stars the team gains by adding ``card`` (and giving back its weakest surplus card)."""
        team = self.team()
        return self.strength([*team, card]) - self.strength(team)

    def holding(self) -> list[str]:
        return self.st.pile(holding_key(self.seat))

    # ---------------------------------------------------------------- money
    @property
    def reserve(self) -> int:
        """Cash to keep in hand now."""
        if self.me.is_bc:
            return BC_RESERVE if self.st.phase in ("phase1", "phase2") else 0
        return self.target_entry_cost() + TRAINER_RESERVE

    def target_entry_cost(self) -> int:
        """The entry cost of the best country a trainer may still contract (what he saves for)."""
        costs = [
            self.cat.classes[self.cat.countries[self.st.on_square[i]].klass].entry_cost
            for i, sq in self.st.squares.items()
            if sq.status == "qualified" and i in self.st.on_square
        ]
        if self.st.phase == "phase1" and self.st.pile("official_countries"):
            costs.append(self.cat.classes[max(self.cat.classes)].entry_cost)
        return max(costs, default=0)

    def end_near(self) -> bool:
        """Phase 2 ends with the 8th Marker: with one or two left, cash soon turns into blind players."""
        return self.st.phase == "phase2" and self.st.markers_placed() >= len(self.st.markers) - 2

    def settlement_loss(self, price: int) -> float:
        """What spending ``price`` costs at settlement, where every full 500,000 becomes a blind player
        and the rest goes to the Bank (R15): only the blind players given up count."""
        lost = self.money // SETTLEMENT_UNIT - max(0, self.money - price) // SETTLEMENT_UNIT
        return lost * self.blind_value() * STAR_VALUE

    def blind_value(self) -> float:
        """Expected stars a blind field player adds to the team (catalog distribution)."""
        field = sorted((self.stars(c) for c in self.team() if c[0] != "K"), reverse=True)
        weakest = 0 if len(field) < TEAM_FIELD_LIMIT else field[TEAM_FIELD_LIMIT - 1]
        pool = [p.stars for p in self.cat.field_players.values()]
        return sum(max(0, s - weakest) for s in pool) / len(pool)

    def purchase_value(self, card: str | None) -> float | None:
        """Value of buying ``card`` now (None: not affordable or not worth it)."""
        if card is None:
            return None
        price = self.stars(card) * PRICE_PER_STAR
        if price > self.money:
            return None
        gain = self.gain(card)
        if not self.me.is_bc and self.st.phase in ("phase1", "phase2"):
            gain = gain if self.stars(card) >= TRAINER_BUYS_FROM else 0.0
        value = gain * STAR_VALUE - price
        if self.end_near() or self.st.phase == "phase3":
            value = gain * STAR_VALUE - self.settlement_loss(price)
        else:
            value += price * 0.6  # the price mostly comes back as team strength (money has few other uses)
        short = self.reserve - (self.money - price)
        if short > 0:
            value -= short * 2
        return value

    def money_card_value(self) -> float:
        return self.st.accounts.get(BONUS, 0) * MONEY_CARD_BONUS_SHARE

    def match_card_value(self) -> float:
        if not self.me.is_bc:
            return 0.0
        if len(self.holding()) < HOLDING_LIMIT:
            return MATCH_CARD_VALUE
        return MATCH_CARD_VALUE * 0.2  # a better card may replace the weakest one

    # ---------------------------------------------------------------- countries and challenges
    def contract_value(self, country: str) -> float:
        """How much becoming BC of ``country`` is worth (minus its entry cost)."""
        row = self.cat.classes[self.cat.countries[country].klass]
        if row.entry_cost > self.money:
            return -1e9
        # more players dealt → a stronger eleven to choose from; a higher visit fee earns more
        value = CONTRACT_VALUE + (row.field_dealt - 12) * 0.45 * STAR_VALUE + row.visit_fee
        value -= row.entry_cost * 0.5
        short = TRAINER_RESERVE - (self.money - row.entry_cost)
        if short > 0:
            value -= short
        return value

    def challenge_value(self) -> float:
        """A BC's value of challenging a rival (R13): a loss resigns him (§5)."""
        p = self.challenge_win_chance()
        return p * 150_000 - (1 - p) * RESIGN_COST

    def challenge_win_chance(self) -> float:
        """Rough chance to beat eleven random rival cards with a borrowed keeper."""
        field = sorted((self.stars(c) for c in self.team() if c[0] != "K"), reverse=True)[:TEAM_FIELD_LIMIT]
        keepers = [self.stars(c) for c in self.team() if c[0] == "K"]
        mean = sum(field) / max(1, len(field))
        rival_mean = sum(p.stars for p in self.cat.rivals.values()) / max(1, len(self.cat.rivals))
        edge = (mean - rival_mean) * 0.35 + (max(keepers, default=4) - 4) * 0.08
        return min(0.9, max(0.1, 0.55 + edge))

    def square_value(self, index: int) -> float:
        """Value of the pawn landing on ``index`` for this seat (Luck, R5: the square then acts)."""
        st, cat = self.st, self.cat
        kind = cat.board.squares[index].kind
        if kind is SquareKind.START:
            return float(st.accounts.get(BONUS, 0))
        if kind is SquareKind.CREDIT:
            return SECOND_ROLL
        if kind is SquareKind.DEBET:
            return -SECOND_ROLL
        if kind is SquareKind.TRAINING:
            return -100_000
        if kind is SquareKind.RISK:
            return self.blind_value() * STAR_VALUE - 400_000
        if kind is SquareKind.MONEY:
            return self.money_card_value()
        if kind is SquareKind.MATCH:
            return self.match_card_value()
        if kind in (SquareKind.FIELD, SquareKind.KEEPER):
            box = "box5" if kind is SquareKind.FIELD else "box7"
            pile = st.pile(box)
            value = self.purchase_value(pile[-1]) if pile else None
            return max(0.0, value or 0.0)
        if kind is SquareKind.COUNTRY:
            return self._country_square_value(index)
        return 0.0

    def _country_square_value(self, index: int) -> float:
        st, cat = self.st, self.cat
        sq = st.squares[index]
        if sq.status == "empty":
            # a new country qualifies: a trainer gets something to contract later
            return 0.0 if self.me.is_bc else 50_000.0
        if sq.status == "marker":
            return max(self._marker_values().values())
        country = st.on_square[index]
        if sq.status == "contracted":
            if sq.coach == self.seat:
                return self.money_card_value()
            return -float(cat.classes[cat.countries[country].klass].visit_fee) * 1.5  # a rival gains it too
        if self.me.is_bc:
            if st.phase == "phase2":
                return self.challenge_value()
            return self.money_card_value()  # R7: already a BC
        value = self.contract_value(country)
        return value if value > 0 else self.money_card_value()

    def _marker_values(self, options: list[str] | None = None) -> dict[str, float]:
        values: dict[str, float] = {"money": self.money_card_value()}
        allowed = set(options) if options is not None else {"field", "keeper", "match", "money"}
        for kind, box in (("field", "box5"), ("keeper", "box7")):
            pile = self.st.pile(box)
            if kind in allowed and pile:
                v = self.purchase_value(pile[-1])
                if v is not None:
                    values[kind] = v
        if "match" in allowed and self.me.is_bc:
            values["match"] = self.match_card_value()
        return values


def _strong_buy(seen: Seen, prompt: Prompt) -> dict[str, Any]:
    value = seen.purchase_value(prompt.options["card"])
    return {"buy": value is not None and value > 0}


def _strong_contract(seen: Seen, prompt: Prompt) -> dict[str, Any]:
    return {"contract": seen.contract_value(prompt.options["country"]) > 0}


def _strong_luck(seen: Seen, prompt: Prompt) -> dict[str, Any]:
    best = max(prompt.choices, key=lambda c: (seen.square_value(c["square"]), -c["square"]))
    return dict(best)


def _strong_marker(seen: Seen, prompt: Prompt) -> dict[str, Any]:
    options = [c["take"] for c in prompt.choices]
    values = seen._marker_values(options)
    take = max((o for o in options if o in values), key=lambda o: (values[o], o == "match"))
    return {"take": take}


def _strong_return_card(seen: Seen, prompt: Prompt) -> dict[str, Any]:
    """Give back the card whose loss weakens the team least (the weakest; among equals the first)."""
    team = seen.team()
    best = max(prompt.choices, key=lambda c: (seen.strength([x for x in team if x != c["card"]]), c["card"]))
    return dict(best)


def _strong_keep_selection(seen: Seen, prompt: Prompt) -> dict[str, Any]:
    """The strongest eleven and keeper: every card of the eleven plays (ten + the reserve, D3)."""
    return policy.keep_selection_default(
        seen.cat, list(prompt.options["field"]), list(prompt.options["keepers"])
    )


def _card_worth(cat: Catalog, card: str) -> float:
    """What a match card is worth to the strong match policy: cards that stop or score a goal outright
    first (disallow, cancel, penalty, set to 7), then big star changes."""
    return float(policy.match_card_value(cat, card))


def _strong_discard_match(seen: Seen, prompt: Prompt) -> dict[str, Any]:
    worst = min(prompt.choices, key=lambda c: (_card_worth(seen.cat, c["card"]), c["card"]))
    return dict(worst)


def _strong_ac_keep(seen: Seen, prompt: Prompt) -> dict[str, Any]:
    cards = sorted(prompt.options["cards"], key=lambda c: (-_card_worth(seen.cat, c), c))
    return {"keep": sorted(cards[: prompt.options["room"]])}


STRONG: dict[str, Callable[[Seen, Prompt], dict[str, Any]]] = {
    "buy": _strong_buy,
    "contract": _strong_contract,
    "luck": _strong_luck,
    "marker": _strong_marker,
    "return_card": _strong_return_card,
    "keep_selection": _strong_keep_selection,
    "discard_match": _strong_discard_match,
    "ac_keep": _strong_ac_keep,
}


# -------------------------------------------------------------------------------- pure tournaments

BOT_SEED_SALT = 0x5EED


def bot_rng(state: GameState, version: int) -> Rng:
    """The generator a bot uses for one decision: derived from the game's seed and version, so the live
    driver, the simulator and a replay take the same decisions. The game's own generation of generator."""
    return make_rng(state.seed ^ BOT_SEED_SALT, version, state.rng_generation)


def autoplay(state: GameState, cat: Catalog, max_actions: int = 20_000) -> tuple[GameState, int]:
    """Play a started game on the pure rules until it is over, every seat deciding as its bot.

    Humans' seats are played by the ``easy`` bot. Returns the final state and the number of actions.
    Used by the bot benchmark and its fast test; the simulator plays the same way through ``game_act``.
    """
    from tournament.rules.engine import apply_action
    from tournament.rules.events import Actor

    n = 0
    while state.status == "running" and n < max_actions:
        prompt = state.prompts[0]
        assert prompt.seat is not None
        strength = state.seats[prompt.seat].bot or "easy"
        choice = decide(state, prompt, strength, cat, bot_rng(state, n))
        state, _ = apply_action(
            state, Actor("seat", prompt.seat), {"type": "answer", "prompt": prompt.id, "choice": choice}, cat
        )
        n += 1
    return state, n
