"""Screenshots of the table compared with committed references (tests/e2e/shots/*.png): in
chromium at two laptops, a desktop and a phone, in English and Persian, the game start, a Sell's
preview, the end screen and a replay frame; and the game start and the Sell's preview in the dark
theme (the system's prefers-color-scheme) at a laptop and the phone, in English: one visual
language, checked in every theme. A review of a change to the client sees its pictures
change in the pull; a change nobody meant fails here.

Every render is fixed: the games are the engine's (a new game from seed 202 and the corpus's big
sale, stored as running games; the golden two-player bot game imported as a finished one, with
fixed names and times), the browser's language is set, animations are off (reduced motion, and
Playwright's `animations="disabled"`), the caret hidden, the web fonts loaded and the mouse
parked before each picture.

A reference is the screenshot at full resolution in 256 colours (its own palette, each pixel the
nearest colour, no dithering), as pngquant would store it: 26–116 KB where the full-colour PNGs
took 84–363 KB. A new screenshot is mapped onto the reference's palette the same way, at full
resolution, and matches when at most MAX_SHARE of its pixels then differ by more than TOLERANCE in
a colour channel from the reference's pixel and from its eight neighbours: the same render
matches exactly, a glyph a pixel off passes, a label moved further or a new colour does not (a
change of a colour by less than the palette's step, at most 39 of 255 in these pictures, can
pass). On a mismatch the actual screenshot (full colour) and a diff (differing
pixels in red) are saved in the test's tmp folder, named in the failure.

Regenerate every reference after a change you mean (then look at them in the pull's diff):

    BRASS_UPDATE_SHOTS=1 .venv/bin/pytest tests/e2e/test_screenshots.py
"""

from __future__ import annotations

import io
import itertools
import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PIL import Image, ImageChops
from playwright.sync_api import Browser, Page, expect

from brass.engine import (
    ENGINE_VERSION,
    REPLAYS_VERSIONS,
    Game,
    apply_action,
    legal_actions,
    new_game,
    parse_action,
)
from brass.server.transfer import import_record

from .test_browser import click_action
from .test_composed_sale import CORPUS, store_position
from .test_table_geometry import VIEWPORTS

SHOTS = Path(__file__).with_name("shots")
# engine 1's game (kept in golden/1, replayed alike by this engine): the references show it
GOLDEN = Path(__file__).resolve().parents[1] / "fixtures" / "golden" / "1" / "2p-bots.json"
UPDATE = bool(os.environ.get("BRASS_UPDATE_SHOTS"))
LOCALES = {"en": "en-GB", "fa": "fa-IR"}
TOLERANCE = 24  # of 255, in any channel: a pixel that differs by more counts as different
MAX_SHARE = 0.001  # of the picture's pixels that may differ (0.1 %: ~1,000 at 1280×800)
START_SEED = 202
POSITION_NAME = "A big sale"  # store_position's name for a running game
FINISHED_NAME = "Golden game"
REPLAY_FRAME = 40  # the board after this many of the finished game's moves


def finished_record(path: Path = GOLDEN, record_id: str = "shots-finished",
                    name: str = FINISHED_NAME) -> dict[str, Any]:
    """A golden game (the two-player bot game unless `path` names another) as an exported
    record (format brass-game-log/1), with fixed names and times: the seats and scores from
    replaying it."""
    golden = json.loads(path.read_text())
    assert golden["engine_version"] in REPLAYS_VERSIONS, "regenerate the golden games first"
    game = new_game(golden["players"], golden["seed"], golden["setup"])
    entries = []
    for seq, action in enumerate(golden["actions"], start=1):
        entries.append({"seq": seq, "seat": game.current_seat, "action": action,
                        "time": f"2026-01-01T12:{seq // 60:02d}:{seq % 60:02d}+00:00",
                        "effects": None})
        game = apply_action(game, parse_action(action))
    assert game.is_over
    names = ["Ada", "Brindley", "Curzon", "Darby"][:golden["players"]]
    return {"format": "brass-game-log/1", "id": record_id, "name": name,
            "players": golden["players"], "status": "finished", "version": len(entries),
            "engine_version": ENGINE_VERSION, "older_engine": False,
            "seats": [{"seat": s, "name": who, "bot": False, "taken": True}
                      for s, who in enumerate(names)],
            "actions": entries, "seed": golden["seed"], "setup": golden["setup"],
            "scores": list(game.scores)}


