"""The web client in a real browser against the real server (see conftest.py).

Two players create and join a game and take real turns by clicking (a build, a link, a loan,
an undo, a sale), each seeing the other's moves; a spectator sees the same board with no hand;
two players click a whole game (double rail links grown through the server's
extensions), its log shows every move's price and the events between turns, and it replays
step by step; a bot takes a seat from the lobby. Screenshots are saved to the printed folder.
"""

from __future__ import annotations

import json
import random
import re
import urllib.request
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Page, expect

from brass.bots import choose_action
from brass.engine import apply_action, new_game

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}


def open_page(browser: Browser, url: str, viewport: dict[str, int] = DESKTOP) -> Page:
    ctx = browser.new_context(viewport=viewport)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors  # type: ignore[attr-defined]
    page.goto(url)
    return page


def actions_done(page: Page) -> int:
    return int(page.get_attribute("[data-testid=game]", "data-actions") or "-1")


def wait_actions(page: Page, n: int) -> None:
    game = page.locator("[data-testid=game]")
    expect(game).to_have_attribute("data-actions", str(n), timeout=15000)


def my_seat(page: Page, game_id: str) -> int:
    """The seat the page keeps for the game, once the join's answer has stored it (the state
    message that the game started may come first)."""
    page.wait_for_function("id => JSON.parse(localStorage.getItem('brass.seats') || '{}')[id]",
                           arg=game_id, timeout=15000)
    seats = json.loads(page.evaluate("localStorage.getItem('brass.seats')"))
    return int(seats[game_id]["seat"])


def click_action(page: Page, action: dict[str, Any]) -> str:
    """Choose `action` by clicking: its kind, its card, its targets on the board. Returns the
    price shown before Confirm; does not confirm."""
    page.click(f"[data-kind={action['kind']}]")
    card = action.get("card")
    if card:
        pill = page.locator(f'[data-choose-card="{card}"]')
        if pill.count():
            pill.click()
    kind = action["kind"]
    if kind == "build":
        page.click(f'[data-slot="{action["location"]}:{action["slot"]}"]')
        industry = page.locator(f'[data-industry="{action["industry"]}"]')
        if industry.count():
            industry.click()
    elif kind == "network":
        for link in action["links"]:
            page.locator(f'[data-link="{link}"] .link-marker').click()
    elif kind == "develop":
        for ind in action["industries"]:
            page.click(f'[data-develop="{ind}"]')
    elif kind == "sell":
        for i, sale in enumerate(action["sales"]):
            page.click(f'[data-slot="{sale["location"]}:{sale["slot"]}"].target')
            page.click(f'[data-location="{sale["merchant"]}"].target')  # its box or tiles
            # the sale is picked, or Gloucester asks what its beer develops (if anything)
            expect(page.locator(f"[data-sale-develop], [data-testid=picks] li:nth-child({i + 1})"
                                ).first).to_be_visible()
            develop = page.locator(f'[data-sale-develop="{sale.get("develop") or ""}"]')
            if develop.count():
                develop.click()
    elif kind == "scout":
        for c in action["cards"]:
            page.locator(f'[data-testid=hand] [data-card="{c}"]:not(.selected)').first.click()
    quote = page.locator("[data-testid=quote]")
    expect(quote).to_be_visible()
    return quote.inner_text()


def play(page: Page, action: dict[str, Any], others: list[Page]) -> str:
    n = actions_done(page)
    price = click_action(page, action)
    page.click("[data-testid=confirm]")
    wait_actions(page, n + 1)
    for other in others:
        wait_actions(other, n + 1)
    return price


def refuse_once(page: Page) -> None:
    """Make the next submission name a card the player does not hold, as a stale or tampered
    client would: the server refuses it and the page must say why."""

    def handle(route: Any) -> None:
        body = json.loads(route.request.post_data or "{}")
        body["action"]["card"] = "wild:location"
        route.continue_(post_data=json.dumps(body))
        page.unroute("**/api/games/*/actions", handle)

    page.route("**/api/games/*/actions", handle)


