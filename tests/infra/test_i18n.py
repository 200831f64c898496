"""The Dutch translation is complete, and the committed .mo says exactly what the .po says.

A fresh machine may lack GNU gettext, so ``make run`` never compiles messages: the compiled .mo is committed,
and this test proves it is up to date by comparing catalogs (msgid → msgstr) instead of bytes, which also
keeps the check independent of the compiler that produced the file.
"""

from __future__ import annotations

import ast
import gettext
import shutil
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PO = ROOT / "locale" / "nl" / "LC_MESSAGES" / "django.po"
MO = PO.with_suffix(".mo")


@dataclass
class PoEntry:
    """One message of a .po file (only what the checks need)."""

    msgid: str = ""
    msgid_plural: str | None = None
    msgctxt: str | None = None
    msgstr: dict[int, str] = field(default_factory=dict)
    flags: set[str] = field(default_factory=set)
    obsolete: bool = False
    line: int = 0

    @property
    def translated(self) -> bool:
        """Every form has a non-empty translation (the header counts as translated when non-empty)."""
        return bool(self.msgstr) and all(self.msgstr.values())


def parse_po(text: str) -> list[PoEntry]:
    """Parse a .po file: msgctxt, msgid, msgid_plural, msgstr[n], #, flags and #~ obsolete entries."""
    entries: list[PoEntry] = []
    current: PoEntry | None = None
    target: tuple[str, int] | None = None

    def finish() -> None:
        nonlocal current, target
        if current is not None:
            entries.append(current)
        current, target = None, None

    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        obsolete = line.startswith("#~")
        if obsolete:
            line = line[2:].strip()
            if line.startswith("|"):  # previous msgid of an obsolete entry
                continue
        if not line:
            finish()
            continue
        if line.startswith("#,"):
            if current is not None and target is not None:
                finish()
            current = current or PoEntry(line=number)
            current.flags.update(flag.strip() for flag in line[2:].split(","))
            continue
        if line.startswith("#"):
            continue
        keyword, _, rest = line.partition(" ")
        if keyword.startswith('"'):
            if current is None or target is None:
                raise ValueError(f"line {number}: continuation outside an entry")
            _append(current, target, ast.literal_eval(line))
            continue
        if (
            keyword in {"msgctxt", "msgid"}
            and current is not None
            and target is not None
            and (target[0] not in {"msgctxt"})
        ):
            finish()
        if current is None:
            current = PoEntry(line=number)
        current.obsolete = current.obsolete or obsolete
        value = ast.literal_eval(rest)
        if keyword == "msgctxt":
            current.msgctxt, target = value, ("msgctxt", 0)
        elif keyword == "msgid":
            current.msgid, target = value, ("msgid", 0)
        elif keyword == "msgid_plural":
            current.msgid_plural, target = value, ("msgid_plural", 0)
        elif keyword.startswith("msgstr"):
            index = int(keyword[7:-1]) if keyword.startswith("msgstr[") else 0
            current.msgstr[index] = value
            target = ("msgstr", index)
        else:
            raise ValueError(f"line {number}: unknown keyword {keyword!r}")
    finish()
    return entries


def _append(entry: PoEntry, target: tuple[str, int], value: str) -> None:
    name, index = target
    if name == "msgstr":
        entry.msgstr[index] += value
    else:
        setattr(entry, name, (getattr(entry, name) or "") + value)


def expected_catalog(entries: list[PoEntry]) -> dict[object, str]:
    """What msgfmt puts in the .mo: translated, non-fuzzy, non-obsolete entries (header included)."""
    catalog: dict[object, str] = {}
    for entry in entries:
        if entry.obsolete or "fuzzy" in entry.flags or not entry.translated:
            continue
        key = entry.msgid if entry.msgctxt is None else f"{entry.msgctxt}\x04{entry.msgid}"
        if entry.msgid_plural is None:
            catalog[key] = entry.msgstr[0]
        else:
            for index, text in entry.msgstr.items():
                catalog[(key, index)] = text
    return catalog


def without_creation_date(catalog: dict[object, str]) -> dict[object, str]:
    """The header minus POT-Creation-Date, which GNU msgfmt leaves out of the .mo."""
    header = "".join(
        line for line in catalog.get("", "").splitlines(True) if not line.startswith("POT-Creation")
    )
    return {**catalog, "": header}


def messages(entries: list[PoEntry]) -> list[PoEntry]:
    """The real messages: not the header, not obsolete."""
    return [e for e in entries if e.msgid and not e.obsolete]


