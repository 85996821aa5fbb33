// Wire types, all from the generated `schema.ts` (`npm run gen:api`: the server's OpenAPI
// schema, where brass/server/schemas.py describes the view, the quote, the engine's Action and
// Event unions). Only aliases here: nothing is written twice.
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
export type Desk = S["Desk"];
export type DeskGame = S["DeskGame"];
export type HostedGame = S["HostedGame"];
export type Hosting = S["Hosting"];
export type InviteValid = S["InviteValid"];
export type Me = S["Me"];
export type PushSubscriptionIn = S["PushSubscriptionIn"];
export type NoticeSwitches = S["NoticeSwitches"];
export type SetNoticeSwitches = S["SetNoticeSwitches"];
export type NudgeInfo = S["NudgeInfo"];
/** The player's vacations (their correspondence clocks stand still then) and allowance. */
export type Vacations = S["Vacations"];
export type Vacation = S["Vacation"];
/** The mover's clock with their vacations taken out. */
export type ClockPause = S["ClockPause"];
export type EmailNotices = S["EmailNotices"];
export type EmailNoticesIn = S["EmailNoticesIn"];
export type WebhookOut = S["WebhookOut"];
export type SeatInfo = S["SeatInfo"];
/** A bot seat's level, picked by the host. */
export type BotLevel = NonNullable<S["SeatInfo"]["bot_level"]>;
export type Created = S["Created"];
export type Joined = S["Joined"];
/** A game's turn clock as chosen at creation, and as the server shows it (with the deadline). */
export type ClockChoice = S["ClockChoice"];
export type ClockView = S["ClockView"];
/** A game's turn clock as a list of games shows it (the desk's entries). */
export type ClockSettings = S["ClockSettings"];
export type SeatChangeEntry = S["SeatChangeEntry"];
export type GameLog = S["GameLog"];
/** A log row: the action and its public effects (null: stored before effects were). */
export type LogEntry = S["LogEntry"];
export type ReplayFrame = S["ReplayFrame"];
/** The state message: with the log entries that made this version, the seqs it took back and,
 * for the seat to move, its legal moves. */
export type StateMessage = S["StateMessage"];
export type ApiErrorBody = S["Error"];
/** The server's error codes (DESIGN.md's and its own). */
export type ErrorCode = ApiErrorBody["code"];
/** A legal move and its full price. */
export type LegalEntry = S["LegalEntry"];

export type Quote = S["Quote"];
export type Supply = Quote["coal"][number];

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
export type Extensions = S["Extensions"];
/** The whole effect of a legal move before it is confirmed (answer to a `preview` request). */
export type Preview = S["Preview"];
/** A chat message as stored, and its broadcast. */
export type ChatMessage = S["ChatMessage"];
export type ChatBroadcast = S["ChatBroadcast"];
export type ChatDeleted = S["ChatDeleted"];
export type ChatHistory = S["ChatHistory"];
export type ChatMutes = S["ChatMutes"];
/** A finished game's analysis by the hard bot, and one move's judgement. */
export type Analysis = S["Analysis"];
export type MoveJudged = S["MoveJudged"];
export type Explored = S["Explored"];
/** The fixed numbers of the rules the engine plays by (the loan, the links' costs...). */
export type Rules = S["Rules"];
/** Every message the server sends on the game's socket, and every one a client sends (the
 * server's `ServerMessage` and `ClientMessage` unions, told apart by `type`). */
export type WsMessage = S["ServerMessage"];
export type ClientMessage = S["ClientMessage"];
/** The signed-in player's account page and the ways of signing in (ui/Account.tsx). */
export type Account = S["Account"];
export type SigninOptions = S["SigninOptions"];
export type EmailSent = S["EmailSent"];
export type PasskeyInfo = S["PasskeyInfo"];
/** A finished game's rematch: the offer, the answers, and for the asking seat its new link. */
export type RematchInfo = S["RematchInfo"];
/** A finished game's rating changes (its end screen). */
export type GameRatings = S["GameRatings"];
export type RatingChange = S["RatingChange"];
/** A listed player's public page. */
export type Profile = S["Profile"];
export type AdminGame = S["AdminGame"];
export type AdminGames = S["AdminGames"];
export type AdminChat = S["AdminChat"];
export type AdminChatLine = S["AdminChatLine"];
/** A page of the games whose chat has muted someone, and whom. */
export type AdminMuted = S["AdminMuted"];
export type Policy = S["PolicyView"]["policy"];
export type PolicySet = S["PolicySet"];
export type Banner = S["Banner"];
export type Backup = S["Backup"];
export type Figures = S["Figures"];
export type InstanceList = S["InstanceList"];
