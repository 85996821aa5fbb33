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
export type GameList = S["GameList"];
export type SeatInfo = S["SeatInfo"];
export type Created = S["Created"];
export type Joined = S["Joined"];
export type GameLog = S["GameLog"];
export type LogEntry = S["LogEntry"];
export type ReplayFrame = S["ReplayFrame"];
export type StateMessage = S["StateMessage"];
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

/** Server -> client websocket messages. */
export type WsAck = S["WsAck"];
export type WsError = S["WsError"];
export type WsMessage = StateMessage | WsAck | WsError;
