"""Phone first: a whole game against a bot on a 390×844 touch screen, by tapping only what the
current step offers (kinds, cards, the target picker's towns, slots, links and merchants,
Confirm), checking before each tap that every offered target is at least 40×40 CSS px and
that Confirm is in view without scrolling the page."""

from __future__ import annotations

import random
from pathlib import Path

from playwright.sync_api import Browser, Page, expect

from .test_browser import DESKTOP, PHONE, actions_done, get, open_page

MIN = 40
KIND_WEIGHT = {"build": 6, "network": 4, "sell": 6, "develop": 2, "loan": 1, "scout": 1, "pass": 1}


def offered(page: Page) -> list[tuple[str, dict[str, float]]]:
    """Every visible offered target: a description and its box."""
    return page.evaluate("""() => [...document.querySelectorAll('[data-offer]')]
        .filter(e => !e.disabled && e.getClientRects().length)
        .map(e => { const r = e.getBoundingClientRect();
                    return [e.outerHTML.slice(0, 90),
                            {w: r.width, h: r.height, top: r.top, bottom: r.bottom}] })""")


def check_sizes(page: Page) -> int:
    offers = offered(page)
    for what, box in offers:
        assert box["w"] >= MIN and box["h"] >= MIN, (what, box)
    return len(offers)


def wait_turn_or_end(page: Page) -> bool:
    """True when it is our turn, False once the game is over."""
    page.wait_for_function("""() => document.querySelector('[data-testid=action-panel]')
        || document.querySelector('[data-testid=summary]')""", timeout=30000)
    return page.locator("[data-testid=action-panel]").count() > 0


def take_turn(page: Page, rng: random.Random, shots: Path, shot: set[str]) -> str:
    """Tap one whole action; returns its kind."""
    n = actions_done(page)
    kinds = page.locator("[data-kind][data-offer]")
    expect(kinds.first).to_be_visible()  # the legal moves follow the new version
    names = [k.get_attribute("data-kind") or "" for k in kinds.all()]
    kind = rng.choices(names, [KIND_WEIGHT[k] for k in names])[0]
    check_sizes(page)
    page.locator(f"[data-kind={kind}]").tap()
    for _ in range(40):
        confirm = page.locator("[data-testid=confirm]")
        if confirm.count() and confirm.is_enabled():
            check_sizes(page)
            box = confirm.bounding_box()
            assert box and box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"], box
            if kind not in shot:
                shot.add(kind)
                page.screenshot(path=str(shots / f"phone-{kind}.png"))
            confirm.tap()
            expect(page.locator("[data-testid=game]")).not_to_have_attribute(
                "data-actions", str(n), timeout=15000)
            return kind
        assert check_sizes(page) > 0
        choices = page.locator("[data-offer]:not([data-kind]):not([disabled])").all()
        assert choices, f"nothing to tap in {kind}"
        target = rng.choice(choices)
        if "picker" not in shot and target.get_attribute("data-pick-town") is not None:
            shot.add("picker")
            page.screenshot(path=str(shots / "phone-picker.png"))
        target.tap()
    raise AssertionError(f"{kind} never reached Confirm")


def test_a_whole_game_on_a_phone_by_tapping(browser: Browser, server: str,
                                           shots_dir: Path) -> None:
    ctx = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True,
                              device_scale_factor=2)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server + "/")
    page.fill("input[name=game-name]", "On a phone")
    page.select_option("select[name=players]", "2")
    page.locator("[data-testid=create]").tap()
    page.locator("[data-testid=add-bot]").tap()
    expect(page.locator("[data-testid=seats]")).to_contain_text("(bot)")
    page.fill("input[name=name]", "Pat")
    page.locator("[data-testid=join]").tap()
    expect(page.locator("[data-testid=game]")).to_be_visible(timeout=10000)
    game_id = page.url.split("#/game/", 1)[1].split("/")[0]
    # help: the first-game guide (dismissed for good) and the rules summary
    expect(page.locator("[data-testid=guide]")).to_be_visible()
    page.locator("[data-testid=help]").tap()
    expect(page.locator("[data-testid=rules]")).to_contain_text("The seven actions")
    # the rules' numbers are the server's (GET /api/rules), shown once they arrive
    expect(page.locator("[data-testid=rules]")).to_contain_text("Loan: take £30")
    page.screenshot(path=str(shots_dir / "phone-rules.png"))
    page.locator("[aria-label='Close the rules']").tap()
    expect(page.locator("[data-testid=rules]")).to_have_count(0)
    page.locator("[data-testid=guide-done]").tap()
    expect(page.locator("[data-testid=guide]")).to_have_count(0)
    rng = random.Random(3)
    kinds: list[str] = []
    shot: set[str] = set()
    while wait_turn_or_end(page):
        kinds.append(take_turn(page, rng, shots_dir, shot))
        assert len(kinds) < 200
    expect(page.locator("[data-testid=summary]")).to_be_visible()
    # the end: a winner line and the graph of VP and money, ending where the game ended
    log = get(server, f"/api/games/{game_id}/log")
    total = len(log["actions"])
    final = get(server, f"/api/games/{game_id}/replay/{total}")["view"]
    expect(page.locator("[data-testid=winner]")).to_contain_text(" VP")
    first = final["winner_order"][0]
    expect(page.locator("[data-testid=winner]")).to_contain_text(
        f"{'wins' if final['ranks'].count(1) == 1 else 'share'}")
    expect(page.locator("[data-testid=winner]")).to_contain_text(str(final["players"][first]["vp"]))
    want = ",".join(f"{p['seat']}:{p['vp']}:{p['money']}" for p in final["players"])
    expect(page.locator("[data-testid=score-graph]")).to_have_attribute("data-final", want)
    page.screenshot(path=str(shots_dir / "phone-game-over.png"), full_page=True)

    # the replay: whose hand, the move list with era and round marks, the graph so far
    replay = open_page(browser, f"{server}/#/replay/{game_id}", DESKTOP)
    expect(replay.locator("[data-testid=move-list]")).to_be_visible()
    marks = replay.locator("[data-testid=move-list] [data-round-mark]")
    expect(marks.first).to_have_text("Canal era · round 1")
    expect(replay.locator("[data-testid=move-list]")).to_contain_text("Rail era · round 1")
    replay.locator("[data-testid=move-list] [data-move='12']").click()
    expect(replay.locator("[data-testid=replay]")).to_have_attribute("data-frame", "12")
    replay.select_option("[data-testid=hand-seat]", "1")
    expect(replay.locator("[data-testid=hand-title]")).to_contain_text("'s hand (Yellow)")
    replay.locator("[data-testid=move-list] [data-move='" + str(total) + "']").click()
    expect(replay.locator("[data-testid=score-graph]")).to_have_attribute("data-final", want)
    expect(replay.locator("[data-testid=winner]")).to_be_visible()
    replay.screenshot(path=str(shots_dir / "replay-graph.png"), full_page=True)
    assert replay.errors == [], replay.errors  # type: ignore[attr-defined]
    assert {"build", "network"} <= set(kinds), kinds
    assert errors == [], errors
    ctx.close()
