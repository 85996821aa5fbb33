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
import { cardName, INDUSTRY_NAME, linkName, listWords, locationName, money, PLAYER_NAMES, plural, tileName } from "./names";
import { supplyWords } from "./words";

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

const ERA: Record<string, string> = { canal: "canal", rail: "rail" };

function whose(owner: number, actor: number): string {
  return owner === actor ? "their" : `${PLAYER_NAMES[owner]}'s`;
}

function tileAt(t: { industry: string; level: number; location: string }): string {
  return `${tileName(t.industry, t.level)} in ${locationName(t.location)}`;
}

function supplies(list: SupplyEffect[], actor: number): string[] {
  return list.map((s) => supplyWords(s.resource, s, actor));
}

/** "for £14, using 1 coal from their mine in Leek and 2 iron from the market (£3)". */
function price(e: MoveEvent, used: SupplyEffect[]): string {
  const parts = supplies(used, e.seat);
  const paid = e.paid > 0 ? money(e.paid) : parts.length ? "£0" : "free";
  return parts.length ? ` for ${paid}, using ${listWords(parts)}` : ` for ${paid}`;
}

/** A move in words, from its `move` event. */
export function moveWords(e: MoveEvent): string {
  const who = PLAYER_NAMES[e.seat];
  const a = e.action as Action;
  const beer = e.supplies.filter((s) => s.resource === "beer");
  let text: string;
  switch (a.kind) {
    case "build": {
      const p = e.placed!;
      const over = e.removed.map((r) => `${whose(r.owner, e.seat)} ${tileName(r.industry, r.level)}`);
      text = `${who} built ${tileAt(p)}${over.length ? `, replacing ${listWords(over)}` : ""}${price(e, e.supplies)}`;
      if (e.to_market)
        text += `; sold ${e.to_market.count} ${e.to_market.resource} to the market for ${money(e.to_market.received)}`;
      break;
    }
    case "network": {
      const kind = e.links[0]?.kind ?? "canal";
      const what = e.links.length === 2 ? `${kind} links` : `a ${kind} link`;
      text = `${who} built ${what} ${listWords(e.links.map((l) => linkName(l.id)))}${price(e, e.supplies)}`;
      break;
    }
    case "develop": {
      const what = listWords(e.developed.map((d) => tileName(d.industry, d.level)));
      text = `${who} developed ${what}${price(e, e.supplies)}`;
      break;
    }
    case "sell": {
      const sales = e.sales.map((s) => {
        const b = s.bonus;
        let bonus = "";
        if (b?.kind === "income") bonus = ` (bonus: ${plural(b.amount, "income space")})`;
        else if (b?.kind === "vp") bonus = ` (bonus: ${b.amount} VP)`;
        else if (b?.kind === "money") bonus = ` (bonus: ${money(b.amount)})`;
        else if (b?.kind === "develop") bonus = b.develop ? ` (bonus: develops ${INDUSTRY_NAME[b.develop]})` : " (bonus develop declined)";
        return `${tileAt(s)} to ${locationName(s.merchant)}${bonus}`;
      });
      text = `${who} sold ${listWords(sales)}`;
      if (beer.length) text += ` using ${listWords(supplies(beer, e.seat))}`;
      if (e.received > 0) text += `, receiving ${money(e.received)}`;
      break;
    }
    case "loan":
      text = `${who} took a loan of ${money(e.received)}`;
      break;
    case "scout":
      text = `${who} scouted, discarding ${listWords(a.cards.map(cardName))}`;
      break;
    case "pass":
      text = `${who} passed`;
      break;
  }
  const sold = new Set(e.sales.map((s) => `${s.location}:${s.slot}`));
  const flips = e.flipped.filter((f) => !sold.has(`${f.location}:${f.slot}`));
  if (flips.length)
    text += `; ${listWords(flips.map((f) => `${whose(f.owner, e.seat)} ${tileAt(f)}`))} flipped`;
  return text;
}

/** An action with no stored effects (a game stored before effects were): no price. */
export function actionOnlyWords(a: Action, seat: number): string {
  const who = PLAYER_NAMES[seat];
  switch (a.kind) {
    case "build":
      return `${who} built a ${INDUSTRY_NAME[a.industry]} in ${locationName(a.location)}`;
    case "network":
      return `${who} built ${a.links.length === 2 ? "links" : "a link"} ${listWords(a.links.map(linkName))}`;
    case "develop":
      return `${who} developed ${listWords(a.industries.map((i) => INDUSTRY_NAME[i]))}`;
    case "sell":
      return `${who} sold ${listWords(a.sales.map((s) => `a tile in ${locationName(s.location)} to ${locationName(s.merchant)}`))}`;
    case "loan":
      return `${who} took a loan`;
    case "scout":
      return `${who} scouted, discarding ${listWords(a.cards.map(cardName))}`;
    case "pass":
      return `${who} passed`;
  }
}

