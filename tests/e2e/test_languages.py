"""The game in each of the client's languages (web/src/i18n), in a real browser.

For English, Persian, Polish, Thai and Korean a player starts a game against a bot and plays
real moves by clicking (a build, a refused move, a loan); the page, the log and the refusal are
in that language, and a screenshot of the game screen and of the log is saved for each (the
folder is printed at the end of the run). Persian lays the page out right to left (the side
panels mirror) while the board keeps its geography. Polish is taken from the browser's
language, the others are chosen in the language menu (Korean in the middle of the game), and
the choice is remembered across a reload. In each other language no English words of the
catalogue are left on the page (on screen, in a tooltip, an aria-label or a placeholder): on the
home page and the lobby, with the move's preview open, with the rules open, with the details
card of a merchant and of a tile open, and with the chat; the rules and the details card are
saved as screenshots too.
"""

from __future__ import annotations

import json
import re
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from .test_browser import DESKTOP, actions_done, click_action, my_seat, refuse_once

# Words each language's catalogue uses (web/src/i18n/<lang>.json): the loan line of the log,
# the refusal of a card not held ("refusal.card_not_held"), the end of round 1.
WORDS = {
    "en": ("took a loan of £30", "You do not hold the card", "End of canal era round 1: income"),
    "fa": ("وامی", "را در دست ندارید", "پایان دور ۱ دورهٔ کانال: درآمد"),
    "pl": ("bierze pożyczkę", "Nie masz na ręce karty", "Koniec rundy 1 ery kanałów: dochód"),
    "th": ("กู้เงิน", "ในมือ", "จบรอบที่ 1 ของยุคคลอง: รายได้"),
    "ko": ("대출", "카드가 없습니다", "운하 시대 1라운드 종료: 수입"),
}
# How the browser meets each language: from its own language, or from the menu (before the
# game, or once the game has started).
HOW = {"en": "browser", "fa": "menu", "pl": "browser", "th": "menu", "ko": "menu-later"}
LOCALE = {"en": "en-GB", "pl": "pl-PL"}
FONT = {"fa": "Vazirmatn", "th": '"Noto Sans Thai"', "ko": '"Noto Sans KR"'}
CATALOGUES = Path(__file__).resolve().parents[2] / "web" / "src" / "i18n"


SYNTAX = re.compile(r"^\s*\w+\s*,\s*(plural|select|selectordinal|number)\b")


def english_words(lang: str) -> set[str]:
    """The English catalogue's runs of two words or more (the text between its ICU arguments,
    branches included) that the language says in its own words: none may be on its page. Town
    names are left out: the English name printed on the board stands beside the translated one
    on a card (card.location)."""
    en = json.loads((CATALOGUES / "en.json").read_text())
    own = json.loads((CATALOGUES / f"{lang}.json").read_text())
    own_text = "\n".join(own.values())
    runs: set[str] = set()
    for key, message in en.items():
        if own.get(key) == message or key.startswith("town."):
            continue
        for piece in re.split(r"[{}]", message):
            if SYNTAX.match(piece):
                continue
            piece = piece.replace("#", " ").strip(" ,.:;·()—–-+←→◀▶…\"")
            if len(re.findall(r"[A-Za-z]{2,}", piece)) >= 2 and piece not in own_text:
                runs.add(piece)
    return runs


def english_left(page: Page, lang: str) -> list[str]:
    """The English runs the page shows: its text (the board's SVG text and tooltips included),
    titles, aria-labels, placeholders and alt texts."""
    shown = page.evaluate("""() => [
        document.body.innerText,
        ...[...document.querySelectorAll('svg text, svg title')].map(e => e.textContent),
        ...[...document.querySelectorAll('[title], [aria-label], [placeholder], [alt]')].flatMap(
          e => ['title', 'aria-label', 'placeholder', 'alt'].map(a => e.getAttribute(a) || '')),
      ].join('\\n')""")
    return sorted(run for run in english_words(lang) if run in shown)


