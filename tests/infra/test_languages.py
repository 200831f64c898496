"""German and Spanish are complete: every msgid of the catalog is translated, none fuzzy, placeholders and
HTML kept, the plural rule is the simple one, msgfmt accepts the files and the committed .mo says what the
.po says. A German or Spanish group must never meet an English sentence the catalog could have translated.

The .po parser and the catalog comparison are the Dutch test's (test_i18n.py); these checks are written as
functions returning the problems, so that one test can show they catch a blanked or fuzzy translation.
"""

from __future__ import annotations

import gettext
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from django.conf import settings
from test_i18n import PoEntry, expected_catalog, messages, parse_po, without_creation_date

ROOT = Path(__file__).resolve().parents[2]
LANGS = ("de", "es")
PLURAL_FORMS = "nplurals=2; plural=(n != 1);"
PLACEHOLDER = re.compile(r"%\(\w+\)[sd]|\{\s*\w+\s*\}")
TAG = re.compile(r"</?[a-zA-Z][^>]*>")


def po_path(lang: str) -> Path:
    return ROOT / "locale" / lang / "LC_MESSAGES" / "django.po"


def entries_of(lang: str) -> list[PoEntry]:
    return parse_po(po_path(lang).read_text(encoding="utf-8"))


def untranslated_or_fuzzy(entries: list[PoEntry]) -> list[str]:
    """Messages a reader would see in English: an empty form, or a fuzzy one (the compiler skips it)."""
    return [
        f"line {e.line}: {e.msgid!r}"
        for e in messages(entries)
        if not e.translated or "fuzzy" in e.flags or (e.msgid_plural is not None and set(e.msgstr) != {0, 1})
    ]


def broken_markup(entries: list[PoEntry]) -> list[str]:
    """Translations whose %(name)s / {name} placeholders or HTML tags differ from the msgid's."""
    broken = []
    for e in messages(entries):
        for index, text in e.msgstr.items():
            source = e.msgid_plural if (index and e.msgid_plural) else e.msgid
            if text and sorted(PLACEHOLDER.findall(text)) != sorted(PLACEHOLDER.findall(source)):
                broken.append(f"{e.msgid!r}[{index}]: placeholders of {text!r}")
            if text and sorted(TAG.findall(text)) != sorted(TAG.findall(source)):
                broken.append(f"{e.msgid!r}[{index}]: HTML of {text!r}")
            if text and (text[:1] == " ") != (source[:1] == " "):
                broken.append(f"{e.msgid!r}[{index}]: leading space")  # " after extra time" is glued on
    return broken


@pytest.mark.parametrize("lang", LANGS)
def test_every_message_is_translated_and_none_is_fuzzy(lang: str) -> None:
    missing = untranslated_or_fuzzy(entries_of(lang))
    assert not missing, f"untranslated or fuzzy msgids in locale/{lang}:\n" + "\n".join(missing)


@pytest.mark.parametrize("lang", LANGS)
def test_placeholders_and_html_survive_translation(lang: str) -> None:
    assert broken_markup(entries_of(lang)) == []


@pytest.mark.parametrize("lang", LANGS)
def test_the_catalog_has_every_msgid_the_dutch_one_has(lang: str) -> None:
    """`make messages` updates all three languages at once: a msgid missing here is English on the page."""
    dutch = {(e.msgctxt, e.msgid) for e in messages(parse_po(po_path("nl").read_text(encoding="utf-8")))}
    ours = {(e.msgctxt, e.msgid) for e in messages(entries_of(lang))}
    assert dutch - ours == set() and ours - dutch == set()
    assert len(ours) > 900


@pytest.mark.parametrize("lang", LANGS)
def test_header_names_the_language_and_the_two_plural_forms(lang: str) -> None:
    header = entries_of(lang)[0]
    assert header.msgid == "" and "fuzzy" not in header.flags
    assert f"Language: {lang}\n" in header.msgstr[0]
    assert f"Plural-Forms: {PLURAL_FORMS}\n" in header.msgstr[0]


@pytest.mark.parametrize("lang", LANGS)
def test_compiled_mo_matches_the_po(lang: str) -> None:
    mo = po_path(lang).with_suffix(".mo")
    assert mo.exists(), f"{mo} is missing: run `make messages` and commit it"
    with mo.open("rb") as handle:
        compiled = without_creation_date(gettext.GNUTranslations(handle)._catalog)  # type: ignore[attr-defined]
    assert compiled == without_creation_date(expected_catalog(entries_of(lang)))


@pytest.mark.skipif(shutil.which("msgfmt") is None, reason="GNU gettext (msgfmt) is not installed")
@pytest.mark.parametrize("lang", LANGS)
def test_msgfmt_check_accepts_the_po(lang: str, tmp_path: Path) -> None:
    proc = subprocess.run(
        ["msgfmt", "--check", "--statistics", "-o", str(tmp_path / "check.mo"), str(po_path(lang))],
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 0, proc.stderr
    assert "untranslated" not in proc.stderr and "fuzzy" not in proc.stderr, proc.stderr


def test_the_checks_catch_a_blanked_a_fuzzy_and_a_broken_translation() -> None:
    """The tests above can fail: one msgstr blanked, one marked fuzzy, one placeholder lost."""
    text = po_path("de").read_text(encoding="utf-8")
    assert untranslated_or_fuzzy(parse_po(text)) == []
    blanked = text.replace('msgstr "Spielstand"', 'msgstr ""', 1)
    assert [p for p in untranslated_or_fuzzy(parse_po(blanked)) if "'Score'" in p]
    fuzzy = text.replace('msgid "Score"\n', '#, fuzzy\nmsgid "Score"\n', 1)
    assert [p for p in untranslated_or_fuzzy(parse_po(fuzzy)) if "'Score'" in p]
    lost = text.replace("%(player)s schießt: daneben.", "Er schießt: daneben.", 1)
    assert len(broken_markup(parse_po(lost))) == 1


def test_settings_offer_the_four_languages_named_in_english() -> None:
    assert [(code, str(name)) for code, name in settings.LANGUAGES] == [
        ("en", "English"),
        ("nl", "Dutch"),
        ("de", "German"),
        ("es", "Spanish"),
    ]
