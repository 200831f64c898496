"""How the cards write a player's name (issue 23: long names spilled past the card frames).

HTML cards may break a long word, at a syllable (soft hyphens of the ``breakable`` filter); the open cards
on the board are SVG, which does not wrap, so their names go on two lines of at most 13 letters.
"""

from __future__ import annotations

from cards.catalog import get_catalog
from tournament.presentation.present import OPEN_CARD_LINE, name_lines
from tournament.templatetags.mf import SOFT_HYPHEN, breakable

CAT = get_catalog()
NAMES = [p.name for pile in (CAT.field_players, CAT.keepers, CAT.rivals) for p in pile.values()]


def test_long_words_break_at_syllables_and_read_the_same() -> None:
    assert breakable("Wout Vanderhaegen") == f"Wout Van{SOFT_HYPHEN}der{SOFT_HYPHEN}hae{SOFT_HYPHEN}gen"
    assert breakable("Alessandro Pellizzari").replace(SOFT_HYPHEN, "·") == "Ales·sandro Pel·liz·zari"
    assert breakable("Sem Wiegersma").replace(SOFT_HYPHEN, "·") == "Sem Wie·gersma"
    assert breakable("Tiago Mourão") == "Tiago Mourão"  # short words stay whole
    assert breakable("Morgan-Lloyd") == "Morgan-Lloyd"  # it breaks at its own hyphen
    for name in NAMES:
        marked = breakable(name)
        assert marked.replace(SOFT_HYPHEN, "") == name
        for word in marked.split(" "):
            parts = word.split(SOFT_HYPHEN)  # never one or two letters alone at a word's start or end
            if len(parts) > 1:
                assert len(parts[0]) >= 3 and len(parts[-1]) >= 3, word
                assert all(len(p) >= 2 for p in parts), word


def test_every_catalog_name_fits_an_open_card_on_the_board() -> None:
    assert name_lines("Alessandro Pellizzari") == ["Alessandro", "Pellizzari"]
    assert name_lines("Jhon Fredy Quiñones") == ["Jhon Fredy", "Quiñones"]
    assert name_lines("Tiago Mourão") == ["Tiago Mourão"]
    for name in NAMES:
        lines = name_lines(name)
        assert " ".join(lines) == name and len(lines) <= 2
        assert all(len(line) <= OPEN_CARD_LINE for line in lines), name
