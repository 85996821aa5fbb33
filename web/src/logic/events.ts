// The log in words, from the effects the server stores with each action (brass/engine/
// effects.py): a move with its price and sources, and the events between turns (income, the
// new turn order, era scoring, removals, the rail deal, the final ranking). Nothing here is
// worked out from the rules: every figure is one the engine recorded.
import type {
  Action,
  DrawEvent,
  EraEndEvent,
  Event,
  GameEndEvent,
  LogEntry,
  MoveEvent,
  Ranked,
  RoundEndEvent,
  SupplyEffect,
} from "../api/types";
import { isolate, num, signedMoney, t } from "../i18n";
import { cardName, INDUSTRY_NAME, linkName, listWords, locationName, money, PLAYER_NAMES, tileName } from "./names";
import { amountWords, supplyWords } from "./words";

/** One era's scoring, seat by seat. */
export interface ScoreRow {
  seat: number;
  links: number;
  linkVp: number;
  tiles: number;
  tileVp: number;
  vp: number;
  /** link by link and tile by tile, e.g. "Birmingham–Oxford 4", "Cotton Mill I in Tamworth 5" */
  detail: string[];
}

export interface RankRow {
  seat: number;
  rank: number;
  vp: number;
  income: number;
  money: number;
  tieBreak: string;
}

/** What the log shows for one event. */
export type LogItem =
  | { kind: "move"; seat: number; text: string }
  | { kind: "income" | "order" | "removed" | "deal"; text: string; lines?: string[] }
  | { kind: "scores"; era: string; rows: ScoreRow[] }
  | { kind: "ranking"; rows: RankRow[] };

/** The seats' names as the page shows them (seatName), by seat; a seat without one is named by
 * its colour. */
export type Names = readonly (string | null | undefined)[] | undefined;

/** A seat's player by name (by colour without one), isolated in a right-to-left sentence: the
 * log names players as the rest of the page does. */
const who = (seat: number, names: Names): string => isolate(names?.[seat] ?? PLAYER_NAMES[seat]);

/** "their Brewery I" or "Yellow's Brewery I" (whose: seen from `actor`; null: always named). */
function whoseTile(owner: number, actor: number | null, tile: string, names: Names): string {
  return t("log.whose_tile", { owner: owner === actor ? "self" : "other", ownerName: who(owner, names), tile });
}

function tileAt(x: { industry: string; level: number; location: string }): string {
  return t("log.tile_at", { tile: tileName(x.industry, x.level), location: isolate(locationName(x.location)) });
}

/** "a; b": a clause added to a log line. */
const then = (a: string, b: string): string => t("log.then", { a, b });

function supplies(list: SupplyEffect[], actor: number): string[] {
  return list.map((s) => supplyWords(s.resource, s, actor));
}

/** "for £14, using 1 coal from their mine in Leek"; with cubes bought from a market, whose
 * price the money paid includes, what the whole was made of: "for £6 in all: £5 and 1 coal
 * from the market at £1". */
function price(e: MoveEvent, used: SupplyEffect[]): string {
  const parts = supplies(used, e.seat);
  const market = used.reduce((sum, s) => sum + (s.source === "market" ? s.cost ?? 0 : 0), 0);
  if (market > 0) {
    const rest = e.paid - market;
    return t("log.price_all", { paid: money(e.paid), parts: listWords(rest > 0 ? [money(rest), ...parts] : parts) });
  }
  const paid = e.paid > 0 ? money(e.paid) : parts.length ? money(0) : t("quote.free");
  return parts.length ? t("log.price_using", { paid, supplies: listWords(parts) }) : t("log.price", { paid });
}

function bonusWords(b: MoveEvent["sales"][number]["bonus"]): string {
  if (b?.kind === "income") return t("log.bonus_income", { n: b.amount });
  if (b?.kind === "vp") return t("log.bonus_vp", { n: b.amount });
  if (b?.kind === "money") return t("log.bonus_money", { money: money(b.amount) });
  if (b?.kind === "develop") return b.develop ? t("log.bonus_develop", { industry: INDUSTRY_NAME[b.develop] }) : t("log.bonus_declined");
  return "";
}

