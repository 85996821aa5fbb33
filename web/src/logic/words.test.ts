import { describe, expect, it } from "vitest";
import type { LegalEntry, Quote } from "../api/types";
import fixtures from "./fixtures/positions.json";
import { cardName, linkName, tileName } from "./names";
import { quoteLines, quoteWords } from "./words";

describe("names", () => {
  it("cards, links and tiles", () => {
    expect(cardName("location:stoke_on_trent")).toBe("Stoke-on-Trent");
    expect(cardName("industry:cotton_manufacturer")).toBe("Cotton Mill / Manufacturer");
    expect(cardName("wild:industry")).toBe("Wild Industry");
    expect(linkName("birmingham--oxford")).toBe("Birmingham–Oxford");
    expect(tileName("manufacturer", 8)).toBe("Manufacturer VIII");
  });
});

describe("a price in words", () => {
  it("the issue's example", () => {
    const q: Quote = {
      money: 14,
      received: 0,
      coal: [{ source: "tile", count: 1, location: "leek", slot: 1, owner: 0 }],
      iron: [],
      beer: [],
    };
    expect(quoteWords(q, 0)).toBe("£14 and 1 coal from their mine in Leek");
    expect(quoteLines(q, 0)).toEqual(["Money: £14", "1 coal from their mine in Leek"]);
  });

  it("market and merchant supplies, other players' tiles", () => {
    const q: Quote = {
      money: 10,
      received: 0,
      coal: [{ source: "market", count: 2, cost: 3 }],
      iron: [{ source: "tile", count: 1, location: "dudley", slot: 1, owner: 1 }],
      beer: [{ source: "merchant", count: 1, location: "oxford", slot: 0 }],
    };
    expect(quoteWords(q, 0)).toBe(
      "£10, 2 coal from the market for £3, 1 iron from Yellow's ironworks in Dudley and 1 beer from the Oxford merchant",
    );
    expect(quoteLines({ money: 0, received: 30, coal: [], iron: [], beer: [] }, 0)).toEqual(["Money: £0 · receive £30"]);
  });

  it("the first legal moves of a real game all have words", () => {
    for (const e of fixtures.start as unknown as LegalEntry[]) expect(quoteWords(e.quote, 0)).not.toBe("");
  });
});
