// Turning actions, quotes and state changes into words a player reads.
import type { Action, Quote, Supply, View } from "../api/types";
import {
  cardName,
  INDUSTRY_NAME,
  linkName,
  locationName,
  money,
  PLAYER_NAMES,
  plural,
  tileName,
} from "./names";

const SUPPLIER: Record<string, string> = { coal: "mine", iron: "ironworks", beer: "brewery" };

function whose(owner: number | undefined, actor: number | null): string {
  if (owner === undefined) return "a";
  if (owner === actor) return "their";
  return `${PLAYER_NAMES[owner]}'s`;
}

/** "1 coal from their mine in Leek", "2 iron from the market (£3)", "1 beer from the Oxford merchant". */
export function supplyWords(resource: string, s: Supply, actor: number | null): string {
  const what = `${s.count} ${resource}`;
  if (s.source === "market") return `${what} from the market (${money(s.cost ?? 0)})`;
  if (s.source === "merchant") return `${what} from the ${locationName(s.location ?? "")} merchant`;
  return `${what} from ${whose(s.owner, actor)} ${SUPPLIER[resource] ?? resource} in ${locationName(s.location ?? "")}`;
}

function listWords(parts: string[]): string {
  if (parts.length <= 1) return parts.join("");
  return `${parts.slice(0, -1).join(", ")} and ${parts[parts.length - 1]}`;
}

/** The price of an action in words: "£14 and 1 coal from their mine in Leek". */
export function quoteWords(q: Quote, actor: number | null): string {
  const parts: string[] = [];
  if (q.money > 0) parts.push(money(q.money));
  for (const [res, list] of [["coal", q.coal], ["iron", q.iron], ["beer", q.beer]] as const)
    for (const s of list) parts.push(supplyWords(res, s, actor));
  if (parts.length === 0) parts.push("free");
  return listWords(parts);
}

export function receivedWords(q: Quote): string {
  return q.received > 0 ? `receives ${money(q.received)}` : "";
}

/** One line per supply, for the confirm panel. */
export function quoteLines(q: Quote, actor: number | null): string[] {
  const lines = [`Money: ${money(q.money)}${q.received ? ` · receive ${money(q.received)}` : ""}`];
  for (const [res, list] of [["coal", q.coal], ["iron", q.iron], ["beer", q.beer]] as const)
    for (const s of list) lines.push(supplyWords(res, s, actor));
  return lines;
}

/** The tile now at a location/slot in a view, if any. */
function tileAt(v: View | undefined, location: string, slot: number) {
  return v?.industries.find((t) => t.location === location && t.slot === slot);
}

/** An action in words, e.g. "Red built Cotton Mill II in Stoke-on-Trent for £14 and 1 coal
 * from their mine in Leek". `before`/`after` (views around the action) add tile levels; a
 * quote (known for one's own moves, or derived from the views) adds the price. */
export function actionWords(
  action: Action,
  seat: number,
  opts: { quote?: Quote | null; before?: View; after?: View; who?: string } = {},
): string {
  const who = opts.who ?? PLAYER_NAMES[seat];
  const q = opts.quote ?? null;
  const price = q ? ` for ${quoteWords(q, seat)}` : "";
  switch (action.kind) {
    case "build": {
      const t = tileAt(opts.after, action.location, action.slot);
      const what = t && t.industry === action.industry ? tileName(t.industry, t.level) : `a ${INDUSTRY_NAME[action.industry]}`;
      return `${who} built ${what} in ${locationName(action.location)}${price}`;
    }
    case "network": {
      const kind = opts.after?.era === "rail" || opts.before?.era === "rail" ? "rail" : "canal";
      const links = listWords(action.links.map(linkName));
      return `${who} built ${action.links.length === 2 ? "rail links" : `a ${kind} link`} ${links}${price}`;
    }
    case "develop": {
      const what = listWords(action.industries.map((i) => INDUSTRY_NAME[i]));
      return `${who} developed ${what}${price}`;
    }
    case "sell": {
      const sales = action.sales.map((s) => {
        const t = tileAt(opts.after, s.location, s.slot) ?? tileAt(opts.before, s.location, s.slot);
        const what = t ? tileName(t.industry, t.level) : "a tile";
        const dev = s.develop ? ` (developing ${INDUSTRY_NAME[s.develop]})` : "";
        return `${what} in ${locationName(s.location)} to ${locationName(s.merchant)}${dev}`;
      });
      const beer = q && q.beer.length ? ` using ${listWords(q.beer.map((b) => supplyWords("beer", b, seat)))}` : "";
      return `${who} sold ${listWords(sales)}${beer}`;
    }
    case "loan":
      return `${who} took a loan of £30`;
    case "scout":
      return `${who} scouted, discarding ${listWords(action.cards.map(cardName))}`;
    case "pass":
      return `${who} passed`;
  }
}

