// Names, colours and small formatting helpers shared by the board, the panels and the log.
// Every name is in the player's language (web/src/i18n: the game's terms as the rule texts in
// that language name them); the tables below read the catalogue when they are read, so a
// language switch renames everything at the next render.
import board from "../../../data/board.json";
import linksData from "../../../data/links.json";
import tilesData from "../../../data/tiles.json";
import type { Industry } from "../api/types";
import { PLAYER_SYMBOL } from "../board/symbols";
import { isolate, list, money as formatMoney, t } from "../i18n";

/** A read-only table whose entries are catalogue messages `prefix + key`. */
function translated(prefix: string): Record<string, string> {
  return new Proxy({} as Record<string, string>, {
    get: (_target, key) => (typeof key === "string" ? t(`${prefix}${key}`) : undefined),
  });
}

export const INDUSTRIES: Industry[] = ["cotton", "manufacturer", "pottery", "coal", "iron", "brewery"];

export const INDUSTRY_NAME: Record<string, string> = translated("industry.");
/** Short name used in "their mine in Leek". */
export const INDUSTRY_SHORT: Record<string, string> = translated("industry_short.");
export const INDUSTRY_COLOUR: Record<string, string> = {
  cotton: "#e8d7b0",
  manufacturer: "#9fb7d0",
  pottery: "#c99a7a",
  coal: "#3a3a3a",
  iron: "#c8742c",
  brewery: "#d9b23a",
};

const COLOURS = ["red", "yellow", "purple", "teal"];
/** The seats' colour names ("Red"...), in the player's language. */
export const PLAYER_NAMES: string[] = new Proxy(COLOURS, {
  get: (target, key, receiver) =>
    typeof key === "string" && /^\d+$/.test(key) ? t(`player.${target[Number(key)]}`) : Reflect.get(target, key, receiver),
});
export const PLAYER_COLOURS = ["#c0392b", "#e2b007", "#7d3c98", "#138d75"];
export const PLAYER_TEXT = ["#fff", "#222", "#fff", "#fff"];

export function playerName(seat: number, names?: (string | null | undefined)[]): string {
  const n = names?.[seat];
  return n ? t("player.named", { colour: PLAYER_NAMES[seat], name: n }) : PLAYER_NAMES[seat];
}

/** "Alice (Red ●)": a seat's player by name, with the seat's colour and symbol (the colour
 * alone when nobody sits there by name). */
export function seatWithSymbol(seat: number, names?: (string | null | undefined)[]): string {
  return t("player.with_symbol", { name: isolate(names?.[seat] ?? PLAYER_NAMES[seat]), colour: PLAYER_NAMES[seat], symbol: PLAYER_SYMBOL[seat] });
}

/** A seat's player's name as the page shows it: a bot the server named by default ("Bot 2") is
 * named in the player's language; any other name is the player's own. */
export function seatName(s: { seat: number; name?: string | null; bot?: boolean }): string | null {
  return s.bot && s.name === `Bot ${s.seat + 1}` ? t("player.bot", { n: s.seat + 1 }) : s.name ?? null;
}

const ROMAN = ["", "I", "II", "III", "IV", "V", "VI", "VII", "VIII"];
export const roman = (n: number): string => ROMAN[n] ?? String(n);

export interface LocationInfo {
  id: string;
  name: string;
  kind: "town" | "farm" | "merchant";
  slots: string[][];
  lat: number;
  lon_w: number;
  merchantSlots: number;
  bonus?: { kind: string; amount: number };
  minPlayers: number;
}

export const LOCATIONS: LocationInfo[] = [
  ...board.towns.map((t) => ({ ...t, kind: "town" as const, merchantSlots: 0, minPlayers: 2 })),
  ...board.farm_breweries.map((t) => ({ ...t, kind: "farm" as const, merchantSlots: 0, minPlayers: 2 })),
  ...board.merchants.map((m) => ({
    id: m.id,
    name: m.name,
    kind: "merchant" as const,
    slots: [] as string[][],
    lat: m.lat,
    lon_w: m.lon_w,
    merchantSlots: m.slots,
    bonus: m.bonus,
    minPlayers: m.min_players,
  })),
];
export const LOCATION: Record<string, LocationInfo> = Object.fromEntries(LOCATIONS.map((l) => [l.id, l]));

export interface LinkInfo {
  id: string;
  ends: string[];
  canal: boolean;
  rail: boolean;
  also_connects?: string[];
}
export const LINKS: LinkInfo[] = linksData.links;

export interface TileSpec {
  industry: string;
  level: number;
  cost: number;
  coal: number;
  iron: number;
  beer: number;
  vp: number;
  income: number;
  link_icons: number;
  era: string;
  lightbulb: boolean;
}
const SPECS: Record<string, TileSpec> = Object.fromEntries(
  (tilesData.tiles as TileSpec[]).map((t) => [`${t.industry}:${t.level}`, t]),
);
export const tileSpec = (industry: string, level: number): TileSpec | undefined => SPECS[`${industry}:${level}`];

export function locationName(id: string): string {
  return LOCATION[id] ? t(`town.${id}`) : id;
}

/** A place's name with the English name printed on the board beside it, where the two differ
 * (Persian, Korean): a card, a details card's title. */
export function placeName(id: string): string {
  return t("card.location", { name: locationName(id), english: isolate(englishName(id)) });
}

/** The English name printed on the board, beside the translated one where they differ. */
export function englishName(id: string): string {
  return LOCATION[id]?.name ?? id;
}

export function linkName(id: string): string {
  return id.split("--").map(locationName).join("–");
}

export function cardName(card: string): string {
  const [kind, what] = card.split(":");
  if (kind === "wild") return what === "location" ? t("card.wild_location") : t("card.wild_industry");
  // a town card with the name printed on the board beside it where the two differ (fa, ko)
  if (kind === "location") return placeName(what);
  if (what === "cotton_manufacturer") return t("card.cotton_manufacturer");
  return INDUSTRY_NAME[what] ?? what;
}

export function tileName(industry: string, level: number): string {
  return t("tile", { industry: INDUSTRY_NAME[industry], level: roman(level) });
}

export const MERCHANT_BUYS: Record<string, string> = translated("buys.");

/** Money in pounds, as the player's language writes it (Intl). */
export function money(n: number): string {
  return formatMoney(n);
}

/** "a", "a and b", "a, b and c", in the player's language (Intl.ListFormat). */
export function listWords(parts: string[]): string {
  return list(parts);
}
