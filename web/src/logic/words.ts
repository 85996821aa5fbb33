// Prices in words: the confirm panel's quote, and the sources of coal, iron and beer (shared
// with the log, logic/events.ts).
import type { Quote } from "../api/types";
import { listWords, locationName, money, PLAYER_NAMES } from "./names";

const SUPPLIER: Record<string, string> = { coal: "mine", iron: "ironworks", beer: "brewery" };

/** Where coal, iron or beer came from: a quote's supply or a move effect's. */
export interface Source {
  source: "tile" | "merchant" | "market";
  count: number;
  location?: string;
  owner?: number;
  cost?: number;
}

function whose(owner: number | undefined, actor: number | null): string {
  if (owner === undefined) return "a";
  if (owner === actor) return "their";
  return `${PLAYER_NAMES[owner]}'s`;
}

/** "1 coal from their mine in Leek", "2 iron from the market (£3)", "1 beer from the Oxford merchant". */
export function supplyWords(resource: string, s: Source, actor: number | null): string {
  const what = `${s.count} ${resource}`;
  if (s.source === "market") return `${what} from the market (${money(s.cost ?? 0)})`;
  if (s.source === "merchant") return `${what} from the ${locationName(s.location ?? "")} merchant`;
  return `${what} from ${whose(s.owner, actor)} ${SUPPLIER[resource] ?? resource} in ${locationName(s.location ?? "")}`;
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

/** One line per supply, for the confirm panel. */
export function quoteLines(q: Quote, actor: number | null): string[] {
  const lines = [`Money: ${money(q.money)}${q.received ? ` · receive ${money(q.received)}` : ""}`];
  for (const [res, list] of [["coal", q.coal], ["iron", q.iron], ["beer", q.beer]] as const)
    for (const s of list) lines.push(supplyWords(res, s, actor));
  return lines;
}
