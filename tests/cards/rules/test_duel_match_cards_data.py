"""The 40 match cards (cards/data/match_cards.json): schema, the four seed cards, real variety."""

from __future__ import annotations

import json
from collections import Counter

from duel_helpers import DATA, match_table

from cards.catalog.types import MATCH_EFFECT_KINDS
from cards.rules.duel_cards import compile_table

RAW = json.loads(DATA.read_text(encoding="utf-8"))
KEYS = {
    "id",
    "name_en",
    "name_nl",
    "text_en",
    "text_nl",
    "color",
    "target",
    "penalty_ok",
    "corner_ok",
    "effect",
    "seed",
}


def test_forty_cards_with_ids_m01_to_m40_and_the_documented_keys():
    assert RAW["version"] == "2026.1"
    assert [c["id"] for c in RAW["cards"]] == [f"M{i:02d}" for i in range(1, 41)]
    for c in RAW["cards"]:
        assert set(c) == KEYS, c["id"]
        assert c["color"] in ("green", "red")
        assert c["target"] in ("field", "keeper", "none")
        assert c["effect"]["kind"] in MATCH_EFFECT_KINDS
        assert isinstance(c["penalty_ok"], bool) and isinstance(c["corner_ok"], bool)
        for key in ("name_en", "name_nl", "text_en", "text_nl"):
            assert c[key].strip() == c[key] and len(c[key]) >= 3, (c["id"], key)


def test_the_four_seed_cards_are_exactly_as_printed():
    seeds = {c["id"]: c for c in RAW["cards"] if c["seed"]}
    assert {c["name_nl"] for c in seeds.values()} == {
        "Tackle",
        "Blessure",
        "Blinkt uit",
        "Doelpunt afgekeurd",
    }
    by_name = {c["name_nl"]: c for c in seeds.values()}
    tackle, injury, shines, disallow = (
        by_name[n] for n in ("Tackle", "Blessure", "Blinkt uit", "Doelpunt afgekeurd")
    )
    assert (tackle["color"], tackle["target"], tackle["effect"]) == (
        "green",
        "field",
        {"kind": "stars", "delta": 2},
    )
    assert "maximaal 7" in tackle["text_nl"]
    assert (injury["color"], injury["target"], injury["effect"]) == (
        "red",
        "field",
        {"kind": "stars", "delta": -1},
    )
    assert (shines["color"], shines["target"], shines["effect"]) == (
        "green",
        "field",
        {"kind": "stars", "delta": 1},
    )
    assert "maximaal 7" in shines["text_nl"]
    assert (disallow["color"], disallow["effect"]) == ("red", {"kind": "disallow_goal"})
    assert "volgende veldspeler" in disallow["text_nl"].lower()


def test_names_are_unique_in_both_languages():
    for key in ("name_en", "name_nl"):
        names = [c[key] for c in RAW["cards"]]
        assert len(set(names)) == 40, key


def test_every_card_compiles_for_the_engine():
    rules = compile_table(match_table())
    assert len(rules) == 40


def test_a_match_has_real_choices():
    """Star modifiers of several sizes for field and keeper, both colours; saves, moments, VAR ..."""
    kinds = Counter(c["effect"]["kind"] for c in RAW["cards"])
    assert kinds["penalty"] >= 2 and kinds["corner"] >= 2 and kinds["cancel"] >= 2
    assert kinds["free_swap"] >= 1 and kinds["force_next"] >= 1 and kinds["set_stars"] >= 2
    assert kinds["disallow_goal"] >= 2
    deltas = {
        (c["color"], c["target"], c["effect"]["delta"])
        for c in RAW["cards"]
        if c["effect"]["kind"] == "stars"
    }
    for colour, target in (("green", "field"), ("red", "field"), ("green", "keeper"), ("red", "keeper")):
        sizes = {d for col, t, d in deltas if (col, t) == (colour, target)}
        assert len(sizes) >= 2, (colour, target, sizes)
    saves = [c for c in RAW["cards"] if c["effect"]["kind"] == "set_stars" and c["target"] == "keeper"]
    assert len(saves) >= 2


def test_p_and_c_symbols_vary_meaningfully():
    modifiers = [c for c in RAW["cards"] if c["effect"]["kind"] in ("stars", "set_stars", "cancel")]
    flags = Counter((c["penalty_ok"], c["corner_ok"]) for c in modifiers)
    assert len(flags) == 4, flags  # P only, C only, both, neither all occur
    # cards that start a moment or act at once are never playable inside a moment
    for c in RAW["cards"]:
        if c["effect"]["kind"] in ("penalty", "corner", "free_swap", "force_next"):
            assert not c["penalty_ok"] and not c["corner_ok"], c["id"]
