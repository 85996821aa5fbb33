"""The site has an icon: /favicon.ico (asked for by browsers on their own) and the SVG icon the
page names are served as images, and opening the home page asks for nothing that is missing."""

from __future__ import annotations

import urllib.request

from playwright.sync_api import Browser, Response, expect


def test_the_favicon_is_served_and_nothing_is_missing(browser: Browser, server: str) -> None:
    for path, kind in (("/favicon.ico", "image/"), ("/icon.svg", "image/svg+xml")):
        with urllib.request.urlopen(server + path, timeout=5) as r:
            assert r.status == 200 and r.headers["content-type"].startswith(kind), (path, r.headers)
            assert len(r.read()) > 200, path
    missing: list[str] = []
    ctx = browser.new_context()
    page = ctx.new_page()

    def seen(r: Response) -> None:
        if r.status >= 400:
            missing.append(f"{r.status} {r.url}")

    page.on("response", seen)
    page.goto(server + "/")
    expect(page.locator("[data-testid=create]")).to_be_visible()
    icon = page.evaluate("[...document.querySelectorAll('link[rel=icon]')].map(l => l.href)")
    assert any(h.endswith("/icon.svg") for h in icon), icon
    assert missing == [], missing
    ctx.close()
