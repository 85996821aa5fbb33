// A move's animation, planned from real engine effects (fixtures/effects.json).
import { describe, expect, it } from "vitest";
import type { LogEntry, MoveEvent } from "../api/types";
import { moveSteps, schedule, TOTAL_MS } from "./animate";
import fixtures from "./fixtures/effects.json";

const entries = fixtures as unknown as Record<string, LogEntry>;
const move = (name: string) => entries[name].effects!.find((e) => e.type === "move") as MoveEvent;
const kinds = (name: string) => moveSteps(move(name)).map((s) => s.kind);

describe("a move's animation steps", () => {
  it("follow the move's events: the old tile off, the new one placed, its cubes carried, then money", () => {
    expect(kinds("build_overbuilt")).toEqual(["remove", "place", "carry", "counter"]);
    expect(moveSteps(move("build_overbuilt"))[2]).toEqual({
      kind: "carry", resource: "iron", count: 1, from: { kind: "market", resource: "iron" }, to: { kind: "slot", key: "stafford:0" },
    });
  });
  it("carry a new iron works' cubes sold to the market after the coal it used", () => {
    const steps = moveSteps(move("build_to_market"));
    expect(steps.map((s) => s.kind)).toEqual(["place", "carry", "carry", "counter"]);
    expect(steps[2]).toMatchObject({ resource: "iron", count: 3, from: { kind: "slot", key: "birmingham:2" }, to: { kind: "market" } });
  });
  it("draw a link, and for a sale carry the beer to the tile before it is sold and flipped", () => {
    expect(kinds("network")).toEqual(["link", "counter"]);
    expect(kinds("sell")).toEqual(["carry", "sell", "flip", "counter"]);
    expect(moveSteps(move("sell"))[0]).toMatchObject({ from: { kind: "merchant", key: "oxford:0" }, to: { kind: "slot", key: "worcester:0" } });
  });
  it("play one after another in about a second, the counters together at the end", () => {
    const timed = schedule(moveSteps(move("build_overbuilt")), false);
    expect(timed.map((x) => x.step.kind)).toEqual(["remove", "place", "carry", "counter"]);
    for (let i = 1; i < timed.length; i++) expect(timed[i].at).toBeGreaterThan(timed[i - 1].at);
    const end = Math.max(...timed.map((x) => x.at + x.ms));
    expect(end).toBe(TOTAL_MS);
  });
  it("play nothing under reduced motion, nor for a move that changes nothing on the board", () => {
    for (const name of ["build", "sell", "network", "develop"]) expect(schedule(moveSteps(move(name)), true)).toEqual([]);
    expect(schedule([], false)).toEqual([]);
  });
});
