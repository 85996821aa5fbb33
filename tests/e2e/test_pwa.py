"""The installable app (web/vite.config.ts, web/src/sw.ts), in a real chromium.

The server answers the manifest, its icons, the favicon and the apple-touch icon; chromium finds
the site installable (no errors from the DevTools `Page.getInstallabilityErrors`: 127.0.0.1 is a
secure origin); the service worker registers and controls the page after a reload, holds the app
shell in its precache and no API response in any cache; and with the network cut a reload shows
the "no connection" page in each of the five languages (the words of web/src/i18n/<lang>.json),
which goes back to the game by itself once the server answers again.
"""

from __future__ import annotations

import json
import re
import shutil
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from .conftest import CHROMIUM_ARGS

CATALOGUES = Path(__file__).resolve().parents[2] / "web" / "src" / "i18n"
LANGS = ("en", "fa", "pl", "th", "ko")


def fetch(url: str) -> tuple[int, str, bytes]:
    with urllib.request.urlopen(url, timeout=10) as r:
        return r.status, r.headers.get("content-type", ""), r.read()


def catalogue(lang: str) -> dict[str, str]:
    return dict(json.loads((CATALOGUES / f"{lang}.json").read_text(encoding="utf-8")))


@pytest.fixture
def context(browser: Browser) -> Iterator[BrowserContext]:
    """A fresh profile: no service worker registered yet."""
    ctx = browser.new_context(locale="en-GB")
    yield ctx
    ctx.close()


WORKER = """async () => {
    const r = await navigator.serviceWorker.getRegistration();
    return r ? {active: r.active?.state ?? null, waiting: r.waiting?.state ?? null,
                installing: r.installing?.state ?? null, script: r.active?.scriptURL ?? null,
                controller: navigator.serviceWorker.controller?.scriptURL ?? null} : null;
}"""


def activated(page: Page, server: str) -> None:
    """Wait until the page's service worker is activated (what it was, if it never is)."""
    deadline = time.monotonic() + 30
    while (worker := page.evaluate(WORKER)) is None or worker["active"] != "activated":
        assert time.monotonic() < deadline, f"no activated worker after 30 s: {worker}"
        page.wait_for_timeout(100)
    assert worker["script"] == f"{server}/sw.js", worker


def controlled(page: Page, server: str) -> None:
    controller = page.evaluate(WORKER)["controller"]
    assert controller == f"{server}/sw.js", f"after a reload: {page.evaluate(WORKER)}"


def controlled_page(context: BrowserContext, server: str) -> Page:
    """The home page, reloaded once its service worker is active: the worker controls it."""
    page = context.new_page()
    page.goto(server)
    activated(page, server)
    page.reload()
    controlled(page, server)
    return page


