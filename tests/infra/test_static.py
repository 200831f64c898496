"""Every static file the pages reference exists, and every vendored package is pinned and licensed."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from django.contrib.staticfiles import finders

from cards.catalog.types import SquareKind

ROOT = Path(__file__).resolve().parents[2]
STATIC = ROOT / "static"
VENDOR = STATIC / "vendor"
APP_CSS = STATIC / "css" / "app.css"
VENDOR_README = VENDOR / "README.md"
VENDOR_DIRS = sorted([*VENDOR.glob("*-*/"), *(ROOT / "tests" / "vendor").glob("*-*/")])


def template_static_references() -> set[str]:
    refs: set[str] = set()
    for template in (ROOT / "templates").rglob("*.html"):
        refs.update(re.findall(r"""\{%\s*static\s+['"]([^'"]+)['"]\s*%\}""", template.read_text()))
    return refs


def test_templates_reference_only_existing_static_files() -> None:
    refs = template_static_references()
    assert "css/app.css" in refs and "img/board.svg" in refs
    missing = sorted(ref for ref in refs if finders.find(ref) is None)
    assert not missing, f"templates reference static files that do not exist: {missing}"


def test_stylesheet_urls_resolve() -> None:
    urls = re.findall(r"""url\(\s*["']?([^"')]+)["']?\s*\)""", APP_CSS.read_text())
    assert urls, "app.css should use the vendored icons"
    missing = sorted(u for u in urls if not (APP_CSS.parent / u).resolve().is_file())
    assert not missing, f"app.css points at files that do not exist: {missing}"


def test_every_square_kind_has_a_colour_and_an_icon() -> None:
    css = APP_CSS.read_text()
    for kind in SquareKind:
        assert re.search(rf"--sq-{kind.value}:\s*#[0-9a-f]{{6}}", css), f"no colour token for {kind.value}"
        assert re.search(rf"\.kind-{kind.value} \{{ --icon: url\(", css), f"no icon for {kind.value}"


def test_eight_participant_colours() -> None:
    css = APP_CSS.read_text()
    for seat in range(1, 9):
        assert re.search(rf"--p{seat}:\s*#[0-9a-f]{{6}}", css)
        assert f".seat-{seat} {{ --seat: var(--p{seat}); }}" in css


def test_reduced_motion_is_respected() -> None:
    css = APP_CSS.read_text()
    assert "@media (prefers-reduced-motion: reduce)" in css
    assert "prefers-reduced-motion: reduce" in (STATIC / "img" / "board.svg").read_text()


@pytest.mark.parametrize("folder", VENDOR_DIRS, ids=lambda p: p.name)
def test_vendored_package_is_pinned_licensed_and_documented(folder: Path) -> None:
    package, version = folder.name.rsplit("-", 1)
    assert re.fullmatch(r"\d+\.\d+\.\d+", version), f"{folder.name}: pin an exact version"
    assert (folder / "LICENSE").is_file(), f"{folder.name}: the licence file must be vendored too"
    readme = VENDOR_README.read_text()
    assert re.search(rf"\|\s*`{re.escape(package)}`\s*\|\s*{re.escape(version)}\s*\|", readme), (
        f"{folder.name} is not listed with its version in static/vendor/README.md"
    )


def test_a_flag_for_every_catalog_country() -> None:
    countries_file = ROOT / "cards" / "data" / "countries.json"
    if not countries_file.exists():
        pytest.skip("cards/data/countries.json is not written yet")
    countries = json.loads(countries_file.read_text())["countries"]
    flags = {country["flag"] for country in countries}
    vendored = {p.stem for p in (VENDOR / "flag-icons-7.5.0" / "flags" / "4x3").glob("*.svg")}
    assert flags <= vendored, f"missing flags: {sorted(flags - vendored)}"
    assert vendored <= flags, f"flags vendored for no country: {sorted(vendored - flags)}"
