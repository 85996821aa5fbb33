"""The table legible at a glance, measured in chromium at two laptops, a desktop and a phone: the
whole map fits the board's area by default, the zoom buttons cover neither market nor any place
on it, a built tile's figures (level, VP, income) are at least 11 CSS px on a laptop (where a
place's card opens at the far side of the map from it), the merchants' goods and beer are drawn
as the engine has them, and the action panel, the hand, the preview's total and Confirm are in
view without scrolling (on the phone the total sits above the Confirm bar); axe-core finds no
serious or critical violation with the action panel (the phone's bottom sheet) open on a Sell's
preview, nor with the phone's target picker open in it. The position is the engine's corpus of
a big sale (tiles built, every merchant connected), stored as a game."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from brass.engine import DATA, Game, legal_actions, view

from .conftest import ROOT
from .test_browser import click_action
from .test_composed_sale import CORPUS, store_position
from .test_play_a11y import axe_problems

VIEWPORTS = {"laptop": (1280, 800), "small-laptop": (1366, 768), "desktop": (1920, 1080),
             "phone": (390, 844)}
# the dark theme (the system's prefers-color-scheme) at a laptop and a phone: axe checks contrast
SCHEMES = [(name, "light") for name in VIEWPORTS] + [("laptop", "dark"), ("phone", "dark")]
MIN_FIGURE = 11  # CSS px
# `BRASS_README_SHOT=1 pytest tests/e2e/test_table_geometry.py -k "laptop and light"` writes the
# README's picture of the table (a Sell's preview at 1280×800) from this test's screenshot
README_SHOT = ROOT / "docs" / "table.png"


def box(page: Page, selector: str) -> dict[str, float]:
    b = page.locator(selector).first.bounding_box()
    assert b is not None, f"{selector} is not rendered"
    return b


def figure_sizes(page: Page) -> list[tuple[str, float]]:
    """Each built tile's figures with their size on screen: font size × the board's scale."""
    return page.evaluate("""() => [...document.querySelectorAll(
        '.tile .tile-level, .tile .tile-vp, .tile .tile-income')].map(e => [
          e.closest('[data-tile]').dataset.tile + ' ' + e.getAttribute('class') + ' "'
            + e.textContent + '"',
          parseFloat(getComputedStyle(e).fontSize) * e.getScreenCTM().a])""")


def overlap(a: dict[str, float], b: dict[str, float]) -> bool:
    """Whether two boxes share any area (touching edges do not)."""
    return (a["x"] < b["x"] + b["width"] and b["x"] < a["x"] + a["width"]
            and a["y"] < b["y"] + b["height"] and b["y"] < a["y"] + a["height"])


def merchants_drawn(page: Page) -> dict[str, list[Any]]:
    """Each merchant tile on the board: the goods it shows, whether it shows a barrel (its
    `data-beer`) and how many barrel pieces it holds."""
    return page.evaluate("""() => Object.fromEntries([...document.querySelectorAll(
        'svg.board [data-merchant]')].map(e => [e.dataset.merchant, [e.dataset.buys,
          Number(e.dataset.beer), e.querySelectorAll('.barrel[data-piece=beer]').length]]))""")


def merchants_expected(game: Game) -> dict[str, list[Any]]:
    """What the engine says of each merchant tile: the goods it buys (in the client's order of
    pictures), and its beer as 1/0 and as a count of barrels."""
    out = {}
    for m, tile in zip(DATA.merchant_slots, game.merchants, strict=True):
        if tile is not None:
            goods = " ".join(g for g in ("cotton", "manufacturer", "pottery") if tile.buys_good(g))
            out[f"{DATA.locations[m.location].id}:{m.number}"] = [goods, int(tile.beer),
                                                                   int(tile.beer)]
    return out


def in_view(b: dict[str, float], width: int, height: int) -> bool:
    return b["x"] >= -0.5 and b["y"] >= -0.5 and b["x"] + b["width"] <= width + 0.5 \
        and b["y"] + b["height"] <= height + 0.5


@pytest.fixture(scope="module")
def sale_position(server_db: str) -> tuple[Game, str, dict[int, str]]:
    game = Game.from_json(json.loads((CORPUS / "sell_goods_4.json").read_text()))
    game_id, tokens = store_position(server_db, game)
    return game, game_id, tokens


@pytest.mark.parametrize(("name", "scheme"), SCHEMES)
def test_the_table_reads_at_a_glance(browser: Browser, server: str, name: str, scheme: str,
                                     shots_dir: Path,
                                     sale_position: tuple[Game, str, dict[int, str]]) -> None:
    game, game_id, tokens = sale_position
    width, height = VIEWPORTS[name]
    phone = width < 800
    seat = game.current_seat
    assert seat is not None
    ctx = browser.new_context(viewport={"width": width, "height": height}, has_touch=phone,
                              is_mobile=phone, reduced_motion="reduce", color_scheme=scheme)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{server}/#/game/{game_id}/seat/{tokens[seat]}")
    expect(page.locator("[data-testid=action-panel]")).to_be_visible(timeout=15000)

    # the whole map inside the board's area, and that area inside the window
    area = box(page, ".board-wrap")
    board = box(page, "svg.board")
    assert in_view(area, width, height), (name, area)
    inside = (board["x"] >= area["x"] - 0.5 and board["y"] >= area["y"] - 0.5
              and board["x"] + board["width"] <= area["x"] + area["width"] + 0.5
              and board["y"] + board["height"] <= area["y"] + area["height"] + 0.5)
    assert inside, (name, "map", board, "area", area)
    # it fills the area's width or height (fitted, not merely small)
    fill = max(board["width"] / area["width"], board["height"] / area["height"])
    assert fill > 0.97, (name, board, area)

    sizes = figure_sizes(page)
    built = len(view(game, None)["industries"])  # every built tile
    assert built > 0 and len(sizes) == 3 * built, sizes  # three figures on each tile
    if not phone:
        small = [s for s in sizes if s[1] < MIN_FIGURE]
        assert not small, (name, small[:6])
    # pieces drawn as pieces: each tile's industry as a picture, the markets' cubes on the map
    seen = view(game, None)
    assert page.locator(".tile [data-glyph]").count() == built
    for resource in ("coal", "iron"):
        market = page.locator(f"[data-market={resource}]")
        expect(market).to_have_attribute("data-cubes", str(seen[f"{resource}_market"]))
        expect(market.locator(f".cube.{resource}")).to_have_count(seen[f"{resource}_market"])

    # the merchants' goods and beer as the engine has them, each barrel a piece
    assert merchants_drawn(page) == merchants_expected(game), name
    # the zoom buttons cover no market and no place of the fitted map
    zoom = box(page, ".zoom-buttons")
    for resource in ("coal", "iron"):
        market = box(page, f"[data-market={resource}]")
        assert not overlap(zoom, market), (name, "zoom buttons on the market", resource, zoom,
                                           market)
    covered = [loc.get_attribute("data-location") for loc in
               page.locator("svg.board [data-location]").all()
               if (b := loc.bounding_box()) is not None and overlap(zoom, b)]
    assert covered == [], (name, "zoom buttons on", covered, zoom)

    if not phone:  # a place's card, on hovering it, opens at the far side of the map
        for place in ("gloucester", "oxford"):  # the south-west, the south-east
            page.locator(f"svg.board [data-location={place}]").hover(force=True)  # its tiles
            expect(page.locator("[data-testid=details]")).to_be_visible()
            shown, spot = box(page, "[data-testid=details]"), box(page, f"[data-location={place}]")
            assert not overlap(shown, spot), (name, "the card hides", place, shown, spot)
        page.mouse.move(0, 0)
        expect(page.locator("[data-testid=details]")).to_have_count(0)

    # the action panel and the hand, in view as the turn starts
    if not phone:
        for what in ("[data-testid=action-panel]", "[data-testid=hand]"):
            b = box(page, what)
            assert in_view(b, width, height), (name, what, b)
    # each action not offered says why (folded under the kinds, and as its button's title)
    refused = page.locator("[data-kind]:disabled")
    expect(page.locator("[data-why]")).to_have_count(refused.count())
    for k in refused.all():
        assert k.get_attribute("title"), k.get_attribute("data-kind")
    page.screenshot(path=str(shots_dir / f"table-{name}-{scheme}-start.png"))

    sale = next(a for a in legal_actions(game) if a.kind == "sell" and len(a.sales) == 1)
    if phone:  # the sheet's target picker open (its targets): axe-core finds nothing serious
        page.click("[data-kind=sell]")
        page.click(f'[data-choose-card="{sale.card}"]')
        expect(page.locator("[data-testid=picker] [data-offer]").first).to_be_visible()
        problems = axe_problems(page)
        assert not problems, (name, scheme, "picker", "\n".join(problems))
        page.click("[data-kind=sell]")  # and closed again
        expect(page.locator("[data-testid=picker]")).to_have_count(0)
    click_action(page, sale.to_json())
    expect(page.locator("[data-testid=preview-total]")).to_be_visible()
    page.mouse.move(0, 0)  # no hovered place's card in the pictures
    expect(page.locator(".details-card.hovering")).to_have_count(0)
    confirm = box(page, "[data-testid=confirm]")
    total = box(page, "[data-testid=preview-total]")
    assert in_view(confirm, width, height), (name, "Confirm", confirm)
    assert in_view(total, width, height), (name, "total", total)
    assert total["y"] + total["height"] <= confirm["y"], (name, "total under Confirm", total,
                                                          confirm)
    if phone:
        bar = box(page, ".confirm-bar")
        assert total["y"] + total["height"] <= bar["y"], (name, "total under the bar", total, bar)
        if page.locator("[data-testid=preview-after]").count():  # money changes hands
            after = box(page, "[data-testid=preview-after]")  # the money left, under the total
            assert after["y"] + after["height"] <= bar["y"], (name, "money under the bar", after,
                                                               bar)
    page.screenshot(path=str(shots_dir / f"table-{name}-{scheme}-sell.png"))
    if os.environ.get("BRASS_README_SHOT") and (name, scheme) == ("laptop", "light"):
        page.screenshot(path=str(README_SHOT))
    problems = axe_problems(page)
    assert not problems, (name, "\n".join(problems))
    assert errors == [], errors
    ctx.close()