def test_the_manifest_the_favicon_and_the_icons_answer(server: str) -> None:
    status, kind, body = fetch(f"{server}/favicon.ico")
    assert status == 200 and body[:4] == b"\x00\x00\x01\x00", (status, kind, body[:8])
    status, kind, body = fetch(f"{server}/manifest.webmanifest")
    assert status == 200, status
    manifest = json.loads(body)
    expected = {"name": "Brass: Birmingham", "short_name": "Brass", "start_url": "/", "scope": "/",
                "display": "standalone", "theme_color": "#3b2a1a", "background_color": "#f6f1e6"}
    assert {k: manifest.get(k) for k in expected} == expected, manifest
    purposes = {(i["sizes"], i.get("purpose", "any")) for i in manifest["icons"]}
    assert {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")} <= purposes, purposes
    html = fetch(server + "/")[2].decode()
    links = re.findall(r'<link rel="(manifest|icon|apple-touch-icon)" href="([^"]+)"', html)
    assert {rel for rel, _ in links} == {"manifest", "icon", "apple-touch-icon"}, links
    for src in [i["src"] for i in manifest["icons"]] + [href for _, href in links]:
        status, kind, body = fetch(f"{server}/{src.lstrip('/')}")
        assert status == 200 and kind.startswith(("image/", "application/manifest+json")) \
            and body, (src, status, kind, len(body))


@pytest.fixture
def profile(browser: Browser, tmp_path: Path) -> Iterator[BrowserContext]:
    """A chromium with a profile on disk: chromium installs no app from an incognito profile
    (Playwright's `new_context`), so installability is judged in this one."""
    ctx = browser.browser_type.launch_persistent_context(
        tmp_path / "profile", executable_path=shutil.which("chromium"), args=CHROMIUM_ARGS)
    yield ctx
    ctx.close()


def test_the_worker_script_may_fetch_the_shell(server: str) -> None:
    """Its CSP (a worker's own) lets it fetch this origin; any other script gets none."""
    with urllib.request.urlopen(urllib.request.Request(
            f"{server}/sw.js", headers={"Service-Worker": "script"}), timeout=10) as r:
        policy = r.headers.get("content-security-policy", "")
    assert "connect-src 'self'" in policy and "default-src 'self'" in policy, policy
    with urllib.request.urlopen(f"{server}/registerSW.js", timeout=10) as r:
        assert r.headers.get("content-security-policy", "").startswith("default-src 'none'")


def test_chromium_finds_the_site_installable(profile: BrowserContext, server: str) -> None:
    context = profile
    page = context.pages[0] if context.pages else context.new_page()
    page.goto(server)
    cdp = context.new_cdp_session(page)
    app = cdp.send("Page.getAppManifest")
    assert app["url"] == f"{server}/manifest.webmanifest" and not app["errors"], app
    # chromium fetches and judges the manifest and its icons asynchronously: ask until it is sure
    deadline = time.monotonic() + 30
    while True:
        errors = cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]
        if not errors or time.monotonic() > deadline:
            break
        page.wait_for_timeout(200)
    assert errors == [], f"chromium says the site is not installable: {errors}"


def test_the_worker_controls_the_page_and_holds_the_shell_not_the_api(
        context: BrowserContext, server: str) -> None:
    page = context.new_page()
    page.goto(server)
    activated(page, server)
    with page.expect_response(lambda r: "/api/" in r.url) as api:
        page.reload()  # the home page asks the API (its list of games) under the worker
    assert api.value.ok, api.value.status
    controlled(page, server)
    cached: dict[str, list[str]] = page.evaluate("""async () => {
        const out = {};
        for (const name of await caches.keys())
            out[name] = (await (await caches.open(name)).keys()).map(r => r.url);
        return out;
    }""")
    urls = [u for names in cached.values() for u in names]
    shell = [u.split("?")[0].removeprefix(server) for u in urls]
    for path in ("/index.html", "/offline.html", "/favicon.ico", "/manifest.webmanifest"):
        assert path in shell, f"{path} is not in the caches: {cached}"
    assert any(re.fullmatch(r"/assets/main-[\w-]+\.js", p) for p in shell), cached
    assert any(p.endswith(".css") for p in shell), cached
    assert not [u for u in urls if re.search(r"/(api|ws|docs)(/|$)", u)], \
        f"an API response is cached: {cached}"


def test_offline_a_reload_shows_the_no_connection_page_in_each_language(
        context: BrowserContext, server: str) -> None:
    page = controlled_page(context, server)
    heading = page.get_by_role("heading", level=1)
    for lang in LANGS:
        words = catalogue(lang)
        page.evaluate("lang => localStorage.setItem('brass.lang', lang)", lang)
        context.set_offline(True)
        page.reload()
        expect(heading).to_have_text(words["offline.title"])
        expect(page.get_by_text(words["offline.body"])).to_be_visible()
        expect(page.get_by_role("button", name=words["offline.retry"])).to_be_visible()
        expect(page.locator("html")).to_have_attribute("lang", lang)
        expect(page.locator("html")).to_have_attribute("dir", "rtl" if lang == "fa" else "ltr")
        assert page.url.rstrip("/") == server, page.url
        # the network returns: the page finds the server again (it asks every 3 s) and the
        # app's own page is back at the same address
        context.set_offline(False)
        expect(page.get_by_role("button", name=words["offline.retry"])).to_have_count(
            0, timeout=20_000)
        expect(page.locator("#app")).not_to_be_empty()
        expect(heading).not_to_have_text(words["offline.title"])
