// Narrowing the server's legal actions (GET /legal) down as the player clicks: an action kind,
// a card, then targets. Each action is seen as its card plus a multiset of "picks" (a slot and an
// industry, links, industries to develop, sales, scouted cards); a choice is legal while some
// legal action contains every pick made so far. Only picks that keep a legal action reachable
// are ever offered, and the action sent is always one of the server's entries, unchanged.
import type { Action, ActionKind, LegalEntry } from "../api/types";

export interface Choice {
  kind: ActionKind | null;
  card: string | null;
  picks: string[];
}
export const EMPTY: Choice = { kind: null, card: null, picks: [] };

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

/** Cards that still lead to a legal action under this choice (ignoring the chosen card). */
export function cardOptions(entries: LegalEntry[], c: Choice): string[] {
  const out = new Set<string>();
  for (const e of candidates(entries, { ...c, card: null })) {
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
