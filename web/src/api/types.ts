// Wire types, all from the generated `schema.ts` (`npm run gen:api`: the server's OpenAPI
// schema, where brass/server/schemas.py describes the engine's view and quote key for key, plus
// the engine's Action union). Only aliases here: nothing is written twice.
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
export type GameLog = Omit<S["GameLog"], "actions"> & { actions: LogEntry[] };
/** A log row: the action and its public effects (null: stored before effects were). */
export type LogEntry = Omit<S["LogEntry"], "action"> & { action: Action; effects?: Event[] | null };
export type ReplayFrame = S["ReplayFrame"];
/** The state message: with the log entries that made this version, the seqs it took back and,
 * for the seat to move, its legal moves. */
export type StateMessage = S["StateMessage"] & {
  log?: LogEntry[];
  undone?: number[];
  legal?: LegalEntry[] | null;
};
export type ApiErrorBody = S["Error"];
/** A legal action and its full price (the server's `action` is a free-form object there). */
export type LegalEntry = Omit<S["LegalEntry"], "action"> & { action: Action };

export type Quote = S["Quote"];
export type Supply = Quote["coal"][number];
export type TileSupply = S["TileSupply"];
export type MerchantSupply = S["MerchantSupply"];
export type MarketSupply = S["MarketSupply"];

export type View = S["View"];
export type PlayerView = S["PlayerView"];
export type TileView = S["TileView"];
export type LinkView = S["LinkView"];
export type MerchantView = S["MerchantView"];
export type EraScore = S["EraScore"];
export type Industry = TileView["industry"];
export type MerchantBuys = MerchantView["buys"];

/** The engine's events (brass/engine/effects.py), as the log stores them. */
export type Event = S["Event"];
export type MoveEvent = S["MoveEvent"];
export type DrawEvent = S["DrawEvent"];
export type RoundEndEvent = S["RoundEndEvent"];
export type EraEndEvent = S["EraEndEvent"];
export type GameEndEvent = S["GameEndEvent"];
export type SupplyEffect = MoveEvent["supplies"][number];
export type SeatScore = S["SeatScore"];
export type Ranked = S["Ranked"];
export type Income = S["Income"];

/** Server -> client websocket messages. */
export type WsAck = S["WsAck"];
export type WsError = S["WsError"];
/** The extensions of a partial Sell or Network (answer to an `extend` request). */
export interface WsExtensions {
  type: "extensions";
  version: number;
  action: Action;
  moves: LegalEntry[];
}
export type WsMessage = StateMessage | WsAck | WsError | WsExtensions;