@pytest.fixture(scope="module")
def games(server: str, server_db: str) -> dict[str, Any]:
    """The three games the pictures show: a new game, the big sale (both running, with their
    seat tokens) and the finished golden game."""
    start = new_game(2, START_SEED)
    sale = Game.from_json(json.loads((CORPUS / "sell_goods_4.json").read_text()))
    return {"start": (start, *store_position(server_db, start)),
            "sale": (sale, *store_position(server_db, sale)),
            "finished": import_record(server_db, finished_record())}


def game_ready(page: Page, name: str, seated: bool) -> None:
    """Wait until the game page has all it fetches: the view over an open socket, the game's
    name and seats, and for the seat to move its legal moves (each action offered or refused
    with its reason)."""
    expect(page.locator("[data-testid=game] .game-name")).to_have_text(name, timeout=15000)
    expect(page.locator("[data-testid=conn]")).to_have_count(0, timeout=15000)
    if seated:
        expect(page.locator("[data-kind][data-offer]").first).to_be_attached(timeout=15000)
        refused = page.locator("[data-kind]:disabled").count()
        expect(page.locator("[data-why]")).to_have_count(refused, timeout=15000)


def settle(page: Page) -> None:
    """Wait for the web fonts and two frames, with the mouse parked off every control."""
    page.mouse.move(0, 0)
    page.evaluate("""() => document.fonts.ready.then(() => new Promise(
        r => requestAnimationFrame(() => requestAnimationFrame(r))))""")


def in_palette(shot: Image.Image, palette: Image.Image) -> Image.Image:
    """`shot` in the colours of `palette` (a palette image): each pixel the nearest one."""
    return shot.quantize(palette=palette, dither=Image.Dither.NONE).convert("RGB")


def differs(actual: Image.Image, expected: Image.Image) -> tuple[int, Image.Image]:
    """How many pixels differ by more than TOLERANCE from the reference's pixel and from each
    of its eight neighbours, and a picture of them (in red). A glyph drawn a pixel off passes
    (chromium drew the phone's bottom sheet's words a pixel higher in some runs, its borders
    not); a label moved by two pixels, another word or another colour does not."""
    nearest = None
    for dx, dy in itertools.product((-1, 0, 1), repeat=2):
        r, g, b = ImageChops.difference(actual, ImageChops.offset(expected, dx, dy)).split()
        worst = ImageChops.lighter(ImageChops.lighter(r, g), b)
        nearest = worst if nearest is None else ImageChops.darker(nearest, worst)
    assert nearest is not None
    mask = nearest.point(lambda v: 255 if v > TOLERANCE else 0)
    count = mask.histogram()[255]
    faded = Image.blend(actual, Image.new("RGB", actual.size, "white"), 0.7)
    return count, Image.composite(Image.new("RGB", actual.size, (255, 0, 0)), faded, mask)