def start_two(browser: Browser, server: str, name: str,
              alice: Page | None = None) -> tuple[str, dict[int, Page]]:
    """Alice (a new page, or the one given, at the home page) creates a two-player game and
    joins; Bob joins from the invite. The game id and the pages by seat."""
    if alice is None:
        alice = open_page(browser, server + "/")
    alice.fill("input[name=game-name]", name)
    alice.select_option("select[name=players]", "2")
    alice.click("[data-testid=create]")
    alice.fill("input[name=name]", "Alice")
    alice.click("[data-testid=join]")
    expect(alice.locator("[data-testid=seats]")).to_contain_text("Alice")
    invite = alice.input_value("#invite")
    game_id = invite.split("#/game/", 1)[1].split("/")[0]
    bob = open_page(browser, invite)
    bob.fill("input[name=name]", "Bob")
    bob.click("[data-testid=join]")
    pages = {}
    for p in (alice, bob):
        expect(p.locator("[data-testid=game]")).to_be_visible(timeout=10000)
        pages[my_seat(p, game_id)] = p
    return game_id, pages


def get(base: str, path: str) -> Any:
    return json.loads(urllib.request.urlopen(base + path, timeout=5).read())


def tiles(page: Page) -> list[str]:
    return sorted(page.eval_on_selector_all(
        "[data-tile]", "els => els.map(e => e.dataset.tile + '/' + e.dataset.owner)"))


def wait_tiles(page: Page, expected: list[str]) -> None:
    """Wait until the board shows exactly these tiles ("location:slot/owner")."""
    page.wait_for_function(
        """want => JSON.stringify([...document.querySelectorAll("[data-tile]")]
             .map(e => e.dataset.tile + "/" + e.dataset.owner).sort()) === JSON.stringify(want)""",
        arg=sorted(expected))


def test_two_players_and_a_spectator(browser: Browser, server: str, plan: tuple[int, list[Any]],
                                     shots_dir: Path) -> None:
    _, steps = plan
    alice = open_page(browser, server + "/")
    alice.fill("input[name=game-name]", "E2E game")
    alice.select_option("select[name=players]", "2")
    alice.click("[data-testid=create]")
    expect(alice.locator("[data-testid=lobby]")).to_be_visible()
    alice.fill("input[name=name]", "Alice")
    alice.click("[data-testid=join]")
    expect(alice.locator("[data-testid=seats]")).to_contain_text("Alice")
    invite = alice.input_value("#invite")
    game_id = invite.split("#/game/", 1)[1].split("/")[0]
    alice.screenshot(path=str(shots_dir / "lobby.png"))

    bob = open_page(browser, invite)
    expect(bob.locator("[data-testid=lobby]")).to_be_visible()
    bob.fill("input[name=name]", "Bob")
    bob.click("[data-testid=join]")
    for p in (alice, bob):
        expect(p.locator("[data-testid=game]")).to_be_visible(timeout=10000)
        expect(p.locator("[data-testid=hand]")).to_be_visible()

    spectator = open_page(browser, invite)
    expect(spectator.locator("[data-testid=spectating]")).to_be_visible()
    expect(spectator.locator("[data-testid=hand]")).to_have_count(0)

    pages = {my_seat(alice, game_id): alice, my_seat(bob, game_id): bob}
    assert sorted(pages) == [0, 1]
    kinds = []
    for step in steps:
        page = pages[step.seat]
        others = [p for p in (alice, bob, spectator) if p is not page]
        if step.undo_first is not None:
            n = actions_done(page)
            play(page, step.undo_first, others)
            page.click("[data-testid=undo]")
            for p in (alice, bob, spectator):
                wait_actions(p, n)
        price = play(page, step.action, others)
        assert "Money" in price
        kinds.append(step.action["kind"])
        if step.action["kind"] == "build":
            where = f'{step.action["location"]}:{step.action["slot"]}'
            for p in (alice, bob, spectator):
                expect(p.locator(f'[data-tile="{where}"]')).to_have_count(1)
        if step.action["kind"] == "network":
            for p in (alice, bob, spectator):
                expect(p.locator(f'[data-link="{step.action["links"][0]}"].built')).to_have_count(1)
    assert {"build", "network", "loan", "sell"} <= set(kinds)
    for p in (alice, bob, spectator):
        log = p.locator("[data-testid=log]")
        expect(log).to_contain_text("took a loan of £30")
        expect(log).to_contain_text("End of canal era round 1: income")
        expect(log).to_contain_text("New turn order, least spent first")
        expect(log).to_contain_text("sold")
        expect(log).to_contain_text("built")
    assert tiles(spectator) == tiles(alice) == tiles(bob)
    assert len(tiles(spectator)) >= 2

    alice.screenshot(path=str(shots_dir / "game-alice.png"))
    alice.set_viewport_size(PHONE)
    alice.screenshot(path=str(shots_dir / "game-alice-phone.png"), full_page=True)
    alice.set_viewport_size(DESKTOP)
    bob.screenshot(path=str(shots_dir / "game-bob.png"))
    spectator.screenshot(path=str(shots_dir / "spectator.png"))
    phone = open_page(browser, invite, PHONE)
    expect(phone.locator("[data-testid=game]")).to_be_visible()
    phone.screenshot(path=str(shots_dir / "spectator-phone.png"))
    inner = phone.locator(".panzoom-inner")
    phone.click(".zoom-buttons button[title='Zoom in']")
    phone.click(".zoom-buttons button[title='Zoom in']")
    expect(inner).to_have_attribute("style", re.compile(r"scale\(1\.9"))
    phone.screenshot(path=str(shots_dir / "spectator-phone-zoomed.png"))

    # a dropped connection shows "reconnecting…", and the reconnect brings the full state,
    # including a move made meanwhile (the spectator stays away until it is told to resume)
    n = actions_done(alice)
    spectator.evaluate("window.__brass.drop(600000)")
    expect(spectator.locator("[data-testid=conn]")).to_have_text("Reconnecting…")
    mover = next(p for p in (alice, bob) if p.locator("[data-testid=action-panel]").count())
    refuse_once(mover)
    mover.click("[data-kind=loan]")
    mover.locator("[data-choose-card]").first.click()
    mover.click("[data-testid=confirm]")
    expect(mover.locator("[data-testid=message]")).to_contain_text("Refused:")
    assert actions_done(mover) == n
    expect(mover.locator("[data-testid=preview]")).to_contain_text("Loan+£30")
    mover.click("[data-testid=confirm]")
    wait_actions(mover, n + 1)
    # each seat's income level as its panel shows it: a minus sign (U+2212) below zero, never
    # a hyphen; the loan took the mover's level down 3, below zero in this plan
    players = get(server, f"/api/games/{game_id}/state")["view"]["players"]
    for p in players:
        level = p["income_level"]
        sign = "−" if level < 0 else "+" if level > 0 else ""
        income = mover.locator(f"[data-testid=player-{p['seat']}] [data-testid=income]")
        expect(income).to_have_text(f"income {sign}{abs(level)} (space {p['income_space']})")
    assert any(p["income_level"] < 0 for p in players), f"no seat below zero: {players}"
    assert actions_done(spectator) == n  # still away
    spectator.evaluate("window.__brass.resume()")
    expect(spectator.locator("[data-testid=conn]")).to_have_count(0, timeout=10000)
    wait_actions(spectator, n + 1)
    assert tiles(spectator) == tiles(alice)
    for p in (alice, bob, spectator, phone):
        assert p.errors == [], p.errors  # type: ignore[attr-defined]


