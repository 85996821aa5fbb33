// A refusal in the player's language: the server sends the engine's stable `reason` and its
// `params` (ids and numbers, docs/ENGINE.md) beside the English `message`; this renders the
// catalogue's `refusal.<reason>` with names and money in that language. Other errors are named
// by their server code (`error.<code>`), the server's own words after them.
import { cardName, INDUSTRY_NAME, linkName, listWords, locationName, money, tileName } from "../logic/names";
import { amountWords } from "../logic/words";
import { has, isolate, lang, list, signedNum, t } from "./index";

/** Every refusal code the engine raises (brass/engine/errors.py; a Python test checks they are
 * the same). */
export const REFUSAL_CODES = [
  "game_over", "card_not_held", "loan_income_floor", "scout_holding_wild", "scout_pile_empty",
  "link_built", "link_no_canal", "link_no_rail", "link_not_in_network", "canal_one_link",
  "link_tiles_left", "link_money", "second_railway_no_beer", "farm_needs_brewery_card",
  "card_wrong_location", "card_wrong_industry", "not_in_network", "slot_wrong_industry",
  "no_tiles_left", "tile_wrong_era", "single_slot_first", "overbuild_level",
  "overbuild_opponent_industry", "overbuild_opponent_resources", "canal_one_tile_per_town",
  "build_money", "not_affordable", "develop_no_tiles", "develop_lightbulb", "sell_no_tile",
  "sell_not_goods", "sell_already_sold", "sell_not_connected", "sell_no_merchant",
  "free_develop_not_gloucester", "coal_missing", "beer_missing",
  // malformed input
  "not_an_action", "unknown_card", "unknown_location", "unknown_industry", "no_such_slot",
  "link_count", "unknown_link", "repeated_link", "develop_count", "no_sales", "not_a_merchant",
  "scout_card_count",
];

/** What a price or a missing resource is about (brass/engine/errors.py `SUBJECTS`). */
export const SUBJECT_CODES = ["build", "canal", "railway", "railways", "railway_link", "second_railway", "develop", "sell"];

/** The server's own error codes (brass/server/errors.py `ErrorCode`). */
export const ERROR_CODES = [
  "malformed", "illegal", "not_your_turn", "stale_version", "unauthorized", "not_found",
  "game_not_running", "seat_taken", "rate_limited", "action_undone", "too_many_sockets",
  "timeout", "internal", "one_seat_per_browser", "not_yet", "unavailable", "forbidden", "create_refused",
  "link_invalid", "link_used", "link_expired", "wrong_origin", "passkey_refused", "not_offered",
  "stand_in_playing", "nudge_not_allowed", "nudge_too_soon",
  "vacation_off", "vacation_in_past", "vacation_overlaps", "vacation_too_long",
  "vacation_started", "chat_muted", "network",
];

type Params = Record<string, unknown>;
export interface ErrorBody {
  code: string;
  message: string;
  reason?: string | null;
  params?: Params | null;
}

const place = (id: unknown): string => isolate(locationName(String(id)));

function subjectWords(s: { code: string; params: Params }): string {
  return t(`subject.${s.code}`, display(s.params));
}

/** Params as the messages use them: names for ids, money for pounds, an income level with its
 * sign, lists joined. */
export function display(p: Params): Params {
  const out: Params = { ...p };
  for (const [k, v] of Object.entries(p)) {
    if (k === "location" || k === "merchant") out[k] = place(v);
    else if (k === "link") out[k] = isolate(linkName(String(v)));
    else if (k === "industry") out[k] = INDUSTRY_NAME[String(v)] ?? String(v);
    else if (k === "industries") out[k] = listWords((v as string[]).map((i) => INDUSTRY_NAME[i] ?? i));
    else if (k === "card") out[k] = isolate(cardName(String(v)));
    else if (k === "cost" || k === "money") out[k] = money(Number(v));
    else if (k === "min_level") out[k] = signedNum(Number(v)); // an income level: "−10"
    else if (k === "subject") out[k] = subjectWords(v as { code: string; params: Params });
    else if (k === "at") out[k] = list((v as string[]).map(place), "disjunction");
    else if (k === "fields") out[k] = (v as string[]).join(", ");
    else if (k === "market")
      out[k] = listWords((v as { resource: string; count: number; cost: number }[]).map((m) =>
        t("supply.market", { amount: amountWords(m.resource, m.count), cost: money(m.cost) })));
    else if (k === "slot") out[k] = Number(v) + 1; // the board counts slots from 1
  }
  if (typeof p.industry === "string") out.industry_id = p.industry;
  if (typeof p.industry === "string" && typeof p.level === "number") out.tile = tileName(p.industry, p.level);
  if (Array.isArray(p.market)) out.bought = p.market.length ? "yes" : "no";
  return out;
}

/** An error the server sent, in the player's language. */
export function errorText(body: ErrorBody): string {
  if (body.reason && has(`refusal.${body.reason}`)) {
    const params = body.params ?? {};
    // input that is not a move names ids that may not exist: they are shown as sent
    const raw = body.code === "malformed" && !["no_such_slot", "not_a_merchant"].includes(body.reason);
    return t(`refusal.${body.reason}`, raw ? params : display(params));
  }
  if (lang() === "en" && body.message) return body.message;
  const named = has(`error.${body.code}`) ? t(`error.${body.code}`) : t("error.internal");
  return body.message ? t("error.with_message", { named, message: isolate(body.message) }) : named;
}
