// Narrowing the server's legal moves down as the player clicks: an action kind, a card, then
// targets. Each action is seen as its card plus a multiset of "picks" (a slot and an industry,
// links, industries to develop, sales, scouted cards); a choice is legal while some listed move
// contains every pick made so far. Only picks that keep a listed move reachable are offered,
// and the action sent is always one of the server's entries, unchanged.
//
// The server lists a Sell of one sale and a Network of one link; longer ones are its
// extensions, asked for the partial action chosen so far (`nextExtension`) and narrowed the
// same way once they arrive.
import type { Action, ActionKind, LegalEntry } from "../api/types";

export interface Choice {
  kind: ActionKind | null;
  card: string | null;
  picks: string[];
}
export const EMPTY: Choice = { kind: null, card: null, picks: [] };

/** Whether the game moving from version `from` to `to` clears a choice in the making that this
 * device did not give up itself: some choice was under way (a kind, or a sale's tile waiting
 * for its merchant) and the version was not left by a move or an undo this device sent
 * (`sentFrom`: the version it sent one from, if any). The first state (`from` -1) and the same
 * version again (a resync) clear nothing. */
export function choiceDropped(c: Choice, pendingTile: string | null, from: number, to: number, sentFrom: number | null): boolean {
  return from >= 0 && to !== from && sentFrom !== from && (c.kind !== null || pendingTile !== null);
}

export const slotPick = (location: string, slot: number) => `slot:${location}:${slot}`;
export const salePick = (location: string, slot: number, merchant: string, develop: string | null) =>
  `sale:${location}:${slot}:${merchant}:${develop ?? ""}`;

export function picksOf(a: Action): string[] {
  switch (a.kind) {
    case "build":
      return [slotPick(a.location, a.slot), `industry:${a.industry}`];
    case "network":
      return a.links.map((l) => `link:${l}`);
    case "develop":
      return a.industries.map((i) => `develop:${i}`);
    case "sell":
      return a.sales.map((s) => salePick(s.location, s.slot, s.merchant, s.develop ?? null));
    case "scout":
      return a.cards.map((c) => `card:${c}`);
    default:
      return [];
  }
}

export const cardOf = (a: Action): string | null => (a.kind === "scout" ? null : a.card);

/** Remove the multiset `sub` from `all`; null if `sub` is not contained in `all`. */
export function minus(all: string[], sub: string[]): string[] | null {
  const rest = [...all];
  for (const p of sub) {
    const i = rest.indexOf(p);
    if (i < 0) return null;
    rest.splice(i, 1);
  }
  return rest;
}

export function candidates(entries: LegalEntry[], c: Choice): LegalEntry[] {
  return entries.filter(
    (e) =>
      (c.kind === null || e.action.kind === c.kind) &&
      (c.card === null || cardOf(e.action) === c.card) &&
      minus(picksOf(e.action), c.picks) !== null,
  );
}

/** Kinds with at least one legal action. */
export function kinds(entries: LegalEntry[]): ActionKind[] {
  const order: ActionKind[] = ["build", "network", "develop", "sell", "loan", "scout", "pass"];
  const have = new Set(entries.map((e) => e.action.kind));
  return order.filter((k) => have.has(k));
}

/** Kinds composed through the server's extensions. */
export const EXTENDED: ReadonlySet<ActionKind> = new Set<ActionKind>(["sell", "network"]);

/** Cards that still lead to a legal action under this choice (ignoring the chosen card). A
 * Sell's or Network's card is offered as for its first sale or link: the extensions of another
 * card's partial action are asked for once it is chosen. */
export function cardOptions(entries: LegalEntry[], c: Choice): string[] {
  const out = new Set<string>();
  const picks = c.kind && EXTENDED.has(c.kind) ? c.picks.slice(0, 1) : c.picks;
  for (const e of candidates(entries, { ...c, card: null, picks })) {
    const card = cardOf(e.action);
    if (card) out.add(card);
  }
  return [...out].sort();
}

/** Picks that can be added next. */
export function pickOptions(entries: LegalEntry[], c: Choice): Set<string> {
  const out = new Set<string>();
  for (const e of candidates(entries, c)) for (const p of minus(picksOf(e.action), c.picks) ?? []) out.add(p);
  return out;
}