/** The card an action discards (scout: three). */
export function actionCards(action: Action): string[] {
  return action.kind === "scout" ? action.cards : [action.card];
}

/** What an action cost, worked out from the views before and after it (for moves by others,
 * whose quote the client never saw). An action that ends a round shows only the coal, iron and
 * beer it used (income is paid then, so money changes are not the price); null if it ended an
 * era, or the views are missing. */
export function quoteFromViews(before: View | undefined, after: View | undefined, seat: number): Quote | null {
  if (!before || !after || before.era !== after.era) return null;
  const roundEnded = before.round !== after.round;
  const pb = before.players[seat];
  const pa = after.players[seat];
  const q: Quote = { money: 0, received: 0, coal: [], iron: [], beer: [] };
  const delta = pb.money - pa.money;
  if (delta >= 0) q.money = delta;
  else q.received = -delta;
  for (const tb of before.industries) {
    const ta = after.industries.find((t) => t.location === tb.location && t.slot === tb.slot);
    const used = tb.resources - (ta && ta.industry === tb.industry ? ta.resources : 0);
    if (used <= 0 || !(ta && ta.owner === tb.owner && ta.industry === tb.industry)) continue;
    const s: Supply = { source: "tile", count: used, location: tb.location, slot: tb.slot, owner: tb.owner };
    if (tb.industry === "coal") q.coal.push(s);
    else if (tb.industry === "iron") q.iron.push(s);
    else if (tb.industry === "brewery") q.beer.push(s);
  }
  for (const mb of before.merchants) {
    const ma = after.merchants.find((m) => m.location === mb.location && m.slot === mb.slot);
    if (mb.beer && ma && !ma.beer) q.beer.push({ source: "merchant", count: 1, location: mb.location, slot: mb.slot });
  }
  const coal = before.coal_market - after.coal_market;
  if (coal > 0) q.coal.push({ source: "market", count: coal, cost: marketCost(before.coal_market, coal, 14) });
  const iron = before.iron_market - after.iron_market;
  if (iron > 0) q.iron.push({ source: "market", count: iron, cost: marketCost(before.iron_market, iron, 10) });
  if (roundEnded) {
    q.money = 0;
    q.received = 0;
    if (!q.coal.length && !q.iron.length && !q.beer.length) return null;
  }
  return q;
}

/** Price of buying `n` cubes from a market holding `cubes` of `spaces` (£1,£1,£2,£2,...). */
export function marketCost(cubes: number, n: number, spaces: number): number {
  let cost = 0;
  let left = cubes;
  for (let i = 0; i < n; i++) {
    if (left > 0) {
      const index = spaces - left; // cheapest filled space
      cost += Math.floor(index / 2) + 1;
      left--;
    } else cost += spaces / 2 + 1;
  }
  return cost;
}

export function describeMoney(q: Quote): string {
  const parts = [];
  if (q.money) parts.push(`pay ${money(q.money)}`);
  if (q.received) parts.push(`receive ${money(q.received)}`);
  return parts.join(", ") || "no money";
}

export { plural };
