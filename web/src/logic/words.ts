// Prices in words: the confirm panel's quote, and the sources of coal, iron and beer (shared
// with the log, logic/events.ts). The sentences are catalogue messages (web/src/i18n).
import type { Quote, View } from "../api/types";
import { t } from "../i18n";
import { parseSale } from "./choose";
import { cardName, INDUSTRY_NAME, INDUSTRY_SHORT, linkName, listWords, locationName, MERCHANT_BUYS, money, PLAYER_NAMES, tileName } from "./names";

const SUPPLIER: Record<string, string> = { coal: "coal", iron: "iron", beer: "brewery" };

/** Where coal, iron or beer came from: a quote's supply or a move effect's. */
export interface Source {
  source: "tile" | "merchant" | "market";
  count: number;
  location?: string;
  owner?: number;
  cost?: number;
}

/** "1 coal", "2 iron", "1 beer" (each language's plural forms). */
export function amountWords(resource: string, count: number): string {
  return t(`resource.${resource}`, { count });
}

/** "their", "Yellow's" or "a": whose tile, for `select` in the messages. */
function owner(owner: number | undefined, actor: number | null): { owner: string; ownerName: string } {
  if (owner === undefined) return { owner: "none", ownerName: "" };
  if (owner === actor) return { owner: "self", ownerName: "" };
  return { owner: "other", ownerName: PLAYER_NAMES[owner] };
}

/** "1 coal from their mine in Leek", "1 iron from the market at £2", "2 iron from the market
 * for £3", "1 beer from the Oxford merchant". */
export function supplyWords(resource: string, s: Source, actor: number | null): string {
  const amount = amountWords(resource, s.count);
  if (s.source === "market") return t("supply.market", { amount, cost: money(s.cost ?? 0), count: s.count });
  if (s.source === "merchant") return t("supply.merchant", { amount, location: locationName(s.location ?? "") });
  return t("supply.tile", {
    amount,
    ...owner(s.owner, actor),
    supplier: INDUSTRY_SHORT[SUPPLIER[resource] ?? resource],
    location: locationName(s.location ?? ""),
  });
}

/** The price of an action in words: "£14 and 1 coal from their mine in Leek". */
export function quoteWords(q: Quote, actor: number | null): string {
  const parts: string[] = [];
  if (q.money > 0) parts.push(money(q.money));
  for (const [res, list] of [["coal", q.coal], ["iron", q.iron], ["beer", q.beer]] as const)
    for (const s of list) parts.push(supplyWords(res, s, actor));
  if (parts.length === 0) parts.push(t("quote.free"));
  return listWords(parts);
}

/** One line per supply, for the confirm panel. */
export function quoteLines(q: Quote, actor: number | null): string[] {
  const lines = [q.received ? t("quote.money_receive", { money: money(q.money), received: money(q.received) })
    : t("quote.money", { money: money(q.money) })];
  for (const [res, list] of [["coal", q.coal], ["iron", q.iron], ["beer", q.beer]] as const)
    for (const s of list) lines.push(supplyWords(res, s, actor));
  return lines;
}

/** "2 coal cubes", "1 beer barrel": what lies on a tile, by the tile's industry or resource. */
export function cubeWords(what: string, count: number): string {
  const resource = what === "brewery" || what === "beer" ? "beer" : what === "iron" ? "iron" : "coal";
  return t("unit.cubes", { resource, count });
}

/** "1 coal + 1 iron" (what a tile needs to be built), or "no coal or iron". */
export function needsWords(spec: { coal: number; iron: number }): string {
  const parts = [spec.coal ? amountWords("coal", spec.coal) : "", spec.iron ? amountWords("iron", spec.iron) : ""].filter(Boolean);
  return parts.length ? parts.join(" + ") : t("unit.no_coal_iron");
}

/** What a merchant's tiles buy ("pottery", "cotton and manufactured goods"): its blank tiles
 * buy nothing, so they are left out, not listed as "nothing". */
export function merchantBuysWords(merchants: View["merchants"], location: string): string {
  const buys = [...new Set(merchants.filter((m) => m.location === location && m.buys !== "blank").map((m) => m.buys))];
  return listWords(buys.map((b) => MERCHANT_BUYS[b]));
}

/** One pick of the choice so far, as the summary under the options lists it: "Birmingham slot
 * 2", "Develop Manufacturer", "Sell Pottery I (Coventry) to Oxford" (the tile sold by its name,
 * from the board, not by its slot number). */
export function pickWords(pick: string, industries: View["industries"]): string {
  const [kind, ...rest] = pick.split(":");
  switch (kind) {
    case "slot":
      return t("choose.slot", { location: locationName(rest[0]), slot: Number(rest[1]) + 1 });
    case "industry":
      return INDUSTRY_NAME[rest[0]];
    case "link":
      return linkName(pick.slice(5));
    case "develop":
      return t("choose.develop", { industry: INDUSTRY_NAME[rest[0]] });
    case "sale": {
      const s = parseSale(pick);
      const tile = industries.find((x) => x.location === s.location && x.slot === s.slot);
      return t("choose.sale", {
        tile: tile ? tileName(tile.industry, tile.level) : t("choose.slot", { location: locationName(s.location), slot: s.slot + 1 }),
        location: locationName(s.location), merchant: locationName(s.merchant),
        dev: s.develop ? "yes" : "no", develop: s.develop ? INDUSTRY_NAME[s.develop] : "",
      });
    }
    case "card":
      return cardName(pick.slice(5));
    default:
      return pick;
  }
}