@pytest.fixture(scope="module")
def entries() -> list[PoEntry]:
    return parse_po(PO.read_text(encoding="utf-8"))


def test_dutch_po_has_messages_from_the_templates(entries: list[PoEntry]) -> None:
    ids = {e.msgid for e in messages(entries)}
    assert "Create room" in ids and "How to play" in ids, "makemessages has not been run for the landing page"


def test_every_dutch_message_is_translated(entries: list[PoEntry]) -> None:
    missing = [f"line {e.line}: {e.msgid!r}" for e in messages(entries) if not e.translated]
    assert not missing, "untranslated msgids in locale/nl (run `make messages` and translate):\n" + "\n".join(
        missing
    )


def test_no_dutch_message_is_fuzzy(entries: list[PoEntry]) -> None:
    fuzzy = [f"line {e.line}: {e.msgid!r}" for e in messages(entries) if "fuzzy" in e.flags]
    assert not fuzzy, "fuzzy translations are ignored by the compiler; review them:\n" + "\n".join(fuzzy)


def test_python_format_placeholders_survive_translation(entries: list[PoEntry]) -> None:
    import re

    placeholder = re.compile(r"%\((\w+)\)[sd]|\{\s*(\w+)\s*\}")
    broken = []
    for entry in messages(entries):
        wanted = {m for groups in placeholder.findall(entry.msgid) for m in groups if m}
        for text in entry.msgstr.values():
            found = {m for groups in placeholder.findall(text) for m in groups if m}
            if entry.translated and found != wanted:
                broken.append(f"{entry.msgid!r}: {sorted(wanted)} vs {sorted(found)}")
    assert not broken, "\n".join(broken)


def test_compiled_mo_matches_the_po(entries: list[PoEntry]) -> None:
    assert MO.exists(), "locale/nl/LC_MESSAGES/django.mo is missing: run `make messages` and commit it"
    with MO.open("rb") as handle:
        compiled = without_creation_date(gettext.GNUTranslations(handle)._catalog)  # type: ignore[attr-defined]
    expected = without_creation_date(expected_catalog(entries))
    stale = sorted(str(k) for k in expected.keys() ^ compiled.keys())
    changed = sorted(str(k) for k in expected.keys() & compiled.keys() if expected[k] != compiled[k])
    assert not stale and not changed, (
        "django.mo is out of date with django.po (run `make messages`): "
        f"differing keys {stale[:10]}, changed translations {changed[:10]}"
    )


@pytest.mark.skipif(shutil.which("msgfmt") is None, reason="GNU gettext (msgfmt) is not installed")
def test_msgfmt_accepts_the_po(tmp_path: Path) -> None:
    proc = subprocess.run(
        ["msgfmt", "--check", "-o", str(tmp_path / "check.mo"), str(PO)], capture_output=True, text=True
    )
    assert proc.returncode == 0, proc.stderr
    with (tmp_path / "check.mo").open("rb") as handle, MO.open("rb") as committed:
        assert gettext.GNUTranslations(handle)._catalog == gettext.GNUTranslations(committed)._catalog  # type: ignore[attr-defined]


def test_parser_reads_plurals_contexts_and_fuzzy_flags() -> None:
    text = (
        'msgid ""\nmsgstr ""\n"Language: nl\\n"\n\n'
        '#, fuzzy\nmsgid "Old"\nmsgstr "Oud"\n\n'
        'msgctxt "square"\nmsgid "Start"\nmsgstr "Start"\n\n'
        'msgid "one card"\nmsgid_plural "%(n)s cards"\nmsgstr[0] "één kaart"\nmsgstr[1] "%(n)s kaarten"\n\n'
        'msgid ""\n"long "\n"text"\nmsgstr ""\n\n'
        '#~ msgid "Gone"\n#~ msgstr "Weg"\n'
    )
    parsed = parse_po(text)
    assert [e.msgid for e in parsed] == ["", "Old", "Start", "one card", "long text", "Gone"]
    assert parsed[1].flags == {"fuzzy"} and parsed[2].msgctxt == "square"
    assert parsed[3].msgstr == {0: "één kaart", 1: "%(n)s kaarten"}
    assert not parsed[4].translated and parsed[5].obsolete
    assert expected_catalog(parsed) == {
        "": "Language: nl\n",
        "square\x04Start": "Start",
        ("one card", 0): "één kaart",
        ("one card", 1): "%(n)s kaarten",
    }