/** A move in words, from its `move` event. */
export function moveWords(e: MoveEvent, names?: Names): string {
  const a = e.action;
  const beer = e.supplies.filter((s) => s.resource === "beer");
  let text: string;
  switch (a.kind) {
    case "build": {
      const p = e.placed!;
      const over = e.removed.map((r) => whoseTile(r.owner, e.seat, tileName(r.industry, r.level), names));
      text = t("log.build", {
        who: who(e.seat, names),
        tile: tileAt(p),
        replacing: over.length ? t("log.replacing", { tiles: listWords(over) }) : "",
        price: price(e, e.supplies),
      });
      if (e.to_market)
        text = then(text, t("log.to_market", {
          amount: amountWords(e.to_market.resource, e.to_market.count), money: money(e.to_market.received),
        }));
      break;
    }
    case "network":
      text = t("log.network", {
        who: who(e.seat, names),
        kind: e.links[0]?.kind ?? "canal",
        count: e.links.length,
        links: listWords(e.links.map((l) => isolate(linkName(l.id)))),
        price: price(e, e.supplies),
      });
      break;
    case "develop":
      text = t("log.develop", {
        who: who(e.seat, names),
        tiles: listWords(e.developed.map((d) => tileName(d.industry, d.level))),
        price: price(e, e.supplies),
      });
      break;
    case "sell": {
      const sales = e.sales.map((s) => t("log.sale", {
        tile: tileAt(s), merchant: isolate(locationName(s.merchant)), bonus: bonusWords(s.bonus),
      }));
      text = t("log.sell", {
        who: who(e.seat, names),
        sales: listWords(sales),
        beer: beer.length ? t("log.sell_beer", { supplies: listWords(supplies(beer, e.seat)) }) : "",
        received: e.received > 0 ? t("log.sell_received", { money: money(e.received) }) : "",
      });
      break;
    }
    case "loan":
      text = t("log.loan", { who: who(e.seat, names), money: money(e.received) });
      break;
    case "scout":
      text = t("log.scout", { who: who(e.seat, names), cards: listWords(a.cards.map(cardName)) });
      break;
    case "pass":
      text = t("log.pass", { who: who(e.seat, names) });
      break;
  }
  const sold = new Set(e.sales.map((s) => `${s.location}:${s.slot}`));
  const flips = e.flipped.filter((f) => !sold.has(`${f.location}:${f.slot}`));
  if (flips.length)
    text = then(text, t("log.flipped", { tiles: listWords(flips.map((f) => whoseTile(f.owner, e.seat, tileAt(f), names))) }));
  return text;
}

/** An action with no stored effects (a game stored before effects were): no price. */
export function actionOnlyWords(a: Action, seat: number, names?: Names): string {
  switch (a.kind) {
    case "build":
      return t("log.plain_build", { who: who(seat, names), industry: INDUSTRY_NAME[a.industry], location: isolate(locationName(a.location)) });
    case "network":
      return t("log.plain_network", { who: who(seat, names), count: a.links.length, links: listWords(a.links.map((l) => isolate(linkName(l)))) });
    case "develop":
      return t("log.plain_develop", { who: who(seat, names), industries: listWords(a.industries.map((i) => INDUSTRY_NAME[i])) });
    case "sell":
      return t("log.plain_sell", {
        who: who(seat, names),
        sales: listWords(a.sales.map((s) => t("log.plain_sale", {
          location: isolate(locationName(s.location)), merchant: isolate(locationName(s.merchant)),
        }))),
      });
    case "loan":
      return t("log.plain_loan", { who: who(seat, names) });
    case "scout":
      return t("log.scout", { who: who(seat, names), cards: listWords(a.cards.map(cardName)) });
    case "pass":
      return t("log.pass", { who: who(seat, names) });
  }
}

export function drawWords(e: DrawEvent): string {
  return e.cards
    ? t("log.draw_cards", { count: e.count, cards: listWords(e.cards.map(cardName)) })
    : t("log.draw", { count: e.count });
}

/** Income paid at the end of a round, seat by seat, with any shortfall. */
export function incomeLines(e: RoundEndEvent, names?: Names): string[] {
  return e.income.map((i) => {
    const args = { who: who(i.seat, names), level: num(i.level), before: money(i.money_before), after: money(i.money_after) };
    let text = i.level >= 0
      ? t("log.income_gain", { ...args, money: signedMoney(i.level) })
      : t("log.income_pay", { ...args, money: money(-i.level) });
    if (i.shortfall > 0) {
      const removed = i.removed.map((x) => t("log.raising", { tile: tileAt(x), money: money(x.raised) }));
      const lost = removed.length ? (i.vp_lost > 0 ? "tiles_vp" : "tiles") : i.vp_lost > 0 ? "vp" : "nothing";
      text = t("log.short", { line: text, money: money(i.shortfall), lost, removed: listWords(removed), vp: i.vp_lost });
    }
    return text;
  });
}

