// What an action touched on the board (to mark the last move).
import type { Action } from "../api/types";
import type { Targets } from "./Board";

export function touched(a: Action | undefined): Targets {
  const t: Targets = { slots: new Set(), links: new Set(), tiles: new Set() };
  if (!a) return t;
  if (a.kind === "build") t.slots!.add(`${a.location}:${a.slot}`);
  if (a.kind === "network") for (const l of a.links) t.links!.add(l);
  if (a.kind === "sell") for (const s of a.sales) t.tiles!.add(`${s.location}:${s.slot}`);
  return t;
}
