import { describe, expect, it } from "vitest";
import { labelRoom, spread } from "./History";

describe("the end graph's labels", () => {
  it("leave room for the widest last value, so that £110 is not cut to 11", () => {
    // "● 110": five characters at 7.5 units, and a margin
    expect(labelRoom([[3, 5], [110, 42]])).toBe(5 * 7.5 + 8);
    expect(labelRoom([[3, 5], [1250, -7]])).toBeGreaterThan(labelRoom([[3, 5], [110, 42]]));
  });
  it("move apart where lines end together, in their order, within the graph", () => {
    const ys = spread([50, 52, 51, 100], 12, 10, 120);
    const sorted = [...ys].sort((a, b) => a - b);
    for (let i = 1; i < sorted.length; i++) expect(sorted[i] - sorted[i - 1]).toBeGreaterThanOrEqual(12);
    expect(ys[0]).toBeLessThan(ys[2]);
    expect(ys[2]).toBeLessThan(ys[1]);
    expect(ys[3]).toBe(100);
    expect(spread([118, 119, 120], 12, 10, 120)).toEqual([96, 108, 120]);
    expect(spread([5, 5], 12, 10, 120)).toEqual([10, 22]);
  });
});