def open_in(browser: Browser, url: str, locale: str) -> Page:
    ctx = browser.new_context(viewport=DESKTOP, locale=locale)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors  # type: ignore[attr-defined]
    page.goto(url)
    return page


def choose_language(page: Page, lang: str) -> None:
    page.select_option("[data-testid=language]", lang)
    expect(page.locator("html")).to_have_attribute("lang", lang)


def legal(server: str, game_id: str, token: str) -> list[dict[str, Any]]:
    req = urllib.request.Request(f"{server}/api/games/{game_id}/legal",
                                 headers={"Authorization": f"Bearer {token}"})
    entries: list[dict[str, Any]] = json.loads(urllib.request.urlopen(req, timeout=5).read())
    return entries


def my_turn(page: Page, seat: int) -> None:
    """Wait for the seat's turn (the bot plays the other seat meanwhile)."""
    expect(page.locator("[data-testid=game]")).to_have_attribute("data-current", str(seat),
                                                                 timeout=15000)
    expect(page.locator("[data-testid=action-panel]")).to_be_visible(timeout=15000)


def confirm(page: Page) -> None:
    """Confirm the chosen move and wait until it is logged (the bot may move right after)."""
    n = actions_done(page)
    page.click("[data-testid=confirm]")
    page.wait_for_function(
        "n => Number(document.querySelector('[data-testid=game]').dataset.actions) > n", arg=n)


def box(page: Page, selector: str) -> dict[str, float]:
    b = page.locator(selector).first.bounding_box()
    assert b is not None, selector
    return b


