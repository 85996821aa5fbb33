import { describe, expect, it } from "vitest";
import { fromB64url, toB64url } from "./accounts";

describe("base64url, as WebAuthn's JSON carries bytes", () => {
  it("round-trips every length and byte, without padding", () => {
    for (let n = 0; n < 40; n++) {
      const bytes = Uint8Array.from({ length: n }, (_, i) => (i * 97 + n * 31) % 256);
      const text = toB64url(bytes.buffer);
      expect(text).toMatch(/^[A-Za-z0-9_-]*$/);
      expect(new Uint8Array(fromB64url(text))).toEqual(bytes);
    }
  });
  it("reads the URL-safe alphabet", () => {
    expect(new Uint8Array(fromB64url("-_8"))).toEqual(new Uint8Array([0xfb, 0xff]));
  });
});
