import { describe, expect, it } from "vitest";
import { route } from "../ui/App";
import { LINKS, LOCATIONS } from "../logic/names";
import { box, HEIGHT, LINK_GEOM, WIDTH } from "./layout";

describe("the map", () => {
  it("has every location and link of the board data", () => {
    expect(LOCATIONS.filter((l) => l.kind === "town")).toHaveLength(20);
    expect(LOCATIONS.filter((l) => l.kind === "farm")).toHaveLength(2);
    expect(LOCATIONS.filter((l) => l.kind === "merchant")).toHaveLength(5);
    expect(LINKS).toHaveLength(39);
    expect(Object.keys(LINK_GEOM)).toHaveLength(39);
  });
  it("keeps locations inside the board and apart", () => {
    const boxes = LOCATIONS.map((l) => ({ id: l.id, ...box(l.id) }));
    for (const b of boxes) {
      expect(b.x).toBeGreaterThan(0);
      expect(b.y).toBeGreaterThan(20);
      expect(b.x + b.w).toBeLessThan(WIDTH);
      expect(b.y + b.h).toBeLessThan(HEIGHT - 20);
    }
    const margin = 24; // room for names
    for (const a of boxes)
      for (const b of boxes) {
        if (a.id >= b.id) continue;
        const apart = a.x + a.w + margin < b.x || b.x + b.w + margin < a.x || a.y + a.h + margin < b.y || b.y + b.h + margin < a.y;
        expect(apart, `${a.id} and ${b.id} overlap`).toBe(true);
      }
  });
});

describe("routes", () => {
  it("parses hashes", () => {
    expect(route("")).toEqual({ page: "home" });
    expect(route("#/game/abc_-1")).toEqual({ page: "game", id: "abc_-1" });
    expect(route("#/replay/xyz")).toEqual({ page: "replay", id: "xyz" });
  });
});
