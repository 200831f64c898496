"""The landing page in real Chromium, served by daphne: assets load, it is accessible, it fits a phone."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

AXE = Path(__file__).resolve().parents[1] / "vendor" / "axe-core-4.14.1" / "axe.min.js"
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}


@pytest.fixture
def server(daphne_server: Callable[..., Any]) -> Any:
    return daphne_server()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport=DESKTOP, locale="en-GB")
    page = context.new_page()
    page.set_default_timeout(15_000)
    try:
        yield page
    finally:
        context.close()


def open_landing(page: Any, url: str) -> list[str]:
    """Load the page and return every request that failed or answered with an error status."""
    failures: list[str] = []
    page.on("requestfailed", lambda request: failures.append(f"failed {request.url}"))
    page.on("response", lambda r: failures.append(f"{r.status} {r.url}") if r.status >= 400 else None)
    page.goto(url + "/", wait_until="networkidle")
    return failures


def test_every_asset_loads_and_htmx_is_the_pinned_version(page: Any, server: Any) -> None:
    failures = open_landing(page, server.url)
    assert failures == []
    assert page.title().startswith("Magic Football")
    assert page.evaluate("window.htmx && htmx.version") == "2.0.11"
    # the board picture really rendered (an <img> that failed to decode has naturalWidth 0)
    assert page.eval_on_selector(".hero__board img", "img => img.complete && img.naturalWidth") > 0


def test_no_serious_accessibility_violations(page: Any, server: Any) -> None:
    open_landing(page, server.url)
    page.add_script_tag(path=str(AXE))
    result = page.evaluate(
        "async () => (await axe.run(document)).violations"
        ".map(v => ({id: v.id, impact: v.impact, nodes: v.nodes.map(n => n.target.join(' ')).slice(0, 3)}))"
    )
    serious = [v for v in result if v["impact"] in {"serious", "critical"}]
    assert serious == [], serious


def test_switching_to_dutch_with_the_header_buttons(page: Any, server: Any) -> None:
    open_landing(page, server.url)
    page.get_by_role("button", name="Nederlands").click()
    page.wait_for_load_state("networkidle")
    assert page.locator("html").get_attribute("lang") == "nl"
    assert page.get_by_role("heading", name="Een kamer openen").is_visible()
    assert page.get_by_role("button", name="Kamer openen").is_visible()


def test_phone_layout_has_no_sideways_scrolling(browser: Any, server: Any) -> None:
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    try:
        page = context.new_page()
        page.goto(server.url + "/", wait_until="networkidle")
        overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
        assert overflow <= 0, f"the page is {overflow}px wider than a phone screen"
        # the create form's main button is thumb-sized
        box = page.get_by_role("button", name="Create room").bounding_box()
        assert box is not None and box["height"] >= 44
    finally:
        context.close()


def test_reduced_motion_turns_off_animations(browser: Any, server: Any) -> None:
    context = browser.new_context(reduced_motion="reduce")
    try:
        page = context.new_page()
        page.goto(server.url + "/", wait_until="networkidle")
        probe = '<span id="probe" class="money money--up">1</span>'
        page.evaluate("html => document.body.insertAdjacentHTML('beforeend', html)", probe)
        duration = page.eval_on_selector("#probe", "el => getComputedStyle(el).animationDuration")
        assert duration in {"1e-05s", "0.00001s"}, duration
    finally:
        context.close()
