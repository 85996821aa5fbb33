import { describe, expect, it } from "vitest";
import { ApiError } from "../api/client";
import { outOfReach } from "./Admin";

describe("the admin page asking who this is", () => {
  it("waits and asks again while the server or its database is out of reach", () => {
    expect(outOfReach(new ApiError("unavailable", "The game database cannot be reached", 503))).toBe("database");
    expect(outOfReach(new ApiError("network", ""))).toBe("server");
    expect(outOfReach(new ApiError("error", "Bad Gateway", 502))).toBe("server"); // a proxy's
    expect(outOfReach(new SyntaxError("Unexpected token '<'"))).toBe("server"); // its HTML page
    // too many requests from this address (a 429) is not a refusal of the page
    expect(outOfReach(new ApiError("rate_limited", "Too many", 429))).toBe("busy");
  });
  it("believes a refusal: the page is then for admins only", () => {
    expect(outOfReach(new ApiError("forbidden", "Admins only", 403))).toBeNull();
  });
});
