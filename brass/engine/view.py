"""`view`: what one seat (or a spectator) may see of a game (RULES.md §10).

The view is built from public parts only, by listing what to show (deny by default). The
viewer's own hand is the single private item added, and only for that seat (`_seen_by`).
`views` gives several seats' views at once, the public part built once.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from .data import DATA, INDUSTRIES
from .state import Game


def view(game: Game, seat: int | None) -> dict[str, Any]:
    return _seen_by(_public(game), game, seat)


def views(game: Game, seats: Iterable[int | None]) -> dict[int | None, dict[str, Any]]:
    """`view(game, seat)` for each of `seats`, the public part built once (a server sends
    every seat and the spectators their view after each move). The views share their public
    parts: treat them as read-only."""
    public = _public(game)
    return {seat: _seen_by(public, game, seat) for seat in set(seats)}


def _seen_by(public: dict[str, Any], game: Game, seat: int | None) -> dict[str, Any]:
    """The public view as `seat` sees it: itself as the viewer and, for a seat, its own hand
    (the one private item)."""
    if seat is None:
        return public
    if not (isinstance(seat, int) and 0 <= seat < game.num_players):
        raise ValueError(f"No seat {seat!r} in a {game.num_players}-player game")
    players = list(public["players"])
    for i, p in enumerate(game.players):
        if p.seat == seat:
            players[i] = {**players[i], "hand": list(p.hand)}
    return {**public, "viewer": seat, "players": players}


# Each building slot's and merchant slot's (location id, number), and each link's id, by
# index: every view names every tile, link and merchant on the board.
_SLOTS = tuple((DATA.locations[slot.location].id, slot.number) for slot in DATA.slots)
_MERCHANTS = tuple((DATA.locations[m.location].id, m.number) for m in DATA.merchant_slots)
_LINKS = tuple(link.id for link in DATA.links)


def _public(game: Game) -> dict[str, Any]:
    """What everyone may see: the spectator's view."""
    kind = "canal" if game.era == "canal" else "rail"  # of every link on the board
    return {
        "num_players": game.num_players,
        "viewer": None,
        "era": game.era,
        "round": game.round,
        "current_seat": game.current_seat,
        "actions_left": game.actions_left,
        "turn_order": list(game.turn_order),
        "action_count": game.action_count,
        "deck_size": len(game.deck),
        "wild_location_left": game.wild_location_left,
        "wild_industry_left": game.wild_industry_left,
        "coal_market": game.coal_market,
        "iron_market": game.iron_market,
        "coal_price": DATA.coal_market.buy_cost(game.coal_market, 1),
        "iron_price": DATA.iron_market.buy_cost(game.iron_market, 1),
        "is_over": game.is_over,
        "winner_order": game.winner_order if game.is_over else None,
        "ranks": game.ranks() if game.is_over else None,
        "era_scores": [[{"links": a, "industries": b} for a, b in era] for era in game.era_scores],
        "players": [{
            "seat": p.seat,
            "money": p.money,
            "vp": p.vp,
            "income_space": p.income_space,
            "income_level": p.income_level,
            "spent": p.spent,
            "links_left": p.links_left,
            "hand_size": len(p.hand),
            "hand": None,
            "discard_top": p.discard[-1] if p.discard else None,
            "discard_size": len(p.discard) + len(p.face_down),
            "mat": {industry: p.mat_levels(industry) for industry in INDUSTRIES},
        } for p in game.players],
        "industries": [{
            "location": location,
            "slot": number,
            "owner": tile.owner,
            "industry": tile.industry,
            "level": tile.level,
            "flipped": tile.flipped,
            "resources": tile.resources,
        } for (location, number), tile in zip(_SLOTS, game.tiles, strict=True)
            if tile is not None],
        "links": [{"id": link, "owner": owner, "kind": kind}
                  for link, owner in zip(_LINKS, game.links, strict=True)
                  if owner is not None],
        "merchants": [{
            "location": location,
            "slot": number,
            "buys": tile.buys,
            "beer": tile.beer,
        } for (location, number), tile in zip(_MERCHANTS, game.merchants, strict=True)
            if tile is not None],
    }
