"""Template helpers of the room pages: money in the reader's locale, stars, fresh action ids."""

from __future__ import annotations

import functools
import re
from typing import Any

from django import template

from tournament.presentation.eventlog import money_text
from tournament.presentation.present import new_action_id, stars_text

register = template.Library()


@register.filter
def money(value: Any) -> str:
    """``1250000|money`` → "1,250,000 M" (English) or "1.250.000 M" (Dutch)."""
    return money_text(value)


@register.filter
def stars(value: Any) -> str:
    """``4|stars`` → "★★★★☆"."""
    try:
        return stars_text(int(value))
    except (TypeError, ValueError):
        return ""


VOWELS = frozenset("aeiouyàáâäãåæèéêëìíîïòóôöõøœùúûüýÿ")
SOFT_HYPHEN = "\u00ad"


@register.filter
def breakable(name: Any) -> str:
    """A player's name with soft hyphens between the syllables of its long words (9 letters or more).

    A card is narrow: a word like "Vanderhaegen" may be wider than its frame. The browser then breaks it
    at a syllable with a visible hyphen ("Vanderhae-gen") instead of at any letter; the hyphens are
    invisible otherwise. Syllables by the two common rules: V|CV and VC|CV, never within three letters of
    either end of the word.
    """
    return " ".join(_syllables(word) for word in str(name).split(" "))


def _syllables(word: str) -> str:
    if len(word) < 9 or not word.isalpha():
        return word
    low = word.lower()
    vowel = [ch in VOWELS for ch in low]
    out = []
    for i, ch in enumerate(word):
        if 3 <= i <= len(word) - 3 and vowel[i + 1] and not vowel[i] and (vowel[i - 1] or vowel[i - 2]):
            out.append(SOFT_HYPHEN)
        out.append(ch)
    return "".join(out)


@register.simple_tag
def action_id() -> str:
    """A fresh client action id for one form."""
    return new_action_id()


@register.filter
def get(mapping: Any, key: Any) -> Any:
    """``mapping|get:key`` for dicts keyed by numbers or names."""
    if isinstance(mapping, dict):
        return mapping.get(key, mapping.get(str(key)))
    return None


@register.filter
def percent(value: Any, total: Any) -> float:
    """``value|percent:total`` for progress bars."""
    try:
        return round(100 * float(value) / float(total), 1) if float(total) else 0.0
    except (TypeError, ValueError):
        return 0.0


@register.simple_tag
def icon_sprite() -> str:
    """An inline SVG sprite of the vendored lucide icons the board draws (``<use href="#mf-ico-shirt">``)."""
    return _sprite()


@functools.cache
def _sprite() -> str:
    from django.contrib.staticfiles import finders
    from django.utils.safestring import mark_safe

    from tournament.presentation.present import SPRITE_ICONS

    symbols = []
    for name in SPRITE_ICONS:
        path = finders.find(f"vendor/lucide-static-1.62.0/icons/{name}.svg")
        if not path:
            continue
        with open(path, encoding="utf-8") as handle:
            text = handle.read()
        inner = re.sub(r"^.*?<svg[^>]*>|</svg>\s*$", "", text, flags=re.S).strip()
        inner = re.sub(r"<!--.*?-->", "", inner, flags=re.S)
        symbols.append(
            f'<symbol id="mf-ico-{name}" viewBox="0 0 24 24" fill="none" stroke="currentColor" '
            f'stroke-width="2" stroke-linecap="round" stroke-linejoin="round">{inner}</symbol>'
        )
    return mark_safe(
        '<svg class="icon-sprite" aria-hidden="true" focusable="false" width="0" height="0">'
        + "".join(symbols)
        + "</svg>"
    )
