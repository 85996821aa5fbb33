// The banner's addresses: which part of the admin's text is a link, and which stays text.
import { describe, expect, it } from "vitest";
import { bannerPieces } from "./bannerLinks";

describe("the banner's links", () => {
  it("text with no address is one piece of text", () => {
    expect(bannerPieces("Back at 22:00 after an upgrade")).toEqual([{ text: "Back at 22:00 after an upgrade" }]);
  });

  it("an address at the start, in the middle and at the end", () => {
    expect(bannerPieces("https://a.org/x is new")).toEqual([{ url: "https://a.org/x" }, { text: " is new" }]);
    expect(bannerPieces("See http://a.org/x?y=1#z for news")).toEqual(
      [{ text: "See " }, { url: "http://a.org/x?y=1#z" }, { text: " for news" }]);
    expect(bannerPieces("News: https://a.org")).toEqual([{ text: "News: " }, { url: "https://a.org" }]);
  });

  it("the punctuation after an address is not part of it", () => {
    expect(bannerPieces("Read https://a.org/notes.")).toEqual([{ text: "Read " }, { url: "https://a.org/notes" }, { text: "." }]);
    expect(bannerPieces("(see https://a.org/x), then")).toEqual(
      [{ text: "(see " }, { url: "https://a.org/x" }, { text: "), then" }]);
    expect(bannerPieces("Is it https://a.org/?!")).toEqual([{ text: "Is it " }, { url: "https://a.org/" }, { text: "?!" }]);
  });

  it("a bracket the address opened is the address's", () => {
    expect(bannerPieces("https://en.wikipedia.org/wiki/Brass_(game).")).toEqual(
      [{ url: "https://en.wikipedia.org/wiki/Brass_(game)" }, { text: "." }]);
  });

  it("two addresses are two links", () => {
    expect(bannerPieces("https://a.org, or HTTPS://b.org/y")).toEqual(
      [{ url: "https://a.org" }, { text: ", or " }, { url: "HTTPS://b.org/y" }]);
  });

  it("only http and https are linked", () => {
    for (const text of ["javascript:alert(1)", "go javascript://a.org/%0aalert(1)", "ftp://a.org/x", "data:text/html,hi", "https:// nothing"]) {
      expect(bannerPieces(text), text).toEqual([{ text }]);
    }
  });

  it("the pieces joined are the text", () => {
    const text = "A https://a.org/b.c, (https://d.org) and https://e.org/f_(g)?!";
    expect(bannerPieces(text).map((p) => ("url" in p ? p.url : p.text)).join("")).toBe(text);
  });
});