/** Legal actions that are exactly this choice (all picks made). */
export function complete(entries: LegalEntry[], c: Choice): LegalEntry[] {
  return candidates(entries, c).filter((e) => picksOf(e.action).length === c.picks.length);
}

/** The one action to confirm, if the choice pins it down (kind, card and every pick). */
export function chosen(entries: LegalEntry[], c: Choice): LegalEntry | null {
  const done = complete(entries, c);
  if (done.length === 0) return null;
  const cards = new Set(done.map((e) => cardOf(e.action)));
  if (cards.size > 1) return null; // still to choose which card to discard
  // Two rail links may be listed in both orders (their coal or beer then comes from different
  // places): the order the player clicked them in decides.
  const inOrder = done.find((e) => picksOf(e.action).every((p, i) => p === c.picks[i]));
  return inOrder ?? done[0];
}

/** Make the choices that are forced: a single card, a single industry for the chosen slot. */
export function autoChoose(entries: LegalEntry[], c: Choice): Choice {
  let next = c;
  for (let i = 0; i < 4; i++) {
    const before = next;
    if (next.kind !== null && next.card === null && next.kind !== "scout") {
      const cards = cardOptions(entries, next);
      if (cards.length === 1) next = { ...next, card: cards[0] };
    }
    if (next.kind === "build" && next.picks.some((p) => p.startsWith("slot:"))) {
      const inds = [...pickOptions(entries, next)].filter((p) => p.startsWith("industry:"));
      if (inds.length === 1 && !next.picks.some((p) => p.startsWith("industry:")))
        next = { ...next, picks: [...next.picks, inds[0]] };
    }
    if (before === next) break;
  }
  return next;
}

/** A Build's slot chosen (on the board or in the list): it replaces any slot chosen before,
 * and keeps the industry already chosen when a listed move builds it there (the industry may be
 * picked first: its buttons show before a slot is). */
export function withSlot(entries: LegalEntry[], c: Choice, location: string, slot: number): Choice {
  const only = { ...c, picks: [slotPick(location, slot)] };
  const industry = c.picks.filter((p) => p.startsWith("industry:"));
  const both = { ...only, picks: [...only.picks, ...industry] };
  return autoChoose(entries, industry.length && candidates(entries, both).length ? both : only);
}

/** Group sale picks by the tile sold: "loc:slot" -> picks. */
export function salesByTile(picks: Iterable<string>): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const p of picks) {
    if (!p.startsWith("sale:")) continue;
    const [, loc, slot] = p.split(":");
    const key = `${loc}:${slot}`;
    out.set(key, [...(out.get(key) ?? []), p]);
  }
  return out;
}

export function parseSale(p: string): { location: string; slot: number; merchant: string; develop: string | null } {
  const [, location, slot, merchant, develop] = p.split(":");
  return { location, slot: Number(slot), merchant, develop: develop || null };
}

/** One JSON text per action, whatever the order of its keys (to match the server's echo). */
export function actionKey(a: Action): string {
  const sort = (v: unknown): unknown =>
    Array.isArray(v) ? v.map(sort)
    : v && typeof v === "object" ? Object.fromEntries(Object.entries(v).sort(([x], [y]) => (x < y ? -1 : 1)).map(([k, x]) => [k, sort(x)]))
    : v;
  return JSON.stringify(sort(a));
}

/** The listed partial Sell or Network whose extensions this choice needs next, or null (none
 * needed, or already asked: `asked` holds the keys asked for). The longest prefix of the picks,
 * in the order clicked, that a listed move makes with the chosen card (or any card, if none is
 * chosen yet). */
export function nextExtension(entries: LegalEntry[], c: Choice, asked: ReadonlySet<string>): Action | null {
  if (!c.kind || !EXTENDED.has(c.kind) || c.picks.length === 0) return null;
  for (let k = c.picks.length; k >= 1; k--) {
    const prefix = c.picks.slice(0, k);
    const done = complete(entries, { ...c, picks: prefix }).filter((e) => picksOf(e.action).every((p, i) => p === prefix[i]));
    const e = done.find((x) => c.card === null || cardOf(x.action) === c.card);
    if (e) return asked.has(actionKey(e.action)) ? null : e.action;
  }
  return null;
}