export function roundItems(e: RoundEndEvent, names?: Names): LogItem[] {
  const title = t("log.round_title", { era: e.era, round: e.round });
  const items: LogItem[] = [];
  if (e.income_paid) items.push({ kind: "income", text: t("log.round_income", { title }), lines: incomeLines(e, names) });
  else items.push({ kind: "income", text: t("log.round_no_income", { title }) });
  const order = e.turn_order.map((s) => t("log.order_entry", { who: who(s, names), money: money(e.spent[s] ?? 0) }));
  items.push({ kind: "order", text: t("log.order", { order: order.join(t("list.separator")) }) });
  return items;
}

export function scoreRows(e: EraEndEvent): ScoreRow[] {
  return e.scores.map((s) => ({
    seat: s.seat,
    links: s.links.length,
    linkVp: s.link_vp,
    tiles: s.tiles.length,
    tileVp: s.tile_vp,
    vp: s.vp,
    detail: [
      ...s.links.map((l) => t("log.detail", { what: linkName(l.id), vp: l.vp })),
      ...s.tiles.map((x) => t("log.detail", { what: tileAt(x), vp: x.vp })),
    ],
  }));
}

export function eraItems(e: EraEndEvent, names?: Names): LogItem[] {
  const items: LogItem[] = [{ kind: "scores", era: e.era, rows: scoreRows(e) }];
  const removed: string[] = [];
  if (e.links_removed.length) removed.push(t("log.removed_links", { era: e.era, n: e.links_removed.length }));
  if (e.removed.length)
    removed.push(t("log.removed_tiles", { tiles: listWords(e.removed.map((x) => whoseTile(x.owner, null, tileAt(x), names))) }));
  if (removed.length) items.push({ kind: "removed", text: t("log.removed", { what: listWords(removed) }) });
  if (e.merchants_refilled.length)
    items.push({ kind: "removed", text: t("log.refilled", { n: e.merchants_refilled.length }) });
  if (e.deal) {
    const hands = e.deal.hands.map((h) => t("log.deal_hand", { who: who(h.seat, names), n: h.count }));
    items.push({ kind: "deal", text: t("log.deal", { hands: hands.join(t("list.separator")), left: e.deal.deck_left }) });
  }
  return items;
}

/** How a tie was broken, in words ("" when there was none). */
export function tieBreakWords(tie: Ranked["tie_break"]): string {
  return tie === "none" ? "" : t(`log.tie_${tie}`);
}

export function rankRows(e: GameEndEvent): RankRow[] {
  return e.ranking.map((r) => ({
    seat: r.seat,
    rank: r.rank,
    vp: r.vp,
    income: r.income_level,
    money: r.money,
    tieBreak: tieBreakWords(r.tie_break),
  }));
}

/** A move's words, marked when a bot made it for the seat's player (and why). */
function standIn(text: string, entry: LogEntry): string {
  return entry.stand_in ? t("log.stand_in", { text, reason: entry.stand_in }) : text;
}

/** A log entry's items, in the order the engine recorded them (a draw joins its move's line);
 * players named by `names` where they have one. */
export function entryItems(entry: LogEntry, names?: Names): LogItem[] {
  const effects: Event[] = entry.effects ?? [];
  if (effects.length === 0) return [{ kind: "move", seat: entry.seat, text: standIn(actionOnlyWords(entry.action, entry.seat, names), entry) }];
  const items: LogItem[] = [];
  for (const e of effects) {
    if (e.type === "move") items.push({ kind: "move", seat: e.seat, text: standIn(moveWords(e, names), entry) });
    else if (e.type === "draw") {
      const move = items.find((i) => i.kind === "move");
      if (move && move.kind === "move") move.text = then(move.text, drawWords(e));
    } else if (e.type === "round_end") items.push(...roundItems(e, names));
    else if (e.type === "era_end") items.push(...eraItems(e, names));
    else if (e.type === "game_end") items.push({ kind: "ranking", rows: rankRows(e) });
  }
  return items;
}

/** The move's own line of a log entry (the replay's "last move"). */
export function entryLine(entry: LogEntry, names?: Names): string {
  const first = entryItems(entry, names)[0];
  return first && "text" in first ? first.text : "";
}