@pytest.mark.parametrize("lang", list(WORDS))
def test_a_game_in_each_language(browser: Browser, server: str, shots_dir: Path,
                                 lang: str) -> None:
    loan_words, refusal_words, round_words = WORDS[lang]
    page = open_in(browser, server + "/", LOCALE.get(lang, "en-GB"))
    if HOW[lang] == "menu":
        choose_language(page, lang)
    expect(page.locator("html")).to_have_attribute("lang", "en" if HOW[lang] == "menu-later"
                                                   else lang)
    page.screenshot(path=str(shots_dir / f"lang-{lang}-home.png"))
    translated = lang != "en" and HOW[lang] != "menu-later"  # Korean is chosen in the game
    if translated:
        assert english_left(page, lang) == []
    page.fill("input[name=game-name]", f"Game in {lang}")
    page.select_option("select[name=players]", "2")
    page.click("[data-testid=create]")
    expect(page.locator("[data-testid=add-bot]")).to_be_visible()
    if translated:
        assert english_left(page, lang) == []
    page.click("[data-testid=add-bot]")
    page.fill("input[name=name]", "Alice")  # a Latin name, also inside Persian lines
    page.click("[data-testid=join]")
    expect(page.locator("[data-testid=game]")).to_be_visible(timeout=10000)
    game_id = page.url.rsplit("/", 1)[1]
    seat = my_seat(page, game_id)  # once the join's answer has stored it
    token = json.loads(page.evaluate("localStorage.getItem('brass.seats')"))[game_id]["token"]
    if HOW[lang] == "menu-later":
        choose_language(page, lang)

    # a build (the first legal one), when Alice's turn comes; the actions are named in the
    # language's own terms (its catalogue)
    my_turn(page, seat)
    terms = json.loads((CATALOGUES / f"{lang}.json").read_text())
    expect(page.locator("[data-kind=build]")).to_have_text(terms["action.build"])
    build = next(e["action"] for e in legal(server, game_id, token)
                 if e["action"]["kind"] == "build")
    click_action(page, build)
    preview = page.locator("[data-testid=preview]")
    expect(preview).to_be_visible()
    if lang != "en":  # the move's whole effect, the hints and the guide: all in the language
        expect(preview).not_to_contain_text("When flipped")
        assert english_left(page, lang) == []
    confirm(page)
    # a refused move (a card she does not hold, as a stale client would send), then the loan
    my_turn(page, seat)
    n = actions_done(page)
    refuse_once(page)
    page.click("[data-kind=loan]")
    page.locator("[data-choose-card]").first.click()
    page.click("[data-testid=confirm]")
    message = page.locator("[data-testid=message]")
    expect(message).to_contain_text(refusal_words)
    if lang != "en":
        expect(message).not_to_contain_text("You do not hold")
    assert actions_done(page) == n
    confirm(page)

    log = page.locator("[data-testid=log]")
    expect(log).to_contain_text(loan_words)
    expect(log).to_contain_text(round_words)
    remembered = None if HOW[lang] == "browser" else lang  # only a choice is remembered
    assert page.evaluate("localStorage.getItem('brass.lang')") == remembered

    if lang != "en":
        chat = page.locator("[data-testid=chat]")
        expect(chat).not_to_contain_text("No messages yet")
        expect(chat.locator("input[name=chat-text]")).to_have_attribute("placeholder",
                                                                        terms["chat.say"])
        # the rules, then the details card of a merchant and of Alice's tile
        page.click("[data-testid=help]")
        rules = page.locator("[data-testid=rules]")
        expect(rules).to_contain_text(terms["help.actions"])
        expect(rules).not_to_contain_text("The seven actions")
        assert english_left(page, lang) == []
        rules.screenshot(path=str(shots_dir / f"lang-{lang}-rules.png"))
        page.locator("[data-testid=rules] .close").click()
        expect(rules).to_have_count(0)
        details = page.locator("[data-testid=details]")
        page.locator('[data-location="oxford"] .merchant-box').click()
        expect(details).to_be_visible()
        expect(details).not_to_contain_text("merchant")
        assert english_left(page, lang) == []
        page.locator(f"[data-tile][data-owner='{seat}']").first.click()
        expect(details).not_to_contain_text("Owner:")
        expect(details).to_contain_text(terms["details.not_flipped"])
        assert english_left(page, lang) == []
        details.screenshot(path=str(shots_dir / f"lang-{lang}-details.png"))
        page.keyboard.press("Escape")
        expect(details).to_have_count(0)

    direction = page.evaluate("document.documentElement.dir")
    board, side = box(page, ".board-wrap"), box(page, ".side")
    assert page.evaluate("getComputedStyle(document.querySelector('svg.board')).direction") == "ltr"
    if lang == "fa":
        assert direction == "rtl"
        assert side["x"] + side["width"] <= board["x"] + 1, (side, board)  # panels on the left
        assert page.evaluate("getComputedStyle(document.querySelector('[data-testid=log]'))"
                             ".direction") == "rtl"
        assert page.evaluate("document.fonts.check('14px Vazirmatn', 'بیرمنگام')")
    else:
        assert direction == "ltr"
        assert board["x"] + board["width"] <= side["x"] + 1, (side, board)
    if lang in FONT:  # the board's own text too (its SVG names a font of its own)
        family = page.evaluate("getComputedStyle(document.querySelector('svg.board .legend text'))"
                               ".fontFamily")
        assert family.startswith(FONT[lang]), family
    if lang == "th":
        assert page.evaluate("document.fonts.check('14px \"Noto Sans Thai\"', 'ยุคคลอง')")
    if lang == "ko":
        assert page.evaluate("document.fonts.check('14px \"Noto Sans KR\"', '버밍엄')")

    expect(page).to_have_title(re.compile(re.escape(terms["app.short"])))  # the tab too
    page.screenshot(path=str(shots_dir / f"lang-{lang}-game.png"))
    log.screenshot(path=str(shots_dir / f"lang-{lang}-log.png"))

    # remembered: a reload comes back in the same language
    if HOW[lang] != "browser":
        page.reload()  # the server answers 304 for the cached page: it must still start
        expect(page.locator("[data-testid=game]")).to_be_visible(timeout=10000)
        expect(page.locator("html")).to_have_attribute("lang", lang)
        expect(page.locator("[data-testid=log]")).to_contain_text(loan_words)
    assert page.errors == [], page.errors  # type: ignore[attr-defined]