export function drawWords(e: DrawEvent): string {
  return `drew ${plural(e.count, "card")}${e.cards ? ` (${listWords(e.cards.map(cardName))})` : ""}`;
}

/** Income paid at the end of a round, seat by seat, with any shortfall. */
export function incomeLines(e: RoundEndEvent): string[] {
  return e.income.map((i) => {
    const who = PLAYER_NAMES[i.seat];
    let text = i.level >= 0
      ? `${who}: +${money(i.level)} (income ${i.level}), ${money(i.money_before)} → ${money(i.money_after)}`
      : `${who}: pays ${money(-i.level)} (income ${i.level}), ${money(i.money_before)} → ${money(i.money_after)}`;
    if (i.shortfall > 0) {
      text += `; short by ${money(i.shortfall)}`;
      if (i.removed.length)
        text += `: removed ${listWords(i.removed.map((t) => `${tileAt(t)} (raising ${money(t.raised)})`))}`;
      if (i.vp_lost > 0) text += `${i.removed.length ? " and" : ":"} lost ${i.vp_lost} VP`;
      if (!i.removed.length && i.vp_lost === 0) text += " (no tile or VP to lose)";
    }
    return text;
  });
}

export function roundItems(e: RoundEndEvent): LogItem[] {
  const title = `End of ${ERA[e.era]} era round ${e.round}`;
  const items: LogItem[] = [];
  if (e.income_paid) items.push({ kind: "income", text: `${title}: income`, lines: incomeLines(e) });
  else items.push({ kind: "income", text: `${title}: no income after the last round` });
  const order = e.turn_order.map((s) => `${PLAYER_NAMES[s]} (spent ${money(e.spent[s] ?? 0)})`);
  items.push({ kind: "order", text: `New turn order, least spent first: ${order.join(", ")}` });
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
      ...s.links.map((l) => `${linkName(l.id)} ${l.vp}`),
      ...s.tiles.map((t) => `${tileAt(t)} ${t.vp}`),
    ],
  }));
}

export function eraItems(e: EraEndEvent): LogItem[] {
  const items: LogItem[] = [{ kind: "scores", era: e.era, rows: scoreRows(e) }];
  const removed: string[] = [];
  if (e.links_removed.length) removed.push(`${plural(e.links_removed.length, `${ERA[e.era]} link`)}`);
  if (e.removed.length)
    removed.push(`the level-I tiles ${listWords(e.removed.map((t) => `${PLAYER_NAMES[t.owner]}'s ${tileAt(t)}`))}`);
  if (removed.length) items.push({ kind: "removed", text: `Removed from the board: ${listWords(removed)}` });
  if (e.merchants_refilled.length)
    items.push({ kind: "removed", text: `Beer put back on ${plural(e.merchants_refilled.length, "merchant tile")}` });
  if (e.deal) {
    const hands = e.deal.hands.map((h) => `${PLAYER_NAMES[h.seat]} ${plural(h.count, "card")}`);
    items.push({ kind: "deal", text: `Rail era deal: ${hands.join(", ")}; ${plural(e.deal.deck_left, "card")} left in the deck` });
  }
  return items;
}

const TIE_BREAK: Record<Ranked["tie_break"], string> = {
  none: "",
  income: "tie broken by income",
  money: "tie broken by money",
  shared: "tied on VP, income and money: place shared",
};

export function rankRows(e: GameEndEvent): RankRow[] {
  return e.ranking.map((r) => ({
    seat: r.seat,
    rank: r.rank,
    vp: r.vp,
    income: r.income_level,
    money: r.money,
    tieBreak: TIE_BREAK[r.tie_break],
  }));
}

/** A log entry's items, in the order the engine recorded them (a draw joins its move's line). */
export function entryItems(entry: LogEntry): LogItem[] {
  const effects: Event[] = entry.effects ?? [];
  if (effects.length === 0) return [{ kind: "move", seat: entry.seat, text: actionOnlyWords(entry.action, entry.seat) }];
  const items: LogItem[] = [];
  for (const e of effects) {
    if (e.type === "move") items.push({ kind: "move", seat: e.seat, text: moveWords(e) });
    else if (e.type === "draw") {
      const move = items.find((i) => i.kind === "move");
      if (move && move.kind === "move") move.text += `; ${drawWords(e)}`;
    } else if (e.type === "round_end") items.push(...roundItems(e));
    else if (e.type === "era_end") items.push(...eraItems(e));
    else if (e.type === "game_end") items.push({ kind: "ranking", rows: rankRows(e) });
  }
  return items;
}

/** The move's own line of a log entry (the replay's "last move"). */
export function entryLine(entry: LogEntry): string {
  const first = entryItems(entry)[0];
  return first && "text" in first ? first.text : "";
}
