import { describe, expect, it } from "vitest";
import { backoff, FIRST_MS, HELLO_RETRIES, helloRetry, MOST_MS } from "./backoff";

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

describe("a refused hello", () => {
  it("is said again, with jittered waits, a few times when the seat token is unknown", () => {
    const waits = Array.from({ length: HELLO_RETRIES }, (_, tries) => helloRetry("unauthorized", tries, () => 0.5));
    expect(waits).toEqual(Array.from({ length: HELLO_RETRIES }, (_, tries) => backoff(tries, () => 0.5)));
    expect(waits.reduce((a, b) => (a ?? 0) + (b ?? 0), 0)).toBeLessThan(3000); // then told, soon
    expect(helloRetry("unauthorized", HELLO_RETRIES)).toBeNull(); // final: a renewed link
  });
  it("is said again for as long as the server cannot reach its database", () => {
    expect(helloRetry("unavailable", 50, () => 0)).toBe(MOST_MS / 2);
  });
  it("is final for any other refusal", () => {
    for (const code of ["malformed", "not_found", "too_many_sockets"]) expect(helloRetry(code, 0)).toBeNull();
  });
});