def test_a_bot_takes_a_seat(browser: Browser, server: str) -> None:
    host = open_page(browser, server + "/")
    host.fill("input[name=game-name]", "With a bot")
    host.select_option("select[name=players]", "2")
    host.click("[data-testid=create]")
    expect(host.locator("[data-testid=add-bot]")).to_be_visible()
    host.click("[data-testid=add-bot]")
    expect(host.locator("[data-testid=seats]")).to_contain_text("(bot)")
    host.fill("input[name=name]", "Alice")
    host.click("[data-testid=join]")
    expect(host.locator("[data-testid=game]")).to_be_visible(timeout=10000)
    # the bot moves when its turn comes: one of the first two actions is Alice's, one the bot's
    expect(host.locator("[data-testid=action-panel]")).to_be_visible(timeout=10000)
    # the host's chat mutes offer Alice's seat and the spectators, not the bot's seat
    alice = my_seat(host, host.url.split("#/game/", 1)[1].split("/")[0])
    expect(host.locator(f"[data-testid=chat-mute-{alice}]")).to_have_count(1)
    expect(host.locator(f"[data-testid=chat-mute-{1 - alice}]")).to_have_count(0)
    expect(host.locator("[data-testid=chat-mute-spectators]")).to_have_count(1)
    assert host.errors == []  # type: ignore[attr-defined]