def check(page: Page, name: str, tmp_path: Path) -> None:
    """Compare the page with the reference `name` (or write it, with BRASS_UPDATE_SHOTS)."""
    settle(page)
    shot = Image.open(io.BytesIO(page.screenshot(animations="disabled", caret="hide"))
                      ).convert("RGB")
    ref = SHOTS / f"{name}.png"
    if UPDATE:
        SHOTS.mkdir(exist_ok=True)
        own = shot.quantize(256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
        shot.quantize(palette=own, dither=Image.Dither.NONE).save(ref, optimize=True)
        return
    assert ref.exists(), f"no reference {ref}: BRASS_UPDATE_SHOTS=1 writes it"
    palette = Image.open(ref)
    palette.load()
    assert palette.mode == "P", f"{ref} is not a palette PNG: BRASS_UPDATE_SHOTS=1 writes one"
    expected = palette.convert("RGB")
    actual_path, diff_path = tmp_path / f"{name}.actual.png", tmp_path / f"{name}.diff.png"
    if shot.size != expected.size:
        shot.save(actual_path)
        pytest.fail(f"{name}: {shot.size} px, the reference {expected.size}; actual: "
                    f"{actual_path}")
    count, picture = differs(in_palette(shot, palette), expected)
    allowed = int(MAX_SHARE * shot.width * shot.height)
    if count > allowed:
        shot.save(actual_path)
        picture.save(diff_path)
        pytest.fail(f"{name}: {count} pixels differ by more than {TOLERANCE} (allowed "
                    f"{allowed}); actual: {actual_path}, diff: {diff_path}, reference: {ref}")


def outside_graph(page: Page) -> list[str]:
    """The score graph's words that do not lie wholly inside its picture (cut at its edge): in
    a right-to-left page they once ran off its left side."""
    return page.evaluate("""() => {
      const svg = document.querySelector('[data-testid=score-graph] svg');
      const r = svg.getBoundingClientRect();
      return [...svg.querySelectorAll('text')].filter(e => {
        const b = e.getBoundingClientRect();
        return b.left < r.left - 0.5 || b.right > r.right + 0.5 || b.top < r.top - 0.5
          || b.bottom > r.bottom + 0.5;
      }).map(e => e.textContent + ' ' + JSON.stringify(e.getBoundingClientRect()));
    }""")


@pytest.fixture
def page_for(browser: Browser) -> Iterator[Any]:
    """Open a page at a viewport in a language; every page it opened is closed after the test
    and must have raised no error."""
    opened: list[tuple[Page, list[str]]] = []

    def open_(url: str, viewport: str, lang: str, scheme: str = "light") -> Page:
        width, height = VIEWPORTS[viewport]
        phone = width < 800
        ctx = browser.new_context(viewport={"width": width, "height": height}, has_touch=phone,
                                  is_mobile=phone, reduced_motion="reduce",
                                  color_scheme=scheme, locale=LOCALES[lang])
        page = ctx.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        opened.append((page, errors))
        page.goto(url)
        expect(page.locator("html")).to_have_attribute("lang", lang, timeout=15000)
        return page

    yield open_
    for page, errors in opened:
        page.context.close()
        assert errors == [], errors


PARAMS = [(v, lang) for v in VIEWPORTS for lang in LOCALES]
# the dark theme: a laptop and the phone, in English (references named "…-dark")
THEMED = [(v, lang, "light") for v, lang in PARAMS] + [("laptop", "en", "dark"),
                                                       ("phone", "en", "dark")]


@pytest.mark.parametrize(("viewport", "lang", "scheme"), THEMED)
def test_the_game_start_and_a_sell_preview(page_for: Any, server: str, games: dict[str, Any],
                                           viewport: str, lang: str, scheme: str,
                                           tmp_path: Path) -> None:
    suffix = "" if scheme == "light" else f"-{scheme}"
    game, game_id, tokens = games["start"]
    page = page_for(f"{server}/#/game/{game_id}/seat/{tokens[game.current_seat]}", viewport, lang,
                    scheme)
    game_ready(page, POSITION_NAME, seated=True)
    check(page, f"start-{viewport}-{lang}{suffix}", tmp_path)

    game, game_id, tokens = games["sale"]
    page = page_for(f"{server}/#/game/{game_id}/seat/{tokens[game.current_seat]}", viewport, lang,
                    scheme)
    game_ready(page, POSITION_NAME, seated=True)
    sale = next(a for a in legal_actions(game) if a.kind == "sell" and len(a.sales) == 1)
    click_action(page, sale.to_json())
    expect(page.locator("[data-testid=preview-total]")).to_be_visible(timeout=15000)
    check(page, f"sell-{viewport}-{lang}{suffix}", tmp_path)


@pytest.mark.parametrize(("viewport", "lang"), PARAMS)
def test_the_end_screen_and_a_replay_frame(page_for: Any, server: str, games: dict[str, Any],
                                           viewport: str, lang: str, tmp_path: Path) -> None:
    game_id = games["finished"]
    page = page_for(f"{server}/#/game/{game_id}", viewport, lang)
    game_ready(page, FINISHED_NAME, seated=False)
    expect(page.locator("[data-testid=winner]")).to_be_visible(timeout=15000)
    expect(page.locator("[data-testid=score-graph]")).to_be_visible(timeout=15000)
    assert outside_graph(page) == [], (viewport, lang, "graph labels cut")
    check(page, f"end-{viewport}-{lang}", tmp_path)

    page = page_for(f"{server}/#/replay/{game_id}", viewport, lang)
    replay = page.locator("[data-testid=replay]")
    expect(replay).to_have_attribute("data-frame", "0", timeout=15000)
    page.locator("[data-testid=scrub]").evaluate(  # the slider's own input event, to frame n
        "(e, n) => { e.value = String(n); e.dispatchEvent(new Event('input', {bubbles: true})) }",
        REPLAY_FRAME)
    expect(replay).to_have_attribute("data-frame", str(REPLAY_FRAME), timeout=15000)
    expect(page.locator("[data-testid=score-graph]")).to_be_visible(timeout=15000)
    expect(page.locator("[data-testid=last-move]")).to_be_visible(timeout=15000)
    check(page, f"replay-{viewport}-{lang}", tmp_path)
