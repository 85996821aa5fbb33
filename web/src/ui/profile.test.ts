// The profile's rating chart: the history drawn left to right, higher ratings higher up, inside
// the padding; a flat history (one rating over and over) stays a line at the bottom, never NaN.
import { describe, expect, it } from "vitest";
import { chartPoints } from "./Profile";

describe("the rating chart", () => {
  it("draws the oldest rating on the left and a higher rating higher up", () => {
    const at = chartPoints([0, 2.5, 1, 4]);
    expect(at.map(([x]) => x)).toEqual([...at.map(([x]) => x)].sort((a, b) => a - b));
    expect(at[0][0]).toBe(8);
    expect(at[3][0]).toBe(312);
    expect(at[3][1]).toBe(8); // the highest at the top, inside the padding
    expect(at[0][1]).toBe(112); // the lowest at the bottom
    expect(at[1][1]).toBeLessThan(at[2][1]);
  });
  it("keeps a flat history finite", () => {
    for (const [x, y] of chartPoints([3, 3, 3])) {
      expect(Number.isFinite(x) && Number.isFinite(y)).toBe(true);
      expect(y).toBe(112);
    }
  });
});
