"""The end screen's final scores at a laptop (1280×800) and on a phone (390×844), when a seat
resigned, another timed out and both paid VP for income they could not pay: the "Lost" column
and the notes of who resigned or ran out of time widen the table, and in English every column,
Money the last, must still be on the screen unscrolled; in longer words (Polish, Persian) the
table may scroll in its own box, never the page. The game is a golden one (two players, VP lost
by both), imported finished; the seats' stand-ins are then written in its seats' rows, as the
server writes them when a player resigns or runs out of time."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect
from sqlalchemy import create_engine, update

from brass.server.tables import seats
from brass.server.transfer import import_record

from .test_browser import DESKTOP, PHONE
from .test_screenshots import GOLDEN, finished_record

LOST_VP = GOLDEN.with_name("2p-uniform.json")  # both seats lose VP to unpaid income
NAME = "Lost and resigned"
LAPTOP = DESKTOP
assert LAPTOP == {"width": 1280, "height": 800} and PHONE == {"width": 390, "height": 844}


@pytest.fixture(scope="module")
def lost_game(server_db: str) -> str:
    """The game's id: seat 0 resigned, seat 1 ran out of time."""
    game_id = import_record(server_db, finished_record(LOST_VP, "end-lost-column", NAME))
    engine = create_engine(server_db)
    with engine.begin() as conn:
        for seat, why in ((0, "resigned"), (1, "timeout")):
            conn.execute(update(seats).where(seats.c.game_id == game_id, seats.c.seat == seat)
                         .values(stand_in=why))
    engine.dispose()
    return game_id


def seen(page: Page, selector: str) -> Any:
    """Where the element is, what the window and the page measure, what the browser shows at
    the element's centre (the element itself, unless something covers it), and where the
    table's own scrolling box is (what lies outside it is clipped)."""
    return page.eval_on_selector(selector, """el => {
        const r = el.getBoundingClientRect();
        const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
        const box = el.closest('[data-testid=summary-scroll]').getBoundingClientRect();
        return {left: r.left, right: r.right, top: r.top, bottom: r.bottom,
                window: innerWidth, page: document.documentElement.scrollWidth,
                body: document.body.scrollWidth, hit: top ? top.outerHTML.slice(0, 80) : null,
                shown: !!top && el.contains(top), box: {left: box.left, right: box.right}};
    }""")


def widths(page: Page) -> Any:
    """Each header cell's text and width, and the table's box's (for a failure's message)."""
    return page.eval_on_selector_all("[data-testid=summary] thead th, [data-testid=summary-scroll]",
                                     "els => els.map(e => [e.textContent.slice(0, 12),"
                                     " Math.round(e.getBoundingClientRect().width)])")


def end_screen(browser: Browser, server: str, game_id: str, viewport: dict[str, int],
               locale: str) -> tuple[Page, list[str]]:
    """The finished game's page in a language, its final scores in view (brought there by the
    page's own vertical scroll; the table's left as it opens) and its errors."""
    ctx = browser.new_context(viewport=viewport, locale=locale)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{server}/#/game/{game_id}")
    summary = page.locator("[data-testid=summary]")
    expect(summary.locator("[data-testid=summary-lost-0]")).to_be_visible(timeout=15000)
    expect(summary.locator("[data-testid=summary-resigned]")).to_have_count(1)
    expect(summary.locator("[data-testid=summary-timeout]")).to_have_count(1)
    # #, player, four era columns, Lost, VP, Money
    expect(summary.locator("thead th")).to_have_count(9)
    summary.evaluate("el => el.scrollIntoView({block: 'nearest'})")
    page.wait_for_function("() => document.fonts.ready.then(() => true)")
    return page, errors


def in_view(page: Page, selector: str) -> tuple[bool, dict[str, Any]]:
    """Is the element whole in the window and in the table's box, and shown at its centre?"""
    where = seen(page, f"[data-testid=summary] {selector}")
    inside = (0 <= where["box"]["left"] <= where["left"] + 0.5
              and where["right"] <= where["box"]["right"] + 0.5 <= where["window"] + 0.5)
    return inside and where["shown"], where


def test_every_final_score_column_is_on_the_screen(browser: Browser, server: str,
                                                   lost_game: str, shots_dir: Path) -> None:
    for label, viewport in (("laptop", LAPTOP), ("phone", PHONE)):
        page, errors = end_screen(browser, server, lost_game, viewport, "en-GB")
        expect(page.locator("[data-testid=summary] thead th").last).to_have_text("Money")
        page.screenshot(path=str(shots_dir / f"end-lost-{label}.png"))
        # Money's header and first cell whole in the window and in the table's box, unscrolled;
        # the page no wider than the window
        for selector in ("thead th:last-child", "tbody tr:first-child td:last-child"):
            shown, where = in_view(page, selector)
            assert shown, (label, selector, where, widths(page))
            assert where["page"] <= where["window"] and where["body"] <= where["window"], (
                label, where)
        assert errors == [], errors
        page.context.close()


def test_longer_words_scroll_the_final_scores_not_the_page(browser: Browser, server: str,
                                                           lost_game: str,
                                                           shots_dir: Path) -> None:
    """Where a language's words do not fit a phone, the table scrolls sideways in its own box
    to its last column, the player's name held in view, and the page never scrolls sideways."""
    for lang in ("pl-PL", "fa-IR"):
        page, errors = end_screen(browser, server, lost_game, PHONE, lang)
        page.screenshot(path=str(shots_dir / f"end-lost-phone-{lang}.png"))
        # a region a keyboard can reach (and so scroll), named as the panel
        scroller = page.locator("[data-testid=summary-scroll]")
        expect(scroller).to_have_attribute("tabindex", "0")
        expect(scroller).to_have_attribute("role", "region")
        scroller.focus()
        expect(scroller).to_be_focused()
        page.locator("[data-testid=summary] thead th:last-child").evaluate(
            "el => el.scrollIntoView({inline: 'nearest', block: 'nearest'})")
        page.screenshot(path=str(shots_dir / f"end-lost-phone-{lang}-scrolled.png"))
        for selector in ("thead th:last-child", "tbody tr:first-child td.who"):
            shown, where = in_view(page, selector)
            assert shown, (lang, selector, where, widths(page))
            assert where["page"] <= where["window"] and where["body"] <= where["window"], (
                lang, where)
        assert errors == [], errors
        page.context.close()
