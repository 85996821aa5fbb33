import { describe, expect, it } from "vitest";
import type { LegalEntry } from "../api/types";
import fixtures from "../logic/fixtures/positions.json";
import { boardTargets } from "./useChoosing";

const start = fixtures.start as unknown as LegalEntry[];
const later = fixtures.later as unknown as LegalEntry[];

describe("what the board offers to click", () => {
  it("nothing before an action is chosen", () => {
    const { targets } = boardTargets(start, { kind: null, card: null, picks: [] }, null);
    expect(targets.slots!.size + targets.links!.size + targets.tiles!.size).toBe(0);
  });
  it("build: the legal slots of the chosen card", () => {
    const { targets } = boardTargets(start, { kind: "build", card: "location:tamworth", picks: [] }, null);
    expect([...targets.slots!].sort()).toEqual(["tamworth:0", "tamworth:1"]);
    expect(targets.links!.size).toBe(0);
  });
  it("network: links, and the chosen one marked", () => {
    const all = boardTargets(start, { kind: "network", card: null, picks: [] }, null).targets.links!;
    expect(all.size).toBeGreaterThan(20);
    expect(all.has("belper--derby")).toBe(true);
    const { targets, selected } = boardTargets(start, { kind: "network", card: null, picks: ["link:belper--derby"] }, null);
    expect(targets.links!.size).toBe(0);
    expect([...selected.links!]).toEqual(["belper--derby"]);
  });
  it("sell: first the tiles, then the merchants for the clicked tile", () => {
    const c = { kind: "sell" as const, card: null, picks: [] };
    expect([...boardTargets(later, c, null).targets.tiles!]).toEqual(["birmingham:0"]);
    const { targets, selected } = boardTargets(later, c, "birmingham:0");
    expect([...targets.merchants!]).toEqual(["oxford"]);
    expect([...selected.tiles!]).toEqual(["birmingham:0"]);
  });
});
