"""The replay of a finished game offers its analysis; once the bot has judged every move it
shows the judgement of the move on screen (how sure it is, the better move with the win chance
it would have given), the win-chance chart and the biggest mistakes; a move the analysis did
not reach says so and is never among the mistakes."""

from __future__ import annotations

import re
import time
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path

import httpx
from playwright.sync_api import Browser, Page, expect

from brass.bots.analysis import MoveAnalysis, analyse_log
from brass.server.storage import Storage

from .test_browser import open_page

JUDGED_S = 0.5  # CPU seconds per move for the moves to judge: a move needs about 0.03 s


def play_out(http: httpx.Client, name: str) -> tuple[str, str]:
    """A 2-player game two bots play to its end (bot delay 0): its id and host token."""
    created = http.post("/api/games", json={"players": 2, "name": name}).json()
    game: str = created["id"]
    for _ in range(2):
        http.post(f"/api/games/{game}/bots",
                  headers={"Authorization": f"Bearer {created['host_token']}"})
    status = None
    for _ in range(600):  # bounded wait: two minutes
        status = http.get(f"/api/games/{game}").json()["status"]
        if status == "finished":
            return game, created["host_token"]
        time.sleep(0.2)
    raise AssertionError(f"the bots' game {game} is still {status} after 2 minutes")


def percent(p: float) -> str:
    """A win chance as the client writes it in English (`Intl.NumberFormat` rounds a half up:
    0.245 is 25%, where Python's `round` would say 24)."""
    return f"{(Decimal(str(p)) * 100).quantize(Decimal(1), ROUND_HALF_UP)}%"


def replay_with(browser: Browser, server: str, server_db: str, game: str,
                moves: list[MoveAnalysis]) -> Page:
    """The replay of `game` once `moves` are stored as its analysis (what the server stores
    once it has judged them), its chart on screen."""
    storage = Storage(server_db)
    try:
        storage.save_analysis(game, moves)
    finally:
        storage.close()
    page = open_page(browser, f"{server}/#/replay/{game}")
    expect(page.locator("[data-testid=win-chart]")).to_be_visible(timeout=30_000)
    return page


def test_the_replay_shows_the_analysis(browser: Browser, server: str, shots_dir: Path) -> None:
    with httpx.Client(base_url=server, timeout=30) as http:
        game, host = play_out(http, "Analysed")
    page = open_page(browser, f"{server}/#/replay/{game}")
    # a spectator reads an analysis but cannot start one; the host can
    expect(page.locator("[data-testid=analysis-players-only]")).to_be_visible()
    page.evaluate("([g, t]) => localStorage.setItem(`brass.host.${g}`, t)", [game, host])
    page.reload()
    page.click("[data-testid=analyse]")
    expect(page.locator("[data-testid=win-chart]")).to_be_visible(timeout=240_000)
    expect(page.locator("[data-testid=win-chart] polyline")).to_have_count(2)
    page.click("[data-testid=step-forward]")
    judgement = page.locator("[data-testid=analysis-move]")
    expect(judgement).to_contain_text("Move 1")
    # judged (saying from how many positions) or not (saying so): never silent
    expect(judgement).to_contain_text(re.compile(r"Judged from [\d,]+ positions?\.|not judged"))
    page.screenshot(path=str(shots_dir / "replay-analysis.png"))
    assert not page.errors  # type: ignore[attr-defined]
    page.context.close()


