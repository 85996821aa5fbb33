import { describe, expect, it } from "vitest";
import { backoff, FIRST_MS, MOST_MS } from "./backoff";

describe("reconnect waits", () => {
  it("double up to the most, each between half and all of its ceiling", () => {
    expect(backoff(0, () => 0)).toBe(FIRST_MS / 2);
    expect(backoff(0, () => 0.999999)).toBeCloseTo(FIRST_MS, 1);
    expect(backoff(3, () => 0)).toBe((FIRST_MS * 8) / 2);
    expect(backoff(20, () => 0.999999)).toBeCloseTo(MOST_MS, 1);
    expect(backoff(20, () => 0)).toBe(MOST_MS / 2);
  });
  it("spread the clients a restart dropped together", () => {
    const waits = Array.from({ length: 200 }, () => backoff(4));
    expect(new Set(waits.map((w) => Math.round(w / 50))).size).toBeGreaterThan(20); // 50 ms bins
    for (const w of waits) expect(w >= 2400 && w <= 4800).toBe(true);
  });
});
