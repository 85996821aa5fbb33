"""`brass play`: a game against bots on a running server, in the terminal.

It creates a game, takes seat 0 and fills the other seats with the server's bots, then follows
the game over its websocket. On your turn it shows the board in short (era, round, each seat's
money, VP and income, your hand) and your legal moves, grouped by kind, numbered and priced:

    Build
      12  build Coal Mine II in Tamworth — £7, 1 coal from the market (£1)

Type a move's number (a move several cards allow then asks which card to play), `b` to let the
bot heuristic choose, `q` to leave (the game goes on on the server). Anything else asks again;
an empty line asks whether the bot should choose. The server is `--url`, else the address
`brass serve` uses (`BRASS_HOST`, `BRASS_PORT`).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import urllib.error
import urllib.request
import uuid
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TextIO

from brass.bots import choose_entry
from brass.engine import DATA

INDUSTRY_NAME = {"cotton": "Cotton Mill", "manufacturer": "Manufacturer", "pottery": "Pottery",
                 "coal": "Coal Mine", "iron": "Iron Works", "brewery": "Brewery"}
TILE_WORD = {"cotton": "mill", "manufacturer": "manufacturer", "pottery": "pottery",
             "coal": "mine", "iron": "ironworks", "brewery": "brewery"}
KINDS = ["build", "network", "develop", "sell", "loan", "scout", "pass"]
KIND_HEADING = {"build": "Build", "network": "Network", "develop": "Develop", "sell": "Sell",
                "loan": "Loan", "scout": "Scout", "pass": "Pass"}
ROMAN = ["", "I", "II", "III", "IV", "V", "VI", "VII", "VIII"]


class NoServer(Exception):
    """Nothing answers at the server's address (or it went away): one line."""


class Quit(Exception):
    """The player left: `q` (exit status 0) or the end of the input (1)."""

    def __init__(self, reason: str, status: int) -> None:
        super().__init__(reason)
        self.status = status


# -- words ---------------------------------------------------------------------------------------
def location_name(location_id: str) -> str:
    index = DATA.location_index.get(location_id)
    return location_id if index is None else DATA.locations[index].name


def link_name(link_id: str) -> str:
    return "–".join(location_name(end) for end in link_id.split("--"))


def card_name(card: str) -> str:
    kind, _, what = card.partition(":")
    if kind == "wild":
        return "Wild Location" if what == "location" else "Wild Industry"
    if kind == "location":
        return location_name(what)
    if what == "cotton_manufacturer":
        return "Cotton Mill / Manufacturer"
    return INDUSTRY_NAME.get(what, what)


def tile_name(industry: str, level: int | None) -> str:
    name = INDUSTRY_NAME.get(industry, industry)
    if level is None:
        return name
    return f"{name} {ROMAN[level] if 0 < level < len(ROMAN) else level}"


def money(amount: int) -> str:
    return f"−£{-amount}" if amount < 0 else f"£{amount}"


