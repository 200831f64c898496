"""Grid football's words reach every reader in his language: each log sentence (sentences.py), each refusal a
player reads (rules.py's line-up and move errors) and each room option is translated into Dutch, German and
Spanish, and a line is told in Dutch with its values filled in."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from django.utils import translation
from django.utils.translation import trans_real

from games.api import MatchEvent, get_game
from games.grid_football import rules, sentences

GAME = get_game("grid-football")


def _msgids(module_file: str) -> set[str]:
    source = Path(module_file).read_text(encoding="utf-8")
    calls = re.findall(r"N_\(\s*((?:\"(?:[^\"\\]|\\.)*\"\s*)+)\)", source)
    return {"".join(ast.literal_eval(part) for part in re.findall(r"\"(?:[^\"\\]|\\.)*\"", c)) for c in calls}


def _game_ids() -> set[str]:
    ids = (
        _msgids(sentences.__file__)
        | _msgids(rules.__file__)
        | _msgids(Path(sentences.__file__).parent / "__init__.py")
    )
    ids |= {label for option in GAME.options for _value, label in option.choices} | {GAME.title, GAME.summary}
    return ids


@pytest.mark.parametrize("lang", ["nl", "de", "es"])
def test_every_sentence_refusal_and_option_is_translated(lang: str) -> None:
    catalog = trans_real.translation(lang)._catalog
    ids = _game_ids()
    assert len(ids) > 100  # the sentences, the refusals and the options
    assert "a line-up names 11 players, not %(n)s: a twelfth pawn is not allowed" in ids
    missing = sorted(m for m in ids if m not in catalog)
    assert not missing, missing


def test_a_line_is_told_in_dutch_with_its_values() -> None:
    event = MatchEvent("foul", {"side": "home", "player": 4, "victim": 9, "square": "5,3", "penalty": True})
    line = GAME.line(event)
    assert line is not None and line.params["player"].kind == "side"
    values = {
        k: ("Ann" if k == "player" else "Ben" if k == "opponent" else v) for k, v in line.params.items()
    }
    with translation.override("nl"):
        text = translation.gettext(line.text) % values
    assert (
        text
        == "Overtreding! Nr. 4 van Ann haalt nr. 9 van Ben neer op 5,3, in het strafschopgebied: strafschop!"
    )
