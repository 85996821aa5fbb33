// What a move's animation shows, in the order of the move's effects (brass/engine/effects.py):
// tiles taken off (overbuilt), the tile placed, the links drawn, the cubes and barrels carried
// from their sources, the tiles sold, the tiles flipped, then every changed seat's money, VP and
// income at once; about a second in all. Nothing plays under prefers-reduced-motion. This module
// only plans (pure, tested); board/play.ts plays a plan on the page.
import type { MoveEvent } from "../api/types";

/** Where a carried cube starts or ends. */
export type Where =
  | { kind: "slot"; key: string } // "location:slot"
  | { kind: "link"; id: string }
  | { kind: "market"; resource: "coal" | "iron" }
  | { kind: "merchant"; key: string } // a merchant tile, "location:slot"
  | { kind: "seat"; seat: number }; // a player's own supply (a develop's iron)

export type Step =
  | { kind: "remove"; slot: string }
  | { kind: "place"; slot: string }
  | { kind: "link"; id: string }
  | { kind: "carry"; resource: "coal" | "iron" | "beer"; count: number; from: Where; to: Where }
  | { kind: "sell"; slot: string; merchant: string }
  | { kind: "flip"; slot: string }
  | { kind: "counter"; seat: number; money: number; vp: number; income: number };

export interface Timed {
  step: Step;
  /** ms after the start */
  at: number;
  ms: number;
}

export const TOTAL_MS = 1000;

/** The steps of a move, in its effects' order. */
export function moveSteps(e: MoveEvent): Step[] {
  const out: Step[] = [];
  for (const r of e.removed) out.push({ kind: "remove", slot: `${r.location}:${r.slot}` });
  if (e.placed) out.push({ kind: "place", slot: `${e.placed.location}:${e.placed.slot}` });
  for (const l of e.links) out.push({ kind: "link", id: l.id });
  const to: Where = e.placed ? { kind: "slot", key: `${e.placed.location}:${e.placed.slot}` }
    : e.sales.length ? { kind: "slot", key: `${e.sales[0].location}:${e.sales[0].slot}` }
    : e.links.length ? { kind: "link", id: e.links[e.links.length - 1].id }
    : { kind: "seat", seat: e.seat };
  for (const s of e.supplies) {
    const from: Where = s.source === "market" ? { kind: "market", resource: s.resource }
      : s.source === "merchant" ? { kind: "merchant", key: `${s.location}:${s.slot}` }
      : { kind: "slot", key: `${s.location}:${s.slot}` };
    out.push({ kind: "carry", resource: s.resource, count: s.count, from, to });
  }
  if (e.to_market && e.placed) {
    out.push({
      kind: "carry", resource: e.to_market.resource, count: e.to_market.count,
      from: { kind: "slot", key: `${e.placed.location}:${e.placed.slot}` }, to: { kind: "market", resource: e.to_market.resource },
    });
  }
  for (const s of e.sales) out.push({ kind: "sell", slot: `${s.location}:${s.slot}`, merchant: s.merchant });
  for (const f of e.flipped) out.push({ kind: "flip", slot: `${f.location}:${f.slot}` });
  for (const p of e.players) {
    if (p.money || p.vp || p.income_space) out.push({ kind: "counter", seat: p.seat, money: p.money, vp: p.vp, income: p.income_space });
  }
  return out;
}

/** When each step plays: one after another in equal shares of `total`, the counters together
 * in the last share; none at all under reduced motion. */
export function schedule(steps: Step[], reduced: boolean, total = TOTAL_MS): Timed[] {
  if (reduced || steps.length === 0) return [];
  const board = steps.filter((s) => s.kind !== "counter");
  const counters = steps.filter((s) => s.kind === "counter");
  const slots = board.length + (counters.length ? 1 : 0);
  const ms = total / slots;
  return [
    ...board.map((step, i) => ({ step, at: i * ms, ms })),
    ...counters.map((step) => ({ step, at: board.length * ms, ms })),
  ];
}