def and_list(items: Sequence[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _tile_at(view: Mapping[str, Any], location: str, slot: int) -> Mapping[str, Any] | None:
    for tile in view.get("industries", []):
        if tile["location"] == location and tile["slot"] == slot:
            found: Mapping[str, Any] = tile
            return found
    return None


def _whose(owner: int | None, me: int | None, names: Sequence[str]) -> str:
    if owner is None:
        return "a"
    return "your" if owner == me else f"{names[owner]}'s"


def supply_words(resource: str, supply: Mapping[str, Any], me: int | None,
                 names: Sequence[str]) -> str:
    count = supply["count"]
    if supply["source"] == "market":
        return f"{count} {resource} from the market ({money(supply.get('cost', 0))})"
    where = location_name(supply.get("location", "?"))
    if supply["source"] == "merchant":
        return f"{count} beer from the merchant in {where}"
    word = TILE_WORD["coal" if resource == "coal" else "iron" if resource == "iron"
                     else "brewery"]
    return f"{count} {resource} from {_whose(supply.get('owner'), me, names)} {word} in {where}"


def price_words(quote: Mapping[str, Any], me: int | None, names: Sequence[str]) -> str:
    parts = [money(quote.get("money", 0))] if quote.get("money") else []
    if quote.get("received"):
        parts.append(f"receive {money(quote['received'])}")
    for resource in ("coal", "iron", "beer"):
        parts += [supply_words(resource, s, me, names) for s in quote.get(resource, [])]
    return ", ".join(parts) if parts else "free"


def action_words(action: Mapping[str, Any], view: Mapping[str, Any], seat: int,
                 played: bool = False) -> str:
    """A move in words. `view` is the board the move is made on (`played`: the board just
    after it, where a new tile shows its level)."""
    kind = action["kind"]
    if kind == "build":
        level = None
        if played:
            tile = _tile_at(view, action["location"], action["slot"])
            level = tile["level"] if tile and tile["industry"] == action["industry"] else None
        else:
            mat = view["players"][seat].get("mat") or {}
            levels = mat.get(action["industry"]) or []
            level = levels[0] if levels else None
        return (f"build {tile_name(action['industry'], level)} in "
                f"{location_name(action['location'])}")
    if kind == "network":
        era = "rail" if view.get("era") == "rail" else "canal"
        links = and_list([link_name(link) for link in action["links"]])
        return f"build rail links {links}" if len(action["links"]) > 1 else \
            f"build a {era} link {links}"
    if kind == "develop":
        return "develop " + and_list([INDUSTRY_NAME.get(i, i) for i in action["industries"]])
    if kind == "sell":
        sales = []
        for sale in action["sales"]:
            tile = _tile_at(view, sale["location"], sale["slot"])
            what = tile_name(tile["industry"], tile["level"]) if tile else "a tile"
            extra = (f" (developing {INDUSTRY_NAME.get(sale['develop'], sale['develop'])})"
                     if sale.get("develop") else "")
            sales.append(f"{what} in {location_name(sale['location'])} to "
                         f"{location_name(sale['merchant'])}{extra}")
        return "sell " + and_list(sales)
    if kind == "loan":
        return "take a loan of £30"
    if kind == "scout":
        return "scout (discard 3 cards, take a Wild Location and a Wild Industry)"
    return "pass"


def cards_of(action: Mapping[str, Any]) -> list[str]:
    cards = action.get("cards")
    return list(cards) if cards is not None else [action["card"]]


# -- the board in short --------------------------------------------------------------------------
def board_summary(view: Mapping[str, Any], me: int, names: Sequence[str]) -> list[str]:
    era = "Canal" if view["era"] == "canal" else "Rail"
    left = view.get("actions_left", 1)
    lines = [f"── {era} era, round {view['round']} · your turn, {left} action"
             f"{'s' if left != 1 else ''} left ──",
             f"  markets: coal {view['coal_market']} cubes (next {money(view['coal_price'])}), "
             f"iron {view['iron_market']} (next {money(view['iron_price'])}) · "
             f"{view['deck_size']} cards in the deck",
             f"  {'seat':<24}{'money':>6}{'VP':>5}{'income':>8}{'tiles':>7}{'links':>7}"]
    tiles = [0] * len(view["players"])
    for tile in view.get("industries", []):
        tiles[tile["owner"]] += 1
    links = [0] * len(view["players"])
    for link in view.get("links", []):
        links[link["owner"]] += 1
    for player in view["players"]:
        seat = player["seat"]
        label = f"{seat} {names[seat]}" + (" ◀" if seat == me else "")
        lines.append(f"  {label:<24}{money(player['money']):>6}{player['vp']:>5}"
                     f"{money(player['income_level']):>8}{tiles[seat]:>7}{links[seat]:>7}")
    hand = view["players"][me].get("hand") or []
    lines.append("  your hand: " + (", ".join(card_name(c) for c in hand) or "(empty)"))
    return lines


# -- the moves, grouped ---------------------------------------------------------------------------
@dataclass
class Choice:
    """One move as the player sees it: the same effect, whichever card is played."""

    kind: str
    words: str
    entries: list[Mapping[str, Any]] = field(default_factory=list)


def _effect_key(action: Mapping[str, Any]) -> str:
    return json.dumps({k: v for k, v in action.items() if k not in ("card", "cards")},
                      sort_keys=True)


def group_moves(entries: Sequence[Mapping[str, Any]], view: Mapping[str, Any], me: int,
                names: Sequence[str]) -> list[Choice]:
    """The legal entries as numbered choices (in the order of `KINDS`), one per effect."""
    by_effect: dict[str, Choice] = {}
    for entry in entries:
        action = entry["action"]
        key = _effect_key(action)
        choice = by_effect.get(key)
        if choice is None:
            words = (f"{action_words(action, view, me)} — "
                     f"{price_words(entry.get('quote') or {}, me, names)}")
            choice = by_effect[key] = Choice(kind=action["kind"], words=words)
        choice.entries.append(entry)
    choices = sorted(by_effect.values(), key=lambda c: KINDS.index(c.kind)
                     if c.kind in KINDS else len(KINDS))
    seen: dict[str, int] = {}
    for choice in choices:
        seen[choice.words] = seen.get(choice.words, 0) + 1
    for choice in choices:  # two slots of one town: say which
        action = choice.entries[0]["action"]
        if seen[choice.words] > 1 and action["kind"] == "build":
            head, _, price = choice.words.partition(" — ")
            choice.words = f"{head} (slot {action['slot'] + 1}) — {price}"
    return choices


def move_lines(choices: Sequence[Choice]) -> list[str]:
    lines, kind = [], None
    width = len(str(len(choices)))
    for number, choice in enumerate(choices, 1):
        if choice.kind != kind:
            kind = choice.kind
            count = sum(1 for c in choices if c.kind == kind)
            lines.append(f"{KIND_HEADING.get(kind, kind)} ({count})")
        lines.append(f"  {number:>{width}}  {choice.words}")
    return lines


# -- input ----------------------------------------------------------------------------------------
class Prompter:
    """Questions on `out`, answers from `read` (a line, or EOFError at the end)."""

    def __init__(self, read: Callable[[], str], out: TextIO) -> None:
        self.read, self.out = read, out

    def line(self, prompt: str) -> str:
        self.out.write(prompt)
        self.out.flush()
        try:
            text = self.read()
        except EOFError:
            text = ""
        if not text:  # readline gives "" only at the end of the input
            raise Quit("the input ended", 1)
        return text.strip()

    def number(self, prompt: str, count: int, bot_key: bool = True) -> int | None:
        """A number from 1 to `count` (returned 0-based), or None for the bot's choice."""
        keys = ", b: the bot's choice" if bot_key else ""
        while True:
            answer = self.line(f"{prompt} [1-{count}{keys}, q: quit]: ").lower()
            if answer in ("q", "quit"):
                raise Quit("you left", 0)
            if bot_key and answer == "b":
                return None
            if bot_key and answer == "":
                if self.line("let the bot choose this move? [y/N]: ").lower() in ("y", "yes"):
                    return None
                continue
            if answer.isdigit() and 1 <= int(answer) <= count:
                return int(answer) - 1
            self.out.write(f"  {answer!r} is not a choice: type a number from 1 to {count}"
                           f"{', or b for the bot' if bot_key else ''}\n")


# -- the server ------------------------------------------------------------------------------------
class Api:
    """A tiny client of the HTTP API (standard library only)."""

    def __init__(self, url: str, token: str | None = None) -> None:
        self.url, self.token = url.rstrip("/"), token

    def __call__(self, method: str, path: str, body: dict[str, Any] | None = None,
                 token: str | None = None) -> Any:
        headers = {"content-type": "application/json"}
        if token or self.token:
            headers["authorization"] = f"Bearer {token or self.token}"
        request = urllib.request.Request(
            self.url + path, method=method, headers=headers,
            data=None if body is None else json.dumps(body).encode())
        try:
            with urllib.request.urlopen(request, timeout=60) as reply:
                return json.loads(reply.read())
        except urllib.error.HTTPError as exc:
            try:
                answer = json.loads(exc.read())
            except ValueError:
                answer = None
            if isinstance(answer, dict) and "code" in answer:
                raise ServerRefused(answer["code"], answer.get("message", "")) from None
            raise ServerRefused("http", f"{exc.code} {exc.reason}") from None
        except (urllib.error.URLError, OSError) as exc:
            raise NoServer(f"no server answers at {self.url} ({getattr(exc, 'reason', exc)})"
                           ) from None


class ServerRefused(Exception):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code, self.message = code, message


def server_url(given: str | None) -> str:
    """`--url`, else where `brass serve` listens by its settings (BRASS_HOST, BRASS_PORT)."""
    if given:
        return given.rstrip("/")
    from pydantic import ValidationError

    from brass.server.settings import Settings

    try:
        settings = Settings()
    except ValidationError as exc:
        raise NoServer(f"cannot tell the server's address: {exc.errors()[0]['msg']}") from None
    host = "127.0.0.1" if settings.host in ("0.0.0.0", "", "::") else settings.host
    host = f"[{host}]" if ":" in host else host
    return f"http://{host}:{settings.port}"


def websocket_url(base: str, game_id: str) -> str:
    scheme, _, rest = base.partition("://")
    return f"{'wss' if scheme == 'https' else 'ws'}://{rest}/ws/games/{game_id}"


class Socket:
    """The game's websocket: state messages in, actions out."""

    def __init__(self, url: str, token: str) -> None:
        from websockets.sync.client import connect

        try:
            self.ws = connect(url, open_timeout=15, max_size=4 * 1024 * 1024)
        except (OSError, TimeoutError) as exc:
            raise NoServer(f"no server answers at {url} ({exc})") from None
        except Exception as exc:  # the handshake was refused
            raise NoServer(f"the server refused the websocket {url} ({exc})") from None
        self.ws.send(json.dumps({"type": "hello", "token": token}))

    def messages(self) -> Iterator[dict[str, Any]]:
        from websockets.exceptions import ConnectionClosed

        while True:
            try:
                text = self.ws.recv()
            except ConnectionClosed as exc:
                raise NoServer(f"the server closed the game's connection ({exc})") from None
            message: dict[str, Any] = json.loads(text)
            yield message

    def send(self, payload: dict[str, Any]) -> None:
        self.ws.send(json.dumps(payload))

    def close(self) -> None:
        self.ws.close()


# -- the game --------------------------------------------------------------------------------------
class Player:
    def __init__(self, url: str, players: int, auto: bool, prompter: Prompter,
                 out: TextIO) -> None:
        self.url, self.auto, self.ask, self.out = url, auto, prompter, out
        self.api = Api(url)
        created = self.api("POST", "/api/games", {"players": players, "name": "you vs bots"})
        self.game_id: str = created["id"]
        joined = self.api("POST", f"/api/games/{self.game_id}/join",
                          {"name": "you", "invite": created["invite"]})
        self.seat: int = joined["seat"]
        self.api.token = joined["token"]
        for _ in range(players - 1):
            self.api("POST", f"/api/games/{self.game_id}/bots", {},
                     token=created["host_token"])
        info = self.api("GET", f"/api/games/{self.game_id}")
        self.names = [("you" if s["seat"] == self.seat else s["name"] or f"seat {s['seat']}")
                      for s in info["seats"]]
        self.rng = random.Random()
        self.shown = 0  # log entries printed so far

    def say(self, text: str = "") -> None:
        self.out.write(text + "\n")
        self.out.flush()

    def run(self) -> int:
        self.say(f"game {self.game_id}: you are seat {self.seat}, against "
                 f"{and_list(self.names[1:]) if self.seat == 0 else 'bots'}; "
                 f"its log: {self.url}/api/games/{self.game_id}/log")
        socket = Socket(websocket_url(self.url, self.game_id), self.api.token or "")
        try:
            latest: dict[str, Any] | None = None  # the newest state message
            pending: str | None = None  # the action_id sent and not yet answered
            acted: int | None = None  # the version the last action was chosen on
            for message in socket.messages():
                kind = message.get("type")
                if kind == "error":
                    self.say(f"refused: {message.get('code')}: {message.get('message')}")
                    if pending is not None and message.get("action_id") == pending:
                        pending = acted = None
                        socket.send({"type": "sync"})  # choose again on a fresh state
                    continue
                if kind == "ack" and message.get("action_id") == pending:
                    pending = None
                elif kind == "state" and message.get("view") is not None:
                    latest = message
                    self.print_log(message["view"])
                    if message["status"] == "finished" or message["view"].get("is_over"):
                        self.print_end(message["view"])
                        return 0
                if (latest is not None and pending is None and latest["version"] != acted
                        and latest["view"]["current_seat"] == self.seat):
                    acted = latest["version"]
                    pending = self.take_turn(socket, latest["view"], latest["version"])
        finally:
            socket.close()
        return 1

    def print_log(self, view: Mapping[str, Any]) -> None:
        entries = self.api("GET", f"/api/games/{self.game_id}/log")["actions"]
        for entry in entries[self.shown:]:
            if entry["seat"] != self.seat:
                self.say(f"  {self.names[entry['seat']]}: "
                         f"{action_words(entry['action'], view, entry['seat'], played=True)}"
                         f" ({', '.join(card_name(c) for c in cards_of(entry['action']))})")
        self.shown = len(entries)

    def print_end(self, view: Mapping[str, Any]) -> None:
        ranking = sorted(view["players"], key=lambda p: -p["vp"])
        self.say("game over, final scores: "
                 + ", ".join(f"{self.names[p['seat']]} {p['vp']} VP" for p in ranking))

    def take_turn(self, socket: Socket, view: Mapping[str, Any], version: int) -> str | None:
        entries = self.api("GET", f"/api/games/{self.game_id}/legal")
        if not entries:
            return None
        me = view["players"][self.seat]
        self.say()
        for line in board_summary(view, self.seat, self.names):
            self.say(line)
        if self.auto:
            pick = choose_entry(entries, self.rng, me["money"])
        else:
            choices = group_moves(entries, view, self.seat, self.names)
            for line in move_lines(choices):
                self.say(line)
            index = self.ask.number("your move", len(choices))
            if index is None:
                pick = choose_entry(entries, self.rng, me["money"])
            else:
                pick = grow(self.api, self.game_id, self.pick_card(choices[index]), view,
                            self.seat, self.names, version, self.ask, self.say)
        self.say(f"you: {action_words(pick['action'], view, self.seat)} "
                 f"({', '.join(card_name(c) for c in cards_of(pick['action']))})")
        action_id = str(uuid.uuid4())
        socket.send({"type": "action", "action": pick["action"], "expected_version": version,
                     "action_id": action_id})
        return action_id

    def pick_card(self, choice: Choice) -> Mapping[str, Any]:
        if len(choice.entries) == 1:
            return choice.entries[0]
        self.say(f"{len(choice.entries)} ways to pay for it:")
        for number, entry in enumerate(choice.entries, 1):
            cards = and_list([card_name(c) for c in cards_of(entry["action"])])
            self.say(f"  {number}  play {cards}")
        index = self.ask.number("which card", len(choice.entries), bot_key=False)
        assert index is not None
        return choice.entries[index]


def grow(api: Api, game_id: str, pick: Mapping[str, Any], view: Mapping[str, Any], seat: int,
         names: Sequence[str], version: int, ask: Prompter,
         say: Callable[[str], None]) -> Mapping[str, Any]:
    """A sale can take more tiles and a railway a second link: offer what the server says may
    be added (`POST /legal/extend`), until the player stops or nothing more fits."""
    while pick["action"]["kind"] in ("sell", "network"):
        reply = api("POST", f"/api/games/{game_id}/legal/extend",
                    {"action": pick["action"], "version": version})
        moves = reply.get("moves") if isinstance(reply, dict) else None
        if not moves:
            return pick
        choices = group_moves(moves, view, seat, names)
        say(f"so far: {action_words(pick['action'], view, seat)}; add to it:")
        for line in move_lines(choices):
            say(line)
        say(f"  {len(choices) + 1:>{len(str(len(choices)))}}  no more: play it as it is")
        index = ask.number("add", len(choices) + 1, bot_key=False)
        assert index is not None
        if index == len(choices):
            return pick
        pick = choices[index].entries[0]  # the card stays the one chosen
    return pick


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--url", default=None, help="the server (default: http://BRASS_HOST:"
                        "BRASS_PORT, the address `brass serve` uses: http://127.0.0.1:8000)")
    parser.add_argument("--players", type=int, choices=[2, 3, 4], default=2)
    parser.add_argument("--auto", action="store_true", help="let the bot heuristic play for you")


def main(args: argparse.Namespace) -> int:
    out = sys.stdout
    try:
        url = server_url(args.url)
        player = Player(url, args.players, args.auto, Prompter(sys.stdin.readline, out), out)
        return player.run()
    except NoServer as exc:
        hint = ("; start one with `brass serve` or give its address with --url"
                if str(exc).startswith("no server") else "")
        print(f"brass play: {exc}{hint}", file=sys.stderr)
        return 2
    except ServerRefused as exc:
        print(f"brass play: the server refused: {exc}", file=sys.stderr)
        return 2
    except Quit as exc:
        print(f"brass play: {exc}; the game goes on on the server", file=sys.stderr)
        return exc.status
    except KeyboardInterrupt:
        print("brass play: interrupted; the game goes on on the server", file=sys.stderr)
        return 130
