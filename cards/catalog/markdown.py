"""Render the catalog as a human-readable Markdown document (``docs/CATALOG.md``). Pure.

Why generated: the data files are the truth; a hand-written copy would drift. A test compares the committed
document with a fresh rendering, and ``manage.py catalog_markdown`` rewrites it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping

from cards.catalog.types import Catalog, Effect, PlayerCard, SquareKind

SQUARE_LABELS: dict[SquareKind, str] = {
    SquareKind.START: "Start & Bonus",
    SquareKind.TRAINING: "Training",
    SquareKind.CREDIT: "Credit",
    SquareKind.DEBET: "Debet",
    SquareKind.FIELD: "Field player",
    SquareKind.KEEPER: "Keeper",
    SquareKind.LUCK: "Luck",
    SquareKind.RISK: "Risk",
    SquareKind.COUNTRY: "Country",
    SquareKind.MATCH: "Match",
    SquareKind.MONEY: "Money",
}

BOX_LABELS: dict[str, str] = {
    "field_blind": "field players, blind (about half of them)",
    "match": "match cards",
    "keeper_blind": "keepers, blind",
    "money": "money cards",
    "field_open": "the open field player (top card of box 1, face up)",
    "match_used": "used match cards",
    "keeper_open": "the open keeper (top card of box 3, face up)",
}


def _table(header: Iterable[str], rows: Iterable[Iterable[object]]) -> list[str]:
    head = list(header)
    lines = ["| " + " | ".join(head) + " |", "|" + "|".join("---" for _ in head) + "|"]
    lines += ["| " + " | ".join(str(cell).replace("|", "\\|") for cell in row) + " |" for row in rows]
    return lines


def _magic(amount: int) -> str:
    return f"{amount:,}"


def _effect(effect: Effect) -> str:
    params = " ".join(f"{k}={v}" for k, v in effect.params.items())
    return f"`{effect.kind}{' ' + params if params else ''}`"


def _histogram(cards: Mapping[str, PlayerCard]) -> list[str]:
    counts = Counter(card.stars for card in cards.values())
    stars = sorted(counts)
    return _table(
        ["stars", *(f"{s}★" for s in stars), "total"],
        [["cards", *(counts[s] for s in stars), len(cards)]],
    )


def _players(catalog: Catalog, cards: Mapping[str, PlayerCard], with_country: bool) -> list[str]:
    header = ["id", "name", "stars", "position"] + (["country"] if with_country else [])
    rows = []
    for card in cards.values():
        row: list[object] = [card.id, card.name, "★" * card.stars, card.position]
        if with_country and card.country is not None:
            row.append(f"{catalog.countries[card.country].name_en} ({card.country})")
        rows.append(row)
    return _table(header, rows)


def catalog_markdown(catalog: Catalog) -> str:
    """The whole catalog as one Markdown document."""
    out: list[str] = [
        "# Magic Football catalog",
        "",
        f"Catalog version `{catalog.version}`. Generated from `cards/data/*.json` by "
        "`.venv/bin/python manage.py catalog_markdown` — do not edit by hand. The design decisions behind "
        "the data are in `docs/RULES.md` (“The catalog”).",
        "",
        "## What is in the box",
        "",
    ]
    out += _table(
        ["kind", "cards", "ids"],
        [
            ["Country cards", len(catalog.countries), "FIFA trigrams (NED, BRA …)"],
            ["Field players", len(catalog.field_players), "F001..F103"],
            ["Keepers", len(catalog.keepers), "K01..K33"],
            ["Rival players (yellow)", len(catalog.rivals), "R01..R22"],
            ["Match cards", len(catalog.match_cards), "M01..M40"],
            ["Money cards", len(catalog.money_cards), "G01..G22"],
        ],
    )
    out += ["", "All player names are invented; none belongs to a real footballer.", ""]

    out += ["## Class table", "", "Exactly as the rulebook's KLASSENTABEL. Entry cost = class × 100,000.", ""]
    out += _table(
        [
            "class",
            "selection",
            "entry cost",
            "visit fee",
            "field players dealt",
            "keepers dealt",
            "field players returned",
            "keepers returned",
            "countries",
        ],
        [
            [
                row.klass,
                row.selection,
                _magic(row.entry_cost),
                _magic(row.visit_fee),
                row.field_dealt,
                row.keepers_dealt,
                row.field_returned,
                row.keepers_returned,
                sum(c.klass == row.klass for c in catalog.countries.values()),
            ]
            for row in catalog.classes.values()
        ],
    )

    european = sum(c.european for c in catalog.countries.values())
    out += [
        "",
        "## Countries",
        "",
        f"{len(catalog.countries)} countries (World Cup mode), {european} of them European (European "
        f"Championship mode). Classes from the FIFA/Coca-Cola men's World Ranking of {catalog.ranking_date}. "
        "The flag is the `flag-icons` code.",
        "",
    ]
    out += _table(
        ["id", "country", "land", "class", "European", "FIFA rank", "flag"],
        [
            [c.id, c.name_en, c.name_nl, c.klass, "yes" if c.european else "", c.fifa_rank, f"`{c.flag}`"]
            for c in sorted(catalog.countries.values(), key=lambda c: c.fifa_rank)
        ],
    )

    out += ["", "## Field players", "", "2–6 stars; the 5★ and 6★ players are the rarest.", ""]
    out += _histogram(catalog.field_players)
    out += [""]
    out += _players(catalog, catalog.field_players, with_country=True)

    out += ["", "## Keepers", "", "3–5 stars; the 5★ keepers are the rarest.", ""]
    out += _histogram(catalog.keepers)
    out += [""]
    out += _players(catalog, catalog.keepers, with_country=True)

    out += [
        "",
        "## Rival players",
        "",
        "Yellow field players of no country: they play for every uncontracted country (the Assistant-Coach "
        "plays them). 11 of the 22 are dealt to a rival side, plus one keeper from the keeper stack.",
        "",
    ]
    out += _histogram(catalog.rivals)
    out += [""]
    out += _players(catalog, catalog.rivals, with_country=False)

    colours = Counter(card.color.value for card in catalog.match_cards.values())
    out += [
        "",
        "## Match cards",
        "",
        f"{colours['green']} green (beside your own card in action), {colours['red']} red (beside the "
        "opponent's). P / C: may be played during a Penalty / Corner moment. Seed = printed in the rulebook.",
        "",
    ]
    out += _table(
        ["id", "name", "naam", "colour", "target", "P", "C", "effect", "text"],
        [
            [
                m.id,
                m.name_en + (" (seed)" if m.seed else ""),
                m.name_nl,
                m.color.value,
                m.target.value,
                "P" if m.penalty_ok else "~~P~~",
                "C" if m.corner_ok else "~~C~~",
                _effect(m.effect),
                m.text_en,
            ]
            for m in catalog.match_cards.values()
        ],
    )

    colours = Counter(card.color.value for card in catalog.money_cards.values())
    out += [
        "",
        "## Money cards",
        "",
        f"{colours['green']} green (gain), {colours['red']} red (cost). "
        "Shown to all, executed, then put under the stack (R6).",
        "",
    ]
    out += _table(
        ["id", "colour", "name", "text", "naam", "tekst", "effect"],
        [
            [g.id, g.color.value, g.name_en, g.text_en, g.name_nl, g.text_nl, _effect(g.effect)]
            for g in catalog.money_cards.values()
        ],
    )

    board = catalog.board
    kinds = Counter(square.kind for square in board.squares)
    out += [
        "",
        "## Board",
        "",
        f"The track has {len(board.squares)} squares, in order from Start (index 0); the pawn moves forward "
        f"and wraps to Start. Country squares: {', '.join(str(i) for i in board.country_squares)} "
        f"(the last one, {board.country_squares[-1]}, takes the Cup winner of the previous game, R18).",
        "",
    ]
    out += _table(
        ["square kind", "squares", "indexes"],
        [
            [
                SQUARE_LABELS[kind],
                kinds[kind],
                ", ".join(str(s.index) for s in board.squares if s.kind is kind),
            ]
            for kind in SquareKind
        ],
    )
    out += ["", "Track:", ""]
    out += [
        "- " + " → ".join(f"{s.index} {SQUARE_LABELS[s.kind]}" for s in board.squares[start : start + 10])
        for start in range(0, len(board.squares), 10)
    ]
    out += ["", "Card boxes at set-up:", ""]
    out += _table(
        ["box", "holds"],
        [[number, BOX_LABELS.get(content, content)] for number, content in board.card_boxes.items()],
    )
    out += [
        "",
        f"Finals boxes: {board.finals_boxes} (quarter-finals 1–5, 2–6, 3–7, 4–8). The middle circle is the "
        "Bonus Fund.",
        "",
        f"Starting capital per participant: {_magic(board.starting_capital)} magic = "
        + " + ".join(f"{n}×{_magic(v)}" for v, n in board.bills.items())
        + ".",
        "",
    ]
    return "\n".join(out)
