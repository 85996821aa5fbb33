"""The game screen's layout where players found it wanting: on a phone the header leaves the map
the screen, the hand is in the turn's bottom sheet, a place's details card is as tall as its
lines and its title stays in view; the admin's banner and the language menu do not overlap; a
picked link has a colour no legend entry uses; the town picker's counts stay beside two-word
names. Every wait is on a condition."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Browser, Page, expect

from .test_browser import DESKTOP, PHONE

BANNER = ("Planned stop: the server restarts at 18:00 UTC for an upgrade, see "
          "https://example.org/status for the details and the new times")


def new_game(browser: Browser, server: str, viewport: dict[str, int], phone: bool) -> Page:
    """A game of the page's player and a bot, started; its page, at the player's turn."""
    extra = {"has_touch": True, "is_mobile": True} if phone else {}
    ctx = browser.new_context(viewport=viewport, **extra)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors  # type: ignore[attr-defined]
    page.route("**/api/banner", lambda r: r.fulfill(json={"text": BANNER}))
    page.goto(server + "/")
    page.fill("input[name=game-name]", "Layout")
    page.select_option("select[name=players]", "2")
    page.click("[data-testid=create]")
    page.click("[data-testid=add-bot]")
    expect(page.locator("[data-testid=seats]")).to_contain_text("(bot)")
    page.fill("input[name=name]", "Pat")
    page.click("[data-testid=join]")
    expect(page.locator("[data-testid=game]")).to_be_visible(timeout=10000)
    expect(page.locator("[data-kind][data-offer]").first).to_be_visible(timeout=30000)
    return page


def box(page: Page, selector: str) -> dict[str, float]:
    b = page.locator(selector).first.bounding_box()
    assert b, selector
    return b


def apart(a: dict[str, float], b: dict[str, float]) -> bool:
    return (a["x"] + a["width"] <= b["x"] or b["x"] + b["width"] <= a["x"]
            or a["y"] + a["height"] <= b["y"] or b["y"] + b["height"] <= a["y"])


def test_phone_header_sheet_and_details(browser: Browser, server: str, shots_dir: Path) -> None:
    page = new_game(browser, server, PHONE, phone=True)
    expect(page.locator("[data-testid=site-banner]")).to_be_visible()
    # the language menu comes under the banner, in the header, over neither's words
    assert apart(box(page, ".lang-switch"), box(page, "[data-testid=site-banner]"))
    assert apart(box(page, ".lang-switch"), box(page, "[data-testid=turnbar]"))
    # the header leaves the map the screen (it took ~245 px of 844)
    assert box(page, ".game-head")["height"] <= 150, box(page, ".game-head")
    # the hand is in the turn's sheet, reached by scrolling the sheet, not the page
    hand = page.locator(".turn-sheet [data-testid=hand]")
    expect(hand).to_have_count(1)
    page.locator("[data-kind=build]").tap()
    page.evaluate("document.querySelector('.turn-sheet').scrollTop = 1e5")
    expect(hand.locator("[data-testid=hand-title]")).to_be_in_viewport()
    page.screenshot(path=str(shots_dir / "layout-phone-sheet-hand.png"))
    page.locator("[data-kind=build]").tap()  # the action put down again
    expect(page.locator("[data-testid=hint]")).to_have_count(0)
    # a place's card: as tall as its lines, its title and close button in view, also with the
    # page scrolled
    for scroll, place in ((0, "birmingham:0"), (300, "coventry:0")):
        page.evaluate(f"window.scrollTo(0, {scroll})")
        page.locator(f"[data-slot='{place}']").tap()
        card = page.locator("[data-testid=details]")
        expect(card).to_be_visible()
        b = card.bounding_box()
        assert b and b["y"] >= 0 and b["height"] < 160, b
        expect(card.locator(".close")).to_be_in_viewport()
        page.screenshot(path=str(shots_dir / f"layout-phone-details-{scroll}.png"))
        card.locator(".close").tap()
        expect(card).to_have_count(0)
    # right to left: the same, mirrored
    page.evaluate("window.scrollTo(0, 0)")
    page.select_option("[data-testid=language]", "fa")
    expect(page.locator("html[dir=rtl]")).to_have_count(1)
    assert apart(box(page, ".lang-switch"), box(page, "[data-testid=site-banner]"))
    assert apart(box(page, ".lang-switch"), box(page, "[data-testid=turnbar]"))
    assert box(page, ".game-head")["height"] <= 150
    page.screenshot(path=str(shots_dir / "layout-phone-fa.png"))
    assert not page.errors  # type: ignore[attr-defined]
    page.context.close()


def test_laptop_picked_link_picker_and_banner(browser: Browser, server: str,
                                              shots_dir: Path) -> None:
    page = new_game(browser, server, DESKTOP, phone=False)
    assert apart(box(page, ".lang-switch"), box(page, "[data-testid=site-banner]"))
    # a picked link is drawn in a colour of its own, not the legend's canal-only blue
    page.click("[data-kind=network]")
    page.locator("svg.board .link.target").first.dispatch_event("click")
    picked = page.locator("svg.board .link.selected .link-free")
    expect(picked).to_have_count(1)
    colour = picked.evaluate("e => getComputedStyle(e).stroke")
    legend = page.evaluate("""() => [...document.querySelectorAll('svg.board .legend *')]
        .map(e => getComputedStyle(e).stroke).concat(
          [...document.querySelectorAll('svg.board .link-free.canal-only')].slice(0, 1)
            .map(e => getComputedStyle(e).stroke))""")
    assert colour not in legend, (colour, legend)
    page.screenshot(path=str(shots_dir / "layout-laptop-picked-link.png"))
    # the town picker: a two-word town's count on its name's line
    page.click("[data-kind=build]")
    expect(page.locator("[data-pick-town]").first).to_be_visible()
    # each count beside its name (centred on the button), not on a line under it
    off = page.evaluate("""() => [...document.querySelectorAll('[data-pick-town]')].map(b => {
        const r = b.getBoundingClientRect(), c = b.querySelector('.count').getBoundingClientRect();
        return [b.dataset.pickTown, Math.abs((c.top + c.bottom) / 2 - (r.top + r.bottom) / 2),
                r.right - c.right]; })""")
    assert off and all(dy < 4 and dx < 20 for _, dy, dx in off), off
    page.screenshot(path=str(shots_dir / "layout-laptop-picker.png"))
    assert not page.errors  # type: ignore[attr-defined]
    page.context.close()
