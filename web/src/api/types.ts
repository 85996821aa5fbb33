// Wire types. Everything the server's OpenAPI schema describes comes from the generated
// `schema.ts` (`npm run gen:api`); the engine's view and quote are free-form objects in that
// schema (`dict[str, Any]`), so their shape (DESIGN.md "The engine contract", docs/ENGINE.md)
// is written down here once.
import type { components } from "./schema";

type S = components["schemas"];
export type Action = S["Action"];
export type BuildAction = S["Build"];
export type NetworkAction = S["Network"];
export type DevelopAction = S["Develop"];
export type SellAction = S["Sell"];
export type Sale = S["Sale"];
export type LoanAction = S["Loan"];
export type ScoutAction = S["Scout"];
export type PassAction = S["Pass"];
export type ActionKind = Action["kind"];
export type GameInfo = S["GameInfo"];
export type SeatInfo = S["SeatInfo"];
export type Created = S["Created"];
export type Joined = S["Joined"];
export type GameLog = S["GameLog"];
export type LogEntry = S["LogEntry"];
export type ReplayFrame = Omit<S["ReplayFrame"], "view"> & { view: View };
export type StateMessage = Omit<S["StateMessage"], "view"> & { view: View | null };
export type ApiErrorBody = S["Error"];
export type LegalEntry = { action: Action; quote: Quote };

export type Industry = "cotton" | "manufacturer" | "pottery" | "coal" | "iron" | "brewery";
export type MerchantBuys = "cotton" | "manufacturer" | "pottery" | "all" | "blank";

export interface Supply {
  source: "tile" | "market" | "merchant";
  count: number;
  location?: string;
  slot?: number;
  owner?: number;
  cost?: number;
}
export interface Quote {
  money: number;
  received: number;
  coal: Supply[];
  iron: Supply[];
  beer: Supply[];
}

export interface PlayerView {
  seat: number;
  money: number;
  vp: number;
  income_space: number;
  income_level: number;
  spent: number;
  links_left: number;
  hand_size: number;
  hand: string[] | null;
  discard_top: string | null;
  discard_size: number;
  mat: Record<Industry, number[]>;
}
export interface TileView {
  location: string;
  slot: number;
  owner: number;
  industry: Industry;
  level: number;
  flipped: boolean;
  resources: number;
}
export interface LinkView {
  id: string;
  owner: number;
  kind: "canal" | "rail";
}
export interface MerchantView {
  location: string;
  slot: number;
  buys: MerchantBuys;
  beer: boolean;
}
export interface EraScore {
  links: number;
  industries: number;
}
export interface View {
  num_players: number;
  viewer: number | null;
  era: "canal" | "rail";
  round: number;
  current_seat: number | null;
  actions_left: number;
  turn_order: number[];
  action_count: number;
  deck_size: number;
  wild_location_left: number;
  wild_industry_left: number;
  coal_market: number;
  iron_market: number;
  coal_price: number;
  iron_price: number;
  is_over: boolean;
  winner_order: number[] | null;
  ranks: number[] | null;
  era_scores: EraScore[][];
  players: PlayerView[];
  industries: TileView[];
  links: LinkView[];
  merchants: MerchantView[];
}

/** Server -> client websocket messages. */
export type WsMessage =
  | StateMessage
  | { type: "ack"; action_id: string | null; version: number }
  | { type: "error"; code: string; message: string; action_id?: string };
