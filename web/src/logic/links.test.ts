import { describe, expect, it } from "vitest";
import { parseLink, seatLink } from "./links";

describe("seat and host links", () => {
  it("round-trip through the fragment", () => {
    const url = seatLink("http://h", "/", "g1", "seat", "t-_9");
    expect(url).toBe("http://h/#/game/g1/seat/t-_9");
    expect(parseLink(new URL(url).hash)).toEqual({ game: "g1", role: "seat", token: "t-_9" });
    expect(parseLink("#/game/g1/host/abc")).toEqual({ game: "g1", role: "host", token: "abc" });
  });
  it("a plain game link holds no secret", () => {
    expect(parseLink("#/game/g1/invite/s3")).toEqual({ game: "g1", role: "invite", token: "s3" });
    expect(parseLink("#/game/g1")).toBeNull();
    expect(parseLink("#/game/g1/seat/")).toBeNull();
    expect(parseLink("#/replay/g1")).toBeNull();
  });
});
