"""The web client and the API docs work under the server's Content-Security-Policy: a real
browser reports no violation (`securitypolicyviolation` events) while a game is created, bots
join over the API, the board arrives over the websocket, and Swagger UI renders."""

from __future__ import annotations

from playwright.sync_api import Browser, Page, expect

WATCH = """
window.__csp = [];
document.addEventListener("securitypolicyviolation", (e) =>
  window.__csp.push(`${e.violatedDirective} ${e.blockedURI}`));
"""


def watched_page(browser: Browser, url: str) -> Page:
    page = browser.new_context().new_page()
    page.add_init_script(WATCH)
    page.goto(url)
    return page


def violations(page: Page) -> list[str]:
    found: list[str] = page.evaluate("window.__csp")
    return found


def test_the_game_page_works_under_its_policy(browser: Browser, server: str) -> None:
    page = watched_page(browser, server + "/")
    page.fill("input[name=game-name]", "CSP")
    page.select_option("select[name=players]", "2")
    page.click("[data-testid=create]")
    page.click("[data-testid=add-bot]")
    expect(page.locator("[data-testid=seats]")).to_contain_text("(bot)")
    page.click("[data-testid=add-bot]")
    expect(page.locator("[data-testid=game]")).to_be_visible(timeout=15000)
    expect(page.locator(".board")).to_be_visible()  # the state came over the websocket
    assert violations(page) == []


def test_the_api_docs_render_from_this_server_only(browser: Browser, server: str) -> None:
    docs = watched_page(browser, server + "/docs")
    expect(docs.locator(".opblock").first).to_be_visible(timeout=15000)
    assert violations(docs) == []