def test_an_unjudged_move_says_so_and_is_no_mistake(
        browser: Browser, server: str, server_db: str, shots_dir: Path) -> None:
    with httpx.Client(base_url=server, timeout=30) as http:
        game, _ = play_out(http, "Half judged")
        log = http.get(f"/api/games/{game}/log").json()
    actions = [entry["action"] for entry in log["actions"]]
    # the analysis the server would make (the same code), every move judged; then its worst
    # mistake judged again with no time at all: what a busy server stores when it runs out
    moves = analyse_log(2, log["seed"], log["setup"], actions, 0, len(actions), JUDGED_S, game)
    mistakes = sorted((m for m in moves if m["judged"] and (m["loss"] or 0) > 0),
                      key=lambda m: -(m["loss"] or 0))
    assert len(mistakes) >= 2, f"the analysis saw fewer than 2 mistakes: {moves}"
    worst, shown = mistakes[0]["seq"], mistakes[1]
    moves[worst - 1] = analyse_log(2, log["seed"], log["setup"], actions, worst - 1, worst,
                                   0.0, game)[0]
    assert not moves[worst - 1]["judged"] and moves[worst - 1]["loss"] is None, moves[worst - 1]
    page = replay_with(browser, server, server_db, game, moves)
    listed = page.locator("[data-testid=mistakes]")
    expect(listed.locator("li").first).to_contain_text(f"move {shown['seq']},")
    expect(listed).not_to_contain_text(f"move {worst},")
    expect(page.locator("[data-testid=win-chart] [data-testid=unjudged]")).to_have_count(
        sum(not m["judged"] for m in moves))  # a tick under each move not judged

    listed.locator("li").first.locator("button").click()  # to the biggest mistake judged
    judgement = page.locator("[data-testid=analysis-move]")
    seat, win_preferred = shown["seat"], shown["win_preferred"]
    assert win_preferred is not None, shown
    expect(judgement).to_have_attribute("data-judged", "true")
    expect(judgement).to_contain_text(f"Move {shown['seq']}: the bot preferred:")
    expect(judgement).to_contain_text(
        f"would have had a {percent(win_preferred[seat])} chance of winning "
        f"({percent(shown['win'][seat])} after the move made)")
    positions = shown["positions"]
    expect(judgement).to_contain_text(
        f"Judged from {positions:,} position{'' if positions == 1 else 's'}.")

    page.locator("[data-testid=scrub]").fill(str(worst))  # to the move not judged
    expect(page.locator("[data-testid=replay]")).to_have_attribute("data-n", str(worst))
    expect(judgement).to_have_attribute("data-judged", "false")
    expect(judgement).to_have_text(
        f"Move {worst}: not judged: the analysis ran out of time before it reached this move.")
    page.screenshot(path=str(shots_dir / "replay-analysis-unjudged.png"))
    assert not page.errors  # type: ignore[attr-defined]
    page.context.close()


def marks(action: dict[str, object]) -> set[str]:
    """What a move touches on the board, as the board's `data-better` marks name it."""
    if action["kind"] == "build":
        return {f"{action['location']}:{action['slot']}"}
    if action["kind"] == "network":
        return set(action["links"])  # type: ignore[call-overload]
    if action["kind"] == "sell":
        return {f"{s['location']}:{s['slot']}" for s in action["sales"]}  # type: ignore[attr-defined]
    return set()


def test_the_better_move_is_marked_on_the_board(
        browser: Browser, server: str, server_db: str, shots_dir: Path) -> None:
    """A judged move the bot would have played otherwise: the better move in words and, where
    it builds, sells or lays links, a ring on the board there; a move it agrees with: none."""
    with httpx.Client(base_url=server, timeout=30) as http:
        game, _ = play_out(http, "Better move")
        log = http.get(f"/api/games/{game}/log").json()
    actions = [entry["action"] for entry in log["actions"]]
    moves = analyse_log(2, log["seed"], log["setup"], actions, 0, len(actions), JUDGED_S, game)
    on_board = [m for m in moves if m["judged"] and (m["loss"] or 0) > 0 and marks(m["preferred"])]
    agreed = [m for m in moves if m["judged"] and m["loss"] == 0]
    assert on_board and agreed, f"no move with a better move on the board, or none agreed: {moves}"
    better, fine = on_board[0], agreed[0]
    page = replay_with(browser, server, server_db, game, moves)
    page.locator("[data-testid=scrub]").fill(str(better["seq"]))
    expect(page.locator("[data-testid=replay]")).to_have_attribute("data-frame", str(better["seq"]))
    expect(page.locator("[data-testid=analysis-move]")).to_contain_text(
        f"Move {better['seq']}: the bot preferred:")
    expect(page.locator("[data-testid=better-note]")).to_be_visible()
    ringed = page.locator(".board [data-testid=better-marks] [data-better]")
    expect(ringed).to_have_count(len(marks(better["preferred"])))
    shown = {ringed.nth(i).get_attribute("data-better") for i in range(ringed.count())}
    assert shown == marks(better["preferred"]), (shown, better)
    page.screenshot(path=str(shots_dir / "replay-better-move.png"))

    page.locator("[data-testid=scrub]").fill(str(fine["seq"]))
    expect(page.locator("[data-testid=replay]")).to_have_attribute("data-frame", str(fine["seq"]))
    expect(page.locator("[data-testid=analysis-move]")).to_contain_text(
        f"Move {fine['seq']}: the bot agrees with this move.")
    expect(page.locator("[data-testid=better-marks]")).to_have_count(0)
    expect(page.locator("[data-testid=better-note]")).to_have_count(0)
    assert not page.errors  # type: ignore[attr-defined]
    page.context.close()
