// The preview's money adds up: on real engine output (fixtures/effects.json), the lines' sum is
// the money the move then changes for the mover, and the move is described.
import { describe, expect, it } from "vitest";
import type { LogEntry, MoveEvent } from "../api/types";
import fixtures from "../logic/fixtures/effects.json";
import { previewText } from "./Preview";

const entries = fixtures as unknown as Record<string, LogEntry>;
const moves: [string, MoveEvent][] = Object.entries(entries).flatMap(([k, e]) =>
  (e.effects ?? []).filter((x): x is MoveEvent => x.type === "move").map((m) => [k, m] as [string, MoveEvent]));

describe("the preview of a move", () => {
  it("has fixtures of every kind", () => {
    expect(new Set(moves.map(([, m]) => (m.action as { kind: string }).kind))).toEqual(
      new Set(["build", "network", "develop", "sell", "loan", "scout", "pass"]));
  });
  for (const [name, m] of moves) {
    it(`${name}: the money lines add up to the mover's change`, () => {
      const t = previewText(m, 0);
      const delta = m.players.find((d) => d.seat === m.seat)?.money ?? 0;
      expect(t.total).toBe(delta);
      expect(t.total).toBe(m.received - m.paid);
      expect(t.money.reduce((s, l) => s + l.amount, 0)).toBe(t.total);
      expect(t.what.length).toBeGreaterThan(0);
      expect(t.resources.length).toBe(m.supplies.length);
    });
  }
  it("a build says what the tile is worth", () => {
    const t = previewText(entries.build.effects![0] as MoveEvent, 0);
    expect(t.what[0]).toBe("Brewery I in Stafford (slot 1)");
    expect(t.what[1]).toMatch(/^When flipped: \d+ VP, \+\d+ income spaces?; \d+ link icons?/);
    expect(t.money.map((l) => l.label)).toEqual(["Cost of the tile", "1 iron from the market"]);
  });
  it("a build selling to the market shows the money received", () => {
    const t = previewText(entries.build_to_market.effects![0] as MoveEvent, 0);
    expect(t.money.find((l) => l.label === "3 iron sold to the market")?.amount).toBe(4);
  });
  it("an income change says the level before and after, not the change as if it were the level", () => {
    // the case: at level −3, a sale gains 7 spaces, 5 levels
    const sell = { ...(entries.sell.effects![0] as MoveEvent) };
    sell.players = sell.players.map((d) => ({ ...d, income_space: 7, income_level: 5 }));
    expect(previewText(sell, -3).gains).toEqual(["income +7 spaces (level −3 → +2)"]);
    const loan = previewText(entries.loan.effects![0] as MoveEvent, 0);
    expect(loan.gains).toEqual(["income −5 spaces (level 0 → −3)"]);
  });
  it("a move with no money in it has no money lines (the panel says so in words)", () => {
    expect(previewText(entries.scout.effects![0] as MoveEvent, 0).money).toEqual([]);
    expect(previewText(entries.pass.effects![0] as MoveEvent, 0).money).toEqual([]);
  });
});
