"""The language menu covers nothing (web/src/styles.css). Fixed at the bottom of the window it
covered what scrolled under it: a phone's "Create game" below a long desk, the account page's
devices. On the home page (with a desk) and the account page, at a phone's and a laptop's size,
in English and in Persian (right to left), with each control scrolled to the window's top and
to its bottom, the menu's box overlaps no link, button or field."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, ViewportSize, expect

from .test_notices import join, player
from .test_seat_links import post

SIZES: dict[str, ViewportSize] = {"phone": {"width": 390, "height": 844},
                                  "laptop": {"width": 1280, "height": 800}}
# each visible control, scrolled to the window's top and to its bottom: where the menu's box
# (getBoundingClientRect, as Playwright's bounding_box) overlaps it
COVERED = """() => {
    const menu = document.querySelector(".lang-switch");
    const covered = [];
    const controls = "a[href], button, input, select, summary, textarea";
    for (const el of document.querySelectorAll(controls)) {
        if (menu.contains(el) || !el.getClientRects().length) continue;
        for (const block of ["start", "end"]) {
            el.scrollIntoView({block});
            const a = menu.getBoundingClientRect(), b = el.getBoundingClientRect();
            if (a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom)
                covered.push(`${el.outerHTML.slice(0, 80)} scrolled to the ${block}: menu at `
                    + `${[a.x, a.y, a.width, a.height].map(Math.round)}, it at `
                    + `${[b.x, b.y, b.width, b.height].map(Math.round)}`);
        }
    }
    return covered;
}"""


@pytest.mark.parametrize("size", SIZES)
def test_the_language_menu_covers_no_control(browser: Browser, server: str, size: str) -> None:
    ctx = player(browser, server)
    for n in range(8):  # a desk longer than a phone's screen
        join(ctx, server, post(server, "/api/games", {"players": 2, "name": f"Menu game {n}"}),
             "Ann")
    page = ctx.new_page()
    page.set_viewport_size(SIZES[size])
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    for lang in ("en", "fa"):
        for address, ready in (("/", "[data-testid=my-games] li[data-game]"),
                               ("/#/account", "[data-testid=devices] li")):
            page.goto(server + address)
            expect(page.locator(ready).first).to_be_visible(timeout=15000)
            page.select_option("[data-testid=language]", lang)
            expect(page.locator("html")).to_have_attribute("lang", lang)
            covered = page.evaluate(COVERED)
            assert not covered, f"{address} in {lang} on a {size}: {covered}"
    assert not errors, errors
    ctx.close()