def test_a_whole_game_then_its_replay(browser: Browser, server: str, plan: tuple[int, list[Any]],
                                      shots_dir: Path) -> None:
    """Two players click every move of a whole game (the moves the engine's bot would make,
    its double rail links grown in the browser through the server's extensions); the log shows
    each move with its price and the events between turns (income, turn order, era scoring,
    the deal, the ranking); the game then replays step by step."""
    game_id, pages = start_two(browser, server, "A whole game")
    alice, bob = pages[0], pages[1]
    rng = random.Random(1)
    game = new_game(2, plan[0])  # the server deals from the same seed: the same game
    composed = []
    while not game.is_over:
        assert game.current_seat is not None
        page = pages[game.current_seat]
        expect(page.locator("[data-testid=action-panel]")).to_be_visible(timeout=15000)
        n = actions_done(page)
        chosen = choose_action(game, rng)
        game = apply_action(game, chosen)
        action = chosen.to_json()
        if len(action.get("sales", action.get("links", []))) > 1:
            composed.append(action)
        click_action(page, action)
        page.click("[data-testid=confirm]")
        for p in (alice, bob):
            wait_actions(p, n + 1)
    assert {a["kind"] for a in composed} == {"network"}, composed
    log = get(server, f"/api/games/{game_id}/log")
    total = len(log["actions"])
    assert [e["action"] for e in log["actions"] if e["action"] in composed] == composed
    for p in (alice, bob):
        expect(p.locator("[data-testid=summary]")).to_be_visible()
        panel = p.locator("[data-testid=log]")
        expect(panel.locator("ol > li")).to_have_count(total)
        # every move keeps its price: the first build, long gone, still says what it paid
        first = next(e for e in log["actions"] if e["action"]["kind"] == "build")
        paid = first["effects"][0]["paid"]
        expect(panel.locator(f"li[data-n='{first['seq']}']")).to_contain_text(f"for £{paid}")
        expect(panel).to_contain_text("End of canal era round 1: income")
        expect(panel).to_contain_text("New turn order, least spent first")
        expect(panel).to_contain_text("Rail era deal:")
        expect(panel).to_contain_text("no income after the last round")
        expect(panel).to_contain_text("built rail links")
        expect(panel.locator("[data-testid=era-scores]")).to_have_count(2)
        expect(panel.locator("[data-testid=ranking]")).to_have_count(1)
        # the chat is read-only now: no mutes are offered to its host
        expect(p.locator("[data-testid=chat-closed]")).to_be_visible()
        expect(p.locator("[data-testid=chat-mutes]")).to_have_count(0)
    alice.screenshot(path=str(shots_dir / "game-over.png"))

    replay = open_page(browser, f"{server}/#/replay/{game_id}")
    controls = replay.locator("[data-testid=replay]")
    expect(controls).to_have_attribute("data-frame", "0")
    expect(replay.locator("[data-testid=position]")).to_have_text(f"move 0 / {total}")
    expect(replay.locator("[data-tile]")).to_have_count(0)
    for n in (1, 2, 3):
        replay.click("[data-testid=step-forward]")
        expect(controls).to_have_attribute("data-frame", str(n))
        expect(replay.locator("[data-testid=last-move]")).not_to_be_empty()
    replay.click("[data-testid=step-back]")
    expect(controls).to_have_attribute("data-frame", "2")
    replay.locator("[data-testid=log] li[data-n='20']").click()
    expect(controls).to_have_attribute("data-frame", "20")
    frame = get(server, f"/api/games/{game_id}/replay/20")["view"]["industries"]
    assert frame, "nothing built in 20 moves"
    wait_tiles(replay, [f"{t['location']}:{t['slot']}/{t['owner']}" for t in frame])
    replay.click("[data-testid=play]")
    expect(controls).to_have_attribute("data-frame", "22", timeout=10000)
    replay.click("[data-testid=play]")
    replay.select_option("[data-testid=hand-seat]", "0")
    expect(replay.locator("[data-testid=hand]")).to_be_visible()
    replay.screenshot(path=str(shots_dir / "replay.png"))
    replay.locator("[data-testid=scrub]").fill(str(total))
    expect(controls).to_have_attribute("data-frame", str(total))
    expect(replay.locator("[data-testid=summary]")).to_be_visible()
    expect(replay.locator("[data-testid=log] [data-testid=ranking]")).to_have_count(1)
    replay.screenshot(path=str(shots_dir / "replay-end.png"))
    for p in (alice, bob, replay):
        assert p.errors == [], p.errors  # type: ignore[attr-defined]
