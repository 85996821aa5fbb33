"""A sale of several tiles composed in the browser: the state message lists a Sell of one sale,
and each further sale comes from the server's extensions as the player picks it. The position
is the engine's worst-case corpus (four unsold goods tiles, every merchant connected), stored
in the test server's database as a running game whose seats are taken with their seat links."""

from __future__ import annotations

import json
import secrets
import urllib.request
from pathlib import Path

from playwright.sync_api import Browser, expect

from brass.engine import ENGINE_VERSION, Game, legal_actions
from brass.server.auth import token_hash
from brass.server.storage import GameRecord, SeatRecord, Storage, now, snapshots

from .test_browser import actions_done, click_action, open_page, wait_actions

CORPUS = Path(__file__).resolve().parents[1] / "fixtures" / "worst_case"


def store_position(db_url: str, game: Game) -> tuple[str, dict[int, str]]:
    """The position as a running game (every seat human) that starts from it: its id and the
    seat tokens."""
    game_id = f"pos-{secrets.token_hex(4)}"
    tokens = {s: secrets.token_urlsafe(16) for s in range(game.num_players)}
    stamp = now()
    storage = Storage(db_url)
    try:
        storage.create_game(GameRecord(
            id=game_id, name="A big sale", players=game.num_players, status="running",
            seed=game.seed, setup=None, version=0, engine_version=ENGINE_VERSION,
            created_at=stamp, host_token_hash=token_hash(secrets.token_hex(8)),
            updated_at=stamp, seats=[SeatRecord(seat=s, name=f"p{s}", token_hash=token_hash(t))
                                     for s, t in tokens.items()]))
        with storage.engine.begin() as conn:
            conn.execute(snapshots.insert().values(game_id=game_id, seq=0, actions=0,
                                                   state=game.to_json(), created_at=stamp))
    finally:
        storage.close()
    return game_id, tokens


def test_a_sale_of_three_tiles_grows_sale_by_sale(browser: Browser, server: str,
                                                   server_db: str, shots_dir: Path) -> None:
    game = Game.from_json(json.loads((CORPUS / "sell_goods_4.json").read_text()))
    seat = game.current_seat
    assert seat is not None
    sale = next(a for a in legal_actions(game) if a.kind == "sell" and len(a.sales) == 3)
    game_id, tokens = store_position(server_db, game)

    page = open_page(browser, f"{server}/#/game/{game_id}/seat/{tokens[seat]}")
    expect(page.locator("[data-testid=game]")).to_have_attribute(
        "data-current", str(seat), timeout=15000)
    n = actions_done(page)
    click_action(page, sale.to_json())  # each pick after the first needs an extension
    expect(page.locator("[data-testid=picks] li")).to_have_count(3)
    page.screenshot(path=str(shots_dir / "composed-sale.png"))
    page.click("[data-testid=confirm]")
    wait_actions(page, n + 1)

    log = json.loads(urllib.request.urlopen(
        f"{server}/api/games/{game_id}/log", timeout=10).read())
    assert [e["action"] for e in log["actions"]] == [sale.to_json()]
    sold = [(t["location"], t["slot"]) for t in log["actions"][0]["effects"][0]["sales"]]
    assert sorted(sold) == sorted((s.location, s.slot) for s in sale.sales)
    assert not page.errors  # type: ignore[attr-defined]
